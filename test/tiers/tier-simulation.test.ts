import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { idsByTier, newHome, spread, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { parseDayFile, listObservations } from '../../lib/memory/day-file/index.js';
import { ageInDays } from '../../lib/tiers/age.js';
import { listAllTierFiles } from '../../lib/tiers/locations.js';
import { approveProposals, runTierJob } from '../../lib/tiers/tier-job.js';
import { readApprovals } from '../../lib/tiers/approvals.js';
import { readAudit } from '../../lib/tiers/audit.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const TODAY = '2026-06-15';

test('400-day simulation: after tier + approvals every tier holds exactly its age range and every id exists once', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  const config = testConfig({ tiers: { vault_path: vault } });
  const hot = spread(1000, 0, 89, TODAY, 0, ['main', 'main', 'work']);
  const warm = spread(500, 90, 364, TODAY, 1000, ['main', 'work']);
  const cold = spread(300, 365, 399, TODAY, 1500, ['main', 'main', 'work']);
  // Everything starts in the hot tier, as if the job had never run.
  await writeHot(paths, [...hot, ...warm, ...cold]);
  const expected = { hot: new Set(hot.map((o) => o.id)), warm: new Set(warm.map((o) => o.id)), cold: new Set(cold.map((o) => o.id)) };
  assert.equal(expected.hot.size + expected.warm.size + expected.cold.size, 1800, 'generated ids are unique');

  const logger = createMemoryLogger();
  const options = { paths, config, logger, now: () => NOW };
  const run = await runTierJob(options);
  assert.equal(run.ops.length, 1, 'one hot → warm op');
  assert.equal(run.ops[0]!.observations, 800);
  const approvals = await readApprovals(paths.approvals);
  assert.ok(approvals.pending.length > 0);
  assert.ok(approvals.pending.every((p) => p.from === 'warm' && p.to === 'cold'));
  assert.equal(
    approvals.pending.reduce((n, p) => n + p.observations, 0),
    300,
  );

  // Before approval, the old days wait in warm.
  let ids = await idsByTier(paths, vault);
  assert.equal(ids.hot.length, 1000);
  assert.equal(ids.warm.length, 800);
  assert.equal(ids.cold.length, 0);

  const approved = await approveProposals(options, ['all']);
  assert.equal(approved.approved.length, approvals.pending.length);
  assert.equal((await readApprovals(paths.approvals)).pending.length, 0);

  ids = await idsByTier(paths, vault);
  for (const tier of ['hot', 'warm', 'cold'] as const) {
    assert.equal(ids[tier].length, expected[tier].size, `${tier} count`);
    assert.deepEqual(new Set(ids[tier]), expected[tier], `${tier} holds exactly its observations`);
  }
  const all = [...ids.hot, ...ids.warm, ...ids.cold];
  assert.equal(new Set(all).size, all.length, 'no id twice across tiers');

  // Every file sits in the tier of its age.
  for (const f of await listAllTierFiles(paths, vault)) {
    const age = ageInDays(f.date, TODAY);
    if (f.tier === 'hot') assert.ok(age < 90, `${f.path} is ${age} days old`);
    if (f.tier === 'warm') assert.ok(age >= 90 && age < 365, `${f.path} is ${age} days old`);
    if (f.tier === 'cold') assert.ok(age >= 365, `${f.path} is ${age} days old`);
    const day = parseDayFile(await readFile(f.path, 'utf8'));
    assert.equal(day.frontmatter.data.tier, f.tier, `${f.path} says its tier`);
    assert.equal(day.frontmatter.error, undefined);
  }

  // A second run the same day moves nothing and proposes nothing.
  const again = await runTierJob(options);
  assert.equal(again.ops.length, 0);
  assert.equal(again.proposals.added.length, 0);

  // Provenance travelled with the observations.
  const coldFiles = (await listAllTierFiles(paths, vault)).filter((f) => f.tier === 'cold');
  const sample = listObservations(parseDayFile(await readFile(coldFiles[0]!.path, 'utf8')));
  assert.ok(sample.every((o) => o.provenance?.source === 'openclaw'));

  const audit = await readAudit(paths.audit);
  assert.deepEqual(
    audit.map((e) => e.action),
    ['move', 'propose', 'move', 'approve'],
  );
  assert.ok(!JSON.stringify(audit).includes('Observation number'), 'the audit log holds no observation text');
});
