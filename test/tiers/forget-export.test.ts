import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { embeddingServer, filesContaining, secretHome } from '../helpers/forget-home.js';
import { idsByTier, makeObservation, newHome, spread, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { appendObservations, createDayFile, formatDayFile, parseDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, type HomePaths } from '../../lib/platform/home.js';
import { addDays } from '../../lib/tiers/age.js';
import { readAudit } from '../../lib/tiers/audit.js';
import { tierFilePath } from '../../lib/tiers/locations.js';
import { runTierJob } from '../../lib/tiers/tier-job.js';
import { collectExport, formatExport, parseExport, type ExportRecord } from '../../lib/tiers/export.js';
import type { Observation } from '../../lib/core/types.js';

const TODAY = new Date().toISOString().slice(0, 10);

const servers: Array<{ close: () => Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.close();
});

test('forget --query removes the text from every file, the index and the vectors, and active memory; the audit keeps ids, not text', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const server = await embeddingServer();
  servers.push(server);
  const { paths, vault, secrets, needles, everywhere } = await secretHome(dir, server.url, TODAY);
  const before = await filesContaining(everywhere, needles);
  assert.ok(
    before.some((p) => p.includes('.ocm/ops/')),
    'a rollback copy holds it',
  );
  assert.ok(
    before.some((p) => p.endsWith('active_memory.md')),
    'active memory holds it',
  );
  assert.ok(
    before.some((p) => p.includes('.ocm/index')),
    'the index holds it',
  );
  assert.ok(
    before.some((p) => p.endsWith('.rows')),
    'the embedding cache holds its vector',
  );
  assert.ok(
    before.some((p) => p.includes(join('OC-Memory', '20'))),
    'a cold note holds it',
  );
  assert.ok(
    before.some((p) => p.endsWith('query-cache.json')),
    'the query cache holds it',
  );
  const countBefore = Object.values(await idsByTier(paths, vault)).flat().length;

  // Without --yes and without a terminal: refused, nothing changes.
  const refused = await runCli(['forget', '--query', 'wallaby way', '--home', paths.root]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--yes/);
  assert.deepEqual(await filesContaining(everywhere, needles), before);

  const dry = await runCli(['forget', '--query', 'wallaby way', '--dry-run', '--home', paths.root]);
  assert.match(dry.stdout, /Would forget 3 observation\(s\) in 3 day file\(s\): hot 1, warm 1, cold 1/);

  const done = await runCli(['forget', '--query', 'wallaby way', '--yes', '--home', paths.root]);
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, /Forgot 3 observation/);
  assert.deepEqual(await filesContaining(everywhere, needles), [], 'no file in the home or the vault holds the text or its vector');
  assert.equal(Object.values(await idsByTier(paths, vault)).flat().length, countBefore - 3, 'nothing else was forgotten');
  const search = await runCli(['search', 'Wallaby', '--tier', 'hot,warm,cold', '--json', '--home', paths.root]);
  const results = (JSON.parse(search.stdout) as { results: Array<{ id: string; snippet: string }> }).results;
  assert.ok(
    results.every((r) => !/wallaby/i.test(r.snippet) && !secrets.some((s) => s.id === r.id)),
    'search finds none of it',
  );
  const entry = (await readAudit(paths.audit)).find((e) => e.action === 'forget')!;
  assert.deepEqual(new Set(entry.ids as string[]), new Set(secrets.map((s) => s.id)));
  assert.equal((entry.counts as { observations: number }).observations, 3);
  assert.ok(!JSON.stringify(entry).toLowerCase().includes('wallaby'), 'the audit line holds neither the text nor the query');
  // The reflection kept its other line.
  assert.match(await readFile(join(paths.reflections, 'r1.md'), 'utf8'), /Other things happened/);
});

test('forget by id and --all; unknown ids are reported', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const obs = spread(6, 0, 2, TODAY, 0);
  await writeHot(paths, obs);
  const one = await runCli(['forget', obs[0]!.id, 'o-0000000000', '--yes', '--home', paths.root]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stderr, /Not found: o-0000000000/);
  assert.equal((await idsByTier(paths, '')).hot.length, 5);
  const all = await runCli(['forget', '--all', '--yes', '--json', '--home', paths.root]);
  assert.equal(all.code, 0, all.stderr);
  assert.equal((JSON.parse(all.stdout) as { observations: number }).observations, 5);
  assert.deepEqual(await readdir(paths.memory), [], 'days left empty are removed');
  const bad = await runCli(['forget', '--home', paths.root]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Say what to forget/);
});

