/**
 * The calls the operations commands make (lib/api/config.ts, jobs.ts,
 * setup.ts, integrations.ts), made as a library user makes them: by the
 * package's name, on a temp home with a real OpenClaw session file, the real
 * observe job and config file. Each is checked by what it wrote and what the
 * next call finds; a refusal by its code and hint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempHome } from '../helpers/search-fixtures.js';
import { tempDirUntilExit } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

type Entry = typeof import('../../lib/api/index.js');
const entry = async () => (await import('oc-memory')) as unknown as Entry;

/** A home whose config.yaml points at one OpenClaw session of 12 turns, and the environment it is read with. */
async function homeWithSession() {
  const paths = await tempHome();
  const stateDir = join(await tempDirUntilExit('ocm-openclaw-'), 'openclaw');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const id = '00000002-0000-4000-8000-0000000000bb';
  const writer = new PiSessionWriter(id, new Date('2026-03-01T09:00:00Z'));
  await writeFile(join(sessions, `${id}.jsonl`), writer.header() + generateConversation(writer, 12, 7));
  await mkdir(paths.root, { recursive: true });
  await writeFile(paths.config, `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
  const env: NodeJS.ProcessEnv = { HOME: await tempDirUntilExit('ocm-user-'), OCM_LOCAL_EMBEDDINGS: 'off' };
  return { paths, env, stateDir };
}

test('config: readConfig, setConfig keeping the file, configValue with secrets hidden; a bad value refused with a hint', async () => {
  const api = await entry();
  const { paths, env } = await homeWithSession();
  const location = { file: paths.config, envFile: paths.env, env };
  await api.setConfig({ ...location, key: 'active_memory.budget_tokens', text: '3000' });
  const { config } = await api.readConfig(location);
  assert.equal(config.active_memory.budget_tokens, 3000);
  assert.match(await readFile(paths.config, 'utf8'), /^timezone: UTC$/m, 'the rest of the file is kept');
  assert.deepEqual(await api.configValue(config, { key: 'active_memory.budget_tokens', showSecrets: false }), {
    value: 3000,
    text: '3000',
  });
  await assert.rejects(api.setConfig({ ...location, key: 'active_memory.budget_tokens', text: 'lots' }), (error: Error) => {
    assert.ok(error instanceof api.OcmError, String(error));
    assert.ok(error.hint, 'the refusal says what to do');
    return true;
  });
  assert.equal((await api.readConfig(location)).config.active_memory.budget_tokens, 3000, 'a refused value changes nothing');
});

test('observe writes observations from the session and asks exit 0; a second observe and a tick find nothing new', async () => {
  const api = await entry();
  const { paths, env } = await homeWithSession();
  const { config } = await api.readConfig({ file: paths.config, envFile: paths.env, env });
  const logger = { log: () => undefined, flush: async () => undefined };
  const first = await api.observe({ paths, config, env, logger, flush: false });
  assert.equal(first.exitCode, 0);
  assert.equal(first.result.observe.streams, 1);
  assert.ok(first.result.observe.messages >= 12, `messages read: ${first.result.observe.messages}`);
  assert.ok(first.result.observe.observations > 0, 'observations written');
  assert.deepEqual(
    first.result.activeMemory.map((a) => a.agent),
    ['main'],
  );
  const again = await api.observe({ paths, config, env, logger, flush: false });
  assert.deepEqual([again.exitCode, again.result.observe.messages], [0, 0], 'the cursor kept its place');
  const tick = await api.tick({ paths, config, env, logger });
  assert.deepEqual([tick.exitCode, tick.result.observe?.messages ?? 0], [0, 0]);
});

test('discoverSources finds the session the config names; openClawStatus on a machine without OpenClaw says so', async () => {
  const api = await entry();
  const { paths, env, stateDir } = await homeWithSession();
  const { config } = await api.readConfig({ file: paths.config, envFile: paths.env, env });
  const reports = await api.discoverSources({ config, env, statePath: paths.state });
  const openclaw = reports.find((r) => r.found && r.path.startsWith(stateDir));
  assert.ok(openclaw, `found: ${reports.map((r) => `${r.name} ${r.path} ${r.found}`).join('; ')}`);
  assert.equal(openclaw.enabled, true);
  assert.equal(openclaw.sessions, 1);

  const report = await api.openClawStatus({ paths, env: { ...env, PATH: '', OPENCLAW_STATE_DIR: join(stateDir, 'none') } });
  assert.equal(report.presence.installed, false);
  assert.equal(report.status.location.configExists, false);
  assert.equal(report.version, undefined);
});
