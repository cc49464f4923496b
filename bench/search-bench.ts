/**
 * Search speed and memory at scale (the `npm run bench` section "search").
 *
 * Generates N observations (default 100k) over 90 days, English and Korean
 * (bench/search-corpus.ts), into a fresh memory home, then measures:
 *   - full index build (`ocm-run index`, a child process: wall time, peak RSS);
 *   - incremental update after one new day (`ocm-run index`);
 *   - in-process query p50/p95 over a loaded index (rank + stored text of the
 *     hits), and a full `searchMemory` call that reads the index each time;
 *   - `ocm-run search --json` as a fresh process, p50/p95 and peak RSS;
 * beside same-run baselines: a bare `node -e 0`; SQLite FTS5 (the sqlite3
 * binary) on the same texts: build, and a fresh `sqlite3` process per query;
 * and MiniSearch (the peer library, a devDependency kept for this row) with
 * the project's analyzer over the same texts and queries, in this process:
 * `addAll` time, heap growth, query p50/p95 (top 10 with their text).
 *
 *   node --import tsx bench/run.ts search [--n 100000] [--queries 40]
 */
import { cp, mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { addDays, dayFileText, dayObservations, makeGenerator, writeCorpus } from './search-corpus.js';
import { dayFilePath, homePaths, type HomePaths } from '../lib/platform/home.js';
import { validateConfig } from '../lib/config/config.js';
import { IndexSnapshot, rank } from '../lib/search/searcher.js';
import { assemble, searchMemory } from '../lib/search/search.js';
import { listObservations, parseDayFile } from '../lib/memory/day-file/index.js';
import { readFile } from 'node:fs/promises';
import { listMarkdown } from '../lib/search/files.js';
import { analyze } from '../lib/search/tokenizer.js';
import MiniSearch from 'minisearch';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const ROOT = resolve(import.meta.dirname, '..');
const TIME = '/usr/bin/time';

/**
 * A private copy of the built package (dist/, package.json, templates/,
 * prompts/; node_modules linked), so a rebuild of dist/ while the benchmark
 * runs cannot break or slow the measured processes.
 */
export async function snapshotCli(work: string): Promise<string> {
  const pkg = join(work, 'pkg');
  await mkdir(pkg, { recursive: true });
  for (const part of ['dist', 'package.json', 'templates', 'prompts']) {
    if (existsSync(join(ROOT, part))) await cp(join(ROOT, part), join(pkg, part), { recursive: true });
  }
  await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const cli = join(pkg, 'dist', 'scripts', 'cli.js');
  await timed(process.execPath, [cli, '--help']);
  return cli;
}

export interface SearchBenchReport {
  observations: number;
  files: number;
  days: number;
  loadAverage: number[];
  build: { ms: number; peakRssMb: number | null; internalMs: number };
  incremental: { ms: number; internalMs: number; observations: number };
  inProcess: { p50: number; p95: number; loadMs: number };
  searchCall: { p50: number; p95: number };
  cli: { p50: number; p95: number; peakRssMb: number | null; cachedP50: number };
  nodeBare: { p50: number; p95: number };
  fts5: { buildMs: number; p50: number; p95: number } | null;
  minisearch: { buildMs: number; heapMb: number; p50: number; p95: number };
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 10) / 10;
}

