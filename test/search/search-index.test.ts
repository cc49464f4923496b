import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { getMemory } from '../../lib/search/get.js';
import { manifestPath } from '../../lib/search/manifest.js';
import { filtersFromOptions } from '../../lib/search/filters.js';
import { OcmError } from '../../lib/core/errors.js';
import type { HomePaths } from '../../lib/platform/home.js';
import { dayText, tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';

// The text index itself: words in one language find that language (the bridge to the other is search-bridge.test.ts).
const config = testConfig({ search: { bridge_languages: false } });

async function ids(paths: HomePaths, query: string, extra: Parameters<typeof searchMemory>[2] extends infer R ? Partial<R> : never = {}) {
  const r = await searchMemory(paths, config, { query, cache: false, ...extra });
  return r.results.map((x) => x.id);
}

async function seed(paths: HomePaths) {
  const a = await writeDay(paths, '2026-02-10', [
    {
      text: 'User prefers TypeScript over JavaScript for backend services.',
      category: 'preference',
      priority: 'high',
      tags: ['typescript'],
    },
    {
      text: 'Decided to keep PostgreSQL as the main database; Redis for caching.',
      category: 'decision',
      priority: 'high',
      tags: ['postgres'],
    },
    // Later in the day, not in the conversation of the lines above (conversation context would raise them: README, "Ranking").
    { text: 'Set POSTGRES_URL in the staging environment.', category: 'task', priority: 'medium', time: '11:30' },
  ]);
  const b = await writeDay(paths, '2026-02-12', [
    { text: '데이터베이스를 PostgreSQL로 마이그레이션하기로 결정했다.', category: 'decision', priority: 'high' },
    { text: '인증은 JWT 토큰으로 처리한다.', category: 'fact', priority: 'low', tags: ['auth'] },
    { text: 'Fixed the flaky deploy script for ticket-4242.', category: 'task', priority: 'low', done: true },
  ]);
  const c = await writeDay(
    paths,
    '2026-02-12',
    [{ text: 'The work agent deployed the billing service to production.', category: 'event', priority: 'medium' }],
    { agent: 'work' },
  );
  const w = await writeDay(
    paths,
    '2025-06-01',
    [{ text: 'Old decision: MySQL was the database before PostgreSQL.', category: 'decision', priority: 'medium' }],
    { tier: 'warm' },
  );
  return { a, b, c, w };
}

test('index then search: English stemming, Korean particles, identifiers, DESIGN §7 fields', async () => {
  const paths = await tempHome();
  const { a, b, w } = await seed(paths);
  const r = await updateIndex(paths, config);
  assert.equal(r.added, 4);
  assert.equal(r.documents, 8);
  assert.equal(r.mode, 'text');

  const res = await searchMemory(paths, config, { query: 'databases', cache: false });
  assert.equal(res.mode, 'text');
  assert.deepEqual(new Set(res.results.map((x) => x.id)), new Set([a.ids[1], w.ids[0]]));
  const top = res.results.find((x) => x.id === a.ids[1])!;
  assert.equal(top.path, 'memory/2026-02-10.md');
  assert.equal(top.date, '2026-02-10');
  assert.equal(top.priority, 'high');
  assert.equal(top.category, 'decision');
  assert.equal(top.tier, 'hot');
  assert.deepEqual(top.provenance, { source: 'openclaw', agent: 'main', session: 'sess-1', entryIds: ['e1aaaaaa'] });
  const lines = (await readFile(join(paths.root, top.path), 'utf8')).split('\n');
  assert.ok(lines[top.startLine - 1]!.includes(a.ids[1]!), 'startLine points at the observation line');

  assert.deepEqual(await ids(paths, '데이터베이스'), [b.ids[0]]);
  assert.deepEqual(await ids(paths, '인증'), [b.ids[1]]);
  // The identifier as written ranks first; its parts (postgres…) still reach related lines below it.
  const ident = await searchMemory(paths, config, { query: 'POSTGRES_URL', cache: false });
  assert.equal(ident.results[0]!.id, a.ids[2]);
  assert.ok(ident.results[0]!.score > 2 * (ident.results[1]?.score ?? 0));
  assert.equal((await ids(paths, 'ticket-4242'))[0], b.ids[2]);
  assert.ok((await ids(paths, 'deploying')).includes(b.ids[2]!));
  assert.deepEqual(await ids(paths, 'nothing-like-this-exists'), []);
});

test('filters: dates, priority, category, tier, agent, tag, limit', async () => {
  const paths = await tempHome();
  const { a, b, c, w } = await seed(paths);
  await updateIndex(paths, config);
  const q = (filters: Record<string, unknown>, query = 'postgresql database deploy jwt typescript') =>
    ids(paths, query, { filters: filtersFromOptions(filters, new Date('2026-02-13T12:00:00Z'), 'UTC'), limit: 20 });
  assert.deepEqual(new Set(await q({ since: '2026-02-11' })), new Set([b.ids[0], b.ids[1], b.ids[2], c.ids[0]]));
  assert.deepEqual(new Set(await q({ until: '2026-02-10', tier: 'hot' })), new Set([a.ids[0], a.ids[1]]));
  assert.deepEqual(new Set(await q({ since: '2d' })), new Set([b.ids[0], b.ids[1], b.ids[2], c.ids[0]]));
  assert.deepEqual(new Set(await q({ priority: 'high' })), new Set([a.ids[0], a.ids[1], b.ids[0]]));
  assert.deepEqual(new Set(await q({ priority: 'low,medium', category: 'task' })), new Set([b.ids[2]]));
  assert.deepEqual(await q({ tier: 'warm' }), [w.ids[0]]);
  assert.deepEqual(await q({ agent: 'work' }), [c.ids[0]]);
  assert.deepEqual(await q({ tag: '#auth' }), [b.ids[1]]);
  assert.deepEqual(await q({ tag: 'auth,postgres' }), []);
  assert.equal((await ids(paths, 'postgresql database deploy jwt typescript', { limit: 2 })).length, 2);
  assert.throws(
    () => filtersFromOptions({ since: 'last tuesday' }, new Date(), 'UTC'),
    (e: unknown) => e instanceof OcmError && e.code === 'BAD_INPUT',
  );
  assert.throws(() => filtersFromOptions({ priority: 'urgent' }, new Date(), 'UTC'), OcmError);
});

test('ties are broken by priority, then recency', async () => {
  const paths = await tempHome();
  const old = await writeDay(paths, '2026-01-01', [{ text: 'Standup moved to ten.', priority: 'high' }]);
  const recent = await writeDay(paths, '2026-01-05', [{ text: 'Standup moved to ten.', priority: 'low' }]);
  const newest = await writeDay(paths, '2026-01-09', [{ text: 'Standup moved to ten.', priority: 'high' }]);
  await updateIndex(paths, config);
  assert.deepEqual(await ids(paths, 'standup'), [newest.ids[0], old.ids[0], recent.ids[0]]);
});

test('incremental: only changed files are re-indexed; edits and deletions show on the next index', async () => {
  const paths = await tempHome();
  const { a, b } = await seed(paths);
  await updateIndex(paths, config);
  const again = await updateIndex(paths, config);
  assert.deepEqual([again.added, again.changed, again.removed, again.unchanged], [0, 0, 0, 4]);

  // Hand edit: a word changes in one line.
  const text = await readFile(a.path, 'utf8');
  await writeFile(a.path, text.replace('Redis for caching', 'Memcached for caching'));
  const edited = await updateIndex(paths, config);
  assert.deepEqual([edited.added, edited.changed, edited.removed], [0, 1, 0]);
  assert.deepEqual(await ids(paths, 'memcached'), [a.ids[1]]);
  assert.deepEqual(await ids(paths, 'redis'), []);

  // Deleted file: its observations disappear.
  await rm(b.path);
  const removed = await updateIndex(paths, config);
  assert.equal(removed.removed, 1);
  assert.deepEqual(await ids(paths, '데이터베이스'), []);
  const segments = (await readdir(join(paths.index, 'hot'))).filter((n) => n.endsWith('.seg'));
  assert.equal(segments.length, 2, "the deleted file's segment is gone");

  // New file.
  await writeDay(paths, '2026-02-14', [{ text: 'Kafka replaces RabbitMQ for events.' }]);
  const added = await updateIndex(paths, config);
  assert.equal(added.added, 1);
  assert.equal((await ids(paths, 'kafka')).length, 1);

  // --rebuild re-indexes everything.
  const rebuilt = await updateIndex(paths, config, { rebuild: true });
  assert.equal(rebuilt.changed, rebuilt.files);
});

test('a corrupt or old-format index is detected and rebuilt; search never crashes', async () => {
  const paths = await tempHome();
  const { a } = await seed(paths);
  await updateIndex(paths, config);

  await writeFile(manifestPath(paths.index, 'hot'), '{"format": 1, "files": {"broken');
  const viaSearch = await searchMemory(paths, config, { query: 'typescript', cache: false });
  assert.deepEqual(
    viaSearch.results.map((x) => x.id),
    [a.ids[0]],
  );
  assert.match(viaSearch.warnings.join(' '), /Rebuilt the search index/);

  // Truncated segment file.
  const seg = (await readdir(join(paths.index, 'hot'))).find((n) => n.endsWith('.seg'))!;
  await truncate(join(paths.index, 'hot', seg), 40);
  const afterTruncate = await searchMemory(paths, config, { query: 'typescript', cache: false });
  assert.deepEqual(
    afterTruncate.results.map((x) => x.id),
    [a.ids[0]],
  );

  // Garbage instead of a segment, found by `index`.
  await writeFile(join(paths.index, 'hot', seg), 'not a segment at all');
  const idx = await updateIndex(paths, config);
  assert.ok(idx.changed >= 1 || idx.added >= 1);
  assert.deepEqual(await ids(paths, 'typescript'), [a.ids[0]]);

  // Another format version.
  const manifest = JSON.parse(await readFile(manifestPath(paths.index, 'hot'), 'utf8'));
  manifest.format = 999;
  await writeFile(manifestPath(paths.index, 'hot'), JSON.stringify(manifest));
  const r = await updateIndex(paths, config);
  assert.deepEqual(r.recovered, ['hot']);
  assert.deepEqual(await ids(paths, 'typescript'), [a.ids[0]]);

  // No index at all: the first search builds it.
  await rm(paths.index, { recursive: true, force: true });
  const first = await searchMemory(paths, config, { query: 'typescript', cache: false });
  assert.deepEqual(
    first.results.map((x) => x.id),
    [a.ids[0]],
  );
});

test('a hot-only search never reads the warm or cold shards', async () => {
  const paths = await tempHome();
  const { a } = await seed(paths);
  await updateIndex(paths, config);
  // Break every warm file of the index: a search that touched them would have to rebuild.
  for (const name of await readdir(join(paths.index, 'warm'))) await writeFile(join(paths.index, 'warm', name), 'garbage');
  const hot = await searchMemory(paths, config, { query: 'typescript', filters: { tiers: ['hot'] }, cache: false });
  assert.deepEqual(
    hot.results.map((x) => x.id),
    [a.ids[0]],
  );
  assert.deepEqual(hot.warnings, []);
  const all = await searchMemory(paths, config, { query: 'typescript', cache: false });
  assert.match(all.warnings.join(' '), /Rebuilt/);
});

test('reflections and the cold tier (vault) are indexed too', async () => {
  const paths = await tempHome();
  await seed(paths);
  await mkdir(paths.reflections, { recursive: true });
  await writeFile(
    join(paths.reflections, '2026-W07.md'),
    '---\nperiod: 2026-02-09..2026-02-15\nagent: main\n---\n# Week 7\n\n- 🔴 The team standardised on PostgreSQL and retired MySQL (o-1234567890).\n- Weekly planning happens on Mondays.\n\nA paragraph about the observability rollout with Grafana.\n',
  );
  const vault = join(paths.root, 'vault');
  const cold = dayText('2024-03-03', 'main', [{ text: 'Ancient history: the Perl monolith was retired.', category: 'event' }], 'cold');
  await mkdir(join(vault, 'OC-Memory', '2024'), { recursive: true });
  await writeFile(join(vault, 'OC-Memory', '2024', '2024-03-03.md'), cold.text);
  await mkdir(join(vault, '.obsidian'), { recursive: true });
  await writeFile(join(vault, '.obsidian', 'notes.md'), '- 🔴 must not be indexed perl');
  // The vault's README note and its copies of reflections are not cold observations.
  await mkdir(join(vault, 'OC-Memory', 'Reflections'), { recursive: true });
  await writeFile(join(vault, 'OC-Memory', 'README.md'), '# OC-Memory\n\n- 🔴 perl mentioned in the readme\n');
  await writeFile(join(vault, 'OC-Memory', 'Reflections', '2026-W07.md'), '# Week 7\n\n- 🔴 perl in a reflection copy\n');
  const cfg = testConfig({ tiers: { vault_path: vault } });
  await updateIndex(paths, cfg);

  const refl = await searchMemory(paths, cfg, { query: 'grafana observability', cache: false });
  assert.equal(refl.results[0]?.category, 'reflection');
  assert.equal(refl.results[0]?.tier, 'hot');
  assert.equal(refl.results[0]?.date, '2026-02-15');
  assert.equal(refl.results[0]?.path, 'reflections/2026-W07.md');
  const mysql = await searchMemory(paths, cfg, { query: 'retired mysql', filters: { categories: ['reflection'] }, cache: false });
  assert.equal(mysql.results.length, 1);
  assert.equal(mysql.results[0]!.priority, 'high');
  assert.deepEqual(mysql.results[0]!.provenance.entryIds, ['o-1234567890']);

  const perl = await searchMemory(paths, cfg, { query: 'perl', cache: false });
  assert.deepEqual(
    perl.results.map((r) => [r.tier, r.id]),
    [['cold', cold.ids[0]]],
  );
});

test('the repeated-query cache answers until the index changes', async () => {
  const paths = await tempHome();
  const { a } = await seed(paths);
  await updateIndex(paths, config);
  const first = await searchMemory(paths, config, { query: 'typescript' });
  assert.equal(first.cached, false);
  const second = await searchMemory(paths, config, { query: 'typescript' });
  assert.equal(second.cached, true);
  assert.deepEqual(
    second.results.map((r) => r.id),
    [a.ids[0]],
  );
  const otherLimit = await searchMemory(paths, config, { query: 'typescript', limit: 3 });
  assert.equal(otherLimit.cached, false);
  await writeDay(paths, '2026-02-20', [{ text: 'TypeScript 5.9 upgrade is done.' }]);
  await updateIndex(paths, config);
  const after = await searchMemory(paths, config, { query: 'typescript' });
  assert.equal(after.cached, false);
  assert.equal(after.results.length, 2);
});

test('get: an observation by id, a line range, and nothing outside the memory roots', async () => {
  const paths = await tempHome();
  const { a } = await seed(paths);
  await updateIndex(paths, config);
  const got = await getMemory(paths, config, a.ids[1]!);
  assert.equal(got.kind, 'observation');
  if (got.kind === 'observation') {
    assert.match(got.text, /PostgreSQL/);
    assert.equal(got.path, 'memory/2026-02-10.md');
    assert.deepEqual(got.provenance.entryIds, ['e1aaaaaa']);
  }
  const range = await getMemory(paths, config, `memory/2026-02-10.md:${got.startLine}:2`);
  assert.equal(range.kind, 'lines');
  if (range.kind === 'lines') {
    assert.equal(range.lines, 2);
    assert.ok(range.text.split('\n')[0]!.includes(a.ids[1]!));
  }
  await assert.rejects(getMemory(paths, config, 'o-0000000000'), (e: unknown) => e instanceof OcmError && e.code === 'NOT_FOUND');

  const refused = async (target: string) =>
    assert.rejects(
      getMemory(paths, config, target),
      (e: unknown) => e instanceof OcmError && e.code === 'PATH_OUTSIDE_ROOTS' && e.exitCode === 4,
      target,
    );
  await refused('../../../etc/passwd');
  await refused('memory/../../../../etc/passwd');
  await refused('/etc/passwd');
  await refused('config.yaml');
  await refused('.env');
  await refused('.ocm/state.json');
  await refused('memory/../config.yaml:1:5');
  // A symlink inside memory/ that points outside.
  await writeFile(join(paths.root, 'secret.md'), 'top secret');
  await symlink(join(paths.root, 'secret.md'), join(paths.memory, 'link.md'));
  await refused('memory/link.md');
});
