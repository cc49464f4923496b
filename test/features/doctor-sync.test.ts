/**
 * doctor on a home that syncs: in clear is a warning with the fix; encrypted with a usable key is ok;
 * encryption without a key, or with a key file others can read, fails. The built CLI as a child process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

async function syncCheck(home: string, userHome: string) {
  const r = await runCli(['doctor', '--json', '--offline', '--home', home], { env: { HOME: userHome } });
  const parsed = JSON.parse(r.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> };
  return parsed.checks.find((c) => c.id === 'sync.encrypt');
}

test('doctor warns when sync sends the memory in clear, and checks the key when it is encrypted', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  const config = (sync: string) =>
    writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nsync:\n${sync}`,
    );

  await config('  git: {enabled: false}\n');
  assert.equal(await syncCheck(home, dir), undefined, 'no sync, nothing to say');

  await config('  git: {enabled: true, remote: "git@example.org:me/memory.git"}\n');
  const clear = await syncCheck(home, dir);
  assert.equal(clear?.status, 'warn');
  assert.match(clear!.detail, /sends your memory in clear/);
  assert.match(clear!.fix!, /OCM_SYNC_PASSPHRASE=.*sync\.encrypt true/);

  await config('  encrypt: true\n  git: {enabled: true, remote: "git@example.org:me/memory.git"}\n');
  assert.equal((await syncCheck(home, dir))?.status, 'fail', 'no key');
  await writeFile(join(home, '.env'), 'OCM_SYNC_PASSPHRASE=a long passphrase\n', { mode: 0o600 });
  const good = await syncCheck(home, dir);
  assert.equal(good?.status, 'ok');
  assert.doesNotMatch(JSON.stringify(good), /a long passphrase/, 'the secret is never printed');

  const key = join(dir, 'sync.key');
  assert.equal((await runCli(['sync', '--new-key', key, '--home', home])).code, 0);
  await chmod(key, 0o644);
  await config(`  encrypt: true\n  key_file: ${JSON.stringify(key)}\n  git: {enabled: true, remote: "git@example.org:me/memory.git"}\n`);
  const loose = await syncCheck(home, dir);
  assert.equal(loose?.status, 'fail');
  assert.match(loose!.fix!, /chmod 600/);
});
