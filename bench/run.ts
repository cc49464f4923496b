/**
 * `npm run bench`: speed and memory sections, each printing a table and
 * writing JSON to bench/results/. Add a section: one entry in SECTIONS.
 *
 *   npm run bench                          all sections
 *   npm run bench -- search --n 20000      one section, with its flags
 *   npm run bench -- observe --runs 3      observe: measurements per figure (default 5)
 *   npm run bench -- masking --seed 7      masking corpus recall per kind and channel (--n: instances per kind and context)
 *   npm run bench -- markdown              reading pathological day-file bodies (pasted megabytes of *emphasis*), beside the former reader
 *   npm run bench -- plugin --turns 60     OpenClaw plugin: before_prompt_build turns (≥ 50)
 *   npm run bench -- mcp --fresh           mcp, plugin: make the generated home again instead of copying the kept one
 *                                          (.cache/bench-fixtures/, bench/fixture-cache.ts)
 *   npm run bench -- ui --n 100000          the dashboard: first page and search in the running server
 *   npm run bench -- embed --n 2000        local embedding model: home build rate, 50-observation tick, idle tick, query embedding, MCP RSS
 *   npm run bench -- forget --n 100000     forget of one id in one very large day
 *   npm run bench -- sync --n 100000       plain and encrypted sync of a large home: first push, incremental, idle
 *   npm run bench -- edits --n 3000        edits saved in place and by rename while observe writes: lost edits / observations
 *   npm run bench -- sqlite [--bs24 DIR]   OpenClaw database read: better-sqlite3 on Node 20 vs node:sqlite on Node 24
 *   npm run bench -- cli --runs 20 [--baseline CLI]  CLI start-up (--version, status) beside another build's dist/scripts/cli.js
 *   npm run bench -- compare --baseline DIR [--rounds 3] [--sections search,mcp]
 *                                          every section's key figures, a built checkout DIR beside this build:
 *                                          slower / same / faster against the noise (docs/performance.md); run only when named
 *
 * OCM_BENCH_RESULTS=DIR writes the JSON there instead of bench/results/ (compare reads its runs from it).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

interface Section {
  name: string;
  /** Run only when named (`npm run bench` alone skips it). */
  namedOnly?: boolean;
  run(args: Record<string, string | boolean | undefined>): Promise<{ table: string; json: unknown }>;
}

const ROOT = resolve(import.meta.dirname, '..');

