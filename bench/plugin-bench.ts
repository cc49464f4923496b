/**
 * What the OpenClaw plugin adds to a prompt (the `npm run bench` section
 * "plugin"): the compiled plugin (dist/templates/openclaw-plugin/index.js of a
 * private copy of the built package) registered with a recording `api`, its
 * `before_prompt_build` handler called turn after turn on a home of N
 * observations (default 100k, 90 days, agents main and work), beside a
 * same-run baseline: a plugin whose handler returns nothing. Both are timed
 * alternately on the same events; the figure is the per-turn difference.
 * The plugin's first turn (OC-Memory's lib imported, the index opened) is
 * reported apart. Target: p95 of the added time ≤ 50 ms.
 *
 *   node --import tsx bench/run.ts plugin [--n 100000] [--turns 60]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { homePaths, type HomePaths } from '../lib/platform/home.js';
import { type KeptHome, keptHome } from './fixture-cache.js';
import { writeCorpus } from './search-corpus.js';
import { benchQueries, percentile, snapshotCli } from './search-bench.js';
import type { PluginApi } from '../templates/openclaw-plugin/index.js';

export interface PluginBenchReport extends Turns {
  observations: number;
  files: number;
  /** The home came from a kept fixture (bench/fixture-cache.ts) rather than being made; ms to copy or make it. */
  home: { kept: boolean; prepareMs: number };
  turns: number;
  loadAverage: number[];
  firstTurnMs: number;
  /** This process's resident memory before the plugin was loaded and after its turns (a gateway's growth). */
  rssBeforeMb: number;
  rssAfterMb: number;
  /**
   * The same turns with the local embedding model (every document a real model vector, embed-bench.ts
   * seedLocalVectors): the query embedded in-process, once the model the plugin loads in the background is ready.
   */
  hybrid?: {
    firstTurnMs: number;
    readyAfterMs: number;
    plugin: { p50: number; p95: number };
    baseline: { p50: number; p95: number };
    added: { p50: number; p95: number };
    pluginCpu: { p50: number; p95: number };
    injected: number;
    rssAfterMb: number;
    vectors: number;
  };
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

const rssNowMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

/** The timed turns of a plugin against the baseline plugin. */
interface Turns {
  plugin: { p50: number; p95: number };
  baseline: { p50: number; p95: number };
  added: { p50: number; p95: number };
  /** CPU time (user + system) of the plugin's turns: what the wall time is on an idle machine, without the waits for a busy one's cores. */
  pluginCpu: { p50: number; p95: number };
  /** Turns that got a memory context, and of those with related memories. */
  injected: number;
  withRelated: number;
}

/** `turns` turns of the plugin and the baseline alternately, on the same events. */
async function runTurns(
  plugin: Handler,
  baseline: Handler,
  turns: number,
  eventOf: (i: number) => unknown,
  ctxOf: (i: number) => unknown,
): Promise<Turns> {
  const pluginMs: number[] = [];
  const baselineMs: number[] = [];
  const added: number[] = [];
  const pluginCpu: number[] = [];
  let injected = 0;
  let withRelated = 0;
  for (let i = 1; i <= turns; i++) {
    const event = eventOf(i);
    const ctx = ctxOf(i);
    const pair =
      i % 2 === 0
        ? [await timedCall(plugin, event, ctx), await timedCall(baseline, event, ctx)]
        : (([b, p]) => [p, b])([await timedCall(baseline, event, ctx), await timedCall(plugin, event, ctx)]);
    const [p, b] = pair as [{ ms: number; cpuMs: number; out: unknown }, { ms: number; cpuMs: number; out: unknown }];
    pluginMs.push(p.ms);
    pluginCpu.push(p.cpuMs);
    baselineMs.push(b.ms);
    added.push(Math.max(0, p.ms - b.ms));
    const text = (p.out as { prependContext?: string } | undefined)?.prependContext;
    if (text) injected++;
    if (text?.includes('## Related memories')) withRelated++;
  }
  return {
    plugin: { p50: percentile(pluginMs, 50), p95: percentile(pluginMs, 95) },
    baseline: { p50: percentile(baselineMs, 50), p95: percentile(baselineMs, 95) },
    added: { p50: percentile(added, 50), p95: percentile(added, 95) },
    pluginCpu: { p50: percentile(pluginCpu, 50), p95: percentile(pluginCpu, 95) },
    injected,
    withRelated,
  };
}

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;

