/**
 * The observe job (docs/architecture.md, "A tick"): for every stream of every source, read the
 * entries after its cursor, have the Observer turn them into observations,
 * append those to the day files, and only then advance the cursor.
 *
 * Crash safety: day files are written atomically before the cursor moves, and
 * observation ids are stable, so a job killed at any point and run again
 * appends nothing twice and loses nothing. The heuristic Observer's results
 * are kept in memory across chunks and saved (day files, then cursor) when a
 * stream ends and at least every `checkpointMs` (2 s): a killed job redoes at
 * most that much work, and a long transcript does not rewrite a growing day
 * file after every chunk.
 *
 * The two ways through a stream: `read-ahead.ts` (the heuristic Observer:
 * chunks read and observed ahead of the one being written) and
 * `llm-batches.ts` (the LLM Observer: batches per session and their journal).
 * `run.ts` holds what both share: the run context, where results go, the
 * cursor advance and the failure path.
 */
import { DayFileBuffer, type DayFileBufferOptions } from '../memory/day-file-buffer.js';
import type { HomePaths } from '../platform/home.js';
import { describeError, EXIT } from '../core/errors.js';
import { lifecyclePending, readState, waitingStreams, writeState } from '../platform/state.js';
import { stopRequested } from '../platform/stop-request.js';
import type { Logger } from '../platform/log.js';
import type { LlmUsage, Observation, Observer, ReadLimits, SourceStream, TranscriptSource } from '../core/types.js';
import { observePendingTails, observeStreamBatched, type PendingTail } from './llm-batches.js';
import { observeStream } from './read-ahead.js';
import { JobOutput, streamsFailed, type ObserveRun } from './run.js';
import { endedSessionSummaries } from './session-summary.js';

export interface ObserveProgress {
  stream: SourceStream;
  messages: number;
  observations: number;
  /** Streams finished so far of all the run found (runObserveJob fills these in), and their sizes in bytes (files; 0 when unknown). */
  streamsDone?: number;
  streamsTotal?: number;
  bytesDone?: number;
  bytesTotal?: number;
}

export interface ObserveJobOptions {
  paths: HomePaths;
  sources: TranscriptSource[];
  observer: Observer;
  logger: Logger;
  timeZone: string;
  now?: () => Date;
  limits?: ReadLimits;
  onProgress?: (progress: ObserveProgress) => void;
  /**
   * Called at the named points of a save (test hook, may never return):
   * 'observe-written' once the day files are on disk and the cursor not yet,
   * 'observe-saved' once the cursor is too.
   */
  onStep?: (step: 'observe-written' | 'observe-saved') => void;
  /** How day files are written: a test hook at the named points of a write, how long a half-written file may take to settle. */
  dayFiles?: DayFileBufferOptions;
  /** Batching of the LLM Observer (ignored by the heuristic one, which observes every chunk at once). */
  batching?: BatchingOptions;
  /**
   * Heuristic Observer: save progress (day files, then the cursor) at least
   * this often (ms) while a stream is read in many chunks; a stream's end is
   * always saved. 0: after every chunk. Default DEFAULT_CHECKPOINT_MS.
   */
  checkpointMs?: number;
  /** The speakers' names (config observer.user_name / assistant_name), never a subject of the lifecycle's matching. */
  speakerNames?: string[];
}

export interface BatchingOptions {
  /** Observe a session once this many unobserved tokens (estimate) wait… */
  batchTokens: number;
  /** …or once its newest message is this old… */
  idleMinutes: number;
  /** …or now, whatever is waiting (`observe` run by hand with --flush, benchmarks). */
  flushAll?: boolean;
}

export interface StreamFailure {
  stream: string;
  message: string;
  code: string;
  /** LLM failures: auth, rate_limit, timeout, context_length, server, connection, request, malformed. */
  errorClass?: string;
  hint?: string;
}

