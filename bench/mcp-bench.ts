/**
 * The MCP server and the per-prompt hook at scale (the `npm run bench`
 * section "mcp").
 *
 * On a fresh home of N observations (default 100k, bench/search-corpus.ts,
 * indexed with `ocm-run index`):
 *   - `search_memory` through `ocm-run mcp`, driven by the MCP SDK's client over
 *     stdio as an agent drives it: the first call (which opens the index) and
 *     the p50/p95 of the calls after it (the index kept open), beside a
 *     same-run baseline: `active_memory`, a call that reads one small file (the
 *     protocol's own round trip);
 *   - the per-prompt hook: the command `integrate` writes (`node
 *     dist/scripts/prompt-hook.cjs hook prompt …`) as the fresh process an
 *     agent starts before each prompt, prompt JSON on stdin — the time it adds
 *     to a prompt (an agent without the hook adds none) — while `ocm-run mcp`
 *     runs (the fast path, scripts/prompt-hook.cts, asks it over its socket,
 *     as under Claude Code), beside three same-run baselines taken in turn
 *     with it, prompt by prompt: a bare `node -e 0` (what any Node program
 *     costs to start), `ocm-run hook prompt` (dist/scripts/cli.js, the ES
 *     module entry: the same fast path behind Node's ESM loader) and the same
 *     hook through the full command line (dist/scripts/cli-main.js: the flag
 *     parser, the command registry — what every prompt paid before the fast path); then
 *     with no server (the hook loads the index itself).
 *
 *   node --import tsx bench/run.ts mcp [--n 100000] [--queries 40]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { homePaths } from '../lib/platform/home.js';
import { type KeptHome, keptHome } from './fixture-cache.js';
import { benchQueries, indexedCorpusHome, percentile, processCpuMs, snapshotCli, timed } from './search-bench.js';
import { mcpSearches, rssMb, seedLocalVectors } from './embed-bench.js';

export { processCpuMs };

/** Preloaded into the hook runs: the CPU a process uses after Node's own start (bench/after-start-cpu.cjs). */
const AFTER_START_CPU = join(import.meta.dirname, 'after-start-cpu.cjs');