/** A registered plugin: its prompt hook, and its unload (gateway_stop; nothing when it registered none). */
interface Registered {
  prompt: Handler;
  stop: () => Promise<void>;
}

function register(plugin: { register(api: PluginApi): void }, pluginConfig: unknown): Registered {
  let prompt: Handler | undefined;
  let stop: Handler | undefined;
  plugin.register({
    pluginConfig,
    logger: {},
    on(hook, h) {
      if (hook === 'before_prompt_build') prompt = h as Handler;
      if (hook === 'gateway_stop') stop = h as Handler;
    },
  });
  if (!prompt) throw new Error('before_prompt_build was not registered');
  return { prompt, stop: async () => void (await stop?.({}, {})) };
}

async function timedCall(handler: Handler, event: unknown, ctx: unknown): Promise<{ ms: number; cpuMs: number; out: unknown }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = await handler(event, ctx);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, out };
}

const CORPUS_CONFIG = 'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    enabled: false\n';

/** The config of the bench home, embedding with `provider` (none: text-only recall over the same index). */
async function useProvider(paths: HomePaths, provider: 'none' | 'local'): Promise<void> {
  await writeFile(paths.config, `${CORPUS_CONFIG}embeddings:\n  provider: ${provider}\n`, { mode: 0o600 });
}

/** Seeded vectors: real model vectors from a pool of this many of the home's texts (embed-bench.ts seedLocalVectors). */
const VECTOR_POOL = 1000;

/** What is kept with the corpus home. */
interface CorpusMeta {
  observations: number;
  files: number;
  vectors: number;
}
type CorpusHome = KeptHome<CorpusMeta>;

/**
 * The home of `n` observations over 90 days as after a turn (`ocm-run observe`: active memory and the index),
 * with the local model's vectors seeded and indexed: copied from the kept fixture (bench/fixture-cache.ts) when
 * there is one for this build's formats, else made (minutes at 100k) and kept for the next run.
 */
async function hybridCorpusHome(
  paths: HomePaths,
  cli: string,
  n: number,
  options: { fresh: boolean; log: (s: string) => void },
): Promise<CorpusHome> {
  return keptHome(
    paths.root,
    { section: 'plugin', n, parts: { pool: VECTOR_POOL } },
    { ...options, describe: (kept: CorpusMeta) => `home of ${kept.observations} observations with seeded vectors` },
    async () => {
      options.log(`  generating ${n} observations over 90 days…`);
      await mkdir(paths.root, { recursive: true });
      await useProvider(paths, 'none');
      const corpus = await writeCorpus(paths, { observations: n, days: 90, endDate: '2026-03-31', agents: ['work'], korean: 0.3 });
      options.log('  ocm-run observe (active memory and the index, as after a turn)…');
      const observed = await execa(process.execPath, [cli, 'observe', '--home', paths.root], { reject: false, env: { CI: '1' } });
      if (observed.exitCode !== 0) throw new Error(`observe failed: ${String(observed.stderr).slice(0, 500)}`);
      await useProvider(paths, 'local');
      delete process.env.OCM_LOCAL_EMBEDDINGS;
      const { seedLocalVectors } = await import('./embed-bench.js');
      const vectors = await seedLocalVectors(paths, VECTOR_POOL, options.log);
      const indexed = await execa(process.execPath, [cli, 'index', '--json', '--home', paths.root], { reject: false, env: { CI: '1' } });
      if ((JSON.parse(String(indexed.stdout)) as { mode?: string }).mode !== 'hybrid')
        throw new Error(`the seeded home is not hybrid: ${String(indexed.stderr).slice(0, 300)}`);
      return { observations: corpus.observations, files: corpus.files.length, vectors };
    },
  );
}

