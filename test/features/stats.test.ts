/**
 * `stats` on a home built by the real pipeline (`ocm-run demo`, then a forced
 * reflection): every figure is checked against the files and state it comes
 * from, LLM usage as the LLM client records it, search times from real
 * searches, and the CSV / JSON exports.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { readState, writeState } from '../../lib/platform/state.js';
import { recordUsage } from '../../lib/llm/usage.js';
import { estimateCost } from '../../lib/llm/pricing.js';
import { dateFromFileName, listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import fg from 'fast-glob';

let dir = '';
let home = '';
let cleanup: () => Promise<void> = async () => undefined;

before(async () => {
  ({ dir, cleanup } = await tempDir('ocm-stats-'));
  home = join(dir, 'home');
  const demo = await runCli(['demo', '--home', home], { env: { HOME: dir } });
  assert.equal(demo.code, 0, demo.stderr);
  await runCli(['reflect', '--force', '--home', home], { env: { HOME: dir, OPENCLAW_STATE_DIR: join(dir, 'none') } });
});

after(() => cleanup());

test('stats figures match the day files, the state and active_memory.md', async () => {
  const r = await runCli(['stats', '--json', '--home', home], { env: { HOME: dir } });
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout);

  // Count the observations ourselves, file by file.
  let hot = 0;
  let warm = 0;
  const priorities: Record<string, number> = {};
  const perDay: Record<string, number> = {};
  for (const [tier, pattern] of [
    ['hot', 'memory/**/*.md'],
    ['warm', 'archive/**/*.md'],
  ] as const) {
    for (const file of await fg(pattern, { cwd: home, absolute: true })) {
      if (!/\d{4}-\d{2}-\d{2}\.md$/.test(file)) continue;
      const list = listObservations(parseDayFile(await readFile(file, 'utf8')), { date: dateFromFileName(file)!, tier });
      if (tier === 'hot') hot += list.length;
      else warm += list.length;
      for (const o of list) {
        priorities[o.priority] = (priorities[o.priority] ?? 0) + 1;
        perDay[o.date] = (perDay[o.date] ?? 0) + 1;
      }
    }
  }
  assert.ok(hot + warm > 10, 'the demo wrote observations');
  assert.equal(s.tiers.hot.observations, hot);
  assert.equal(s.tiers.warm.observations, warm);
  assert.equal(s.observations.total, hot + warm);
  for (const p of ['high', 'medium', 'low']) assert.equal(s.observations.byPriority[p], priorities[p] ?? 0);
  assert.deepEqual(Object.fromEntries(s.observations.perDay.map((d: { date: string; count: number }) => [d.date, d.count])), perDay);
  assert.equal(
    Object.values(s.observations.byCategory as Record<string, number>).reduce((a, b) => a + b, 0),
    hot + warm,
  );

  const { state } = await readState(join(home, '.ocm', 'state.json'));
  assert.equal(s.tokens.transcriptRead, state.totals.transcriptTokens);
  const header = /·\s*(\d+)\s*\/\s*\d+\s*tokens/.exec(await readFile(join(home, 'active_memory.md'), 'utf8'))!;
  assert.equal(s.tokens.activeMemory.main, Number(header[1]));
  assert.equal(s.tokens.efficiency, Math.round((state.totals.transcriptTokens / Number(header[1])) * 100) / 100);
  assert.ok(s.tiers.warm.bytes + s.tiers.hot.bytes > 0);

  if (s.reflections.count > 0) {
    assert.ok(s.reflections.averageCompressionRatio > 0);
    assert.equal(s.tiers.reflections.files >= s.reflections.count, true);
  }

  const human = await runCli(['stats', '--home', home], { env: { HOME: dir } });
  assert.match(human.stdout, /^Storage$/m);
  assert.match(human.stdout, new RegExp(`Observations: ${hot + warm} `));
  assert.match(human.stdout, /priority: 🔴 high \d+/);
  assert.match(human.stdout, /LLM usage: none/);
});

test('stats shows LLM usage and cost as recorded, and average search time from real searches', async () => {
  const statePath = join(home, '.ocm', 'state.json');
  const { state } = await readState(statePath);
  recordUsage(
    state,
    'observer',
    [{ model: 'openai/gpt-4o-mini', inputTokens: 12000, outputTokens: 800, calls: 6 }],
    new Date('2026-04-10T10:00:00Z'),
    '2026-04-10',
  );
  recordUsage(
    state,
    'reflector',
    [{ model: 'openai/gpt-4o-mini', inputTokens: 3000, outputTokens: 500, calls: 1 }],
    new Date('2026-04-10T11:00:00Z'),
    '2026-04-10',
  );
  await writeState(statePath, state);
  for (const q of ['typescript', 'redis cache', 'typescript']) assert.equal((await runCli(['search', q, '--home', home])).code, 0);

  const s = JSON.parse((await runCli(['stats', '--json', '--home', home])).stdout);
  assert.equal(s.llm.total.calls, 7);
  assert.equal(s.llm.total.inputTokens, 15000);
  const expected = estimateCost('openai', 'gpt-4o-mini', 12000, 800)! + estimateCost('openai', 'gpt-4o-mini', 3000, 500)!;
  assert.ok(Math.abs(s.llm.total.costUsd - expected) < 1e-6, `${s.llm.total.costUsd} vs ${expected}`);
  assert.deepEqual(s.llm.rows.map((r: { role: string }) => r.role).sort(), ['observer', 'reflector']);
  assert.equal(s.search.queries, 3);
  assert.ok(s.search.averageMs > 0);
  assert.ok(s.search.p95Ms >= s.search.averageMs * 0.5);

  const detailed = await runCli(['stats', '--detailed', '--home', home]);
  assert.match(detailed.stdout, /observer +openai\/gpt-4o-mini: 6 calls/);
  assert.match(detailed.stdout, /2026-04-10: 7 calls/);
  assert.match(detailed.stdout, /Search: 3 searches · average [\d.]+ ms/);
});

