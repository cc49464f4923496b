/**
 * What vectors from the bundled local model cost (the `npm run bench`
 * section "embed"), each figure beside a same-run text-only baseline
 * (`embeddings.provider: none` on a twin home, or bare `node -e 0`):
 *
 *   - embedding a home from scratch: `ocm-run index` of a fresh home of N
 *     generated observations (default 2,000; 30 % Korean, which gets no
 *     vector) with the model on its worker thread, against the text index of
 *     its twin; the documents embedded per second, and the time a
 *     100,000-observation home takes at that rate;
 *   - a tick with 50 new observations (`ocm-run run` after a new day file of
 *     50), local against none;
 *   - an idle tick (nothing new; the model configured), against `node -e 0`:
 *     it must not load the model;
 *   - the query embedding in a process that stays up (the model loaded once;
 *     the first call, which loads it, apart), against a text-only search of
 *     the same query in the same process;
 *   - `ocm-run mcp`'s resident memory after hybrid `search_memory` calls
 *     (model loaded), against the same server on the text-only twin, and
 *     its `search_memory` p50 / p95 both ways;
 *   - a one-off `ocm-run search` (a fresh process per query): hybrid loading
 *     the model itself, hybrid with an `ocm-run mcp` up on the home (the
 *     query's vector from the server's loaded model, over its socket), and
 *     `--mode text`, the baseline.
 *
 *   node --import tsx bench/run.ts embed [--n 2000] [--queries 40]
 *
 * `seedLocalVectors` gives a large bench home real model vectors without
 * embedding every observation (mcp-bench's hybrid pass at 100k): a pool of
 * real vectors of the home's own texts, assigned in turn to every document.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { homePaths, type HomePaths } from '../lib/platform/home.js';
import { loadConfig } from '../lib/config/config.js';
import { embeddingSettings } from '../lib/search/embeddings.js';
import { processEmbedder } from '../lib/search/embedder.js';
import { EmbeddingCache, textHash } from '../lib/search/vectors.js';
import { dayFileDocuments } from '../lib/search/documents.js';
import { searchMemory } from '../lib/search/search.js';
import { SegmentEngine } from '../lib/search/segment-engine.js';
import { dayFileText, dayObservations, makeGenerator, writeCorpus } from './search-corpus.js';
import { benchQueries, percentile, processCpuMs, snapshotCli, timed } from './search-bench.js';

const BASE_CONFIG = 'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    enabled: false\n';

export interface EmbedBenchReport {
  observations: number;
  loadAverageAtStart: number[];
  loadAverage: number[];
  cores: number;
  /** CPU ms (user + system, the worker's included) beside wall ms: on a shared machine the CPU is what an idle one would take. */
  build: {
    localMs: number;
    textMs: number;
    localCpuMs: number | null;
    textCpuMs: number | null;
    embedded: number;
    docsPerSecond: number;
    docsPerCpuSecond: number | null;
    projected100kMinutes: number;
    projected100kCpuMinutes: number | null;
    localRssMb: number | null;
    textRssMb: number | null;
  };
  tick50: {
    localMs: number[];
    textMs: number[];
    localP50: number;
    textP50: number;
    localCpuP50: number | null;
    textCpuP50: number | null;
    embeddedPerTick: number;
  };
  idleTick: {
    localP50: number;
    localP95: number;
    textP50: number;
    nodeP50: number;
    nodeP95: number;
    addedP50: number;
    localCpuP50: number | null;
    textCpuP50: number | null;
    nodeCpuP50: number | null;
  };
  query: {
    firstCallMs: number;
    p50: number;
    p95: number;
    cpuP50: number;
    cpuP95: number;
    calls: number;
    textSearchP50: number;
    textSearchP95: number;
  };
  mcp: {
    hybridRssMb: number | null;
    textRssMb: number | null;
    hybridP50: number;
    hybridP95: number;
    textP50: number;
    textP95: number;
    hybridMode: boolean;
  };
  /** A fresh `ocm-run search` per query, wall ms p50 / p95: loading the model, with a server up, text only. */
  freshSearch: {
    aloneP50: number;
    aloneP95: number;
    serverP50: number;
    serverP95: number;
    textP50: number;
    textP95: number;
    serverHybrid: number;
    calls: number;
  };
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

