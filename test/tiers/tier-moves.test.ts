import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { hashTree, idsByTier, makeObservation, newHome, spread, testConfig, treeDiff, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, type HomePaths } from '../../lib/platform/home.js';
import { addDays } from '../../lib/tiers/age.js';
import { readAudit } from '../../lib/tiers/audit.js';
import { readApprovals } from '../../lib/tiers/approvals.js';
import {
  approveProposals,
  rejectProposals,
  rollbackTierOp,
  runArchive,
  runTierJob,
  type TierJobOptions,
} from '../../lib/tiers/tier-job.js';
import type { Config } from '../../lib/config/config-schema.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const TODAY = '2026-06-15';

async function setup(t: { after: (fn: () => Promise<void>) => void }, config: Record<string, unknown> = {}) {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  const cfg: Config = testConfig({ ...config, tiers: { vault_path: vault, ...((config.tiers as object) ?? {}) } });
  const options: TierJobOptions = { paths, config: cfg, logger: createMemoryLogger(), now: () => NOW };
  return { dir, paths, vault, options };
}

const everything = (paths: HomePaths, vault: string) => hashTree([paths.root, vault]);

test('a dry run changes nothing (whole home and vault hashed) and reports counts, size, dates and tokens freed', async (t) => {
  const { paths, vault, options } = await setup(t);
  await writeHot(paths, [...spread(30, 0, 89, TODAY, 0), ...spread(40, 90, 364, TODAY, 100), ...spread(10, 365, 380, TODAY, 200)]);
  await writeFile(paths.approvals, '{"version":1,"pending":[],"rejected":[]}\n');
  const before = await everything(paths, vault);
  const dry = await runTierJob({ ...options, dryRun: true });
  const archiveWarm = await runArchive({ ...options, olderThanDays: 10, to: 'warm', dryRun: true });
  const archiveCold = await runArchive({ ...options, olderThanDays: 100, to: 'cold', dryRun: true, approveAll: true });
  assert.deepEqual(treeDiff(await everything(paths, vault), before), [], 'not one byte changed');
  assert.equal(dry.ops.length, 0);
  const hot = dry.moved.find((s) => s.from === 'hot')!;
  assert.equal(hot.observations, 50);
  assert.equal(hot.files, 50);
  // spread() gives 10 observations at ages 365…374 and 40 at 90…129.
  assert.deepEqual(hot.dateRange, [addDays(TODAY, -374), addDays(TODAY, -90)]);
  assert.ok(hot.tokensFreedFromHot > 50 * 5, 'tokens freed are estimated from the texts');
  assert.ok(hot.bytes > 50 * 100);
  const cold = dry.proposed.find((s) => s.to === 'cold')!;
  assert.equal(cold.observations, 10, 'the dry run counts days that would reach warm and be due for cold');
  // Older than 10 days: 20 of the 30 young ones (ages 10…29) and all 50 older ones.
  assert.equal(archiveWarm.moved[0]!.observations, 70);
  // Older than 100 days: 30 of the 40 (ages 100…129) and the 10 oldest, all still in hot.
  assert.equal(
    archiveCold.moved.reduce((n, s) => n + s.observations, 0),
    40,
  );
  assert.ok(archiveCold.moved.every((s) => s.from === 'hot' && s.to === 'cold'));
});

test('rollback restores every file byte for byte (hot → warm and an approved warm → cold)', async (t) => {
  const { paths, vault, options } = await setup(t);
  await writeHot(paths, [
    ...spread(10, 0, 50, TODAY, 0),
    ...spread(20, 100, 300, TODAY, 100, ['main', 'ops']),
    ...spread(6, 370, 390, TODAY, 200),
  ]);
  const roots = [paths.memory, paths.archive, join(vault, 'OC-Memory')];
  const initial = await hashTree(roots);

  const run = await runTierJob(options);
  assert.equal(run.ops.length, 1);
  const afterTier = await hashTree(roots);
  assert.notDeepEqual(afterTier, initial);
  const approved = await approveProposals(options, ['all']);
  assert.equal(approved.ops.length, 1);
  assert.notDeepEqual(await hashTree(roots), afterTier);

  // Roll back the cold move: back to the state after the tier run.
  await rollbackTierOp(options, approved.ops[0]!.id);
  assert.deepEqual(
    treeDiff(await hashTree(roots), afterTier).filter((k) => !k.startsWith('2:')),
    [],
    'warm restored exactly',
  );
  assert.deepEqual(
    Object.keys(await hashTree([join(vault, 'OC-Memory')])).filter((k) => /\d{4}-\d{2}-\d{2}\.md$/.test(k)),
    [],
    'no cold notes left',
  );
  // Then the hot → warm move: back to the very beginning.
  await rollbackTierOp(options, run.ops[0]!.id);
  assert.deepEqual(
    treeDiff(
      Object.fromEntries(Object.entries(await hashTree(roots)).filter(([k]) => !k.startsWith('2:'))),
      Object.fromEntries(Object.entries(initial).filter(([k]) => !k.startsWith('2:'))),
    ),
    [],
    'hot and warm are byte-identical to before the first move',
  );
  await assert.rejects(rollbackTierOp(options, run.ops[0]!.id), /already rolled back/);
  const actions = (await readAudit(paths.audit)).map((e) => e.action);
  assert.deepEqual(actions, ['move', 'propose', 'move', 'approve', 'rollback', 'rollback']);
});