test('stats --export writes CSV and JSON; other extensions are refused', async () => {
  const csv = join(dir, 'stats.csv');
  const json = join(dir, 'stats.json');
  assert.equal((await runCli(['stats', '--export', csv, '--home', home])).code, 0);
  assert.equal((await runCli(['stats', '--export', json, '--home', home])).code, 0);
  const rows = parse(await readFile(csv, 'utf8'), { columns: true }) as Array<{ section: string; key: string; value: string }>;
  const data = JSON.parse(await readFile(json, 'utf8'));
  const get = (section: string, key: string) => rows.find((r) => r.section === section && r.key === key)?.value;
  assert.equal(Number(get('observations', 'total')), data.observations.total);
  assert.equal(Number(get('storage', 'warm.bytes')), data.tiers.warm.bytes);
  assert.equal(Number(get('priority', 'high')), data.observations.byPriority.high);
  assert.equal(Number(get('llm', 'total.calls')), data.llm.total.calls);
  for (const d of data.observations.perDay) assert.equal(Number(get('per_day', d.date)), d.count);
  const bad = await runCli(['stats', '--export', join(dir, 'stats.xlsx'), '--home', home]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\.json or \.csv/);
});

test("collectStats with a cache (the dashboard's): the same figures as without it, a changed day file counted again, a removed one gone", async () => {
  const { collectStats } = await import('../../lib/features/stats.js');
  const { loadConfig } = await import('../../lib/config/config.js');
  const { homePaths } = await import('../../lib/platform/home.js');
  const { appendFile, copyFile, rm } = await import('node:fs/promises');
  const { tempDir } = await import('../helpers/cli.js');
  const copy = await tempDir('ocm-stats-cache-');
  try {
    await runCli(['demo', '--home', join(copy.dir, 'home')], { env: { HOME: copy.dir } });
    const paths = homePaths(join(copy.dir, 'home'));
    const { config } = await loadConfig({ file: paths.config, envFile: paths.env, env: {} });
    const now = new Date('2026-04-12T00:00:00Z');
    const figures = async (cache?: import('../../lib/features/stats.js').StatsCache) => {
      const s = await collectStats(paths, config, { now, cache });
      return { ...s, generatedAt: '' };
    };
    const cache: import('../../lib/features/stats.js').StatsCache = new Map();
    assert.deepEqual(await figures(cache), await figures(), 'first call: same figures');
    assert.ok(cache.size > 0, 'the day files are in the cache');
    assert.deepEqual(await figures(cache), await figures(), 'from the cache: same figures');

    const days = (await fg('memory/**/*.md', { cwd: paths.root, absolute: true })).filter((f) => dateFromFileName(f));
    const [first, second] = days;
    await appendFile(first!, '- 🔴 23:59 [fact] The backup bucket is ocm-backups-eu. ^o-00000000aa\n');
    const changed = await figures(cache);
    assert.deepEqual(changed, await figures(), 'a changed file is read again');
    await copyFile(second!, `${second}.bak`);
    await rm(second!);
    assert.deepEqual(await figures(cache), await figures(), 'a removed file is no longer counted');
    assert.ok(![...cache.keys()].includes(second!), 'and leaves the cache');
  } finally {
    await copy.cleanup();
  }
});

test('stats counts the cold tier: its day files in the vault, their observations in every total', async () => {
  const { dir: d, cleanup: done } = await tempDir('ocm-stats-cold-');
  try {
    const h = join(d, 'home');
    const vault = join(d, 'vault');
    assert.equal((await runCli(['demo', '--home', h], { env: { HOME: d } })).code, 0);
    assert.equal((await runCli(['config', 'set', 'tiers.vault_path', vault, '--home', h], { env: { HOME: d } })).code, 0);
    const before = JSON.parse((await runCli(['stats', '--json', '--home', h], { env: { HOME: d } })).stdout);
    const moved = await runCli(['archive', '--older-than', '1', '--to', 'cold', '--approve-all', '--home', h], {
      env: { HOME: d, OPENCLAW_STATE_DIR: join(d, 'none') },
    });
    assert.equal(moved.code, 0, moved.stderr);
    const s = JSON.parse((await runCli(['stats', '--json', '--home', h], { env: { HOME: d } })).stdout);
    let cold = 0;
    for (const file of await fg('OC-Memory/**/*.md', { cwd: vault, absolute: true })) {
      if (!/\d{4}-\d{2}-\d{2}\.md$/.test(file)) continue;
      cold += listObservations(parseDayFile(await readFile(file, 'utf8')), { date: dateFromFileName(file)!, tier: 'cold' }).length;
    }
    assert.ok(cold > 0, `the archive moved days to the vault: ${moved.stdout}`);
    assert.equal(s.tiers.cold.observations, cold);
    assert.equal(s.observations.total, before.observations.total, 'a move to cold loses nothing from the totals');
    assert.equal(s.vault, join(vault, 'OC-Memory'));
    const human = await runCli(['stats', '--home', h], { env: { HOME: d } });
    assert.match(human.stdout, new RegExp(`cold +\\d+ files .* ${cold} observations`));
  } finally {
    await done();
  }
});