/** Observations of one more day (2026-04-01 onwards), written as a day file of `agent`. */
async function writeNewDay(paths: HomePaths, date: string, count: number, seed: number): Promise<void> {
  const gen = makeGenerator(seed);
  await mkdir(paths.memory, { recursive: true });
  await writeFile(join(paths.memory, `${date}.md`), dayFileText(date, 'main', dayObservations(gen, date, 'main', count, 0.3)));
}

/** The texts the index embeds, from every hot day file of the home (search/documents.ts, as the indexer reads them). */
async function homeTexts(paths: HomePaths): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, agent: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p, entry.name);
      else if (entry.name.endsWith('.md')) {
        for (const d of dayFileDocuments(await readFile(p, 'utf8'), { path: p, tier: 'hot', agent, fileName: basename(p) }))
          out.push(d.text);
      }
    }
  };
  await walk(paths.memory, 'main');
  return out;
}

/**
 * Fill the home's embedding cache with real vectors of the local model: `pool` of its own (English) texts are
 * embedded, and every other text gets one of those vectors in turn. The next `ocm-run index` then finds every
 * vector cached and writes the sidecars, so a hybrid search ranks over as many vectors as a fully embedded home,
 * of the same size, without the hours of embedding (their nearness to the query is less real than the ranking's cost).
 */
export async function seedLocalVectors(paths: HomePaths, pool: number, log: (s: string) => void): Promise<number> {
  const { config } = await loadConfig({ file: paths.config, envFile: paths.env, env: {} });
  const settings = embeddingSettings({ ...config, embeddings: { ...config.embeddings, provider: 'local', enabled: undefined } })!;
  const embedder = processEmbedder(settings);
  const texts = (await homeTexts(paths)).filter((t) => t.trim() && embedder.accepts(t));
  const sample = texts.filter((_, i) => i % Math.max(1, Math.floor(texts.length / pool)) === 0).slice(0, pool);
  log(`  embedding a pool of ${sample.length} real vectors for ${texts.length} documents…`);
  const vectors = await embedder.embed(sample);
  const cache = EmbeddingCache.open(paths.index, settings);
  texts.forEach((t, i) => {
    const h = textHash(t);
    if (!cache.has(h)) cache.add(h, vectors[i % vectors.length]!);
  });
  await cache.flush();
  return texts.length;
}

const cpuP = (xs: number[], p: number): number | null => (xs.length ? percentile(xs, p) : null);

/** Resident memory of a process now (Linux /proc), MB; null elsewhere. */
export function rssMb(pid: number | undefined | null): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * search_memory through `ocm-run mcp` (the SDK client over stdio), `rounds` times each query (a round number added
 * after the first, so every query is new to the server): the first call apart, p50 / p95, the server's CPU per call,
 * its RSS at the end, and whether it answered by hybrid search.
 */
export async function mcpSearches(
  cli: string,
  home: string,
  queries: string[],
  work: string,
  rounds = 2,
): Promise<{
  firstCallMs: number;
  p50: number;
  p95: number;
  calls: number;
  cpuPerCallMs: number | null;
  rssMb: number | null;
  hybrid: boolean;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--home', home],
    env: { PATH: process.env.PATH ?? '', HOME: work, CI: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'ocm-bench', version: '1' });
  await client.connect(transport, { timeout: 60_000 });
  try {
    let hybrid = false;
    const call = async (query: string) => {
      const t = performance.now();
      const r = await client.callTool({ name: 'search_memory', arguments: { query } }, undefined, { timeout: 60_000 });
      if (r.isError) throw new Error(`search_memory failed: ${JSON.stringify(r.content)}`);
      if (/hybrid search/.test(JSON.stringify(r.content))) hybrid = true;
      return performance.now() - t;
    };
    const firstCallMs = Math.round(await call(queries[0]!)); // opens the index (and loads the model)
    const ms: number[] = [];
    const cpuBefore = processCpuMs(transport.pid);
    for (let round = 0; round < rounds; round++) for (const q of queries) ms.push(await call(round ? `${q} ${round}` : q));
    const cpuAfter = processCpuMs(transport.pid);
    const cpuPerCallMs = cpuBefore !== null && cpuAfter !== null ? Math.round(((cpuAfter - cpuBefore) / ms.length) * 10) / 10 : null;
    return {
      firstCallMs,
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
      calls: ms.length,
      cpuPerCallMs,
      rssMb: rssMb(transport.pid),
      hybrid,
    };
  } finally {
    await client.close();
  }
}

