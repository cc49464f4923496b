/**
 * setup's sync step offers encryption and sets it up: `setup --yes` with a key file (made when missing,
 * 0600) or the passphrase of the environment (saved to the home's .env), after which `ocm-run sync`
 * pushes ciphertext to a real bare remote; asked for encryption without a secret, setup writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { bareRemote, leakedInto } from '../helpers/encrypted-sync.js';
import { exists } from '../../lib/platform/home.js';

test('setup --yes encrypts sync by default, with a key file it makes or the passphrase it saves to .env', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-setup-sync-');
  t.after(cleanup);
  const env = {
    HOME: dir,
    XDG_STATE_HOME: join(dir, 'state'),
    OPENCLAW_STATE_DIR: join(dir, 'no-openclaw'),
    OCM_SYNC_PASSPHRASE: undefined,
  };
  const remote = await bareRemote(dir);
  const setup = (home: string, flags: string[], extraEnv: Record<string, string | undefined> = {}) =>
    runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home, '--sync', 'git', '--git-remote', remote, ...flags], {
      env: { ...env, ...extraEnv },
    });

  const key = join(dir, 'keys', 'sync.key');
  const withKey = await setup(join(dir, 'a'), ['--sync-key-file', key]);
  assert.equal(withKey.code, 0, withKey.stderr);
  const config = await readFile(join(dir, 'a', 'config.yaml'), 'utf8');
  assert.match(config, /^\s+encrypt: true/m);
  assert.match(config, new RegExp(`key_file: "?${key.replace(/[/.]/g, '\\$&')}"?`));
  assert.match(await readFile(key, 'utf8'), /^AGE-SECRET-KEY-1[0-9A-Z]+$/m);
  assert.equal((await stat(key)).mode & 0o777, 0o600);
  const sync = await runCli(['sync', '--home', join(dir, 'a')], { env });
  assert.equal(sync.code, 0, sync.stderr);
  assert.match(sync.stdout, /Encrypted sync: .*pushed/);
  assert.deepEqual(await leakedInto(remote, ['OC-Memory home', 'heuristic']).then((l) => l.filter((s) => s !== 'OC-Memory home')), []);

  const withPassphrase = await setup(join(dir, 'b'), [], { OCM_SYNC_PASSPHRASE: 'a long passphrase of words' });
  assert.equal(withPassphrase.code, 0, withPassphrase.stderr);
  assert.match(await readFile(join(dir, 'b', '.env'), 'utf8'), /^OCM_SYNC_PASSPHRASE="a long passphrase of words"$/m);
  assert.doesNotMatch(await readFile(join(dir, 'b', 'config.yaml'), 'utf8'), /a long passphrase/, 'never in config.yaml');
  assert.match(withPassphrase.stdout, /encrypted \(age\)/);

  const noSecret = await setup(join(dir, 'c'), []);
  assert.equal(noSecret.code, 1, noSecret.stderr);
  assert.match(noSecret.stderr, /Encrypted sync needs a secret/);
  assert.match(noSecret.stderr, /--sync-key-file FILE/);
  assert.equal(await exists(join(dir, 'c')), false, 'nothing written');

  const clear = await setup(join(dir, 'd'), ['--encrypt', 'no']);
  assert.equal(clear.code, 0, clear.stderr);
  assert.match(await readFile(join(dir, 'd', 'config.yaml'), 'utf8'), /^\s+encrypt: false/m);
});
