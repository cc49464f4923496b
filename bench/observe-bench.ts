/**
 * Observe throughput and the cost of an idle tick (issue #2):
 *  - MB/s of JSONL through the whole observe job (read, normalise, mask,
 *    heuristic Observer, Markdown write, cursor), beside a same-run baseline
 *    that only reads the same file and JSON.parses its lines;
 *  - a `run` tick with nothing new (fresh process): wall time and peak RSS,
 *    beside a bare `node -e 0`.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { generateConversation, PiSessionWriter } from '../test/helpers/pi-writer.js';

export interface ObserveBenchResult {
  transcriptMB: number;
  lines: number;
  baselineMBps: number;
  observeMBps: number;
  /** Baseline wall time / job wall time (the target: ≥ 0.25). */
  ratio: number;
  /** CPU seconds (all threads) of the baseline and of the job, and their ratio. */
  cpu: { baselineS: number; jobS: number; ratio: number };
  observations: number;
  /**
   * Where the job's time went (s): the source reader (main thread) and the Observer's
   * rules (on the worker thread, where they overlap the reader, plus any batch observed
   * inline), and how many batches ran on the worker thread.
   */
  split: { readerS: number; observerS: number; batches: number; threadedBatches: number };
  /**
   * The job's CPU seconds by thread (Linux, from /proc; absent elsewhere): the main thread,
   * threads the job started (the Observer's worker), and the process's other threads (V8's
   * compiler and garbage-collector helpers, libuv's file I/O pool).
   */
  threads?: { mainS: number; startedS: number; otherS: number };
  idleTick: { p50Ms: number; bareNodeP50Ms: number; overBareMs: number; peakRssMB: number };
}

const DIST = resolve(import.meta.dirname, '..', 'dist');
const CLI = join(DIST, 'scripts', 'cli.js');

/**
 * The job's modules as the package ships them (`dist/`, which `npm run bench`
 * builds first), not this TypeScript run through tsx: a user's `ocm-run`
 * never compiles TypeScript, and the Observer's worker thread would
 * otherwise load tsx and compile every module it needs while being timed.
 */
