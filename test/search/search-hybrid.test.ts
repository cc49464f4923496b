/**
 * Hybrid search against a real local HTTP server speaking the OpenAI
 * embeddings API. Its vectors are deterministic "concept" vectors: words are
 * mapped to concepts (car/automobile/vehicle → one concept) and hashed into
 * 64 dimensions, so semantic matches without shared words are testable.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';
import { embeddingServer, type Server } from '../helpers/embedding-server.js';

const servers: Server[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

function hybridConfig(url: string, key = 'sk-test-123') {
  return testConfig({ embeddings: { enabled: true, provider: 'custom', model: 'concept-64', api_base: url, api_key: key, batch_size: 3 } });
}

async function seed() {
  const paths = await tempHome();
  const day = await writeDay(paths, '2026-03-01', [
    { text: 'User bought a new sedan for the family trips.', category: 'event' },
    { text: 'Visited the physician about back pain.', category: 'event' },
    { text: 'Adopted a puppy named Biscuit.', category: 'event', priority: 'high' },
    { text: 'Decided to use PostgreSQL for the billing service.', category: 'decision' },
  ]);
  const other = await writeDay(paths, '2026-03-02', [
    { text: 'The billing service deploy failed twice.', category: 'event' },
    { text: 'Adopted a puppy named Biscuit.', category: 'event' }, // same text: embedded once
  ]);
  return { paths, day, other };
}

/** The seed home indexed with embeddings from a fresh server. */
async function indexedSeed() {
  const server = await embeddingServer();
  servers.push(server);
  const { paths, day } = await seed();
  const config = hybridConfig(server.url);
  await updateIndex(paths, config);
  return { server, paths, day, config };
}

test('hybrid: documents are embedded in batches, and a query finds a match that shares no word with it', async () => {
  const server = await embeddingServer();
  servers.push(server);
  const { paths, day } = await seed();
  const config = hybridConfig(server.url);
  const r = await updateIndex(paths, config);
  assert.equal(r.mode, 'hybrid');
  assert.equal(r.embedded, 5, 'six documents, five distinct texts');
  assert.equal(server.texts, 5);
  assert.equal(server.calls, 2, 'batches of 3');

  const res = await searchMemory(paths, config, { query: 'automobile', cache: false });
  assert.equal(res.mode, 'hybrid');
  assert.deepEqual(res.warnings, []);
  assert.equal(res.results[0]!.id, day.ids[0]);
  assert.ok(res.results[0]!.scores.vector! > 0, 'found by its vector alone');
  assert.equal(res.results[0]!.scores.text, 0);

  // Text and vector agree: the text match stays on top.
  const both = await searchMemory(paths, config, { query: 'billing postgresql', cache: false });
  assert.equal(both.results[0]!.id, day.ids[3]);
  // Filters apply to vector hits too.
  const filtered = await searchMemory(paths, config, { query: 'dog', filters: { priorities: ['high'] }, cache: false });
  assert.deepEqual(
    filtered.results.map((x) => x.id),
    [day.ids[2]],
  );
});

test("mode text (ocm-run search --mode text, the dashboard's choice): full text only, no query embedding asked for, even with embeddings configured", async () => {
  const { server, paths, day, config } = await indexedSeed();
  const calls = server.calls;
  const text = await searchMemory(paths, config, { query: 'automobile', cache: false, mode: 'text' });
  assert.equal(text.mode, 'text');
  assert.equal(server.calls, calls, 'no embedding request for the query');
  assert.ok(!text.results.some((r) => r.id === day.ids[0]), 'the sedan shares no word with the query: text alone does not find it');
  const words = await searchMemory(paths, config, { query: 'billing postgresql', cache: false, mode: 'text' });
  assert.equal(words.results[0]!.id, day.ids[3]);
  const hybrid = await searchMemory(paths, config, { query: 'automobile', cache: false, mode: 'hybrid' });
  assert.equal(hybrid.mode, 'hybrid');
  assert.equal(hybrid.results[0]!.id, day.ids[0]);
});

test('the embedding cache: a re-index or rebuild makes no embedding call; an edit embeds only the new text', async () => {
  const { server, paths, day, config } = await indexedSeed();
  const calls = server.calls;

  const again = await updateIndex(paths, config);
  assert.equal(again.embedded, 0);
  assert.equal(server.calls, calls, 'second index: no embedding call');
  assert.equal(again.mode, 'hybrid');

  const rebuilt = await updateIndex(paths, config, { rebuild: true });
  assert.equal(rebuilt.embedded, 0);
  assert.equal(rebuilt.embeddingCacheHits, 6);
  assert.equal(server.calls, calls, 'rebuild: vectors come from the cache');

  const text = await readFile(day.path, 'utf8');
  await writeFile(day.path, text.replace('back pain', 'a sprained ankle'));
  const edited = await updateIndex(paths, config);
  assert.equal(edited.embedded, 1);
  assert.equal(server.texts, 6);

  // Query embeddings are cached too: the same query again costs no call.
  await searchMemory(paths, config, { query: 'automobile', limit: 3 });
  const before = server.calls;
  const again2 = await searchMemory(paths, config, { query: 'automobile', limit: 4 });
  assert.equal(again2.mode, 'hybrid');
  assert.equal(server.calls, before);
});