export interface McpBenchReport {
  observations: number;
  /** The home came from a kept fixture (bench/fixture-cache.ts) rather than being made; ms to copy or make it. */
  home: { kept: boolean; prepareMs: number };
  /** Load averages (1, 5, 15 min) when the bench started and when it ended: the machine is shared. */
  loadAverageAtStart: number[];
  loadAverage: number[];
  /** cpuPerCallMs: the server process's CPU time (user + system, /proc) over the searches, per call (null off Linux). */
  mcp: {
    firstCallMs: number;
    p50: number;
    p95: number;
    calls: number;
    cpuPerCallMs: number | null;
    baselineP50: number;
    baselineP95: number;
  };
  /**
   * The same server with the local embedding model (embed-bench.ts seedLocalVectors: every document a real model
   * vector, from a pool of `pool`): search_memory ranking text + vectors, the query embedded in the server.
   */
  hybrid?: {
    firstCallMs: number;
    p50: number;
    p95: number;
    calls: number;
    cpuPerCallMs: number | null;
    rssMb: number | null;
    textRssMb: number | null;
    vectors: number;
    pool: number;
    mode: string;
  };
  /** The hook with `ocm-run mcp` running (as under Claude Code) and without it. */
  hook: {
    p50: number;
    p95: number;
    /** CPU ms (user + system) of the hook process, p50 / p95: what it costs on an idle machine is close to this. */
    cpuP50: number | null;
    cpuP95: number | null;
    injected: number;
    /** Hook runs behind p50 / p95 (every prompt twice). */
    calls: number;
    aloneP50: number;
    aloneP95: number;
    aloneCpuP50: number | null;
    aloneInjected: number;
    prompts: number;
    nodeBareP50: number;
    nodeBareP95: number;
    nodeBareCpuP50: number | null;
    /** `ocm-run hook prompt` (dist/scripts/cli.js, the ES module entry), in turn with the others. */
    viaCliP50: number;
    viaCliP95: number;
    /** The same hook through the full command line (no fast path), in turn with the fast one. */
    fullCliP50: number;
    fullCliP95: number;
    fullCliCpuP50: number | null;
    /** CPU ms after Node's own start, p50 / p95 (process.cpuUsage, bench/after-start-cpu.cjs): the hook, the full CLI, bare node. */
    afterStartCpu: { hook: [number, number]; viaCli: [number, number]; fullCli: [number, number]; bare: [number, number] };
  };
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

/** Prompts as a user types them: the bench queries inside a sentence. */
function prompts(n: number): string[] {
  return benchQueries(n).map((q, i) =>
    i % 2 === 0 ? `Can you remind me what we said about ${q}?` : `Let's continue with ${q} — what was decided?`,
  );
}

export async function runMcpBench(
  options: { n?: number; queries?: number; keep?: boolean; hybrid?: boolean; fresh?: boolean; log?: (s: string) => void } = {},
): Promise<McpBenchReport> {
  const log = options.log ?? (() => undefined);
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  const n = options.n ?? 100_000;
  const work = await mkdtemp(join(tmpdir(), 'ocm-mcp-bench-'));
  const paths = homePaths(join(work, 'home'));
  const queries = benchQueries(options.queries ?? 40);
  try {
    const CLI = await snapshotCli(work);
    // The home with its seeded vectors and hybrid index, searched text-only first (provider none), then hybrid.
    const home = await hybridCorpusHome(paths, CLI, n, { fresh: options.fresh ?? false, log });
    const documents = home.documents;
    await useProvider(paths, 'none');

    log('  search_memory through ocm-run mcp…');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--home', paths.root],
      env: { PATH: process.env.PATH ?? '', HOME: work, CI: '1' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'ocm-bench', version: '1' });
    await client.connect(transport, { timeout: 60_000 });
    const call = async (name: string, args: Record<string, unknown>): Promise<number> => {
      const t = performance.now();
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
      return performance.now() - t;
    };
    const firstCallMs = await call('search_memory', { query: queries[0]! });
    const searches: number[] = [];
    const cpuBefore = processCpuMs(transport.pid);
    for (let round = 0; round < 3; round++) for (const q of queries) searches.push(await call('search_memory', { query: q }));
    const cpuAfter = processCpuMs(transport.pid);
    const cpuPerCallMs = cpuBefore !== null && cpuAfter !== null ? Math.round(((cpuAfter - cpuBefore) / searches.length) * 10) / 10 : null;
    const baseline: number[] = [];
    for (let i = 0; i < queries.length; i++) baseline.push(await call('active_memory', {}));
    const textRssMb = rssMb(transport.pid);

    const list = prompts(Math.min(20, queries.length));
    const FULL_CLI = join(dirname(CLI), 'cli-main.js');
    // What `integrate` writes as the prompt hook's program (lib/integrations/claude-code/integration.ts, hookCommand).
    const PROMPT_HOOK = join(dirname(CLI), 'prompt-hook.cjs');
    type Runs = { ms: number[]; cpu: number[]; afterStartCpu: number[]; injected: number };
    const runs = (): Runs => ({ ms: [], cpu: [], afterStartCpu: [], injected: 0 });
    const record = (r: Awaited<ReturnType<typeof timed>>, into: Runs) => {
      into.ms.push(r.ms);
      if (r.cpuMs !== null) into.cpu.push(r.cpuMs);
      const after = /__AFTER_START_CPU__([\d.]+)/.exec(r.stderr);
      if (after) into.afterStartCpu.push(Number(after[1]));
    };
    const hook = async (cli: string, prompt: string, into: Runs) => {
      const r = await timed(
        process.execPath,
        ['--require', AFTER_START_CPU, cli, 'hook', 'prompt', '--home', paths.root, '--timeout-ms', '5000'],
        { input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt }) },
      );
      record(r, into);
      if (r.stdout.includes('additionalContext')) into.injected++;
    };
    log(
      '  ocm-run hook prompt as fresh processes, the MCP server running (it answers over its socket), in turn with node -e 0 and the full CLI…',
    );
    const served = runs();
    const viaCli = runs();
    const fullCli = runs();
    const bare = runs();
    // In turn, prompt by prompt, so that the machine's load falls alike on the hook and its baselines.
    for (let round = 0; round < 2; round++) {
      for (const prompt of list) {
        record(await timed(process.execPath, ['--require', AFTER_START_CPU, '-e', '0']), bare);
        await hook(PROMPT_HOOK, prompt, served);
        await hook(CLI, prompt, viaCli);
        await hook(FULL_CLI, prompt, fullCli);
      }
    }
    await client.close();
    log('  ocm-run hook prompt as fresh processes, no MCP server (the hook loads the index itself)…');
    const alone = runs();
    for (const prompt of list) await hook(PROMPT_HOOK, prompt, alone);
    const cpuPercentile = (xs: number[], p: number) => (xs.length ? percentile(xs, p) : null);
    const hybrid = options.hybrid === false ? undefined : await hybridPass(paths, CLI, queries, work, textRssMb, home, log);

    const report: McpBenchReport = {
      observations: documents,
      home: { kept: home.kept, prepareMs: home.prepareMs },
      loadAverageAtStart: loadAtStart,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      mcp: {
        firstCallMs: Math.round(firstCallMs),
        p50: percentile(searches, 50),
        p95: percentile(searches, 95),
        calls: searches.length,
        cpuPerCallMs,
        baselineP50: percentile(baseline, 50),
        baselineP95: percentile(baseline, 95),
      },
      hook: {
        p50: percentile(served.ms, 50),
        p95: percentile(served.ms, 95),
        cpuP50: cpuPercentile(served.cpu, 50),
        cpuP95: cpuPercentile(served.cpu, 95),
        injected: served.injected,
        aloneP50: percentile(alone.ms, 50),
        aloneP95: percentile(alone.ms, 95),
        aloneCpuP50: cpuPercentile(alone.cpu, 50),
        aloneInjected: alone.injected,
        prompts: list.length,
        calls: served.ms.length,
        nodeBareP50: percentile(bare.ms, 50),
        nodeBareP95: percentile(bare.ms, 95),
        nodeBareCpuP50: cpuPercentile(bare.cpu, 50),
        viaCliP50: percentile(viaCli.ms, 50),
        viaCliP95: percentile(viaCli.ms, 95),
        fullCliP50: percentile(fullCli.ms, 50),
        fullCliP95: percentile(fullCli.ms, 95),
        fullCliCpuP50: cpuPercentile(fullCli.cpu, 50),
        afterStartCpu: {
          hook: [percentile(served.afterStartCpu, 50), percentile(served.afterStartCpu, 95)],
          viaCli: [percentile(viaCli.afterStartCpu, 50), percentile(viaCli.afterStartCpu, 95)],
          fullCli: [percentile(fullCli.afterStartCpu, 50), percentile(fullCli.afterStartCpu, 95)],
          bare: [percentile(bare.afterStartCpu, 50), percentile(bare.afterStartCpu, 95)],
        },
      },
      ...(hybrid ? { hybrid } : {}),
      targets: {},
    };
    report.targets = {
      'MCP search_memory p95 ≤ 30 ms': { value: report.mcp.p95, target: '≤ 30 ms', ok: report.mcp.p95 <= 30 },
      ...(hybrid
        ? {
            'MCP search_memory hybrid p95 ≤ 30 ms': { value: hybrid.p95, target: '≤ 30 ms', ok: hybrid.p95 <= 30 },
            'RSS of ocm-run mcp with the model loaded ≤ 400 MB': {
              value: hybrid.rssMb ?? NaN,
              target: '≤ 400 MB',
              ok: (hybrid.rssMb ?? Infinity) <= 400,
            },
          }
        : {}),
      'per-prompt hook added p95 ≤ 150 ms': { value: report.hook.p95, target: '≤ 150 ms', ok: report.hook.p95 <= 150 },
    };
    return report;
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

