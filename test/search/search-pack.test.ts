/**
 * Packs: a tier's day-file segments merged into one segment file. Every test
 * compares a packed index with per-file segments of the same files (built
 * with packing off), through real files: the answers must be the same.
 * (Every observation has its own length, so no two score exactly the same:
 * equal scores are ordered by where documents sit in the index.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { getMemory } from '../../lib/search/get.js';
import { manifestPath, type TierManifest } from '../../lib/search/manifest.js';
import { LOOSE_SEGMENT_LIMIT } from '../../lib/search/pack.js';
import { homePaths, type HomePaths } from '../../lib/platform/home.js';
import { runCli } from '../helpers/cli.js';
import { tempHome, testConfig, writeDay, type Obs } from '../helpers/search-fixtures.js';

const config = testConfig();
const QUERIES = ['postgres migration', 'deploy', 'redis cache', 'hiking alice', 'invoice pdf', '데이터베이스', 'ticket', 'migr', 'standup'];

const TOPICS = [
  'Decided to keep PostgreSQL; the migration runs on Friday.',
  'Deployed the billing service to staging after the review.',
  'Redis cache misses doubled after the deploy.',
  'Went hiking with Alice near the lake.',
  'The invoice PDF export is broken for long names.',
  '데이터베이스를 PostgreSQL로 옮기기로 했다.',
  'Standup moved to ten because of the deploy window.',
  'Opened ticket-4242 for the flaky migration test.',
  'Migrated the cron jobs to the new scheduler.',
  'Alice prefers tea over coffee in the morning.',
];

const FILLER = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron'.split(' ');

/** `days` day files from 2026-01-01, each with a different mix of topics; every observation a different length. */
async function seedDays(paths: HomePaths, days: number, from = 1): Promise<Array<{ path: string; ids: string[] }>> {
  const out = [];
  for (let d = from; d < from + days; d++) {
    const date = `2026-01-${String(d).padStart(2, '0')}`;
    const obs: Obs[] = [];
    for (let i = 0; i < 2 + (d % 4); i++) {
      const filler = Array.from({ length: d * 6 + i }, (_, k) => FILLER[k % FILLER.length]).join(' ');
      obs.push({
        text: `${TOPICS[(d * 3 + i) % TOPICS.length]} (day ${d}, note ${i}) ${filler}`,
        priority: (['high', 'medium', 'low'] as const)[(d + i) % 3],
        category: i % 2 ? 'decision' : 'fact',
      });
    }
    out.push(await writeDay(paths, date, obs));
  }
  return out;
}

async function manifest(paths: HomePaths): Promise<TierManifest> {
  return JSON.parse(await readFile(manifestPath(paths.index, 'hot'), 'utf8')) as TierManifest;
}

async function indexFiles(paths: HomePaths): Promise<string[]> {
  return (await readdir(join(paths.index, 'hot'))).filter((n) => n.endsWith('.seg')).sort();
}

/** Every query's results (ids, scores, paths, lines), with and without filters. */
async function answers(paths: HomePaths) {
  const out = [];
  for (const query of QUERIES) {
    for (const filters of [{}, { since: '2026-01-10' }, { priorities: ['high' as const] }, { categories: ['decision'] }]) {
      const r = await searchMemory(paths, config, { query, filters, limit: 8, cache: false });
      out.push({ query, filters, results: r.results.map((x) => [x.id, x.score, x.path, x.startLine, x.text]) });
    }
  }
  return out;
}

/** The same answers, query by query (a failure shows one query's difference, not a diff of everything). */
function assertSameAnswers(actual: Awaited<ReturnType<typeof answers>>, expected: Awaited<ReturnType<typeof answers>>): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => {
    assert.deepEqual(a, expected[i], `${a.query} ${JSON.stringify(a.filters)}`);
  });
}

/** A copy of the home's memory with an index of per-file segments only (packing off). */
async function unpackedTwin(paths: HomePaths): Promise<HomePaths> {
  const twin = await tempHome();
  await cp(paths.memory, twin.memory, { recursive: true });
  await updateIndex(twin, config, { looseSegmentLimit: Infinity });
  assert.equal((await manifest(twin)).pack, undefined);
  return twin;
}