export async function runPluginBench(
  options: { n?: number; turns?: number; keep?: boolean; hybrid?: boolean; fresh?: boolean; log?: (s: string) => void } = {},
): Promise<PluginBenchReport> {
  const log = options.log ?? (() => undefined);
  const n = options.n ?? 100_000;
  const turns = Math.max(50, options.turns ?? 60);
  const work = await mkdtemp(join(tmpdir(), 'ocm-plugin-bench-'));
  const paths = homePaths(join(work, 'home'));
  let unload = async (): Promise<void> => undefined;
  try {
    const cli = await snapshotCli(work);
    // The home with its seeded vectors and hybrid index; the text turns first (provider none), then hybrid.
    const home = await hybridCorpusHome(paths, cli, n, { fresh: options.fresh ?? false, log });
    await useProvider(paths, 'none');

    const rssBeforeMb = rssNowMb();
    const compiled = (await import(
      pathToFileURL(join(dirname(dirname(cli)), 'templates', 'openclaw-plugin', 'index.js')).href
    )) as typeof import('../templates/openclaw-plugin/index.js');
    const registered = register(compiled.default, { home: paths.root, node: process.execPath, cli, timeoutMs: 14000 });
    unload = registered.stop;
    const plugin = registered.prompt;
    const baseline = register({ register: (api) => api.on('before_prompt_build', async () => undefined) }, {}).prompt;

    const queries = benchQueries(turns + 1);
    const eventOf = (i: number) => ({
      prompt: `[Tue 2026-03-31 10:${String(i % 60).padStart(2, '0')} UTC] What do you remember about ${queries[i]!}?`,
      messages: [
        { role: 'user', content: 'Good morning.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Good morning! What are we working on?' }] },
      ],
    });
    const ctxOf = (i: number) => ({ agentId: i % 4 === 3 ? 'work' : 'main', trigger: 'user', sessionKey: 'agent:main:main' });

    log('  first turn (lib import, index opened)…');
    const first = await timedCall(plugin, eventOf(0), ctxOf(0));
    // Warm both scopes (main and work) once, as a gateway does in its first minutes.
    await plugin(eventOf(1), ctxOf(3));

    log(`  ${turns} turns, plugin and baseline alternately…`);
    const text = await runTurns(plugin, baseline, turns, eventOf, ctxOf);
    const rssAfterMb = rssNowMb();
    await unload();
    unload = async () => undefined;

    let hybrid: PluginBenchReport['hybrid'];
    if (options.hybrid !== false) {
      log('  the same home with the local model (seeded vectors)…');
      await useProvider(paths, 'local');
      delete process.env.OCM_LOCAL_EMBEDDINGS;
      const again = register(compiled.default, { home: paths.root, node: process.execPath, cli, timeoutMs: 14000 });
      unload = again.stop;
      const firstHybrid = await timedCall(again.prompt, eventOf(0), ctxOf(0));
      // The plugin loads the model in the background (lib/api/recall.ts): the turns are measured once it is ready.
      const lib = join(dirname(dirname(cli)), 'lib', 'search');
      const { processEmbedder } = (await import(
        pathToFileURL(join(lib, 'embedder.js')).href
      )) as typeof import('../lib/search/embedder.js');
      const { embeddingSettings } = (await import(
        pathToFileURL(join(lib, 'embeddings.js')).href
      )) as typeof import('../lib/search/embeddings.js');
      const { loadConfig } = await import('../lib/config/config.js');
      const embedder = processEmbedder(embeddingSettings((await loadConfig({ file: paths.config, envFile: paths.env, env: {} })).config)!);
      const waitFrom = performance.now();
      while (!embedder.ready() && performance.now() - waitFrom < 120_000) await new Promise((r) => setTimeout(r, 100));
      if (!embedder.ready()) throw new Error('the local model was not ready after 120 s');
      const readyAfterMs = Math.round(performance.now() - waitFrom);
      await again.prompt(eventOf(1), ctxOf(3));
      log(`  ${turns} turns with vectors, plugin and baseline alternately…`);
      const turned = await runTurns(again.prompt, baseline, turns, eventOf, ctxOf);
      hybrid = {
        firstTurnMs: Math.round(firstHybrid.ms),
        readyAfterMs,
        plugin: turned.plugin,
        baseline: turned.baseline,
        added: turned.added,
        pluginCpu: turned.pluginCpu,
        injected: turned.injected,
        rssAfterMb: rssNowMb(),
        vectors: home.vectors,
      };
    }
    const report: PluginBenchReport = {
      observations: home.observations,
      files: home.files,
      home: { kept: home.kept, prepareMs: home.prepareMs },
      turns,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      firstTurnMs: Math.round(first.ms),
      ...text,
      rssBeforeMb,
      rssAfterMb,
      ...(hybrid ? { hybrid } : {}),
      targets: {},
    };
    report.targets['before_prompt_build added p95 ≤ 50 ms'] = { value: report.added.p95, target: '≤ 50 ms', ok: report.added.p95 <= 50 };
    if (hybrid)
      report.targets['before_prompt_build added p95 with vectors ≤ 50 ms'] = {
        value: hybrid.added.p95,
        target: '≤ 50 ms',
        ok: hybrid.added.p95 <= 50,
      };
    return report;
  } finally {
    // Unloaded as OpenClaw does (gateway_stop): the plugin finishes writing logs/hooks.log first.
    await unload();
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

export function pluginBenchTable(r: PluginBenchReport): string {
  return [
    `OpenClaw plugin, before_prompt_build on ${r.observations.toLocaleString('en')} observations (${r.files} day ` +
      `files, agents main and work); ${r.turns} turns; load average ${r.loadAverage.join(' ')}`,
    '',
    '| measure | p50 | p95 |',
    '|---|---|---|',
    `| plugin (in-process recall, index kept open) | ${r.plugin.p50} ms | ${r.plugin.p95} ms |`,
    `| baseline plugin returning nothing | ${r.baseline.p50} ms | ${r.baseline.p95} ms |`,
    `| **added by the plugin** (per turn) | ${r.added.p50} ms | ${r.added.p95} ms |`,
    `| CPU time of the plugin's turn (user + system) | ${r.pluginCpu.p50} ms | ${r.pluginCpu.p95} ms |`,
    '',
    ...(r.hybrid
      ? [
          `| with the local model (${r.hybrid.vectors.toLocaleString('en')} vectors): plugin | ${r.hybrid.plugin.p50} ms | ${r.hybrid.plugin.p95} ms |`,
          `| with the local model: baseline plugin returning nothing | ${r.hybrid.baseline.p50} ms | ${r.hybrid.baseline.p95} ms |`,
          `| **added by the plugin with the local model** (per turn, query embedded in-process) | ${r.hybrid.added.p50} ms | ${r.hybrid.added.p95} ms |`,
          `| CPU time of the plugin's turn with the local model | ${r.hybrid.pluginCpu.p50} ms | ${r.hybrid.pluginCpu.p95} ms |`,
        ]
      : []),
    '',
    r.home.kept
      ? `The home (seeded vectors, hybrid index) was copied from the kept fixture in ${r.home.prepareMs} ms (\`--fresh\` makes it again).`
      : `The home (seeded vectors, hybrid index) was made in ${r.home.prepareMs} ms and kept under .cache/bench-fixtures/.`,
    `First turn (lib import, index opened): ${r.firstTurnMs} ms. Turns with a memory context: ${r.injected} of ` +
      `${r.turns}, with related memories: ${r.withRelated}.`,
    `Resident memory of this process (the gateway's stand-in): ${r.rssBeforeMb} MB before the plugin, ${r.rssAfterMb} MB after its text-only turns${r.hybrid ? `, ${r.hybrid.rssAfterMb} MB after the turns with the local model (loaded ${r.hybrid.readyAfterMs} ms after its first turn, ${r.hybrid.firstTurnMs} ms; ${r.hybrid.injected} of ${r.turns} turns with a memory context)` : ''}.`,
    '',
    '| target | measured | ok |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, v]) => `| ${k} | ${v.value} ms | ${v.ok ? 'yes' : 'NO'} |`),
  ].join('\n');
}