/** Run a command; wall ms and (with /usr/bin/time) peak RSS in MB and CPU ms (user + system: less bent by a busy machine than wall time). */
export async function timed(
  cmd: string,
  args: string[],
  options: { input?: string } = {},
): Promise<{ ms: number; rssMb: number | null; cpuMs: number | null; stdout: string; stderr: string }> {
  const useTime = existsSync(TIME);
  const started = performance.now();
  const res = useTime
    ? await execa(TIME, ['-f', '__RSS__%M __CPU__%U %S', cmd, ...args], {
        reject: false,
        env: { CI: '1' },
        extendEnv: true,
        ...(options.input !== undefined ? { input: options.input } : {}),
        maxBuffer: 256 * 1024 * 1024,
      })
    : await execa(cmd, args, {
        reject: false,
        env: { CI: '1' },
        extendEnv: true,
        ...(options.input !== undefined ? { input: options.input } : {}),
        maxBuffer: 256 * 1024 * 1024,
      });
  const ms = performance.now() - started;
  if (res.exitCode !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} failed: ${String(res.stderr).slice(0, 500)}`);
  const m = /__RSS__(\d+)/.exec(String(res.stderr));
  const cpu = /__CPU__([\d.]+) ([\d.]+)/.exec(String(res.stderr));
  return {
    ms,
    rssMb: m ? Math.round(Number(m[1]) / 1024) : null,
    cpuMs: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000) : null,
    stdout: String(res.stdout),
    stderr: String(res.stderr),
  };
}

/**
 * A fresh home of `n` generated observations (90 days to 2026-03-31, agents
 * main and work, 30 % Korean), indexed by the CLI as a user indexes it; the
 * documents indexed. The home the MCP and dashboard benches serve.
 */
export async function indexedCorpusHome(paths: HomePaths, cli: string, n: number, log: (s: string) => void): Promise<number> {
  log(`  generating ${n} observations…`);
  await mkdir(paths.root, { recursive: true });
  await writeFile(
    paths.config,
    'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    enabled: false\nembeddings:\n  provider: none\n',
    { mode: 0o600 },
  );
  await writeCorpus(paths, { observations: n, days: 90, endDate: '2026-03-31', agents: ['work'], korean: 0.3 });
  log('  index build…');
  return (JSON.parse((await timed(process.execPath, [cli, 'index', '--json', '--home', paths.root])).stdout) as { documents: number })
    .documents;
}

/** Realistic queries: topic words, names, identifiers, Korean with particles, phrases, a miss. */
export function benchQueries(n: number): string[] {
  const base = [
    'postgres migration',
    'memory leak',
    'POSTGRES_URL',
    'REDIS_URL staging',
    'Kubernetes',
    'user prefers TypeScript',
    'hiking with Alice',
    '데이터베이스를',
    '인증 서비스',
    '배포했다',
    '메모리 누수 버그',
    'timeout under load',
    'billing pipeline',
    'ticket-4242',
    'deployed to production',
    'Seoul trip',
    'code review tests',
    'incident 5xx',
    'latency p95',
    'feature flags',
    'Grace roadmap',
    '결제 모듈',
    'Ollama embeddings',
    'race condition auth service',
    'standing desk',
    'GitHub Actions CI builds',
    '사용자는 선호한다',
    'sister photography',
    'quantum entanglement recipes',
    'Decided to use Redis',
  ];
  return Array.from({ length: n }, (_, i) => base[i % base.length]!);
}

export async function runSearchBench(
  options: { n?: number; queries?: number; keep?: boolean; log?: (s: string) => void } = {},
): Promise<SearchBenchReport> {
  const log = options.log ?? (() => undefined);
  const n = options.n ?? 100_000;
  const days = 90;
  const endDate = '2026-03-31';
  const work = await mkdtemp(join(tmpdir(), 'ocm-search-bench-'));
  const paths = homePaths(join(work, 'home'));
  const queries = benchQueries(options.queries ?? 40);
  try {
    const CLI = await snapshotCli(work);
    log(`  generating ${n} observations over ${days} days…`);
    await mkdir(paths.root, { recursive: true });
    await writeFile(
      paths.config,
      'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    enabled: false\nembeddings:\n  provider: none\n',
      { mode: 0o600 },
    );
    const corpus = await writeCorpus(paths, { observations: n, days, endDate, agents: ['work'], korean: 0.3 });

    log('  full index build (ocm-run index)…');
    const build = await timed(process.execPath, [CLI, 'index', '--json', '--home', paths.root]);
    const built = JSON.parse(build.stdout) as { durationMs: number; documents: number };

    log('  incremental update after one new day…');
    const gen = makeGenerator(99);
    const newDate = addDays(endDate, 1);
    const perDay = Math.round(n / days);
    const newPath = dayFilePath(paths, 'hot', 'main', newDate);
    await mkdir(dirname(newPath), { recursive: true });
    await writeFile(newPath, dayFileText(newDate, 'main', dayObservations(gen, newDate, 'main', perDay, 0.3)));
    const inc = await timed(process.execPath, [CLI, 'index', '--json', '--home', paths.root]);
    const incremental = JSON.parse(inc.stdout) as { durationMs: number; added: number };
    if (incremental.added !== 1) throw new Error(`incremental run added ${incremental.added} files, expected 1`);

    log('  in-process queries…');
    const config = validateConfig({});
    let t = performance.now();
    const snapshot = IndexSnapshot.load(paths.index, ['hot', 'warm', 'cold']);
    const loadMs = performance.now() - t;
    const inProcess: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        t = performance.now();
        const ranked = rank(snapshot, q, { limit: 10, filters: {}, vectorWeight: 0.7, textWeight: 0.3, minScore: 0 });
        assemble(ranked.hits, ranked.terms);
        if (round > 0) inProcess.push(performance.now() - t);
      }
    }
    const calls: number[] = [];
    for (const q of queries.slice(0, 20)) {
      t = performance.now();
      await searchMemory(paths, config, { query: q, limit: 10, cache: false });
      calls.push(performance.now() - t);
    }

    log('  ocm-run search as fresh processes…');
    const cli: number[] = [];
    let cliRss = 0;
    for (const q of queries.slice(0, 20)) {
      const r = await timed(process.execPath, [CLI, 'search', q, '--json', '--no-cache', '--limit', '10', '--home', paths.root]);
      cli.push(r.ms);
      cliRss = Math.max(cliRss, r.rssMb ?? 0);
    }
    const cached: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await timed(process.execPath, [CLI, 'search', queries[0]!, '--json', '--limit', '10', '--home', paths.root]);
      if (i > 0) cached.push(r.ms);
    }
    const bare: number[] = [];
    for (let i = 0; i < 20; i++) bare.push((await timed(process.execPath, ['-e', '0'])).ms);

    const texts: string[] = [];
    for (const file of await listMarkdown(paths.memory))
      for (const o of listObservations(parseDayFile(await readFile(file, 'utf8')))) texts.push(o.text);

    log('  MiniSearch baseline (in-process, same texts and queries)…');
    const minisearch = miniSearchBaseline(texts, queries);

    log('  SQLite FTS5 baseline…');
    let fts5: SearchBenchReport['fts5'] = null;
    if (existsSync('/usr/bin/sqlite3') || (await execa('sqlite3', ['-version'], { reject: false })).exitCode === 0) {
      const db = join(work, 'fts.db');
      const sql = [
        'CREATE VIRTUAL TABLE t USING fts5(body);',
        'BEGIN;',
        ...texts.map((x) => `INSERT INTO t(body) VALUES ('${x.replace(/'/g, "''")}');`),
        'COMMIT;',
      ].join('\n');
      const b = await timed('sqlite3', [db], { input: sql });
      const q: number[] = [];
      for (const query of queries.slice(0, 20)) {
        const words = (query.match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => `"${w.replace(/"/g, '')}"`).join(' OR ');
        q.push(
          (
            await timed('sqlite3', [
              db,
              `SELECT rowid, snippet(t, 0, '[', ']', '…', 12) FROM t WHERE t MATCH '${words.replace(/'/g, "''")}' ORDER BY bm25(t) LIMIT 10;`,
            ])
          ).ms,
        );
      }
      fts5 = { buildMs: Math.round(b.ms), p50: percentile(q, 50), p95: percentile(q, 95) };
    }

    const report: SearchBenchReport = {
      observations: built.documents,
      files: corpus.files.length,
      days,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      build: { ms: Math.round(build.ms), peakRssMb: build.rssMb, internalMs: built.durationMs },
      incremental: { ms: Math.round(inc.ms), internalMs: incremental.durationMs, observations: perDay },
      inProcess: { p50: percentile(inProcess, 50), p95: percentile(inProcess, 95), loadMs: Math.round(loadMs) },
      searchCall: { p50: percentile(calls, 50), p95: percentile(calls, 95) },
      cli: { p50: percentile(cli, 50), p95: percentile(cli, 95), peakRssMb: cliRss || null, cachedP50: percentile(cached, 50) },
      nodeBare: { p50: percentile(bare, 50), p95: percentile(bare, 95) },
      fts5,
      minisearch,
      targets: {},
    };
    const peak = Math.max(report.build.peakRssMb ?? 0, report.cli.peakRssMb ?? 0);
    report.targets = {
      'CLI search p50 ≤ 300 ms': { value: report.cli.p50, target: '≤ 300 ms', ok: report.cli.p50 <= 300 },
      'CLI search p50 ≤ 6 × node -e 0': {
        value: Math.round((report.cli.p50 / report.nodeBare.p50) * 10) / 10,
        target: '≤ 6 ×',
        ok: report.cli.p50 <= 6 * report.nodeBare.p50,
      },
      'in-process p95 ≤ 25 ms': { value: report.inProcess.p95, target: '≤ 25 ms', ok: report.inProcess.p95 <= 25 },
      'peak RSS ≤ 200 MB': { value: peak, target: '≤ 200 MB', ok: peak > 0 && peak <= 200 },
      'full build ≤ 10 s': { value: report.build.ms, target: '≤ 10000 ms', ok: report.build.ms <= 10_000 },
      'one-day incremental ≤ 500 ms': {
        value: report.incremental.internalMs,
        target: '≤ 500 ms',
        ok: report.incremental.internalMs <= 500,
      },
    };
    return report;
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