test('more loose segments than the limit are merged into one pack; answers are those of per-file segments', async () => {
  const paths = await tempHome();
  await seedDays(paths, LOOSE_SEGMENT_LIMIT);
  await updateIndex(paths, config);
  assert.equal((await manifest(paths)).pack, undefined, 'at the limit: no pack yet');
  assert.equal((await indexFiles(paths)).length, LOOSE_SEGMENT_LIMIT);

  await seedDays(paths, 3, LOOSE_SEGMENT_LIMIT + 1);
  await updateIndex(paths, config);
  const m = await manifest(paths);
  assert.ok(m.pack, 'packed');
  assert.deepEqual(await indexFiles(paths), [m.pack.segment], 'the per-file segments are gone');
  assert.ok(Object.values(m.files).every((e) => e.segment === m.pack!.segment));
  assert.equal(
    m.pack.docs,
    Object.values(m.files).reduce((n, e) => n + e.docs, 0),
  );

  const twin = await unpackedTwin(paths);
  assertSameAnswers(await answers(paths), await answers(twin));
  const again = await updateIndex(paths, config);
  assert.deepEqual([again.added, again.changed, again.removed], [0, 0, 0]);
  assert.deepEqual(await indexFiles(paths), [m.pack.segment], 'an unchanged tier is not merged again');
});

/** Index files (segments, packs, vectors) whose bytes contain `text`. */
async function indexFilesHolding(paths: HomePaths, text: string): Promise<string[]> {
  const out = [];
  for (const name of await readdir(join(paths.index, 'hot')))
    if ((await readFile(join(paths.index, 'hot', name))).includes(text)) out.push(name);
  return out;
}

test('a file of the pack edited or deleted by hand: merged again at once, the old text leaves the index', async () => {
  const paths = await tempHome();
  const days = await seedDays(paths, 16);
  await updateIndex(paths, config);
  const first = (await manifest(paths)).pack!.segment;
  assert.equal((await indexFilesHolding(paths, `${TOPICS[(5 * 3) % TOPICS.length]} (day 5, note 0)`)).length, 1);

  const edited = days[4]!;
  const old = `${TOPICS[(5 * 3) % TOPICS.length]} (day 5, note 0)`;
  const text = await readFile(edited.path, 'utf8');
  assert.ok(text.includes(old));
  await writeFile(edited.path, text.replace(old, 'Moved the cache to Memcached (day 5, note 0)'));
  await rm(days[9]!.path);
  const r = await updateIndex(paths, config);
  assert.deepEqual([r.changed, r.removed], [1, 1]);
  const m = await manifest(paths);
  assert.ok(m.pack && m.pack.segment !== first, 'a new pack');
  assert.deepEqual(await indexFiles(paths), [m.pack.segment], 'the old pack and the loose segment are gone');
  assert.equal(
    m.pack.docs,
    Object.values(m.files).reduce((n, e) => n + e.docs, 0),
    'no stale documents in it',
  );
  assert.deepEqual(await indexFilesHolding(paths, old), []);
  assert.deepEqual(await indexFilesHolding(paths, '(day 10, note'), []);

  assert.deepEqual(
    (await searchMemory(paths, config, { query: 'memcached', cache: false })).results.map((x) => x.id),
    [edited.ids[0]],
  );
  await assert.rejects(getMemory(paths, config, days[9]!.ids[0]!), /No observation/);
  const got = await getMemory(paths, config, edited.ids[0]!);
  assert.equal(got.kind === 'observation' && got.text.includes('Memcached'), true, 'get returns the current text');
  assertSameAnswers(await answers(paths), await answers(await unpackedTwin(paths)));

  // Every file gone: no pack left.
  for (const d of days) await rm(d.path, { force: true });
  await updateIndex(paths, config);
  assert.equal((await manifest(paths)).pack, undefined);
  assert.deepEqual(await indexFiles(paths), []);
});

test('files still being written (today, yesterday) stay out of the pack, so appending to them never re-merges', async () => {
  const paths = await tempHome();
  await seedDays(paths, 16);
  const today = await writeDay(paths, '2026-01-20', [{ text: 'First note of the day about the invoice PDF.' }]);
  const now = () => new Date('2026-01-20T15:00:00Z');
  await updateIndex(paths, config, { now });
  const m = await manifest(paths);
  assert.ok(m.pack);
  const todayKey = 'memory/2026-01-20.md';
  assert.notEqual(m.files[todayKey]!.segment, m.pack.segment, "today's file has its own segment");
  assert.equal(Object.values(m.files).filter((e) => e.segment === m.pack!.segment).length, 16);

  await writeDay(paths, '2026-01-20', [
    { text: 'First note of the day about the invoice PDF.' },
    { text: 'Second note: the invoice PDF is fixed.' },
  ]);
  const r = await updateIndex(paths, config, { now });
  assert.equal(r.changed, 1);
  const after = await manifest(paths);
  assert.equal(after.pack?.segment, m.pack.segment, 'the pack is untouched');
  assert.equal((await indexFiles(paths)).length, 2);
  const hits = await searchMemory(paths, config, { query: 'invoice fixed', limit: 1, cache: false });
  assert.notEqual(hits.results[0]!.id, today.ids[0]);
  assert.equal(hits.results[0]!.path, todayKey);
  assertSameAnswers(await answers(paths), await answers(await unpackedTwin(paths)));
});