export interface ObserveJobResult {
  streams: number;
  messages: number;
  observations: number;
  malformed: number;
  transcriptTokens: number;
  failures: StreamFailure[];
  /** Agents whose memory changed (their active memory needs a rebuild). */
  changedAgents: string[];
  /** Older observations the new ones closed (tasks done) or superseded (lib/memory/lifecycle.ts). */
  lifecycle: { closed: number; superseded: number };
  currentTask: Record<string, string>;
  /** LLM tokens and calls of this run, per model. */
  usage: LlmUsage[];
  /** Messages read but held back until their session's batch is full or idle (LLM Observer). */
  waiting: { streams: number; messages: number; tokens: number };
  /** Streams not looked at because the LLM was unavailable (after a failure in this run). */
  skippedStreams: number;
  /** Summaries written for sessions that ended (lib/observe/session-summary.ts); not counted in `observations`. */
  summaries: number;
  /**
   * A signal asked the job to stop (lib/platform/stop-request.ts): the streams done so far are saved
   * (day files, then their cursors), the `remaining` ones are left for the next run, which resumes there.
   */
  stopped?: { signal: NodeJS.Signals; remaining: number };
}

/** The CLI exit code for an observe run: 5 when the LLM failed, 1 for other failures, else 0. */
export function observeExitCode(result: { failures: Array<{ code: string }> }): number {
  const codes = new Set(result.failures.map((f) => f.code));
  if (codes.has('LLM_ERROR')) return EXIT.llm;
  if (codes.has('CONFIG_INVALID') || codes.has('CONFIG_MISSING')) return EXIT.config;
  if (codes.has('PERMISSION_DENIED')) return EXIT.permission;
  return result.failures.length > 0 ? EXIT.error : EXIT.ok;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 };

/** Append observations to their day files (grouped by agent and date) and write those files. Returns how many were new. */
export async function writeObservations(paths: HomePaths, observations: Observation[], zone?: string): Promise<number> {
  return new DayFileBuffer(paths, zone).write(observations);
}

/**
 * What the new observations close or supersede, marked in the older lines. The ids written are pending
 * in state.json from the save that wrote them until their marks are on disk: a run killed before (or
 * during) this step leaves them pending, and the next run marks exactly what one clean run would.
 */
async function markLifecycle(run: ObserveRun): Promise<void> {
  const { result, options, state } = run;
  if (state.extra.lifecyclePending === undefined) return;
  const pending = lifecyclePending(state);
  const agents = Object.keys(pending).sort();
  const { applyLifecycle } = await import('../memory/lifecycle-file.js');
  for (const agent of agents) {
    try {
      const r = await applyLifecycle(options.paths, agent, new Set(pending[agent]), options.speakerNames);
      delete pending[agent];
      result.lifecycle.closed += r.closed;
      result.lifecycle.superseded += r.superseded;
      if (r.skipped.length > 0) options.logger.log('warn', 'lifecycle.skipped', { agent, files: r.skipped });
    } catch (error) {
      // A mark not set loses nothing: the observations are written; the failure is logged.
      const d = describeError(error);
      options.logger.log('error', 'lifecycle.failed', { agent, error: d.message, code: d.code });
    }
  }
  if (Object.keys(pending).length === 0) delete state.extra.lifecyclePending;
  await writeState(options.paths.state, state);
  if (result.lifecycle.closed + result.lifecycle.superseded > 0) options.logger.log('info', 'lifecycle.marked', result.lifecycle);
}

/** Work a killed job may have to redo: the heuristic path saves at least this often. */
export const DEFAULT_CHECKPOINT_MS = 2000;