/**
 * The peer library on the same texts: MiniSearch's BM25 with the project's
 * analyzer (as bench/observer-coverage.ts uses it), the text stored so a query
 * returns what OC-Memory's in-process query returns — ten hits with their text.
 * Heap growth is measured between two full collections (V8's gc exposed for
 * this measurement only), so it is the index's live size.
 */
function miniSearchBaseline(texts: string[], queries: string[]): SearchBenchReport['minisearch'] {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let t = performance.now();
  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    storeFields: ['text'],
    tokenize: (text) => analyze(text),
    processTerm: (term) => term,
  });
  index.addAll(texts.map((text, id) => ({ id, text })));
  const buildMs = performance.now() - t;
  collect();
  const heapMb = Math.round((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024);
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      t = performance.now();
      index.search(q).slice(0, 10);
      if (round > 0) times.push(performance.now() - t);
    }
  }
  return { buildMs: Math.round(buildMs), heapMb, p50: percentile(times, 50), p95: percentile(times, 95) };
}

export function searchBenchTable(r: SearchBenchReport): string {
  const ms = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${Math.round(x)} ms`);
  const lines = [
    `Search at ${r.observations.toLocaleString('en')} observations (${r.files} day files, ${r.days} days, English ` +
      `+ Korean); load average ${r.loadAverage.join(' ')}`,
    '',
    '| measure | OC-Memory | baseline |',
    '|---|---|---|',
    `| full index build | ${ms(r.build.ms)} (child process; ${ms(r.build.internalMs)} inside) | FTS5: ${ms(r.fts5?.buildMs)} |`,
    `| incremental, one new day (${r.incremental.observations} obs.) | ${ms(r.incremental.internalMs)} inside, ${ms(r.incremental.ms)} as a process | – |`,
    `| in-process index build | – (the build runs as a process, above) | MiniSearch \`addAll\` (project analyzer): ` +
      `${ms(r.minisearch.buildMs)}, heap +${r.minisearch.heapMb} MB |`,
    `| in-process query p50 / p95 (index loaded in ${ms(r.inProcess.loadMs)}) | ${r.inProcess.p50} / ` +
      `${r.inProcess.p95} ms | MiniSearch: ${r.minisearch.p50} / ${r.minisearch.p95} ms |`,
    `| searchMemory() call p50 / p95 (reads the index) | ${r.searchCall.p50} / ${r.searchCall.p95} ms | – |`,
    `| \`ocm-run search\` fresh process p50 / p95 | ${r.cli.p50} / ${r.cli.p95} ms (repeated query, cached: ${r.cli.cachedP50} ms) | \`node -e 0\`: ${r.nodeBare.p50} / ${r.nodeBare.p95} ms; \`sqlite3\` FTS5 query: ${r.fts5 ? `${r.fts5.p50} / ${r.fts5.p95} ms` : '–'} |`,
    `| peak RSS | build ${r.build.peakRssMb ?? '–'} MB, search ${r.cli.peakRssMb ?? '–'} MB | – |`,
    '',
    '| target | measured | ok |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, v]) => `| ${k} | ${v.value} | ${v.ok ? 'yes' : 'NO'} |`),
  ];
  return lines.join('\n');
}

/** CPU time (user + system) of a process so far, from /proc (Linux; 10 ms ticks), or null. */
export function processCpuMs(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