test('a large pack: its postings are read from disk per query term; answers are those of per-file segments', async () => {
  const paths = await tempHome();
  for (let d = 1; d <= 14; d++) {
    const date = `2026-02-${String(d).padStart(2, '0')}`;
    const obs: Obs[] = [];
    for (let i = 0; i < 220; i++) {
      const filler = Array.from({ length: (d * 220 + i) % 37 }, (_, k) => FILLER[(k + i) % FILLER.length]).join(' ');
      obs.push({
        text: `${TOPICS[(d + i) % TOPICS.length]} item-${d}-${i} ${filler}`,
        priority: (['high', 'medium', 'low'] as const)[i % 3],
        time: `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      });
    }
    await writeDay(paths, date, obs);
  }
  await updateIndex(paths, config);
  const m = await manifest(paths);
  assert.ok(m.pack);
  const { Segment } = await import('../../lib/search/segment.js');
  const file = join(paths.index, 'hot', m.pack.segment);
  const header = Segment.load(file).header;
  assert.ok(header.sections.postingDoc[1] + header.sections.postingTf[1] > 65536, 'postings large enough to stay on disk');
  const lazy = Segment.load(file, { lazyPostings: true });
  const eager = Segment.load(file);
  const i = eager.find(Buffer.from('migrat'));
  assert.ok(i >= 0);
  const [from, to] = [eager.postingStart[i]!, eager.postingStart[i + 1]!];
  assert.notDeepEqual(lazy.postingDoc.subarray(from, to), eager.postingDoc.subarray(from, to), 'not read before it is asked for');
  lazy.loadPostings([i]);
  assert.deepEqual(lazy.postingDoc.subarray(from, to), eager.postingDoc.subarray(from, to));
  assert.deepEqual(lazy.postingTf.subarray(from, to), eager.postingTf.subarray(from, to));

  const twin = await tempHome();
  await cp(paths.memory, twin.memory, { recursive: true });
  await updateIndex(twin, config, { looseSegmentLimit: Infinity });
  for (const query of ['postgres migration', 'item-7-12', 'hiking', 'deplo', '데이터베이스를', 'alpha invoice']) {
    for (const filters of [{}, { since: '2026-02-10' }, { priorities: ['low' as const] }]) {
      const got = await searchMemory(paths, config, { query, filters, limit: 10, cache: false });
      const want = await searchMemory(twin, config, { query, filters, limit: 10, cache: false });
      assert.deepEqual(
        got.results.map((x) => [x.id, x.score]),
        want.results.map((x) => [x.id, x.score]),
        `${query} ${JSON.stringify(filters)}`,
      );
    }
  }
});

test('a corrupt pack: search and get rebuild the index instead of failing; --rebuild makes a new pack', async () => {
  const paths = await tempHome();
  const days = await seedDays(paths, 16);
  await updateIndex(paths, config);
  const expected = await answers(paths);
  const pack = join(paths.index, 'hot', (await manifest(paths)).pack!.segment);

  await truncate(pack, 100);
  const viaSearch = await searchMemory(paths, config, { query: 'postgres migration', limit: 8, cache: false });
  assert.match(viaSearch.warnings.join(' '), /Rebuilt the search index/);
  assertSameAnswers(await answers(paths), expected);

  await writeFile(join(paths.index, 'hot', (await manifest(paths)).pack!.segment), 'garbage, not a pack');
  const got = await getMemory(paths, config, days[2]!.ids[1]!);
  assert.equal(got.kind, 'observation');
  assertSameAnswers(await answers(paths), expected);

  const rebuilt = await updateIndex(paths, config, { rebuild: true });
  assert.equal(rebuilt.changed, 16);
  assert.equal((await indexFiles(paths)).length, 1);
  assertSameAnswers(await answers(paths), expected);
});

test('CLI: index packs a home of many day files; a damaged pack never breaks `ocm-run search`', async () => {
  const paths = await tempHome();
  const days = await seedDays(paths, 20);
  const home = ['--home', paths.root];
  const idx = await runCli(['index', '--json', ...home]);
  assert.equal(idx.code, 0, idx.stderr);
  assert.equal(JSON.parse(idx.stdout).files, 20);
  const m = await manifest(homePaths(paths.root));
  assert.ok(m.pack);

  const search = async () => {
    const r = await runCli(['search', 'hiking alice', '--json', '--no-cache', '--limit', '5', ...home]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as { results: Array<{ id: string; path: string }>; warnings: string[] };
  };
  const before = await search();
  assert.equal(before.results.length, 5);
  assert.ok(before.results.every((x) => days.some((d) => d.ids.includes(x.id) && d.path.endsWith(x.path))));

  await writeFile(join(paths.index, 'hot', m.pack.segment), Buffer.alloc(4096, 7));
  const after = await search();
  assert.deepEqual(after.results, before.results);
  assert.match(after.warnings.join(' '), /Rebuilt the search index/);
});
