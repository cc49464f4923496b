/**
 * The configured sync command (e.g. rclone), run with execa: a failure is
 * queued, retried on later ticks after a growing pause, reported by status,
 * and never touches local data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { hashTree, makeObservation, newHome, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { readState } from '../../lib/platform/state.js';
import { expandSyncCommand } from '../../lib/jobs/sync/command.js';
import { readSyncState, retryDelayMs, runSync, syncStep } from '../../lib/jobs/sync/index.js';

/** A stand-in for rclone: fails while "offline" exists, records every call. */
const FAKE_SYNC = `
const fs = require('node:fs');
const [, , marker, log, ...rest] = process.argv;
fs.appendFileSync(log, JSON.stringify(rest) + '\\n');
if (fs.existsSync(marker)) { console.error('dial tcp: network is unreachable (token sk-abcdefabcdefabcdefabcdef1234)'); process.exit(3); }
console.log('Transferred: 3 files');
`;

test('a failing sync command is queued, retried with backoff, reported by status, and clears once it succeeds', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  const script = join(dir, 'fake-rclone.cjs');
  const marker = join(dir, 'offline');
  const calls = join(dir, 'calls.log');
  await writeFile(script, FAKE_SYNC);
  await writeFile(marker, '');
  await writeHot(paths, [makeObservation(1, '2026-06-15')]);
  const command = `${JSON.stringify(process.execPath).slice(1, -1)} ${script} ${marker} ${calls} sync {cold} remote:OC-Memory`;
  const config = testConfig({ tiers: { vault_path: vault }, sync: { command, after_tier: true } });
  let clock = new Date('2026-06-15T12:00:00Z');
  const options = { paths, config, logger: createMemoryLogger(), env: {}, now: () => clock };
  const before = await hashTree([paths.memory]);

  const failed = await runSync(options);
  assert.equal(failed.errors.length, 1);
  assert.match(failed.errors[0]!.message, /exit code 3/);
  assert.ok(!failed.errors[0]!.message.includes('sk-abcdef'), 'secrets in its output are masked');
  assert.equal(failed.queued?.attempts, 1);
  assert.deepEqual(await hashTree([paths.memory]), before, 'local data untouched');
  const argv = (await readFile(calls, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string[]);
  assert.deepEqual(argv[0], ['sync', join(vault, 'OC-Memory'), 'remote:OC-Memory'], '{cold} expanded, no shell');

  // Too early: no attempt. After the pause: a retry, still offline: the pause doubles.
  clock = new Date(clock.getTime() + 30_000);
  assert.equal(await syncStep(options, { afterTier: true }), undefined, 'a queued sync waits for its pause even after a tier run');
  clock = new Date(clock.getTime() + retryDelayMs(1));
  const retry = await syncStep(options, { afterTier: false });
  assert.equal(retry?.trigger, 'retry');
  assert.equal(retry?.queued?.attempts, 2);
  const pending = readSyncState((await readState(paths.state)).state).pending!;
  assert.equal(Date.parse(pending.nextAttemptAt) - clock.getTime(), retryDelayMs(2));

  // status reports the queue.
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nsync:\n  command: ${JSON.stringify(command)}\n`,
  );
  const status = await runCli(['status', '--json', '--home', paths.root]);
  assert.equal(status.code, 0, status.stderr);
  const s = JSON.parse(status.stdout) as { tiers: { sync: { configured: boolean; pending?: { attempts: number } } } };
  assert.equal(s.tiers.sync.configured, true);
  assert.equal(s.tiers.sync.pending?.attempts, 2);
  const human = await runCli(['status', '--home', paths.root]);
  assert.match(human.stdout, /queued since .*2 failed attempt\(s\)/, human.stderr);

  // Back online: the next due retry succeeds and clears the queue.
  await rm(marker);
  clock = new Date(clock.getTime() + retryDelayMs(2));
  const ok = await syncStep(options, { afterTier: false });
  assert.deepEqual(ok?.errors, []);
  assert.equal(ok?.command?.output, 'Transferred: 3 files');
  const state = readSyncState((await readState(paths.state)).state);
  assert.equal(state.pending, undefined);
  assert.equal(state.lastSuccess, clock.toISOString());
  // With nothing queued, a tick syncs only after a tier run (sync.after_tier).
  assert.equal(await syncStep(options, { afterTier: false }), undefined);
  assert.equal((await syncStep(options, { afterTier: true }))?.trigger, 'after_tier');
  assert.equal((await readFile(calls, 'utf8')).trim().split('\n').length, 4);
});

test('`ocm-run sync` reports a failed command, queues it and exits 1; with nothing configured it says what to set', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  await writeFile(paths.config, 'sources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const none = await runCli(['sync', '--home', paths.root]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /sync\.git\.enabled/);
  await writeFile(
    paths.config,
    'sources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nsync: {command: "definitely-not-a-command-ocm --now"}\n',
  );
  const r = await runCli(['sync', '--home', paths.root]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /sync command failed .*not found/);
  assert.match(r.stderr, /Queued: attempt 1/);
});

test('sync command placeholders: {home}, <vault>, escaped spaces; {vault} without a vault is a configuration error', () => {
  assert.deepEqual(
    expandSyncCommand('rclone sync <vault>/OC-Memory my\\ remote:x --log {home}/logs/rclone.log', { home: '/h', vault: '/v' }),
    ['rclone', 'sync', '/v/OC-Memory', 'my remote:x', '--log', '/h/logs/rclone.log'],
  );
  assert.throws(() => expandSyncCommand('rclone sync {vault} x', { home: '/h', vault: '' }), /no vault is configured/);
});