function tricky(i: number, date: string, extra: Partial<Observation> = {}): Observation {
  return makeObservation(i, date, {
    text: `Quote "this", a comma, 한국어 데이터베이스를 and emoji 🎉 #${i % 2 ? 'alpha' : 'beta'}`,
    ...extra,
  });
}

async function writeRecords(paths: HomePaths, vault: string, records: ExportRecord[]): Promise<void> {
  const groups = new Map<string, ExportRecord[]>();
  for (const r of records) {
    const p = r.tier === 'cold' ? tierFilePath(paths, vault, 'cold', r.agent, r.date) : dayFilePath(paths, r.tier, r.agent, r.date);
    groups.set(p, [...(groups.get(p) ?? []), r]);
  }
  for (const [p, list] of groups) {
    const file = createDayFile({ date: list[0]!.date, agent: list[0]!.agent, tier: list[0]!.tier });
    appendObservations(
      file,
      list.map(({ tier: _t, path: _p, ...o }) => o),
    );
    await mkdir(join(p, '..'), { recursive: true });
    await writeFile(p, formatDayFile(file));
  }
}

test('export round-trips: JSON and CSV read back to the same records, and rebuilding a home from them exports the same again', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers: {vault_path: ` +
      `${JSON.stringify(vault)}, cold_requires_approval: false}\n`,
  );
  const config = testConfig({ tiers: { vault_path: vault, cold_requires_approval: false } });
  await writeHot(paths, [
    ...spread(10, 0, 5, TODAY, 0, ['main', 'ops']),
    tricky(500, addDays(TODAY, -2), { done: true, priority: 'low', tags: ['alpha', 'x/y'] }),
    tricky(501, addDays(TODAY, -150), {
      provenance: { source: 'claude-code', agent: 'main', session: 'sess with space', entryIds: ['a,b', 'c'] },
    }),
    tricky(502, addDays(TODAY, -500)),
    ...spread(5, 120, 130, TODAY, 100),
  ]);
  await runTierJob({ paths, config, logger: createMemoryLogger(), now: () => new Date() });
  const records = await collectExport(paths, config);
  assert.equal(records.length, 18);
  assert.deepEqual(new Set(records.map((r) => r.tier)), new Set(['hot', 'warm', 'cold']));

  const jsonFile = join(dir, 'out.json');
  const csvFile = join(dir, 'out.csv');
  const j = await runCli(['export', '--format', 'json', '--output', jsonFile, '--home', paths.root]);
  assert.equal(j.code, 0, j.stderr);
  const c = await runCli(['export', '--format', 'csv', '--output', csvFile, '--home', paths.root]);
  assert.equal(c.code, 0, c.stderr);
  const fromJson = parseExport(await readFile(jsonFile, 'utf8'), 'json');
  const fromCsv = parseExport(await readFile(csvFile, 'utf8'), 'csv');
  assert.deepEqual(fromJson, records);
  assert.deepEqual(fromCsv, records);
  const withProvenance = fromCsv.find((r) => r.provenance?.session === 'sess with space')!;
  assert.deepEqual(withProvenance.provenance!.entryIds, ['a,b', 'c']);
  const warmOnly = await runCli(['export', '--format', 'json', '--tier', 'warm', '--home', paths.root]);
  assert.ok(parseExport(warmOnly.stdout, 'json').every((r) => r.tier === 'warm'));

  // Rebuild another home from the export: it exports the same observations.
  const other = await newHome(join(dir, 'other'));
  const otherVault = join(dir, 'other', 'vault');
  await writeRecords(other, otherVault, fromCsv);
  const again = await collectExport(other, testConfig({ tiers: { vault_path: otherVault } }));
  const strip = (list: ExportRecord[]) => list.map(({ path: _p, ...r }) => r);
  assert.deepEqual(strip(again), strip(records));
  assert.equal(formatExport(again, 'csv', new Date(0)).split('\n').length, formatExport(records, 'csv', new Date(0)).split('\n').length);
  assert.ok(
    parseDayFile(await readFile(tierFilePath(other, otherVault, 'cold', 'main', addDays(TODAY, -500)), 'utf8')).frontmatter.error ===
      undefined,
  );
});
