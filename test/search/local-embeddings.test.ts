/**
 * The bundled embedding model (embeddings.provider: local, the default), for
 * real: the model from node_modules on a worker thread for the index, in
 * this process for queries, and through the CLI as a child process. The test
 * runner turns the local model off for the rest of the suite
 * (OCM_LOCAL_EMBEDDINGS=off); these tests turn it back on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { textHash } from '../../lib/search/vectors.js';
import { localModelDir } from '../../lib/search/local-model.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';
import { filesContaining } from '../helpers/forget-home.js';

delete process.env.OCM_LOCAL_EMBEDDINGS;
const LOCAL = { OCM_LOCAL_EMBEDDINGS: undefined };
const ROW = 16 + 4 + 512;

const ENGLISH = [
  { text: 'The login flow fails with an expired refresh token.', category: 'event' },
  { text: 'User prefers pnpm over npm for every project.', category: 'preference' },
  { text: 'User decided to use PostgreSQL for the billing service.', category: 'decision' },
  { text: 'User adopted a puppy named Biscuit.', category: 'event' },
];
const KOREAN = [
  { text: '사용자는 금요일 오후 3시에 치과 예약이 있다.', category: 'event' },
  { text: '사용자는 데이터베이스로 PostgreSQL을 쓰기로 결정했다.', category: 'decision' },
];

async function home() {
  const paths = await tempHome();
  await writeDay(paths, '2026-03-01', ENGLISH);
  await writeDay(paths, '2026-03-02', KOREAN);
  return paths;
}

async function rows(paths: { index: string }): Promise<Buffer> {
  const dir = join(paths.index, 'embeddings');
  const name = (await readdir(dir)).find((n) => n.endsWith('.rows'))!;
  return readFile(join(dir, name));
}

function rowHashes(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at + ROW <= bytes.length; at += ROW) out.push(bytes.toString('hex', at, at + 16));
  return out.sort();
}

test('local model: a paraphrase is found by meaning; Hangul-dominant text gets no vector and a Korean query ranks as text search does', async () => {
  const paths = await home();
  const config = testConfig();
  const indexed = await updateIndex(paths, config);
  assert.deepEqual(indexed.warnings, []);
  assert.equal(indexed.mode, 'hybrid', 'every document is settled: the Korean ones without a vector by design');
  assert.equal(indexed.embedded, ENGLISH.length, 'only the English texts were embedded');
  assert.deepEqual(rowHashes(await rows(paths)), ENGLISH.map((o) => textHash(o.text).toString('hex')).sort());

  const paraphrase = await searchMemory(paths, config, { query: 'authentication problems', cache: false });
  assert.equal(paraphrase.mode, 'hybrid');
  assert.deepEqual(paraphrase.warnings, []);
  assert.equal(paraphrase.results[0]?.text, ENGLISH[0]!.text, 'no word in common, found by meaning');

  // The Korean question itself (the lexicon's English rendering, which the model does embed, turned off here).
  const unbridged = testConfig({ search: { bridge_languages: false } });
  for (const query of ['치과 예약', '데이터베이스 결정']) {
    const hybrid = await searchMemory(paths, unbridged, { query, cache: false });
    const text = await searchMemory(paths, unbridged, { query, cache: false, mode: 'text' });
    assert.equal(hybrid.mode, 'text', `${query}: no query vector under the English-only model`);
    assert.deepEqual(
      hybrid.results.map((r) => [r.id, r.score]),
      text.results.map((r) => [r.id, r.score]),
      `${query}: the same answer as text search`,
    );
  }
  // A second update finds every document settled: nothing to embed, no model to load.
  const again = await updateIndex(paths, config);
  assert.equal(again.embedded, 0);
  assert.equal(again.embeddingCacheHits, 0, 'no segment had to be read for vectors again');
});

test('local model: a rebuild from an empty embedding cache gives identical vectors', async () => {
  const paths = await home();
  const config = testConfig();
  await updateIndex(paths, config);
  const first = await rows(paths);
  const vecs = async () => {
    const out = new Map<string, Buffer>();
    for (const tier of ['hot'])
      for (const n of (await readdir(join(paths.index, tier))).filter((n) => n.endsWith('.vec')))
        out.set(n, await readFile(join(paths.index, tier, n)));
    return out;
  };
  const firstVecs = await vecs();
  await rm(join(paths.index), { recursive: true });
  const rebuilt = await updateIndex(paths, config, { rebuild: true });
  assert.equal(rebuilt.embedded, ENGLISH.length, 'embedded again from scratch');
  const byHash = (bytes: Buffer) =>
    new Map(
      rowHashes(bytes).map((h) => [
        h,
        bytes.subarray(bytes.indexOf(Buffer.from(h, 'hex')), bytes.indexOf(Buffer.from(h, 'hex')) + ROW).toString('hex'),
      ]),
    );
  assert.deepEqual(byHash(await rows(paths)), byHash(first), 'the same int8 vectors and scales, text by text');
  assert.deepEqual(await vecs(), firstVecs, 'the same sidecar files');
});

test('local model: forget leaves no vector of the forgotten observation, keeps the others, embeds nothing again', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const homeDir = join(dir, 'home');
    const p = { index: join(homeDir, '.ocm', 'index') };
    // The home through the CLI: config with the defaults (provider local), day files written as observe writes them.
    const { dayText } = await import('../helpers/search-fixtures.js');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(homeDir, 'memory'), { recursive: true });
    await writeFile(join(homeDir, 'memory', '2026-03-01.md'), dayText('2026-03-01', 'main', ENGLISH).text);
    const indexed = await runCli(['index', '--home', homeDir, '--json'], { env: LOCAL });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.equal(JSON.parse(indexed.stdout).embedded, ENGLISH.length);
    const before = await rows(p);
    const forgotten = textHash(ENGLISH[0]!.text);
    const at = before.indexOf(forgotten);
    assert.ok(at >= 0, 'the cache holds its vector');
    const vector = before.subarray(at + 16, at + ROW);
    const forget = await runCli(['forget', '--query', 'refresh token', '--yes', '--home', homeDir], { env: LOCAL });
    assert.equal(forget.code, 0, forget.stderr);
    const after = await rows(p);
    assert.equal(after.indexOf(forgotten), -1, 'no cache row for the forgotten text');
    assert.deepEqual(
      rowHashes(after),
      ENGLISH.slice(1)
        .map((o) => textHash(o.text).toString('hex'))
        .sort(),
      'the other vectors stay',
    );
    assert.deepEqual(await filesContaining([homeDir], [vector.subarray(4)]), [], 'no file holds its vector (cache or sidecar)');
    const next = await runCli(['index', '--home', homeDir, '--json'], { env: LOCAL });
    assert.equal(JSON.parse(next.stdout).embedded, 0, 'nothing embedded again');
  } finally {
    await cleanup();
  }
});

test('local model missing or damaged: index and search warn and answer by text; never a crash', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const homeDir = join(dir, 'home');
    const { dayText } = await import('../helpers/search-fixtures.js');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(homeDir, 'memory'), { recursive: true });
    await writeFile(join(homeDir, 'memory', '2026-03-01.md'), dayText('2026-03-01', 'main', ENGLISH).text);
    const damaged = join(dir, 'damaged');
    const missing = join(dir, 'missing');
    await cp(localModelDir(), damaged, { recursive: true });
    await cp(localModelDir(), missing, { recursive: true });
    const shard = join(damaged, 'group1-shard1of7');
    const bytes = await readFile(shard);
    bytes.fill(7, 1000, 2000);
    await writeFile(shard, bytes);
    await rm(join(missing, 'group1-shard3of7'));
    for (const [name, modelDir, why] of [
      ['damaged', damaged, /damaged or altered: group1-shard1of7/],
      ['missing', missing, /a file is missing/],
    ] as const) {
      const env = { ...LOCAL, OCM_LOCAL_MODEL_DIR: modelDir };
      const index = await runCli(['index', '--home', homeDir], { env });
      assert.equal(index.code, 0, `${name}: ${index.stderr}`);
      assert.match(index.stderr, /Embeddings unavailable, search stays text-only/, name);
      assert.match(index.stderr, why, name);
      const search = await runCli(['search', 'pnpm', '--home', homeDir, '--json'], { env });
      assert.equal(search.code, 0, `${name}: ${search.stderr}`);
      const answer = JSON.parse(search.stdout) as { mode: string; results: Array<{ snippet: string }>; warnings: string[] };
      assert.equal(answer.mode, 'text', name);
      assert.match(answer.warnings.join(' '), why, `${name}: search says why it is text-only`);
      assert.equal(answer.results[0]?.snippet, ENGLISH[1]!.text, `${name}: text search still answers`);
      const status = await runCli(['status', '--home', homeDir], { env });
      assert.match(status.stdout, /Embeddings: local model/, name);
      if (name === 'missing') assert.match(status.stdout, /missing in .*group1-shard3of7 — search falls back to full text/);
      const doctor = await runCli(['doctor', '--offline', '--home', homeDir], { env });
      assert.match(
        doctor.stdout,
        name === 'missing' ? /Embeddings: .*missing in .*group1-shard3of7/ : why,
        `${name}: doctor says what is wrong`,
      );
    }
  } finally {
    await cleanup();
  }
});

test('local model: the per-prompt hook with no server running ranks by words and never loads the model', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const homeDir = join(dir, 'home');
    const { dayText } = await import('../helpers/search-fixtures.js');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(homeDir, 'memory'), { recursive: true });
    await writeFile(join(homeDir, 'memory', '2026-03-01.md'), dayText('2026-03-01', 'main', ENGLISH).text);
    const indexed = await runCli(['index', '--home', homeDir, '--json'], { env: LOCAL });
    assert.equal(JSON.parse(indexed.stdout).mode, 'hybrid', 'the home has vectors of the local model');
    const { execa } = await import('execa');
    const { CLI } = await import('../helpers/cli.js');
    const log = join(dir, 'imports.log');
    const hook = await execa(
      process.execPath,
      [
        '--import',
        new URL('../fixtures/record-imports.mjs', import.meta.url).pathname,
        join(CLI, '..', 'prompt-hook.cjs'),
        'hook',
        'prompt',
        '--home',
        homeDir,
      ],
      {
        input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'Do I prefer pnpm over npm for every project?' }),
        reject: false,
        timeout: 60_000,
        env: { HOME: dir, OCM_IMPORT_LOG: log, OCM_LOCAL_EMBEDDINGS: undefined, OCM_HOOK_TIMEOUT_MS: '60000' },
      },
    );
    assert.equal(hook.exitCode, 0, hook.stderr);
    assert.match(hook.stdout, /User prefers pnpm over npm/, 'the memory went in, found by its words');
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    assert.ok(
      loaded.some((u) => u.endsWith('/search/search.js')),
      'the hook searched in its own process',
    );
    const model = loaded.filter((u) => /@energetic-ai\/|search\/local-model\.js|search\/embed-(thread|worker)\.js/.test(u));
    assert.deepEqual(model, [], 'no module of the model was loaded');
  } finally {
    await cleanup();
  }
});

test('local model: a one-off search takes its query vector from a running ocm-run mcp on the home and loads no model itself', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { CLI } = await import('../helpers/cli.js');
  const { waitFor } = await import('../helpers/wait.js');
  const { dir, cleanup } = await tempDir();
  const paths = await home();
  try {
    assert.equal((await runCli(['index', '--home', paths.root], { env: LOCAL })).code, 0);
    // This search process cannot load the model (its folder is empty): a vector it gets came from the server.
    const noModel = { ...LOCAL, OCM_LOCAL_MODEL_DIR: join(dir, 'no-model') };
    const search = async () =>
      JSON.parse(
        (await runCli(['search', 'authentication problems', '--home', paths.root, '--json', '--no-cache'], { env: noModel })).stdout,
      ) as { mode: string; warnings?: string[]; results: Array<{ snippet: string; score: number }> };
    const alone = await search();
    assert.equal(alone.mode, 'text', 'no server: the search loads the model itself, which fails here');
    assert.match((alone.warnings ?? []).join(' '), /local embedding model/);

    const client = new Client({ name: 'vectors-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--home', paths.root],
        env: { PATH: process.env.PATH ?? '', HOME: paths.root, CI: '1' },
        stderr: 'ignore',
      }),
      { timeout: 30_000 },
    );
    try {
      await waitFor('the socket', async () =>
        (await readFile(join(paths.logs, 'mcp.log'), 'utf8').catch(() => '')).includes('"socket":"') ? true : undefined,
      );
      // The first ask finds the server's model not loaded yet (it starts loading it); a later one is answered.
      const served = await waitFor("a search answered with the server's vectors", async () => {
        const r = await search();
        return r.mode === 'hybrid' ? r : undefined;
      });
      assert.deepEqual(served.warnings ?? [], []);
      assert.equal(served.results[0]?.snippet, ENGLISH[0]!.text, 'found by meaning: no word in common');
      // The same vectors as the search's own model would give: the same ranking and scores.
      const own = JSON.parse(
        (
          await runCli(['search', 'authentication problems', '--home', paths.root, '--json', '--no-cache'], {
            env: { ...LOCAL, OCM_LOCAL_MODEL_DIR: localModelDir() },
          })
        ).stdout,
      ) as typeof served;
      assert.deepEqual(
        served.results.map((r) => [r.snippet, r.score]),
        own.results.map((r) => [r.snippet, r.score]),
      );
    } finally {
      await client.close();
    }
  } finally {
    await cleanup();
  }
});

test('local model: a paraphrase passes the injection floor by meaning; an unrelated prompt does not', async () => {
  const paths = await tempHome();
  await writeDay(paths, '2026-03-01', [
    ...ENGLISH,
    { text: 'User pays the electricity bill by direct debit on the 3rd of each month.', category: 'fact' },
    { text: 'User wants to plant tomatoes and basil on the balcony this spring.', category: 'task' },
    { text: 'User is learning Spanish with a tutor on Wednesday evenings.', category: 'fact' },
    { text: "User's laptop keyboard has a sticky space bar; a repair shop quoted 90 euros.", category: 'fact' },
  ]);
  assert.equal((await runCli(['index', '--home', paths.root], { env: LOCAL })).code, 0);
  const found = async (q: string) =>
    JSON.parse((await runCli(['search', q, '--home', paths.root, '--json', '--no-cache'], { env: LOCAL })).stdout) as {
      mode: string;
      results: Array<{ snippet: string; relevance: number }>;
    };
  for (const [question, memory] of [
    ['gardening plans for the terrace', /tomatoes and basil on the balcony/],
    ['cost to fix the broken key on my notebook computer', /repair shop quoted 90 euros/],
  ] as const) {
    const r = await found(question);
    assert.equal(r.mode, 'hybrid');
    assert.match(r.results[0]!.snippet, memory, question);
    assert.ok(r.results[0]!.relevance >= 0.5, `"${question}" is answered by its memory: relevance ${r.results[0]!.relevance}`);
  }
  for (const prompt of ['I want to buy some bananas', 'Tell me a joke about penguins']) {
    const unrelated = await found(prompt);
    assert.ok(
      unrelated.results.every((r) => r.relevance < 0.5),
      `nothing relevant to "${prompt}": ${unrelated.results.map((r) => r.relevance).join(', ')}`,
    );
  }
});
