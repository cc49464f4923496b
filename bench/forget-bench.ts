/**
 * `forget` of one id in a very large day (the `npm run bench` section "forget").
 *
 * One hot day file of N observations (default 100,000), written by the program's own formatter,
 * then, as child processes of the built CLI:
 *   - `forget <id> --yes`: one observation out of the middle of the day;
 * beside same-run baselines: `get <another id>` (reads and parses the same day file once) and a bare
 * `node -e 0`. A forget that works per file, not per pair of lines, costs a few parses of the file.
 *
 *   node --import tsx bench/run.ts forget [--n 100000]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { appendObservations, createDayFile, formatDayFile } from '../lib/memory/day-file/index.js';
import { dayFilePath, ensureHome, homePaths } from '../lib/platform/home.js';
import type { Observation } from '../lib/core/types.js';

/** The built CLI measured; OCM_BENCH_CLI names another build's (to measure a change against the code before it). */
const CLI = process.env.OCM_BENCH_CLI ?? resolve(import.meta.dirname, '..', 'dist', 'scripts', 'cli.js');

export interface ForgetBenchReport {
  observations: number;
  fileMb: number;
  loadAverage: number[];
  forget: { ms: number; forgotten: number; left: number };
  getBaseline: { ms: number };
  nodeBaseline: { ms: number };
}

const DATE = '2026-03-04';

function observation(i: number): Observation {
  const id = `o-${i.toString(16).padStart(10, '0')}`;
  return {
    id,
    date: DATE,
    time: `${String(Math.floor(i / 4200) % 24).padStart(2, '0')}:${String(Math.floor(i / 70) % 60).padStart(2, '0')}`,
    priority: (['high', 'medium', 'low'] as const)[i % 3]!,
    done: false,
    category: 'fact',
    text: `Observation ${i} about the billing service and topic ${i % 97}.`,
    tags: i % 11 === 0 ? ['billing'] : [],
    agent: 'main',
    provenance: { source: 'openclaw', agent: 'main', session: `s-${i % 13}`, entryIds: [`e${i}`] },
  };
}

async function timed(args: string[], env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const r = await execa(process.execPath, args, { env: { ...process.env, ...env, CI: '1' }, reject: false });
  if (r.exitCode !== 0) throw new Error(`${args.join(' ')} exited ${r.exitCode}: ${String(r.stderr).slice(-400)}`);
  return { ms: performance.now() - start, stdout: String(r.stdout) };
}

export async function runForgetBench(options: { n?: number; log?: (line: string) => void } = {}): Promise<ForgetBenchReport> {
  const n = options.n ?? 100_000;
  const dir = await mkdtemp(join(tmpdir(), 'ocm-forget-bench-'));
  try {
    const paths = homePaths(join(dir, 'home'));
    await ensureHome(paths, async () => '');
    await writeFile(
      paths.config,
      'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nembeddings: {enabled: false}\n',
    );
    const file = createDayFile({ date: DATE, agent: 'main', tier: 'hot' });
    appendObservations(
      file,
      Array.from({ length: n }, (_, i) => observation(i)),
    );
    const text = formatDayFile(file);
    await writeFile(dayFilePath(paths, 'hot', 'main', DATE), text);
    options.log?.(`forget bench: one day of ${n} observations (${(text.length / 1e6).toFixed(1)} MB)`);
    const env = { OCM_HOME: paths.root };
    const nodeBaseline = await timed(['-e', '0'], env);
    const get = await timed([CLI, 'get', observation(Math.floor(n / 3)).id, '--json'], env);
    const target = observation(Math.floor(n / 2)).id;
    const forget = await timed([CLI, 'forget', target, '--yes', '--json'], env);
    const result = JSON.parse(forget.stdout) as { observations?: number };
    const left =
      (await execa(process.execPath, [CLI, 'get', target, '--json'], { env: { ...process.env, ...env, CI: '1' }, reject: false }))
        .exitCode === 0
        ? 1
        : 0;
    return {
      observations: n,
      fileMb: text.length / 1e6,
      loadAverage: loadavg(),
      forget: { ms: forget.ms, forgotten: result.observations ?? 0, left },
      getBaseline: { ms: get.ms },
      nodeBaseline: { ms: nodeBaseline.ms },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function forgetBenchTable(r: ForgetBenchReport): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `forget of one id in a day of ${r.observations} observations (${r.fileMb.toFixed(1)} MB), load ${r.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
    '| run | wall time |',
    '|---|---|',
    `| forget <id> --yes (forgotten ${r.forget.forgotten}, still found ${r.forget.left}) | ${s(r.forget.ms)} |`,
    `| baseline: get <another id> (one parse of the day) | ${s(r.getBaseline.ms)} |`,
    `| baseline: node -e 0 | ${s(r.nodeBaseline.ms)} |`,
  ].join('\n');
}