/** The config of the bench home, embedding with `provider` (none: text-only search of the same index). */
async function useProvider(paths: ReturnType<typeof homePaths>, provider: 'none' | 'local'): Promise<void> {
  await writeFile(paths.config, `${CORPUS_CONFIG}embeddings:\n  provider: ${provider}\n`, { mode: 0o600 });
}

const CORPUS_CONFIG = 'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    enabled: false\n';

/** Seeded vectors: real model vectors from a pool of this many of the home's texts (embed-bench.ts seedLocalVectors). */
const VECTOR_POOL = 1000;

/** What is kept with the hybrid home. */
interface HybridMeta {
  documents: number;
  vectors: number;
  pool: number;
}
type HybridHome = KeptHome<HybridMeta>;

/**
 * The corpus home of `n` observations indexed with the local model's vectors (seeded): copied from the kept
 * fixture (bench/fixture-cache.ts) when there is one for this build's formats, else made (generated, indexed,
 * vectors seeded, indexed again: minutes at 100k) and kept for the next run.
 */
async function hybridCorpusHome(
  paths: ReturnType<typeof homePaths>,
  cli: string,
  n: number,
  options: { fresh: boolean; log: (s: string) => void },
): Promise<HybridHome> {
  return keptHome(
    paths.root,
    { section: 'mcp', n, parts: { pool: VECTOR_POOL } },
    { ...options, describe: (kept: HybridMeta) => `home of ${kept.documents} observations with seeded vectors` },
    async () => {
      const documents = await indexedCorpusHome(paths, cli, n, options.log);
      await useProvider(paths, 'local');
      delete process.env.OCM_LOCAL_EMBEDDINGS;
      const vectors = await seedLocalVectors(paths, VECTOR_POOL, options.log);
      options.log('  index: vector sidecars from the seeded cache…');
      const indexed = JSON.parse((await timed(process.execPath, [cli, 'index', '--json', '--home', paths.root])).stdout) as {
        mode: string;
        embedded: number;
      };
      if (indexed.mode !== 'hybrid') throw new Error(`the seeded home is not hybrid (embedded ${indexed.embedded})`);
      return { documents, vectors, pool: VECTOR_POOL };
    },
  );
}

