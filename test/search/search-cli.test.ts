/** `ocm-run index | search | get` as child processes (the built CLI in dist/). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome, writeDay } from '../helpers/search-fixtures.js';
import { embeddingServer } from '../helpers/embedding-server.js';

test('index, search (human and --json exactly as DESIGN §7), get, and refusals', async () => {
  const paths = await tempHome();
  const home = paths.root;
  const day = await writeDay(paths, '2026-02-12', [
    {
      text: 'PostgreSQL is the main database, Redis for caching.',
      category: 'decision',
      priority: 'high',
      tags: ['postgres'],
      entryIds: ['a1b2c3d4', 'e5f6a7b8'],
    },
    { text: '데이터베이스를 백업하는 작업은 매일 밤 실행된다.', category: 'fact', priority: 'medium' },
  ]);

  const idx = await runCli(['index', '--home', home, '--json']);
  assert.equal(idx.code, 0, idx.stderr);
  const result = JSON.parse(idx.stdout);
  assert.equal(result.added, 1);
  assert.equal(result.documents, 2);
  assert.equal(result.mode, 'text');

  const json = await runCli(['search', 'database', '--home', home, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout);
  assert.deepEqual(Object.keys(body), ['results', 'mode']);
  assert.equal(body.mode, 'text');
  // The English memory by the query's own words, the Korean one (데이터베이스) through the query's Korean rendering (bridge.ts).
  assert.deepEqual(
    body.results.map((x: { id: string }) => x.id),
    day.ids,
  );
  const r = body.results[0];
  assert.deepEqual(Object.keys(r), [
    'id',
    'path',
    'startLine',
    'endLine',
    'score',
    'relevance',
    'snippet',
    'date',
    'priority',
    'category',
    'tier',
    'provenance',
  ]);
  assert.equal(r.id, day.ids[0]);
  assert.equal(r.path, 'memory/2026-02-12.md');
  assert.deepEqual(r.provenance, { source: 'openclaw', agent: 'main', session: 'sess-1', entryIds: ['a1b2c3d4', 'e5f6a7b8'] });
  assert.equal(typeof r.score, 'number');
  assert.equal(r.relevance, 1, 'the one query word is in the result');
  const framed = JSON.parse((await runCli(['search', 'What do you remember about the database?', '--home', home, '--json'])).stdout);
  assert.equal(framed.results[0].relevance, 1, 'words that only frame the request do not count');

  const korean = await runCli(['search', '데이터베이스', '--home', home, '--json']);
  assert.deepEqual(
    JSON.parse(korean.stdout).results.map((x: { id: string }) => x.id),
    [day.ids[1], day.ids[0]],
  );
  // Renderings of one question in two languages (--also, repeatable): one ranking over both, relevance the best of them.
  const both = JSON.parse(
    (await runCli(['search', '데이터베이스', '--also', 'main database', '--also', '42', '--home', home, '--json'])).stdout,
  );
  assert.deepEqual(new Set(both.results.map((x: { id: string }) => x.id)), new Set(day.ids));
  assert.ok(
    both.results.every((x: { relevance: number }) => x.relevance >= 0.5),
    JSON.stringify(both.results),
  );

  const human = await runCli(['search', 'database', '--home', home]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /🔴 2026-02-12 09:10 {2}\[decision\] {2}score 1\.00/);
  assert.match(human.stdout, /PostgreSQL is the main \*\*database\*\*, Redis for caching\./);
  assert.match(human.stdout, new RegExp(`memory/2026-02-12\\.md:${r.startLine} {2}\\^${day.ids[0]}`));

  const none = await runCli(['search', 'kubernetes', '--home', home]);
  assert.equal(none.code, 0);
  assert.match(none.stdout, /No results for "kubernetes"/);

  const badDate = await runCli(['search', 'x', '--since', 'someday', '--home', home]);
  assert.equal(badDate.code, 1);
  assert.match(badDate.stderr, /--since "someday" is not a date/);
  assert.match(badDate.stderr, /→ Use YYYY-MM-DD/);

  const got = await runCli(['get', day.ids[0]!, '--home', home, '--json']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(JSON.parse(got.stdout).text, 'PostgreSQL is the main database, Redis for caching.');
  const lines = await runCli(['get', `memory/2026-02-12.md:${r.startLine}:1`, '--home', home, '--json']);
  assert.match(JSON.parse(lines.stdout).text, /^- 🔴 09:10 \[decision\] PostgreSQL/);

  await writeFile(join(home, 'notes.md'), 'not memory');
  for (const target of ['../../../../etc/passwd', '/etc/passwd', 'notes.md', 'config.yaml']) {
    const refused = await runCli(['get', target, '--home', home]);
    assert.equal(refused.code, 4, `${target}: ${refused.stderr}`);
    assert.match(refused.stderr, /not inside the memory folders/);
  }

  // A corrupt index does not break search.
  await writeFile(join(paths.index, 'hot', 'manifest.json'), '{oops');
  const recovered = await runCli(['search', 'database', '--home', home, '--json']);
  assert.equal(recovered.code, 0, recovered.stderr);
  const rb = JSON.parse(recovered.stdout);
  assert.equal(rb.results[0].id, day.ids[0]);
  assert.match(rb.warnings.join(' '), /Rebuilt the search index/);
});

test('search and get notice an index behind the memory files (a new, changed or removed file) and update it before answering', async () => {
  const paths = await tempHome();
  const home = paths.root;
  await writeDay(paths, '2026-02-12', [{ text: 'PostgreSQL is the main database.', category: 'decision' }]);
  const idx = await runCli(['index', '--home', home]);
  assert.equal(idx.code, 0, idx.stderr);

  // Written after the last index update, by any writer (here: by hand).
  const later = await writeDay(paths, '2026-02-13', [{ text: "The user's sister Ana lives in Lisbon." }]);
  const found = await runCli(['search', 'sister Lisbon', '--home', home, '--json']);
  assert.equal(found.code, 0, found.stderr);
  const body = JSON.parse(found.stdout);
  assert.deepEqual(
    body.results.map((x: { id: string }) => x.id),
    [later.ids[0]],
    'the new file is searched',
  );
  assert.equal(body.warnings, undefined, 'brought up to date, nothing to warn about');

  const changed = await writeDay(paths, '2026-02-13', [{ text: 'Ana moved from Lisbon to Porto.' }]);
  const got = await runCli(['get', changed.ids[0]!, '--home', home, '--json']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(JSON.parse(got.stdout).text, 'Ana moved from Lisbon to Porto.');
  const old = await runCli(['search', 'sister', '--home', home, '--json']);
  assert.deepEqual(JSON.parse(old.stdout).results, [], 'the replaced text is gone from the answers');
});

test('search --mode: text asks the embeddings endpoint nothing and ranks by words; hybrid (the default with embeddings) finds by meaning; an unknown mode is refused', async () => {
  const server = await embeddingServer();
  try {
    const paths = await tempHome();
    const home = paths.root;
    await writeFile(
      paths.config,
      `embeddings: {enabled: true, provider: custom, model: concept-64, api_base: '${server.url}', api_key: sk-test-123}\n`,
    );
    const day = await writeDay(paths, '2026-02-12', [{ text: 'User bought a new sedan for the family trips.', category: 'event' }]);
    const idx = await runCli(['index', '--home', home, '--json']);
    assert.equal(JSON.parse(idx.stdout).mode, 'hybrid', idx.stderr);

    const hybrid = JSON.parse((await runCli(['search', 'automobile', '--home', home, '--json', '--no-cache'])).stdout);
    assert.equal(hybrid.mode, 'hybrid');
    assert.deepEqual(
      hybrid.results.map((r: { id: string }) => r.id),
      [day.ids[0]],
    );
    const calls = server.calls;
    const text = await runCli(['search', 'automobile', '--mode', 'text', '--home', home, '--json', '--no-cache']);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(JSON.parse(text.stdout).mode, 'text');
    assert.deepEqual(JSON.parse(text.stdout).results, [], 'no word in common');
    assert.equal(server.calls, calls, 'no embedding request');
    const words = JSON.parse((await runCli(['search', 'sedan', '--mode', 'text', '--home', home, '--json'])).stdout);
    assert.deepEqual(
      words.results.map((r: { id: string }) => r.id),
      [day.ids[0]],
    );

    const bad = await runCli(['search', 'sedan', '--mode', 'vector', '--home', home]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--mode "vector" is not a search mode/);
    assert.match(bad.stderr, /--mode text/);
  } finally {
    await server.close();
  }
});

test('ocm-run search with the bundled local model: a paraphrase is found by meaning, and a Korean question with an English rendering (--also) finds the English memory', {
  timeout: 300_000,
}, async () => {
  const paths = await tempHome();
  const home = paths.root;
  const day = await writeDay(paths, '2026-04-08', [
    { text: 'The login flow fails with a 401 after the refresh token expires.', category: 'task', priority: 'high' },
    { text: 'User prefers tabs over spaces in Go code.', category: 'preference' },
    { text: '사용자는 다음 주 금요일까지 발표 자료를 준비해야 한다.', category: 'task' },
  ]);
  // The test runner turns the local model off (OCM_LOCAL_EMBEDDINGS=off): on here, as a user has it.
  const env = { OCM_LOCAL_EMBEDDINGS: undefined };
  const indexed = await runCli(['index', '--home', home, '--json'], { env, timeoutMs: 240_000 });
  assert.equal(indexed.code, 0, indexed.stderr);
  const search = async (...args: string[]) => {
    const r = await runCli(['search', ...args, '--home', home, '--json', '--no-cache'], { env, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as { mode: string; results: Array<{ id: string; relevance: number }> };
  };
  const paraphrase = await search('authentication problems');
  assert.equal(paraphrase.mode, 'hybrid');
  assert.equal(paraphrase.results[0]?.id, day.ids[0], 'no word in common with the login line, found by meaning');
  // The Korean words alone reach the English memory through the lexicon's rendering (search.bridge_languages), …
  const korean = await search('인증 문제');
  assert.equal(korean.results[0]?.id, day.ids[0], JSON.stringify(korean));
  // … and the agent's own rendering does as well.
  const both = await search('인증 문제', '--also', 'authentication problems');
  assert.equal(both.results[0]?.id, day.ids[0], 'the rendering does');
});
