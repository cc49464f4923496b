// @ts-check
/**
 * One measurement of `npm run bench -- observe`, in a fresh process (observe-bench.ts runs it
 * several times, alternating the two modes, and reports medians):
 *
 *   node bench/observe-once.mjs baseline <dist> <transcript.jsonl>
 *     read the file and JSON.parse every line;
 *   node bench/observe-once.mjs job <dist> <openclaw state dir> <new memory home>
 *     the observe job (read, normalise, mask, heuristic Observer, Markdown, cursor) into a new home.
 *
 * Prints one JSON line. Plain JavaScript for plain `node`, importing the shipped modules from
 * <dist>: the job starts as cold as a cron-run `ocm-run observe` does, and the Observer's worker
 * thread does not inherit a TypeScript loader (worker threads inherit the process's execArgv).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';

const [mode, dist, input, home] = process.argv.slice(2);
if (!dist || !input || (mode !== 'baseline' && (mode !== 'job' || !home))) {
  throw new Error('usage: observe-once.mjs baseline <dist> <file> | job <dist> <state dir> <home>');
}

/** @param {string} module */
const shipped = (module) => import(pathToFileURL(join(dist, module)).href);

/** @param {NodeJS.CpuUsage} u */
const cpuS = (u) => (u.user + u.system) / 1e6;

/** Milliseconds per clock tick of /proc's CPU times (undefined where there is no getconf). */
function clockTickMs() {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds of each of this process's threads, by thread id (undefined without /proc).
 * @param {number | undefined} tick
 */
async function threadCpuMs(tick) {
  if (tick === undefined) return undefined;
  try {
    /** @type {Map<string, number>} */
    const out = new Map();
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

/**
 * CPU seconds by thread: the main thread, threads started meanwhile (the Observer's worker),
 * and the process's other threads (V8's compiler and GC helpers, libuv's file I/O pool).
 * @param {Map<string, number> | undefined} before
 * @param {Map<string, number> | undefined} after
 */
function threadSplit(before, after) {
  if (!before || !after) return undefined;
  const split = { mainS: 0, startedS: 0, otherS: 0 };
  for (const [tid, ms] of after) {
    const s = (ms - (before.get(tid) ?? 0)) / 1000;
    if (tid === String(process.pid)) split.mainS += s;
    else if (before.has(tid)) split.otherS += s;
    else split.startedS += s;
  }
  return split;
}

if (mode === 'baseline') {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const text = await readFile(input, 'utf8');
  let lines = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    JSON.parse(line);
    lines++;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ s, cpuS: cpuS(process.cpuUsage(c0)), lines }));
} else {
  const { runObserveJob } = await shipped('lib/observe/job.js');
  const { homePaths, ensureHome } = await shipped('lib/platform/home.js');
  const { createOpenClawFileSource } = await shipped('lib/sources/openclaw-files.js');
  const { createLazyObserver } = await shipped('lib/observer/factory.js');
  const { validateConfig } = await shipped('lib/config/config.js');
  const { createMemoryLogger } = await shipped('lib/platform/log.js');
  const paths = homePaths(home);
  await ensureHome(paths, async () => 'timezone: UTC\n');
  const logger = createMemoryLogger();
  const source = createOpenClawFileSource({ stateDirs: [input], masking: { emails: false, extraPatterns: [] }, logger });
  // The heuristic Observer as `observe` and `run` create it (lib/observer/factory.ts): created on first
  // use, prepared by the job before a backlog's first chunk, on a worker thread for large batches.
  const lazy = createLazyObserver(validateConfig({ observer: { provider: 'heuristic' } }));
  // The real source and Observer, with their calls timed.
  let readerMs = 0;
  let inlineMs = 0;
  let batches = 0;
  const timedSource = {
    ...source,
    /** @type {typeof source.read} */
    read: async (stream, cursor, limits) => {
      const t = performance.now();
      try {
        return await source.read(stream, cursor, limits);
      } finally {
        readerMs += performance.now() - t;
      }
    },
  };
  /** The threaded Observer the lazy one created. */
  const threadedObserver = async () =>
    /** @type {{ threadedBatches: number, workerMs: number, close(): Promise<void> }} */ (/** @type {unknown} */ (await lazy.created()));
  const timedObserver = {
    ...lazy,
    /** @type {typeof lazy.observe} */
    observe: async (batch) => {
      const t = performance.now();
      const observer = await threadedObserver();
      const threaded = observer.threadedBatches;
      batches++;
      try {
        return await lazy.observe(batch);
      } finally {
        // (A batch that went to the worker is timed there.)
        if (observer.threadedBatches === threaded) inlineMs += performance.now() - t;
      }
    },
  };
  const tick = clockTickMs();
  const threadsBefore = await threadCpuMs(tick);
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const result = await runObserveJob({ paths, sources: [timedSource], observer: timedObserver, logger, timeZone: 'UTC' });
  const s = (performance.now() - t1) / 1000;
  const jobCpu = cpuS(process.cpuUsage(c1));
  const threads = threadSplit(threadsBefore, await threadCpuMs(tick));
  const observer = await threadedObserver();
  await observer.close();
  console.log(
    JSON.stringify({
      s,
      cpuS: jobCpu,
      observations: result.observations,
      split: {
        readerS: readerMs / 1000,
        observerS: (inlineMs + observer.workerMs) / 1000,
        batches,
        threadedBatches: observer.threadedBatches,
      },
      ...(threads ? { threads } : {}),
    }),
  );
}