/** The home switched to the local model (its vectors indexed already) and served again: hybrid search_memory. */
async function hybridPass(
  paths: ReturnType<typeof homePaths>,
  cli: string,
  queries: string[],
  work: string,
  textRssMb: number | null,
  home: HybridHome,
  log: (s: string) => void,
): Promise<NonNullable<McpBenchReport['hybrid']>> {
  await useProvider(paths, 'local');
  delete process.env.OCM_LOCAL_EMBEDDINGS;
  log('  search_memory (hybrid) through ocm-run mcp…');
  const r = await mcpSearches(cli, paths.root, queries, work, 3);
  return {
    firstCallMs: r.firstCallMs,
    p50: r.p50,
    p95: r.p95,
    calls: r.calls,
    cpuPerCallMs: r.cpuPerCallMs,
    rssMb: r.rssMb,
    textRssMb,
    vectors: home.vectors,
    pool: home.pool,
    mode: r.hybrid ? 'hybrid' : 'text',
  };
}

export function mcpBenchTable(r: McpBenchReport): string {
  return [
    `MCP server and per-prompt hook at ${r.observations.toLocaleString('en')} observations; load average ` +
      `${r.loadAverageAtStart.join(' ')} at the start, ${r.loadAverage.join(' ')} at the end ` +
      `(${availableParallelism()} cores)`,
    '',
    '| measure | OC-Memory | same-run baseline |',
    '|---|---|---|',
    `| \`search_memory\` via \`ocm-run mcp\` (SDK client, stdio), p50 / p95 over ${r.mcp.calls} calls | ` +
      `${r.mcp.p50} / ${r.mcp.p95} ms; server CPU ${r.mcp.cpuPerCallMs ?? '–'} ms a call (first call, opening the ` +
      `index: ${r.mcp.firstCallMs} ms) | \`active_memory\` round trip: ${r.mcp.baselineP50} / ${r.mcp.baselineP95} ` +
      `ms |`,
    `| per-prompt hook as \`integrate\` writes it (\`node prompt-hook.cjs hook prompt\`, fresh process) added to a ` +
      `prompt, \`ocm-run mcp\` running, p50 / p95 over ${r.hook.calls} | ${r.hook.p50} / ${r.hook.p95} ms wall, ` +
      `${r.hook.cpuP50 ?? '–'} / ${r.hook.cpuP95 ?? '–'} ms CPU (memory injected for ${r.hook.injected} of ` +
      `${r.hook.calls}) | no hook: 0 ms; \`node -e 0\`: ${r.hook.nodeBareP50} / ${r.hook.nodeBareP95} ms wall, ` +
      `${r.hook.nodeBareCpuP50 ?? '–'} ms CPU; \`ocm-run hook prompt\` (cli.js, ESM entry): ${r.hook.viaCliP50} / ` +
      `${r.hook.viaCliP95} ms wall; the full CLI (no fast path): ${r.hook.fullCliP50} / ${r.hook.fullCliP95} ms ` +
      `wall, ${r.hook.fullCliCpuP50 ?? '–'} ms CPU |`,
    `| the hook's CPU after Node's own start (what OC-Memory itself costs; a loaded machine inflates Node's start ` +
      `most), p50 / p95 | ${r.hook.afterStartCpu.hook[0]} / ${r.hook.afterStartCpu.hook[1]} ms | \`node -e 0\`: ` +
      `${r.hook.afterStartCpu.bare[0]} / ${r.hook.afterStartCpu.bare[1]} ms; cli.js: ` +
      `${r.hook.afterStartCpu.viaCli[0]} / ${r.hook.afterStartCpu.viaCli[1]} ms; the full CLI: ` +
      `${r.hook.afterStartCpu.fullCli[0]} / ${r.hook.afterStartCpu.fullCli[1]} ms |`,
    `| the same hook with no MCP server (it loads the index itself), p50 / p95 | ${r.hook.aloneP50} / ` +
      `${r.hook.aloneP95} ms wall, ${r.hook.aloneCpuP50 ?? '–'} ms CPU p50 (injected for ${r.hook.aloneInjected}) | ` +
      `– |`,
    ...(r.hybrid
      ? [
          `| \`search_memory\` with the local model (${r.hybrid.mode} search; ${r.hybrid.vectors.toLocaleString('en')} ` +
            `documents with a vector, real model vectors from a pool of ${r.hybrid.pool}; the query embedded in the ` +
            `server), p50 / p95 over ${r.hybrid.calls} distinct queries | ${r.hybrid.p50} / ${r.hybrid.p95} ms; server CPU ` +
            `${r.hybrid.cpuPerCallMs ?? '–'} ms a call (first call, loading the model and the vectors: ` +
            `${r.hybrid.firstCallMs} ms); RSS ${r.hybrid.rssMb ?? '–'} MB | text only, above: ${r.mcp.p50} / ${r.mcp.p95} ` +
            `ms, CPU ${r.mcp.cpuPerCallMs ?? '–'} ms a call; RSS ${r.hybrid.textRssMb ?? '–'} MB |`,
        ]
      : []),
    '',
    r.home.kept
      ? `The home (seeded vectors, hybrid index) was copied from the kept fixture in ${r.home.prepareMs} ms (\`--fresh\` makes it again).`
      : `The home (seeded vectors, hybrid index) was made in ${r.home.prepareMs} ms and kept under .cache/bench-fixtures/.`,
    '',
    '| target | measured | ok |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, v]) => `| ${k} | ${v.value} | ${v.ok ? 'yes' : 'NO'} |`),
  ].join('\n');
}
