/** The tier, archive and approvals commands as a user runs them, and the tier step of `run` (daily, then sync). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { hashTree, idsByTier, newHome, spread, writeHot } from '../helpers/tier-home.js';
import { readState } from '../../lib/platform/state.js';
import { readApprovals } from '../../lib/tiers/approvals.js';

const TODAY = new Date().toISOString().slice(0, 10);

test('archive --dry-run, tier, approvals list/approve/reject, --history and --rollback from the command line', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers: {vault_path: ${JSON.stringify(vault)}}\n`,
  );
  await writeFile(paths.activeMemory, '# Active memory\n');
  await writeHot(paths, [...spread(10, 0, 40, TODAY, 0), ...spread(10, 150, 250, TODAY, 100), ...spread(4, 380, 383, TODAY, 200)]);
  const home = ['--home', paths.root];

  // First use creates .env and the lock file; after that a dry run writes nothing at all.
  assert.equal((await runCli(['tier', '--dry-run', ...home])).code, 0);
  const before = await hashTree([paths.root]);
  const dry = await runCli(['archive', '--older-than', '100', '--to', 'warm', '--dry-run', ...home]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /Dry run .* nothing was changed/);
  assert.match(dry.stdout, /Would move\s+hot → warm\s+14 day files · 14 observations · .* · ~[\d,]+ tokens freed from hot/);
  assert.deepEqual(await hashTree([paths.root]), before, 'the dry run wrote nothing (not even a log or lock)');
  const bad = await runCli(['archive', '--older-than', 'soon', '--to', 'warm', ...home]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--older-than needs a whole number/);

  const tier = await runCli(['tier', '--json', ...home]);
  assert.equal(tier.code, 0, tier.stderr);
  const r = JSON.parse(tier.stdout) as { ops: Array<{ id: string; observations: number }>; proposals: { added: Array<{ id: string }> } };
  assert.equal(r.ops[0]!.observations, 14);
  assert.equal(r.proposals.added.length, 4);

  const list = await runCli(['approvals', ...home]);
  assert.match(list.stdout, /4 proposals wait for approval/);
  assert.match(list.stdout, /warm → cold .* 1 observation, .* older than 365 days/);
  assert.match(list.stdout, /Observation number 20\d about project/, 'contents are summarised');
  const [p1, p2] = (await readApprovals(paths.approvals)).pending;
  const approve = await runCli(['approvals', 'approve', p1!.id, ...home]);
  assert.equal(approve.code, 0, approve.stderr);
  assert.match(approve.stdout, /Moved warm → cold: .*\(op (op-[\w-]+);/);
  assert.match(approve.stdout, /Created the Obsidian vault/);
  const reject = await runCli(['approvals', 'reject', p2!.id, ...home]);
  assert.equal(reject.code, 0);
  const unknown = await runCli(['approvals', 'approve', 'p-00000000', ...home]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No pending proposal p-00000000/);
  assert.match(unknown.stderr, /approvals list|ocm-run approvals/);
  assert.equal((await idsByTier(paths, vault)).cold.length, 1);

  const history = await runCli(['tier', '--history', ...home]);
  assert.match(history.stdout, /move\s+op-[\w-]+\s+hot → warm/);
  assert.match(history.stdout, /reject/);
  const coldOp = /\(op (op-[\w-]+);/.exec(approve.stdout)![1]!;
  const rollback = await runCli(['tier', '--rollback', coldOp, ...home]);
  assert.equal(rollback.code, 0, rollback.stderr);
  assert.match(rollback.stdout, /Rolled back .*restored byte for byte/);
  assert.equal((await idsByTier(paths, vault)).cold.length, 0);
  const status = await runCli(['status', ...home]);
  assert.match(status.stdout, /Tiers: 10 hot, \d+ warm, 0 cold day files/);
  assert.match(status.stdout, /move\(s\) wait for approval/);
});

test('run: the tier job once a day, then sync.after_tier; the second tick of the day does neither', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const calls = join(dir, 'calls.log');
  const script = join(dir, 'sync.cjs');
  await writeFile(script, `require('node:fs').appendFileSync(${JSON.stringify(calls)}, 'synced\\n');\n`);
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nsync:\n  command: ${JSON.stringify(`${process.execPath} ${script}`)}\n  after_tier: true\n`,
  );
  await writeFile(paths.activeMemory, '# Active memory\n');
  await writeHot(paths, spread(6, 95, 100, TODAY, 0));
  const first = await runCli(['run', '--json', '--home', paths.root]);
  assert.equal(first.code, 0, first.stderr);
  const tick = JSON.parse(first.stdout) as {
    tier: { ran: boolean; tier: { ops: unknown[] }; sync: { trigger: string; errors: unknown[] } };
  };
  assert.equal(tick.tier.ran, true);
  assert.equal(tick.tier.tier.ops.length, 1);
  assert.equal(tick.tier.sync.trigger, 'after_tier');
  assert.equal((await idsByTier(paths, '')).warm.length, 6);
  assert.equal(await readFile(calls, 'utf8'), 'synced\n');
  const lastTier = (await readState(paths.state)).state.jobs.tier?.lastSuccess;
  assert.ok(lastTier);
  const second = await runCli(['run', '--json', '--home', paths.root]);
  const tick2 = JSON.parse(second.stdout) as { tier: { ran: boolean; sync?: unknown } };
  assert.equal(tick2.tier.ran, false);
  assert.equal(tick2.tier.sync, undefined);
  assert.equal(await readFile(calls, 'utf8'), 'synced\n');
  assert.equal((await readState(paths.state)).state.jobs.tier?.lastSuccess, lastTier);
});
