/**
 * The heuristic Observer on a worker thread, for large backlogs. The rules
 * are the same code as the inline Observer (observer.ts) and deterministic,
 * so where a batch is observed never changes its observations: this only
 * lets the observe job read and mask the next chunk of a transcript on the
 * main thread while the rules work on the current one.
 *
 * - Small batches are observed inline until one reaches `minMessages`: a
 *   tick with a few new messages never pays for starting a thread (~40 ms).
 * - `prepare()` (the job's hint that a large backlog is coming) starts the
 *   worker at once, so that it is ready when the first batch has been read.
 * - With fewer than two CPUs there is nothing to gain: always inline.
 * - A worker that cannot start or dies is not retried: the batches it held,
 *   and every later one, are observed inline. An error thrown by the rules
 *   themselves is the caller's error, as inline.
 * - An idle worker does not keep the process alive and ends after `idleMs`.
 *
 * Kept for speed: on the 63 MB bench transcript a cold `observe` took ~2.16 s
 * instead of ~2.59 s inline on the 2-core benchmark machine (docs/performance.md,
 * "The Observer on a worker thread"); `npm run bench -- observe` shows how many batches ran on the
 * worker. Oracle: test/observer/heuristic/observer-thread.test.ts (the same observations as
 * observeWithRules inline, through the job and through the CLI).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Observer, ObserverBatch, ObserverResult } from '../../core/types.js';
import { observeWithRules, type HeuristicObserverOptions } from './observer.js';
import { packBatch, unpackBatch, unpackResult, type PackedBatch } from './wire.js';
import type { WorkerOptions, WorkerReply, WorkerRequest } from './worker.js';
import type { SpeakerNames } from './speakers.js';
import { workerEntry } from '../../platform/worker-entry.js';

export interface ThreadOptions {
  /** The first batch with at least this many messages starts the worker (default 500). */
  minMessages?: number;
  /** Use a worker only when the machine has at least this many CPUs (default 2). */
  minCpus?: number;
  /** An idle worker ends after this many milliseconds (default 1000). */
  idleMs?: number;
  /** The worker's entry module (default: worker.ts next to this module). */
  workerUrl?: URL;
}

export interface ThreadedObserver extends Observer {
  /** Batches observed on the worker thread so far (the rest ran inline). */
  readonly threadedBatches: number;
  /** Milliseconds the rules took on the worker thread so far. */
  readonly workerMs: number;
  /** Start the worker now, if the machine has the CPUs for one (see Observer.prepare). */
  prepare(): void;
  /** End the worker now (it also ends by itself when idle). */
  close(): Promise<void>;
}

interface Answer {
  options: HeuristicObserverOptions;
  resolve: (result: ObserverResult) => void;
  reject: (error: Error) => void;
}

/** A batch the worker holds. */
interface Pending extends Answer {
  /**
   * The batch as sent, for observing it inline if the worker dies before answering. Not the batch
   * itself: its messages would stay in memory (and be copied by the young-generation GC) until the
   * answer. The worker observes this batch unpacked, so inline it gives the same observations.
   */
  sent: PackedBatch;
}

/** What the worker runs: `url`, else worker.js (worker.ts under tsx) beside this module. */
function entryOf(url: URL | undefined): [string | URL, { eval?: boolean }] {
  return url ? [url, {}] : workerEntry(import.meta.url, 'worker');
}

/** Create the heuristic Observer that moves to a worker thread once a batch is large. */
export function createThreadedHeuristicObserver(options: HeuristicObserverOptions = {}, thread: ThreadOptions = {}): ThreadedObserver {
  const minMessages = thread.minMessages ?? 500;
  const idleMs = thread.idleMs ?? 1000;
  let usable = availableParallelism() >= (thread.minCpus ?? 2);
  let worker: Worker | undefined;
  let nextId = 0;
  let threadedBatches = 0;
  let busyMs = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const pending = new Map<number, Pending>();

  const optionsFor = (batch: ObserverBatch): HeuristicObserverOptions => {
    if (typeof options.speakerNames !== 'function') return options;
    const names = options.speakerNames(batch);
    const { speakerNames: _function, ...rest } = options;
    return names ? { ...rest, speakerNames: names } : rest;
  };

  const inline = (batch: ObserverBatch, p: Answer): void => {
    try {
      p.resolve(observeWithRules(batch, p.options));
    } catch (error) {
      p.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** The worker is gone or going: what it held is observed inline. */
  const observeHeldInline = (): void => {
    clearTimeout(idleTimer);
    worker = undefined;
    const held = [...pending.values()];
    pending.clear();
    for (const p of held) inline(unpackBatch(p.sent), p);
  };

  /** The worker failed: what it held, and everything after, is observed inline. */
  const abandon = (): void => {
    usable = false;
    observeHeldInline();
  };

  const start = (): Worker => {
    const { speakerNames: _names, ...plain } = options;
    const [entry, how] = entryOf(thread.workerUrl);
    const w = new Worker(entry, { ...how, workerData: plain satisfies WorkerOptions });
    w.on('message', (reply: WorkerReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('result' in reply) {
        busyMs += reply.ms;
        p.resolve(unpackResult(reply.result));
      } else p.reject(Object.assign(new Error(reply.error.message), reply.error.stack ? { stack: reply.error.stack } : {}));
      if (pending.size === 0) idle(w);
    });
    w.on('error', () => {
      if (worker === w) abandon();
    });
    w.on('exit', () => {
      if (worker === w) abandon();
    });
    return w;
  };

  /** The worker, started if there is none yet; undefined when none can run (then every batch is observed inline). */
  const running = (): Worker | undefined => {
    if (worker || !usable) return worker;
    try {
      worker = start();
    } catch {
      usable = false;
    }
    return worker;
  };

  const idle = (w: Worker): void => {
    w.unref();
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (worker === w && pending.size === 0) {
        worker = undefined;
        void w.terminate();
      }
    }, idleMs);
    idleTimer.unref();
  };

  return {
    kind: 'heuristic',
    label: 'heuristic (offline)',
    get threadedBatches() {
      return threadedBatches;
    },
    get workerMs() {
      return busyMs;
    },
    observe(batch) {
      return new Promise<ObserverResult>((resolve, reject) => {
        const answer: Answer = { options: optionsFor(batch), resolve, reject };
        if (!worker && batch.messages.length < minMessages) return inline(batch, answer);
        const w = running();
        if (!w) return inline(batch, answer);
        clearTimeout(idleTimer);
        w.ref();
        const id = nextId++;
        // (Packed with its user and assistant messages only: the rules read no others.)
        const sent = packBatch(batch);
        pending.set(id, { ...answer, sent });
        threadedBatches++;
        // (optionsFor has resolved a speakerNames function to this batch's names.)
        const names = answer.options.speakerNames as SpeakerNames | undefined;
        const request: WorkerRequest = names ? { id, batch: sent, speakerNames: names } : { id, batch: sent };
        w.postMessage(request);
      });
    },
    prepare() {
      if (worker) return;
      const w = running();
      if (w) idle(w); // nothing to do yet: it does not keep the process alive, and ends if no batch comes
    },
    async close() {
      const w = worker;
      observeHeldInline();
      if (w) await w.terminate();
    },
  };
}