export async function runObserveJob(options: ObserveJobOptions): Promise<ObserveJobResult> {
  const now = options.now ?? (() => new Date());
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const { logger, paths } = options;
  const { state, warning } = await readState(paths.state);
  if (warning) logger.log('warn', 'state.reset', { warning });
  const result: ObserveJobResult = {
    streams: 0,
    messages: 0,
    observations: 0,
    malformed: 0,
    transcriptTokens: 0,
    failures: [],
    changedAgents: [],
    lifecycle: { closed: 0, superseded: 0 },
    currentTask: {},
    usage: [],
    waiting: { streams: 0, messages: 0, tokens: 0 },
    skippedStreams: 0,
    summaries: 0,
  };
  const changed = new Set<string>();
  const out = new JobOutput(
    paths,
    state,
    options.checkpointMs ?? DEFAULT_CHECKPOINT_MS,
    options.onStep,
    options.timeZone,
    options.dayFiles,
  );
  // Every source's streams first, so progress has a total (streams and bytes) for its ETA.
  const found: Array<{ source: TranscriptSource; streams: SourceStream[] }> = [];
  for (const source of options.sources) {
    try {
      found.push({ source, streams: await source.discover() });
    } catch (error) {
      const d = describeError(error);
      logger.log('error', 'source.discover_failed', { source: source.kind, error: d.message });
      result.failures.push({ stream: source.kind, message: d.message, code: d.code, hint: d.hint });
    }
  }
  const total = { streamsDone: 0, streamsTotal: 0, bytesDone: 0, bytesTotal: 0 };
  for (const f of found)
    for (const s of f.streams) {
      total.streamsTotal++;
      total.bytesTotal += s.size ?? 0;
    }
  const onProgress = options.onProgress;
  const run: ObserveRun = {
    options: onProgress ? { ...options, onProgress: (p) => onProgress({ ...p, ...total }) } : options,
    state,
    limits,
    now,
    result,
    changed,
    out,
    llmDown: false,
  };
  const batched = options.observer.kind === 'llm';
  const tails: PendingTail[] = [];

  for (const { source, streams } of found) {
    for (const stream of streams) {
      result.streams++;
      const signal = stopRequested();
      if (signal) {
        // Between streams: what is observed is saved below, the next run starts at this stream's cursor.
        result.stopped = { signal, remaining: (result.stopped?.remaining ?? 0) + 1 };
        continue;
      }
      if (run.llmDown) {
        result.skippedStreams++;
        continue;
      }
      try {
        if (batched) {
          const tail = await observeStreamBatched(stream, source, run);
          if (tail) tails.push(tail);
        } else await observeStream(stream, source, run);
      } catch (error) {
        await streamsFailed(run, [stream], error);
      }
      total.streamsDone++;
      total.bytesDone += stream.size ?? 0;
    }
  }
  if (tails.length > 0) {
    if (run.llmDown) result.skippedStreams += tails.length;
    else await observePendingTails(tails, run);
  }
  try {
    // Each session that has ended gets its summary (before the state that says so is saved).
    const unsettled = new Set([...result.failures.map((f) => f.stream), ...Object.keys(waitingStreams(state))]);
    const summaries = endedSessionSummaries(
      state,
      now(),
      options.batching?.idleMinutes ?? 10,
      options.batching?.flushAll === true,
      unsettled,
    );
    if (summaries.length > 0) {
      result.summaries = await out.dayFiles.add(summaries);
      for (const s of summaries) changed.add(s.agent);
      out.markStateChanged();
    }
    // A stream that failed midway leaves earlier chunks' progress unsaved.
    await out.saveIfChanged();
  } catch (error) {
    const d = describeError(error);
    logger.log('error', 'observe.save_failed', { error: d.message, code: d.code });
    result.failures.push({ stream: 'state', message: d.message, code: d.code, hint: d.hint });
  }
  result.changedAgents = [...changed].sort();
  try {
    await markLifecycle(run);
  } catch (error) {
    // The marks wait in state.json for the next run; the observations are written.
    const d = describeError(error);
    logger.log('error', 'lifecycle.failed', { error: d.message, code: d.code });
  }
  if (result.skippedStreams > 0) logger.log('warn', 'observe.llm_unavailable', { skippedStreams: result.skippedStreams });
  logger.log('info', 'observe.done', {
    streams: result.streams,
    messages: result.messages,
    observations: result.observations,
    malformed: result.malformed,
    failures: result.failures.length,
    waiting: batched ? result.waiting : undefined,
    usage: batched ? result.usage : undefined,
  });
  return result;
}