const SECTIONS: Section[] = [
  {
    name: 'observe',
    async run(args) {
      const { runObserveBench, observeBenchTable } = await import('./observe-bench.js');
      const report = await runObserveBench({
        ...(args.n ? { exchanges: Number(args.n) } : {}),
        ...(args.runs ? { runs: Number(args.runs) } : {}),
      });
      return { table: observeBenchTable(report), json: report };
    },
  },
  {
    name: 'search',
    async run(args) {
      const { runSearchBench, searchBenchTable } = await import('./search-bench.js');
      const report = await runSearchBench({
        n: args.n ? Number(args.n) : 100_000,
        queries: args.queries ? Number(args.queries) : 40,
        keep: Boolean(args.keep),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: searchBenchTable(report), json: report };
    },
  },
  {
    name: 'plugin',
    async run(args) {
      const { runPluginBench, pluginBenchTable } = await import('./plugin-bench.js');
      const report = await runPluginBench({
        n: args.n ? Number(args.n) : 100_000,
        turns: args.turns ? Number(args.turns) : 60,
        keep: Boolean(args.keep),
        fresh: Boolean(args.fresh),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: pluginBenchTable(report), json: report };
    },
  },
  {
    name: 'mcp',
    async run(args) {
      const { runMcpBench, mcpBenchTable } = await import('./mcp-bench.js');
      const report = await runMcpBench({
        n: args.n ? Number(args.n) : 100_000,
        queries: args.queries ? Number(args.queries) : 40,
        keep: Boolean(args.keep),
        fresh: Boolean(args.fresh),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: mcpBenchTable(report), json: report };
    },
  },
  {
    name: 'embed',
    async run(args) {
      const { runEmbedBench, embedBenchTable } = await import('./embed-bench.js');
      const report = await runEmbedBench({
        n: args.n ? Number(args.n) : 2000,
        queries: args.queries ? Number(args.queries) : 40,
        keep: Boolean(args.keep),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: embedBenchTable(report), json: report };
    },
  },
  {
    name: 'tier',
    async run(args) {
      const { runTierBench, tierBenchTable } = await import('./tier-bench.js');
      const report = await runTierBench({
        n: args.n ? Number(args.n) : 50_000,
        queries: args.queries ? Number(args.queries) : 20,
        keep: Boolean(args.keep),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: tierBenchTable(report), json: report };
    },
  },
  {
    name: 'ui',
    async run(args) {
      const { runUiBench, uiBenchTable } = await import('./ui-bench.js');
      const report = await runUiBench({
        n: args.n ? Number(args.n) : 100_000,
        queries: args.queries ? Number(args.queries) : 40,
        keep: Boolean(args.keep),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: uiBenchTable(report), json: report };
    },
  },
  {
    // Recall of the generated secret corpus per kind and channel (docs/masking.md), with the CLI as a child process.
    name: 'masking',
    async run(args) {
      const { runMaskingChannels, maskingChannelsTable } = await import('../test/helpers/masking-channels.js');
      const seed = args.seed ? Number(args.seed) : 20261126;
      const report = await runMaskingChannels({
        seed,
        perContext: args.n ? Number(args.n) : 1,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: maskingChannelsTable(report), json: report };
    },
  },
  {
    // Reading hand-edited and pathological day-file bodies (docs/masking.md, "Pasted Markdown"), beside the former reader.
    name: 'markdown',
    async run() {
      const { runMarkdownBench, markdownBenchTable } = await import('./markdown-bench.js');
      const report = await runMarkdownBench({ log: (line) => process.stderr.write(`${line}\n`) });
      return { table: markdownBenchTable(report), json: report };
    },
  },
  {
    name: 'watch',
    async run(args) {
      const { runWatchBench, watchBenchTable } = await import('./watch-latency.js');
      const report = await runWatchBench({
        n: args.n ? Number(args.n) : 100,
        idleSeconds: args.idle ? Number(args.idle) : 20,
        keep: Boolean(args.keep),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: watchBenchTable(report), json: report };
    },
  },
  {
    name: 'edits',
    async run(args) {
      const { runEditRace, editRaceTable } = await import('./edit-race.js');
      const report = await runEditRace({
        ...(args.n ? { exchanges: Number(args.n) } : {}),
        ...(args.interval ? { intervalMs: Number(args.interval) } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: editRaceTable(report), json: report };
    },
  },
  {
    name: 'sync',
    async run(args) {
      const { runSyncBench, syncBenchTable } = await import('./sync-bench.js');
      const report = await runSyncBench({ ...(args.n ? { n: Number(args.n) } : {}), log: (line) => process.stderr.write(`${line}\n`) });
      return { table: syncBenchTable(report), json: report };
    },
  },
  {
    name: 'forget',
    async run(args) {
      const { runForgetBench, forgetBenchTable } = await import('./forget-bench.js');
      const report = await runForgetBench({ ...(args.n ? { n: Number(args.n) } : {}), log: (line) => process.stderr.write(`${line}\n`) });
      return { table: forgetBenchTable(report), json: report };
    },
  },
  {
    name: 'sqlite',
    async run(args) {
      const { runSqliteDriverBench, sqliteDriverBenchTable } = await import('./sqlite-driver-bench.js');
      const report = await runSqliteDriverBench({
        ...(args.n ? { sessions: Number(args.n) } : {}),
        ...(args.runs ? { runs: Number(args.runs) } : {}),
        ...(typeof args.bs24 === 'string' ? { betterSqlite3Node24: args.bs24 } : {}),
      });
      return { table: sqliteDriverBenchTable(report), json: report };
    },
  },
  {
    name: 'cli',
    async run(args) {
      const { runCliStartBench, cliStartBenchTable } = await import('./cli-start-bench.js');
      const report = await runCliStartBench({
        ...(args.runs ? { runs: Number(args.runs) } : {}),
        ...(typeof args.baseline === 'string' ? { baseline: args.baseline } : {}),
      });
      return { table: cliStartBenchTable(report), json: report };
    },
  },
  {
    name: 'compare',
    namedOnly: true,
    async run(args) {
      const { runCompare, compareTable } = await import('./compare.js');
      if (typeof args.baseline !== 'string') throw new Error('compare needs --baseline <dir of a built checkout> (docs/performance.md)');
      const report = await runCompare({
        baseline: args.baseline,
        ...(args.rounds ? { rounds: Number(args.rounds) } : {}),
        ...(typeof args.sections === 'string' ? { sections: args.sections.split(',').filter(Boolean) } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: compareTable(report), json: report };
    },
  },
];

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: {
    seed: { type: 'string' },
    n: { type: 'string' },
    turns: { type: 'string' },
    runs: { type: 'string' },
    queries: { type: 'string' },
    keep: { type: 'boolean' },
    fresh: { type: 'boolean' },
    idle: { type: 'string' },
    interval: { type: 'string' },
    bs24: { type: 'string' },
    baseline: { type: 'string' },
    rounds: { type: 'string' },
    sections: { type: 'string' },
  },
});
const RESULTS = process.env.OCM_BENCH_RESULTS ?? join(ROOT, 'bench', 'results');
await mkdir(RESULTS, { recursive: true });
for (const section of SECTIONS) {
  if (positionals.length ? !positionals.includes(section.name) : section.namedOnly) continue;
  process.stderr.write(`== bench: ${section.name}\n`);
  const { table, json } = await section.run(values);
  process.stdout.write(`${table}\n\n`);
  await writeFile(
    join(RESULTS, `bench-${section.name}.json`),
    `${JSON.stringify({ at: new Date().toISOString(), ...(json as object) }, null, 2)}\n`,
  );
}