/** A fresh `ocm-run search --json` per query: wall ms each, and how many answered by hybrid search. */
function freshSearches(cli: string, home: string, queries: string[], extra: string[] = []): { ms: number[]; hybrid: number } {
  const ms: number[] = [];
  let hybrid = 0;
  for (const q of queries) {
    const t = performance.now();
    const out = execFileSync(process.execPath, [cli, 'search', q, '--home', home, '--json', '--no-cache', ...extra], { encoding: 'utf8' });
    ms.push(performance.now() - t);
    if ((JSON.parse(out) as { mode: string }).mode === 'hybrid') hybrid++;
  }
  return { ms, hybrid };
}

/** freshSearches while an `ocm-run mcp` runs on the home, its model loaded by one search_memory call first. */
async function freshSearchesWithServer(
  cli: string,
  home: string,
  queries: string[],
  work: string,
): Promise<{ ms: number[]; hybrid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--home', home],
    env: { PATH: process.env.PATH ?? '', HOME: work, CI: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'ocm-bench', version: '1' });
  await client.connect(transport, { timeout: 60_000 });
  try {
    await client.callTool({ name: 'search_memory', arguments: { query: 'warm up the model' } }, undefined, { timeout: 60_000 });
    return freshSearches(cli, home, queries);
  } finally {
    await client.close();
  }
}