test('rollback refuses when a file changed after the move, and changes nothing', async (t) => {
  const { paths, options } = await setup(t);
  await writeHot(paths, spread(5, 100, 104, TODAY, 0));
  const run = await runTierJob(options);
  const warmFile = dayFilePath(paths, 'warm', 'main', addDays(TODAY, -100));
  await writeFile(warmFile, `${await readFile(warmFile, 'utf8')}\nA note the user added.\n`);
  const before = await hashTree([paths.memory, paths.archive]);
  await assert.rejects(rollbackTierOp(options, run.ops[0]!.id), /changed since op/);
  assert.deepEqual(await hashTree([paths.memory, paths.archive]), before);
});

test('per-priority retention splits a day file; pinned observations and pinned days never leave hot', async (t) => {
  const { paths, options } = await setup(t, { tiers: { ttl_by_priority: { low: 30 } } });
  const d45 = addDays(TODAY, -45);
  const d200 = addDays(TODAY, -200);
  const d150 = addDays(TODAY, -150);
  const high = makeObservation(1, d45, { priority: 'high' });
  const low = makeObservation(2, d45, { priority: 'low' });
  const low2 = makeObservation(3, d45, { priority: 'low', text: 'A low-priority detail with a nested note.' });
  const pinned = makeObservation(4, d200, { priority: 'low', tags: ['pin'] });
  const old = makeObservation(5, d200, { priority: 'high' });
  const pinnedDay = makeObservation(6, d150, { priority: 'medium' });
  await writeHot(paths, [high, low, low2, pinned, old, pinnedDay]);
  // A nested note under one observation, and a pinned day.
  const f45 = dayFilePath(paths, 'hot', 'main', d45);
  await writeFile(f45, (await readFile(f45, 'utf8')).replace(`^${low2.id}\n`, `^${low2.id}\n  - nested: keep me\n`));
  const f150 = dayFilePath(paths, 'hot', 'main', d150);
  await writeFile(f150, (await readFile(f150, 'utf8')).replace('tier: hot\n', 'tier: hot\npin: true\n'));

  const run = await runTierJob(options);
  assert.equal(run.moved[0]!.splits, 2);
  const ids = await idsByTier(paths, '');
  assert.deepEqual(new Set(ids.hot), new Set([high.id, pinned.id, pinnedDay.id]));
  assert.deepEqual(new Set(ids.warm), new Set([low.id, low2.id, old.id]));
  const hotDay = parseDayFile(await readFile(f45, 'utf8'));
  assert.equal(hotDay.frontmatter.data.observations, 1, 'the hot file is recounted');
  const warmText = await readFile(dayFilePath(paths, 'warm', 'main', d45), 'utf8');
  assert.match(warmText, /nested: keep me/, 'nested notes travel with their observation');
  const warmObs = listObservations(parseDayFile(warmText));
  assert.equal(warmObs.find((o) => o.id === low.id)?.provenance?.session, low.provenance!.session, 'provenance travels');

  // On day 90 the rest of that day follows into the same warm file.
  const later = { ...options, now: () => new Date(NOW.getTime() + 50 * 86_400_000) };
  await runTierJob(later);
  const ids2 = await idsByTier(paths, '');
  assert.ok(ids2.warm.includes(high.id));
  assert.ok(!ids2.hot.includes(high.id));
  const merged = parseDayFile(await readFile(dayFilePath(paths, 'warm', 'main', d45), 'utf8'));
  assert.equal(merged.frontmatter.data.observations, 3);
  assert.equal(merged.frontmatter.data.tier, 'warm');
  const all = [...ids2.hot, ...ids2.warm];
  assert.equal(new Set(all).size, all.length);
});

