/**
 * The calls the content commands make (lib/api/transfer.ts, sync.ts,
 * maintenance.ts, stats.ts), made as a library user makes them: by the
 * package's name, on temp homes with real day files, the real lock and real
 * age encryption. Each is checked by what it wrote and what the next call
 * finds; a refusal by its code and hint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';
import { tempDirUntilExit } from '../helpers/cli.js';
import { homePaths, type HomePaths } from '../../lib/platform/home.js';

type Entry = typeof import('../../lib/api/index.js');
const entry = async () => (await import('oc-memory')) as unknown as Entry;

function home(api: Entry, paths: HomePaths, env: NodeJS.ProcessEnv = {}) {
  return { paths, config: testConfig(), env, logger: api.NO_LOG, now: () => new Date('2026-03-04T10:00:00Z') };
}

test('exportMemory writes every observation (0600, audited); importMemory reads it into another home, once', async () => {
  const api = await entry();
  const from = await tempHome();
  const day = await writeDay(from, '2026-03-02', [
    { text: 'The staging database is db-stage-1 on port 5432.', category: 'fact' },
    { text: 'Deploys go out on Thursdays.', category: 'decision', priority: 'high' },
  ]);
  const out = join(await tempDirUntilExit('ocm-export-'), 'memory.json');
  const exported = await api.exportMemory(home(api, from), { format: 'json', tiers: ['hot', 'warm', 'cold'], output: out });
  assert.deepEqual([exported.observations, exported.output, exported.encrypted], [2, out, false]);
  assert.equal((await stat(out)).mode & 0o777, 0o600);
  assert.match(await readFile(from.audit, 'utf8'), /"action":"export"/);

  const to = await tempHome();
  const options = { source: out, agent: 'main' };
  assert.deepEqual(await api.importMemory(home(api, to), options), { read: 2, added: 2, present: 0, days: 1 });
  assert.deepEqual(await api.importMemory(home(api, to), options), { read: 2, added: 0, present: 2, days: 0 }, 'ids kept: nothing twice');
  const found = await (await api.openMemory(to.root, { config: testConfig() })).search({ query: 'staging database port', limit: 3 });
  assert.equal(found.results[0]?.id, day.ids[0]);

  await assert.rejects(
    api.importMemory(home(api, to), { source: join(tmpdir(), 'no-such-export.json'), agent: 'main' }),
    (error: Error) => {
      assert.ok(error instanceof api.OcmError);
      assert.equal(error.code, 'NOT_FOUND');
      assert.match(error.hint ?? '', /export --output FILE/);
      return true;
    },
  );
});

test('backupHome seals the home for the passphrase; restoreHome reads it into an empty home, byte for byte', async () => {
  const api = await entry();
  const from = await tempHome();
  const day = await writeDay(from, '2026-03-02', [{ text: 'The backup drill is on the first Monday.' }]);
  const env = { OCM_SYNC_PASSPHRASE: 'correct horse battery staple' };
  await assert.rejects(api.backupHome(home(api, from), { output: join(tmpdir(), 'never.tar.age') }), /needs a key/);
  await assert.rejects(api.backupHome(home(api, from, env), { output: join(from.root, 'inside.tar.age') }), /inside the home/);
  const file = join(await tempDirUntilExit('ocm-backup-'), 'home.tar.age');
  const backup = await api.backupHome(home(api, from, env), { output: file });
  assert.deepEqual(backup.sealedFor, { kind: 'passphrase' }, 'the passphrase itself is never returned');
  assert.ok(backup.files >= 1);
  assert.match((await readFile(file)).subarray(0, 22).toString('latin1'), /^age-encryption\.org\/v1/);

  const to = (await tempHome()).root;
  const restored = await api.restoreHome(homePaths(to), env, { file });
  assert.equal(restored.files, backup.files);
  assert.equal(await readFile(join(to, 'memory', '2026-03-02.md'), 'utf8'), await readFile(day.path, 'utf8'));
});

test('newSyncKey writes an age key file 0600; reflectMemory and searchOnce refuse an agent the home does not know', async () => {
  const api = await entry();
  const paths = await tempHome();
  await writeDay(paths, '2026-03-02', [{ text: 'The nightly job runs at 02:00.' }]);
  const keyFile = join(await tempDirUntilExit('ocm-key-'), 'sync.key');
  const key = await api.newSyncKey(keyFile, new Date());
  assert.match(key.recipient, /^age1/);
  assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
  assert.match(await readFile(keyFile, 'utf8'), new RegExp(key.recipient));

  for (const call of [
    () => api.reflectMemory(home(api, paths), { force: true, agent: 'mian' }),
    () => api.searchOnce(home(api, paths), { query: 'nightly', filters: { agents: ['mian'] } }),
  ])
    await assert.rejects(call(), (error: Error) => {
      assert.ok(error instanceof api.OcmError);
      assert.equal(error.code, 'BAD_INPUT');
      assert.match(error.message, /Unknown agent "mian" \(--agent\)\. Did you mean "main"\?/);
      return true;
    });
  const stats = await api.memoryStats(home(api, paths));
  assert.equal(stats.tiers.hot.observations, 1);
});