export async function runEmbedBench(
  options: { n?: number; queries?: number; keep?: boolean; log?: (s: string) => void } = {},
): Promise<EmbedBenchReport> {
  const log = options.log ?? (() => undefined);
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  const n = options.n ?? 2000;
  const work = await mkdtemp(join(tmpdir(), 'ocm-embed-bench-'));
  const local = homePaths(join(work, 'local'));
  const text = homePaths(join(work, 'text'));
  const queries = benchQueries(options.queries ?? 40);
  // The runner of the tests turns the local model off; a bench measures it.
  delete process.env.OCM_LOCAL_EMBEDDINGS;
  try {
    const CLI = await snapshotCli(work);
    for (const [paths, provider] of [
      [local, 'local'],
      [text, 'none'],
    ] as const) {
      await mkdir(paths.root, { recursive: true });
      await writeFile(paths.config, `${BASE_CONFIG}embeddings:\n  provider: ${provider}\n`, { mode: 0o600 });
      await writeCorpus(paths, { observations: n, days: 30, endDate: '2026-03-31', agents: [], korean: 0.3 });
    }
    const run = (args: string[]) => timed(process.execPath, [CLI, ...args]);

    log(`  index of ${n} observations: text only, then with the local model…`);
    const textBuild = await run(['index', '--json', '--home', text.root]);
    const localBuild = await run(['index', '--json', '--home', local.root]);
    const built = JSON.parse(localBuild.stdout) as { embedded: number; mode: string; warnings: string[] };
    if (built.mode !== 'hybrid') throw new Error(`the local model did not embed: ${built.warnings.join('; ')}`);
    const embedMs = Math.max(1, localBuild.ms - textBuild.ms);
    const docsPerSecond = Math.round((built.embedded / embedMs) * 1000 * 10) / 10;
    const embedCpuMs = localBuild.cpuMs !== null && textBuild.cpuMs !== null ? Math.max(1, localBuild.cpuMs - textBuild.cpuMs) : null;
    const docsPerCpuSecond = embedCpuMs !== null ? Math.round((built.embedded / embedCpuMs) * 1000 * 10) / 10 : null;
    const englishShare = built.embedded / n;

    log('  ticks with 50 new observations, local and text only, in turn…');
    const tickLocal: number[] = [];
    const tickText: number[] = [];
    const tickLocalCpu: number[] = [];
    const tickTextCpu: number[] = [];
    let embeddedPerTick = 0;
    for (let i = 0; i < 3; i++) {
      const date = `2026-04-0${i + 1}`;
      await writeNewDay(local, date, 50, 100 + i);
      await writeNewDay(text, date, 50, 100 + i);
      const l = await run(['run', '--json', '--home', local.root]);
      tickLocal.push(Math.round(l.ms));
      if (l.cpuMs !== null) tickLocalCpu.push(l.cpuMs);
      embeddedPerTick = (JSON.parse(l.stdout) as { index?: { embedded?: number } }).index?.embedded ?? 0;
      const tt = await run(['run', '--json', '--home', text.root]);
      tickText.push(Math.round(tt.ms));
      if (tt.cpuMs !== null) tickTextCpu.push(tt.cpuMs);
    }

    log('  idle ticks (model configured, nothing new) against node -e 0…');
    await new Promise((r) => setTimeout(r, 2500));
    await run(['run', '--home', local.root]); // settles the index fingerprint
    await run(['run', '--home', text.root]);
    const idle: number[] = [];
    const idleText: number[] = [];
    const bare: number[] = [];
    const idleCpu: number[] = [];
    const idleTextCpu: number[] = [];
    const bareCpu: number[] = [];
    for (let i = 0; i < 8; i++) {
      const b = await timed(process.execPath, ['-e', '0']);
      const l = await run(['run', '--home', local.root]);
      const tt = await run(['run', '--home', text.root]);
      bare.push(b.ms);
      idle.push(l.ms);
      idleText.push(tt.ms);
      if (b.cpuMs !== null && l.cpuMs !== null && tt.cpuMs !== null) {
        bareCpu.push(b.cpuMs);
        idleCpu.push(l.cpuMs);
        idleTextCpu.push(tt.cpuMs);
      }
    }

    log('  query embeddings in this process (the model kept)…');
    const { config } = await loadConfig({ file: local.config, envFile: local.env, env: {} });
    const settings = embeddingSettings(config)!;
    const embedder = processEmbedder(settings);
    let t = performance.now();
    await embedder.embed([queries[0]!]);
    const firstCallMs = Math.round(performance.now() - t);
    const q: number[] = [];
    const qCpu: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        const cpu = process.cpuUsage();
        t = performance.now();
        await embedder.embed([`${query} ${round}`]);
        q.push(performance.now() - t);
        const used = process.cpuUsage(cpu);
        qCpu.push((used.user + used.system) / 1000);
      }
    }
    const { config: textConfig } = await loadConfig({ file: text.config, envFile: text.env, env: {} });
    const openIndex = new SegmentEngine(text.index).openReader();
    const ts: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        t = performance.now();
        await searchMemory(text, textConfig, { query, cache: false }, { openIndex });
        ts.push(performance.now() - t);
      }
    }
    openIndex.close();

    log('  ocm-run mcp: hybrid on the local home, text on its twin…');
    const hybridMcp = await mcpSearches(CLI, local.root, queries, work);
    const textMcp = await mcpSearches(CLI, text.root, queries, work);

    log('  one-off ocm-run search: loading the model, with ocm-run mcp up, text only…');
    const few = queries.slice(0, 12);
    const alone = freshSearches(CLI, local.root, few);
    const served = await freshSearchesWithServer(CLI, local.root, few, work);
    const textOnly = freshSearches(CLI, local.root, few, ['--mode', 'text']);

    const report: EmbedBenchReport = {
      observations: n,
      loadAverageAtStart: loadAtStart,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      cores: availableParallelism(),
      build: {
        localMs: Math.round(localBuild.ms),
        textMs: Math.round(textBuild.ms),
        localCpuMs: localBuild.cpuMs,
        textCpuMs: textBuild.cpuMs,
        embedded: built.embedded,
        docsPerSecond,
        docsPerCpuSecond,
        projected100kMinutes: Math.round(((100_000 * englishShare) / docsPerSecond / 60) * 10) / 10,
        projected100kCpuMinutes:
          docsPerCpuSecond !== null ? Math.round(((100_000 * englishShare) / docsPerCpuSecond / 60) * 10) / 10 : null,
        localRssMb: localBuild.rssMb,
        textRssMb: textBuild.rssMb,
      },
      tick50: {
        localMs: tickLocal,
        textMs: tickText,
        localP50: percentile(tickLocal, 50),
        textP50: percentile(tickText, 50),
        localCpuP50: cpuP(tickLocalCpu, 50),
        textCpuP50: cpuP(tickTextCpu, 50),
        embeddedPerTick,
      },
      idleTick: {
        localP50: percentile(idle, 50),
        localP95: percentile(idle, 95),
        textP50: percentile(idleText, 50),
        nodeP50: percentile(bare, 50),
        nodeP95: percentile(bare, 95),
        addedP50: Math.round(percentile(idle, 50) - percentile(bare, 50)),
        localCpuP50: cpuP(idleCpu, 50),
        textCpuP50: cpuP(idleTextCpu, 50),
        nodeCpuP50: cpuP(bareCpu, 50),
      },
      query: {
        firstCallMs,
        p50: percentile(q, 50),
        p95: percentile(q, 95),
        cpuP50: percentile(qCpu, 50),
        cpuP95: percentile(qCpu, 95),
        calls: q.length,
        textSearchP50: percentile(ts, 50),
        textSearchP95: percentile(ts, 95),
      },
      mcp: {
        hybridRssMb: hybridMcp.rssMb,
        textRssMb: textMcp.rssMb,
        hybridP50: hybridMcp.p50,
        hybridP95: hybridMcp.p95,
        textP50: textMcp.p50,
        textP95: textMcp.p95,
        hybridMode: hybridMcp.hybrid,
      },
      freshSearch: {
        aloneP50: percentile(alone.ms, 50),
        aloneP95: percentile(alone.ms, 95),
        serverP50: percentile(served.ms, 50),
        serverP95: percentile(served.ms, 95),
        textP50: percentile(textOnly.ms, 50),
        textP95: percentile(textOnly.ms, 95),
        serverHybrid: served.hybrid,
        calls: few.length,
      },
      targets: {},
    };
    report.targets = {
      'query embedding, kept-open process, p95 ≤ 15 ms': { value: report.query.p95, target: '≤ 15 ms', ok: report.query.p95 <= 15 },
      'embedding a 100k home from scratch ≤ 25 min (projected)': {
        value: report.build.projected100kMinutes,
        target: '≤ 25 min',
        ok: report.build.projected100kMinutes <= 25,
      },
      'a tick with 50 new observations ≤ 2 s': { value: report.tick50.localP50, target: '≤ 2000 ms', ok: report.tick50.localP50 <= 2000 },
      'idle tick over node -e 0 ≤ +200 ms': { value: report.idleTick.addedP50, target: '≤ +200 ms', ok: report.idleTick.addedP50 <= 200 },
      'RSS of ocm-run mcp with the model loaded ≤ 400 MB': {
        value: report.mcp.hybridRssMb ?? NaN,
        target: '≤ 400 MB',
        ok: (report.mcp.hybridRssMb ?? Infinity) <= 400,
      },
    };
    return report;
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