test('whole-day moves keep the notes a user wrote; a broken frontmatter moves as is but is never split', async (t) => {
  const { paths, options } = await setup(t, { tiers: { ttl_by_priority: { low: 30 } } });
  const d100 = addDays(TODAY, -100);
  const d50 = addDays(TODAY, -50);
  await writeHot(paths, [
    makeObservation(1, d100),
    makeObservation(2, d50, { priority: 'low' }),
    makeObservation(3, d50, { priority: 'high' }),
  ]);
  const f100 = dayFilePath(paths, 'hot', 'main', d100);
  await writeFile(f100, `${await readFile(f100, 'utf8')}\n## My notes\n\nCall the bank about the invoice.\n`);
  const f50 = dayFilePath(paths, 'hot', 'main', d50);
  const broken = (await readFile(f50, 'utf8')).replace('tier: hot', 'tier: [hot');
  await writeFile(f50, broken);
  const run = await runTierJob(options);
  assert.match(await readFile(dayFilePath(paths, 'warm', 'main', d100), 'utf8'), /## My notes\n\nCall the bank about the invoice\./);
  assert.equal(await readFile(f50, 'utf8'), broken, 'the broken file is left alone');
  assert.ok(run.skipped.some((s) => s.path === f50 && /broken frontmatter/.test(s.reason)));
});

test('a file changed under a move stops the op and undoes it from the kept copies', async (t) => {
  const { paths, options } = await setup(t);
  await writeHot(paths, spread(6, 100, 105, TODAY, 0));
  const before = await hashTree([paths.memory, paths.archive]);
  const victim = dayFilePath(paths, 'hot', 'main', addDays(TODAY, -104));
  let edited = false;
  const { writeFileSync } = await import('node:fs');
  // Someone edits a source after the destinations were written.
  const sync = (step: string) => {
    if (step === 'copied' && !edited) {
      edited = true;
      writeFileSync(victim, 'edited by hand\n');
    }
  };
  await assert.rejects(runTierJob({ ...options, onStep: sync as TierJobOptions['onStep'] }), /changed while op/);
  const after = await hashTree([paths.memory, paths.archive]);
  const diff = treeDiff(after, before);
  assert.equal(diff.length, 1, `only the hand-edited file differs: ${diff.join(', ')}`);
  assert.equal(await readFile(victim, 'utf8'), 'edited by hand\n');
  assert.ok((await readAudit(paths.audit)).some((e) => e.action === 'abort'));
});

test('approvals: reject keeps a day in warm and out of later proposals; archive --to cold proposes it again', async (t) => {
  const { paths, options } = await setup(t);
  await writeHot(paths, spread(4, 370, 373, TODAY, 0), 'warm');
  const run = await runTierJob(options);
  assert.equal(run.proposals.added.length, 4);
  const first = run.proposals.added[0]!;
  const rejected = await rejectProposals(options, [first.id]);
  assert.equal(rejected.length, 1);
  await assert.rejects(rejectProposals(options, ['p-00000000']), /No pending proposal/);
  const again = await runTierJob({ ...options, now: () => new Date(NOW.getTime() + 86_400_000) });
  assert.equal(again.proposals.added.length, 0);
  assert.equal((await readApprovals(paths.approvals)).pending.length, 3);
  const archived = await runArchive({ ...options, olderThanDays: 300, to: 'cold' });
  assert.equal(archived.proposals.added.length, 1);
  assert.equal(archived.proposals.added[0]!.id, first.id);
  const approved = await approveProposals(options, [first.id]);
  assert.equal(approved.approved.length, 1);
  const ids = await idsByTier(paths, options.config.tiers.vault_path);
  assert.equal(ids.cold.length, 1);
  assert.equal(ids.warm.length, 3);
  const audit = await readAudit(paths.audit);
  assert.deepEqual(
    audit.map((e) => e.action),
    ['propose', 'reject', 'propose', 'move', 'approve'],
  );
});

test('auto_hot_to_warm off: hot days are proposed and move on approval; archive --to cold --approve-all moves hot days straight to the vault', async (t) => {
  const { paths, vault, options } = await setup(t, { tiers: { auto_hot_to_warm: false } });
  await writeHot(paths, [...spread(3, 100, 102, TODAY, 0), ...spread(2, 500, 501, TODAY, 10)]);
  const run = await runTierJob(options);
  assert.equal(run.ops.length, 0);
  assert.equal(run.proposals.added.length, 5);
  assert.ok(run.proposals.added.every((p) => p.from === 'hot' && p.to === 'warm'));
  const hotToWarm = run.proposals.added.filter((p) => p.date === addDays(TODAY, -100));
  await approveProposals(
    options,
    hotToWarm.map((p) => p.id),
  );
  let ids = await idsByTier(paths, vault);
  assert.equal(ids.warm.length, 1);
  assert.equal(ids.hot.length, 4);
  const archived = await runArchive({ ...options, olderThanDays: 400, to: 'cold', approveAll: true });
  assert.equal(archived.ops.length, 1);
  assert.equal(archived.ops[0]!.kind, 'hot-to-cold');
  ids = await idsByTier(paths, vault);
  assert.equal(ids.cold.length, 2);
  assert.equal(ids.hot.length, 2);
  const pending = (await readApprovals(paths.approvals)).pending;
  assert.ok(!pending.some((p) => p.date === addDays(TODAY, -500)), 'proposals of days that moved are dropped');
  const note = parseDayFile(
    await readFile(join(vault, 'OC-Memory', addDays(TODAY, -500).slice(0, 4), `${addDays(TODAY, -500)}.md`), 'utf8'),
  );
  assert.equal(note.frontmatter.data.tier, 'cold');
});