async function shipped<T>(module: string): Promise<T> {
  return (await import(pathToFileURL(join(DIST, module)).href)) as T;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timeProcess(args: string[], env: Record<string, string> = {}): Promise<{ ms: number; rssMB: number }> {
  const r = await execa('/usr/bin/time', ['-f', '%e %M', ...args], { reject: false, env: { ...process.env, ...env } });
  const [secs, kb] = String(r.stderr).trim().split('\n').pop()!.split(' ');
  return { ms: Number(secs) * 1000, rssMB: Number(kb) / 1024 };
}

/** CPU milliseconds of each of this process's threads, by thread id (undefined without /proc). */
async function threadCpuMs(): Promise<Map<string, number> | undefined> {
  try {
    const tick = 1000 / Number((await execa('getconf', ['CLK_TCK'], { reject: false })).stdout || 100);
    const out = new Map<string, number>();
    for (const tid of await readdir('/proc/self/task')) {
      const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
      // Fields after the command name: state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields.length > 12) out.set(tid, (Number(fields[11]) + Number(fields[12])) * tick);
    }
    return out;
  } catch {
    return undefined;
  }
}

function threadSplit(before: Map<string, number> | undefined, after: Map<string, number> | undefined): ObserveBenchResult['threads'] {
  if (!before || !after) return undefined;
  const split = { mainS: 0, startedS: 0, otherS: 0 };
  for (const [tid, ms] of after) {
    const s = (ms - (before.get(tid) ?? 0)) / 1000;
    if (tid === String(process.pid)) split.mainS += s;
    else if (before.has(tid)) split.otherS += s;
    else split.startedS += s;
  }
  return { mainS: Number(split.mainS.toFixed(2)), startedS: Number(split.startedS.toFixed(2)), otherS: Number(split.otherS.toFixed(2)) };
}

/** 20,000 exchanges: a 63 MB transcript (a month of heavy coding-agent use: a large backlog). */
export const DEFAULT_EXCHANGES = 20_000;

export async function runObserveBench(options: { exchanges?: number; ticks?: number } = {}): Promise<ObserveBenchResult> {
  const exchanges = options.exchanges ?? DEFAULT_EXCHANGES;
  const { runObserveJob } = await shipped<typeof import('../lib/observe-job.js')>('lib/observe-job.js');
  const { homePaths, ensureHome } = await shipped<typeof import('../lib/home.js')>('lib/home.js');
  const { createOpenClawFileSource } = await shipped<typeof import('../lib/sources/openclaw-files.js')>('lib/sources/openclaw-files.js');
  const { createThreadedHeuristicObserver } = await shipped<typeof import('../lib/observer/heuristic-thread.js')>('lib/observer/heuristic-thread.js');
  const { createMemoryLogger } = await shipped<typeof import('../lib/log.js')>('lib/log.js');
  const root = await mkdtemp(join(tmpdir(), 'ocm-bench-observe-'));
  try {
    const stateDir = join(root, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '00000001-0000-4000-8000-00000000b001';
    const w = new PiSessionWriter(id, new Date('2026-02-01T08:00:00Z'), 20_000);
    const file = join(sessions, `${id}.jsonl`);
    // A coding-agent transcript: 40 % of exchanges read a file of 20–150 lines (tool results are most of the bytes of real sessions).
    await writeFile(file, w.header() + generateConversation(w, exchanges, 42, { toolShare: 0.4, toolLines: [20, 150] }));
    const bytes = (await readFile(file)).length;

    // Baseline: read the file and JSON.parse every line.
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const text = await readFile(file, 'utf8');
    let lines = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      JSON.parse(line);
      lines++;
    }
    const baselineS = (performance.now() - t0) / 1000;
    const baselineCpu = process.cpuUsage(c0);

    // The observe job, in process (no active-memory rebuild: that is a separate step).
    const home = join(root, 'home');
    const paths = homePaths(home);
    await ensureHome(paths, async () => 'timezone: UTC\n');
    const logger = createMemoryLogger();
    // The real source and Observer, with their calls timed.
    const source = createOpenClawFileSource({ stateDirs: [stateDir], masking: { emails: false, extraPatterns: [] }, logger });
    // The heuristic Observer as `observe` creates it (lib/observer-factory.ts): on a worker thread for large batches.
    const observer = createThreadedHeuristicObserver();
    let readerMs = 0;
    let inlineMs = 0;
    let batches = 0;
    const timedSource: typeof source = {
      ...source,
      read: async (stream, cursor, limits) => {
        const t = performance.now();
        try {
          return await source.read(stream, cursor, limits);
        } finally {
          readerMs += performance.now() - t;
        }
      },
    };
    const timedObserver: typeof observer = {
      ...observer,
      observe: async (batch) => {
        const t = performance.now();
        const threaded = observer.threadedBatches;
        batches++;
        try {
          return await observer.observe(batch);
        } finally {
          // (A batch that went to the worker is timed there.)
          if (observer.threadedBatches === threaded) inlineMs += performance.now() - t;
        }
      },
    };
    const threadsBefore = await threadCpuMs();
    const c1 = process.cpuUsage();
    const t1 = performance.now();
    const result = await runObserveJob({ paths, sources: [timedSource], observer: timedObserver, logger, timeZone: 'UTC' });
    const observeS = (performance.now() - t1) / 1000;
    const jobCpu = process.cpuUsage(c1);
    const threads = threadSplit(threadsBefore, await threadCpuMs());
    await observer.close();
    const cpuS = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

    // Idle tick: `run` with nothing new, as a fresh process.
    await writeFile(paths.config, `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    await execa(process.execPath, [CLI, 'run', '--home', home]); // first tick builds active memory and the index
    await new Promise((r) => setTimeout(r, 2500)); // past the index's mtime safety window
    await execa(process.execPath, [CLI, 'run', '--home', home]);
    const ticks: number[] = [];
    const rss: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < (options.ticks ?? 7); i++) {
      const b = await timeProcess([process.execPath, '-e', '0']);
      bare.push(b.ms);
      const t = await timeProcess([process.execPath, CLI, 'run', '--home', home]);
      ticks.push(t.ms);
      rss.push(t.rssMB);
    }
    const mb = bytes / 1e6;
    return {
      transcriptMB: Number(mb.toFixed(2)),
      lines,
      baselineMBps: Number((mb / baselineS).toFixed(1)),
      observeMBps: Number((mb / observeS).toFixed(1)),
      ratio: Number((baselineS / observeS).toFixed(3)),
      cpu: { baselineS: Number(cpuS(baselineCpu).toFixed(2)), jobS: Number(cpuS(jobCpu).toFixed(2)), ratio: Number((cpuS(baselineCpu) / cpuS(jobCpu)).toFixed(3)) },
      observations: result.observations,
      split: {
        readerS: Number((readerMs / 1000).toFixed(2)),
        observerS: Number(((inlineMs + observer.workerMs) / 1000).toFixed(2)),
        batches,
        threadedBatches: observer.threadedBatches,
      },
      ...(threads ? { threads } : {}),
      idleTick: {
        p50Ms: median(ticks),
        bareNodeP50Ms: median(bare),
        overBareMs: Number((median(ticks) - median(bare)).toFixed(0)),
        peakRssMB: Number(Math.max(...rss).toFixed(1)),
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function observeBenchTable(r: ObserveBenchResult): string {
  const rows = [
    ['measure', 'result', 'target'],
    ['transcript', `${r.transcriptMB} MB, ${r.lines} JSONL lines → ${r.observations} observations`, ''],
    ['baseline: read + JSON.parse', `${r.baselineMBps} MB/s`, ''],
    ['observe job (read, normalise, mask, heuristic Observer, Markdown, cursor)', `${r.observeMBps} MB/s = ${(r.ratio * 100).toFixed(1)} % of baseline`, '≥ 25 %'],
    ['… CPU time, all threads: baseline / job', `${r.cpu.baselineS} s / ${r.cpu.jobS} s = ${(r.cpu.ratio * 100).toFixed(1)} %`, ''],
    ['… source reader (main thread) / heuristic Observer rules', `${r.split.readerS} s / ${r.split.observerS} s (${r.split.threadedBatches} of ${r.split.batches} batches on the worker thread)`, ''],
    ...(r.threads
      ? [['… CPU by thread: main / Observer worker / V8 compiler, GC and I/O threads', `${r.threads.mainS} s / ${r.threads.startedS} s / ${r.threads.otherS} s`, '']]
      : []),
    ['bare `node -e 0`, p50', `${r.idleTick.bareNodeP50Ms} ms`, ''],
    ['idle `ocm-run run` tick, p50', `${r.idleTick.p50Ms} ms (+${r.idleTick.overBareMs} ms over bare node)`, '≤ +200 ms'],
    ['idle tick peak RSS', `${r.idleTick.peakRssMB} MB`, '≤ 80 MB'],
  ];
  return rows.map((row) => `| ${row.join(' | ')} |`).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runObserveBench({ exchanges: Number(process.env.OCM_BENCH_EXCHANGES ?? DEFAULT_EXCHANGES) });
  console.log(JSON.stringify(r, null, 2));
}