export function embedBenchTable(r: EmbedBenchReport): string {
  return [
    `Local embeddings (@energetic-ai USE Lite, WASM) on ${r.observations.toLocaleString('en')} observations (30 % ` +
      `Korean: no vector); ${r.cores} cores, load average ${r.loadAverageAtStart.join(' ')} at the start, ` +
      `${r.loadAverage.join(' ')} at the end`,
    '',
    '| measure | local model | same-run text-only baseline |',
    '|---|---|---|',
    `| \`ocm-run index\` of a fresh home (model on its worker thread) | ${r.build.localMs} ms wall, ` +
      `${r.build.localCpuMs ?? '–'} ms CPU; ${r.build.embedded} embedded: ${r.build.docsPerSecond} documents/s wall, ` +
      `${r.build.docsPerCpuSecond ?? '–'} per CPU second → a 100k home in ~${r.build.projected100kMinutes} min wall ` +
      `at this load, ~${r.build.projected100kCpuMinutes ?? '–'} min of one core; RSS ${r.build.localRssMb ?? '–'} MB ` +
      `| provider none: ${r.build.textMs} ms wall, ${r.build.textCpuMs ?? '–'} ms CPU; RSS ` +
      `${r.build.textRssMb ?? '–'} MB |`,
    `| \`ocm-run run\`, a tick with 50 new observations (${r.tick50.embeddedPerTick} embedded), p50 of ` +
      `${r.tick50.localMs.length} | ${r.tick50.localP50} ms wall (${r.tick50.localMs.join(', ')}), ` +
      `${r.tick50.localCpuP50 ?? '–'} ms CPU | ${r.tick50.textP50} ms wall (${r.tick50.textMs.join(', ')}), ` +
      `${r.tick50.textCpuP50 ?? '–'} ms CPU |`,
    `| idle tick, model configured, p50 / p95 | ${r.idleTick.localP50} / ${r.idleTick.localP95} ms wall ` +
      `(+${r.idleTick.addedP50} ms over node), ${r.idleTick.localCpuP50 ?? '–'} ms CPU | \`node -e 0\`: ` +
      `${r.idleTick.nodeP50} / ${r.idleTick.nodeP95} ms wall, ${r.idleTick.nodeCpuP50 ?? '–'} ms CPU; idle tick of ` +
      `the text-only twin: ${r.idleTick.textP50} ms wall, ${r.idleTick.textCpuP50 ?? '–'} ms CPU |`,
    `| query embedding in a kept-open process, p50 / p95 over ${r.query.calls} | ${r.query.p50} / ${r.query.p95} ` +
      `ms wall, ${r.query.cpuP50} / ${r.query.cpuP95} ms CPU (first call, loading the model: ${r.query.firstCallMs} ` +
      `ms) | text-only search of the same queries, in-process: ${r.query.textSearchP50} / ${r.query.textSearchP95} ` +
      `ms |`,
    `| one-off \`ocm-run search\`, p50 / p95 over ${r.freshSearch.calls} | loading the model: ` +
      `${r.freshSearch.aloneP50} / ${r.freshSearch.aloneP95} ms; with \`ocm-run mcp\` up (its vectors, ` +
      `${r.freshSearch.serverHybrid}/${r.freshSearch.calls} hybrid): ${r.freshSearch.serverP50} / ` +
      `${r.freshSearch.serverP95} ms | \`--mode text\`: ${r.freshSearch.textP50} / ${r.freshSearch.textP95} ms |`,
    `| \`ocm-run mcp\` \`search_memory\` p50 / p95; server RSS after | ` +
      `${r.mcp.hybridMode ? 'hybrid' : 'NOT hybrid'}: ${r.mcp.hybridP50} / ${r.mcp.hybridP95} ms; ` +
      `${r.mcp.hybridRssMb ?? '–'} MB | text: ${r.mcp.textP50} / ${r.mcp.textP95} ms; ${r.mcp.textRssMb ?? '–'} MB |`,
    '',
    '| target | measured | ok |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, v]) => `| ${k} | ${v.value} | ${v.ok ? 'yes' : 'NO'} |`),
  ].join('\n');
}