test('a pack gets its vectors from the embedding cache; hybrid answers are the same as from per-file segments', async () => {
  const server = await embeddingServer();
  servers.push(server);
  const { paths, day } = await seed();
  const config = hybridConfig(server.url);
  await updateIndex(paths, config, { looseSegmentLimit: Infinity });
  const query = async (q: string) =>
    (await searchMemory(paths, config, { query: q, cache: false })).results.map((x) => [x.id, x.score, x.scores.vector]);
  const loose = [await query('automobile'), await query('billing postgresql'), await query('dog')];
  const calls = server.calls;

  const packed = await updateIndex(paths, config, { looseSegmentLimit: 1 });
  assert.equal(packed.mode, 'hybrid');
  assert.equal(packed.embedded, 0);
  assert.equal(server.calls, calls, 'merging re-embeds nothing');
  const manifest = JSON.parse(await readFile(join(paths.index, 'hot', 'manifest.json'), 'utf8')) as {
    pack?: { segment: string };
    files: Record<string, { segment: string; vectors?: { file: string } }>;
  };
  assert.ok(manifest.pack);
  for (const e of Object.values(manifest.files)) {
    assert.equal(e.segment, manifest.pack.segment);
    assert.ok(e.vectors?.file.startsWith(manifest.pack.segment.replace(/\.seg$/, '')), 'the pack has its own vector file');
  }
  assert.deepEqual([await query('automobile'), await query('billing postgresql'), await query('dog')], loose);

  // An edited file of the pack: its new text is embedded, its old vectors are out of scope.
  const text = await readFile(day.path, 'utf8');
  await writeFile(day.path, text.replace('User bought a new sedan for the family trips.', 'User sold the old piano.'));
  const edited = await updateIndex(paths, config, { looseSegmentLimit: 1 });
  assert.equal(edited.embedded, 1);
  const res = await searchMemory(paths, config, { query: 'automobile', cache: false });
  assert.ok(res.results.every((x) => !x.text.includes('sedan')));
});

test('an unreachable endpoint: index and search fall back to text mode and say so', async () => {
  const server = await embeddingServer();
  const url = server.url;
  await server.close(); // nothing listens there any more
  const { paths, day } = await seed();
  const config = hybridConfig(url);
  const r = await updateIndex(paths, config);
  assert.equal(r.mode, 'text');
  assert.match(r.warnings.join('\n'), /unreachable/);
  const res = await searchMemory(paths, config, { query: 'postgresql' });
  assert.equal(res.mode, 'text');
  assert.equal(res.results[0]!.id, day.ids[3]);
  assert.match(res.warnings.join('\n'), /Text-only search: embedding endpoint .* unreachable/);
  // A degraded answer is not cached.
  const again = await searchMemory(paths, config, { query: 'postgresql' });
  assert.equal(again.cached, false);
});

test('a wrong API key: text mode with the reason, and the key never appears in messages', async () => {
  const server = await embeddingServer('sk-right');
  servers.push(server);
  const { paths } = await seed();
  const config = hybridConfig(server.url, 'sk-wrong-secret-value');
  const r = await updateIndex(paths, config);
  assert.equal(r.mode, 'text');
  const all = r.warnings.join('\n');
  assert.match(all, /HTTP 401/);
  assert.ok(!all.includes('sk-wrong-secret-value'));
  const res = await searchMemory(paths, config, { query: 'billing' });
  assert.equal(res.mode, 'text');
  assert.ok(!res.warnings.join('\n').includes('sk-wrong-secret-value'));
  assert.ok(res.results.length > 0);

  // Once the key is fixed the next index embeds and search turns hybrid.
  const fixed = hybridConfig(server.url, 'sk-right');
  const r2 = await updateIndex(paths, fixed);
  assert.equal(r2.mode, 'hybrid');
  const res2 = await searchMemory(paths, fixed, { query: 'billing' });
  assert.equal(res2.mode, 'hybrid');
});

test('relevance with vectors: a close paraphrase passes the injection floor by meaning alone, unless the question names someone the memory does not', async () => {
  const server = await embeddingServer();
  servers.push(server);
  const paths = await tempHome();
  const day = await writeDay(paths, '2026-03-01', [
    { text: 'Sedan, clinic, puppy.', category: 'event' },
    { text: 'Marco: sedan, clinic, puppy.', category: 'event' },
  ]);
  const config = hybridConfig(server.url);
  await updateIndex(paths, config);
  const relevanceOf = async (query: string, id: string) =>
    (await searchMemory(paths, config, { query, cache: false })).results.find((r) => r.id === id)?.relevance ?? 0;
  // No word in common (car/sedan, doctor/clinic, dog/puppy: one concept each), a close vector.
  assert.ok((await relevanceOf('The car, doctor and dog?', day.ids[0]!)) >= 0.5, 'meaning alone carries a close paraphrase');
  assert.ok((await relevanceOf('Marco: car, doctor and dog?', day.ids[1]!)) >= 0.5, 'the person it names is in the memory');
  assert.ok(
    (await relevanceOf('And Caroline: car, doctor and dog?', day.ids[0]!)) < 0.5,
    'a question about Caroline is not answered by a memory that never names her',
  );
  assert.ok((await relevanceOf('The car, doctor and dog?', day.ids[0]!)) >= 0.5);
  // Without vectors (text mode) the paraphrase shares no word: nothing to inject.
  const text = await searchMemory(paths, config, { query: 'The car, doctor and dog?', cache: false, mode: 'text' });
  assert.ok(text.results.every((r) => (r.relevance ?? 0) < 0.5));
});
