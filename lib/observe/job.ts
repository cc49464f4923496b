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
 * LLM Observer (kind 'llm'): messages are batched per session. The cursor
 * does not move past messages that have not been observed yet; a session's
 * new messages wait (and are simply re-read on the next tick, which is cheap)
 * until they reach `observer.batch_tokens`, the session has been idle for
 * `observer.idle_minutes`, the stream has ended (/reset rename), or the chunk
 * ends a segment (a reset event in the same session). Because
 * an LLM does not give the same answer twice, a crash between "write the
 * observations" and "advance the cursor" must not call it again: each batch's
 * result is first recorded in a journal in state.json (`extra.observeJournal`:
 * the cursor it started from, the entry ids already observed since, and the
 * observations not yet confirmed on disk), then written to the day files.
 * A run that finds a journal for the current cursor writes its observations
 * again (ids dedupe) and skips its entry ids, so every entry reaches the
 * Observer once. The journal is dropped in the same atomic state write that
 * advances the cursor. Short sessions that are done (idle or ended) are
 * packed together up to batch_tokens into one Observer call
 * (`observeMany`), so the system prompt is not paid once per short session.
 * When the LLM fails after its retries, the cursor stays where it is, the
 * failure is recorded and reported (exit code 5), and the next run retries
 * the same messages; there is no switch to the heuristic.
 */
import { DayFileBuffer } from '../memory/day-file-buffer.js';
import type { HomePaths } from '../platform/home.js';
import { describeError, EXIT } from '../core/errors.js';
import { LlmError } from '../core/llm-error.js';
import { currentTasks, observeJournals, readState, waitingStreams, writeState, type ObserveJournal, type State } from '../platform/state.js';
import { estimateTokens } from '../core/tokens.js';
import type { Logger } from '../platform/log.js';
import type { Cursor, LlmUsage, MalformedRecord, Message, Observation, Observer, ObserverBatch, ObserverResult, ReadLimits, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { localDateTime } from '../platform/time-zone.js';

export interface ObserveProgress {
  stream: SourceStream;
  messages: number;
  observations: number;
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
  /** Batching of the LLM Observer (ignored by the heuristic one, which observes every chunk at once). */
  batching?: BatchingOptions;
  /**
   * Heuristic Observer: save progress (day files, then the cursor) at least
   * this often (ms) while a stream is read in many chunks; a stream's end is
   * always saved. 0: after every chunk. Default DEFAULT_CHECKPOINT_MS.
   */
  checkpointMs?: number;
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
  currentTask: Record<string, string>;
  /** LLM tokens and calls of this run, per model. */
  usage: LlmUsage[];
  /** Messages read but held back until their session's batch is full or idle (LLM Observer). */
  waiting: { streams: number; messages: number; tokens: number };
  /** Streams not looked at because the LLM was unavailable (after a failure in this run). */
  skippedStreams: number;
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
export async function writeObservations(paths: HomePaths, observations: Observation[]): Promise<number> {
  return new DayFileBuffer(paths).write(observations);
}

/** Work a killed job may have to redo: the heuristic path saves at least this often. */
export const DEFAULT_CHECKPOINT_MS = 2000;

/**
 * Where a job's results go: day files (buffered) and state.json. The one rule
 * of crash safety lives in save(): state.json, whose cursors say what has been
 * observed, is written only after every observation changed in memory is on
 * disk. Nothing else in this job writes state.json.
 */
class JobOutput {
  readonly dayFiles: DayFileBuffer;
  private stateChanged = false;
  private savedAt = performance.now();

  constructor(
    private readonly paths: HomePaths,
    private readonly state: State,
    private readonly checkpointMs: number,
    private readonly onStep?: ObserveJobOptions['onStep'],
  ) {
    this.dayFiles = new DayFileBuffer(paths);
  }

  /** The in-memory state changed (cursor, totals); it reaches the disk with the next save(). */
  markStateChanged(): void {
    this.stateChanged = true;
  }

  /** The last save is `checkpointMs` old. */
  get saveDue(): boolean {
    return performance.now() - this.savedAt >= this.checkpointMs;
  }

  /** Write the changed day files, then state.json. */
  async save(): Promise<void> {
    await this.dayFiles.flush();
    this.onStep?.('observe-written');
    await writeState(this.paths.state, this.state);
    this.onStep?.('observe-saved');
    this.stateChanged = false;
    this.savedAt = performance.now();
  }

  async saveIfChanged(): Promise<void> {
    if (this.stateChanged || this.dayFiles.pending) await this.save();
  }
}

function streamTokens(messages: Message[]): number {
  let n = 0;
  for (const m of messages) n += estimateTokens(m.text);
  return n;
}

/** One run of the observe job: what every step reads and updates. */
interface ObserveRun {
  options: ObserveJobOptions;
  state: State;
  limits: ReadLimits;
  now: () => Date;
  result: ObserveJobResult;
  /** Agents whose memory changed. */
  changed: Set<string>;
  out: JobOutput;
  /** The LLM Observer cannot be used this run (endpoint down, key refused, not set up): later sessions are skipped. */
  llmDown: boolean;
}

/** The one failure path of a stream, or of the streams of one Observer call: logged, reported, and an LLM failure recorded. */
async function streamsFailed(run: ObserveRun, streams: SourceStream[], error: unknown): Promise<void> {
  const d = describeError(error);
  // The cursor advances only after the observations are written: a full disk lost nothing of this session.
  if (d.code === 'DISK_FULL') d.hint = `${d.hint ?? 'Free some space.'} Nothing was lost: this session's cursor did not advance, so the next run reads it again.`;
  const errorClass = error instanceof LlmError ? error.errorClass : undefined;
  for (const stream of streams) {
    run.options.logger.log('error', 'stream.failed', { stream: stream.key, path: stream.path, error: d.message, code: d.code, errorClass });
    run.result.failures.push({ stream: stream.key, message: d.message, code: d.code, errorClass, hint: d.hint });
  }
  if (d.code === 'LLM_ERROR') {
    await recordLlmFailure(run, error);
    // The endpoint is down, refusing us or out of quota: do not hammer it for every other session.
    // A batch the model cannot handle (malformed, too long) only stops its own session.
    if (errorClass !== 'malformed' && errorClass !== 'context_length') run.llmDown = true;
  }
  // The LLM Observer could not even be set up (no API key…): the same for every session.
  if (run.options.observer.kind === 'llm' && d.code.startsWith('CONFIG_')) run.llmDown = true;
}

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
    currentTask: {},
    usage: [],
    waiting: { streams: 0, messages: 0, tokens: 0 },
    skippedStreams: 0,
  };
  const changed = new Set<string>();
  const out = new JobOutput(paths, state, options.checkpointMs ?? DEFAULT_CHECKPOINT_MS, options.onStep);
  const run: ObserveRun = { options, state, limits, now, result, changed, out, llmDown: false };
  const batched = options.observer.kind === 'llm';
  const tails: PendingTail[] = [];

  for (const source of options.sources) {
    let streams: SourceStream[];
    try {
      streams = await source.discover();
    } catch (error) {
      const d = describeError(error);
      logger.log('error', 'source.discover_failed', { source: source.kind, error: d.message });
      result.failures.push({ stream: source.kind, message: d.message, code: d.code, hint: d.hint });
      continue;
    }
    for (const stream of streams) {
      result.streams++;
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
    }
  }
  if (tails.length > 0) {
    if (run.llmDown) result.skippedStreams += tails.length;
    else await observePendingTails(tails, run);
  }
  try {
    // A stream that failed midway leaves earlier chunks' progress unsaved.
    await out.saveIfChanged();
  } catch (error) {
    const d = describeError(error);
    logger.log('error', 'observe.save_failed', { error: d.message, code: d.code });
    result.failures.push({ stream: 'state', message: d.message, code: d.code, hint: d.hint });
  }
  result.changedAgents = [...changed].sort();
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

async function recordLlmFailure(run: ObserveRun, error: unknown): Promise<void> {
  const { out, state, result } = run;
  const at = run.now();
  const timeZone = run.options.timeZone;
  const { recordLlmError, recordUsage, mergeUsage } = await import('../llm/usage.js');
  const llm = error instanceof LlmError ? error : undefined;
  if (llm && llm.usage.length > 0) {
    recordUsage(state, 'observer', llm.usage, at, localDateTime(at, timeZone).date);
    result.usage = mergeUsage(result.usage, llm.usage);
  }
  const endpoint = llm?.attempts[llm.attempts.length - 1]?.endpoint;
  recordLlmError(state, 'observer', at, { errorClass: llm?.errorClass ?? 'server', message: (error as Error).message, endpoint });
  await out.save();
}

/** Chunks a stream reads, and hands to the Observer, ahead of the one whose observations are being written. */
const READ_AHEAD = 3;

/** A stream read from its start with at least this many bytes is a backlog: the Observer is told to get ready. */
export const BACKLOG_BYTES = 2 * 1024 * 1024;

async function observeStream(
  stream: SourceStream,
  source: TranscriptSource,
  run: ObserveRun,
): Promise<void> {
  const { state, options, limits, now, result, changed, out } = run;
  // A pipeline: up to READ_AHEAD chunks past the one being written are read and handed
  // to the Observer, so an Observer on a worker thread always has work while the main
  // thread reads, masks and writes. Only reading and observing run ahead: observations
  // are written and the cursor moves strictly in order, and nothing is saved for a chunk
  // before its observations, so the cursor on disk never passes an observation that is
  // not on disk.
  const queue: InFlight[] = [];
  let cursor = state.streams[stream.key]?.cursor;
  if (cursor === undefined && (stream.size ?? 0) >= BACKLOG_BYTES) options.observer.prepare?.();
  let more = true;
  let readFailure: { error: unknown } | undefined;
  const fill = async (): Promise<void> => {
    while (more && queue.length <= READ_AHEAD) {
      let chunk: StreamChunk;
      try {
        chunk = await source.read(stream, cursor, limits);
      } catch (error) {
        if (queue.length === 0) throw error;
        // The chunks before it are written first; then the stream fails with this error.
        readFailure = { error };
        more = false;
        return;
      }
      queue.push({ chunk: readChunk(chunk), observing: chunk.messages.length > 0 ? settled(options.observer.observe(batchOf(stream, chunk.messages, options, now))) : undefined });
      // A chunk that does not move the cursor is the last one (reading on would read it again).
      if (chunk.done || sameCursor(cursor, chunk.cursor)) more = false;
      cursor = chunk.cursor;
    }
  };
  await fill();
  for (let current = queue.shift(); current; current = queue.shift()) {
    const { chunk } = current;
    const observed = current.observing ? unwrap(await current.observing) : undefined;
    const previous = state.streams[stream.key];
    let added = 0;
    if (observed) {
      added = await out.dayFiles.add(observed.observations);
      if (observed.currentTask) {
        result.currentTask[stream.agent] = observed.currentTask;
        const tasks = currentTasks(state);
        tasks[stream.agent] = { text: observed.currentTask, at: chunk.lastTime! };
      }
      if (added > 0) changed.add(stream.agent);
    }
    state.totals.observations += added;
    // The cursor moves in memory; out.save() writes it after the observations.
    const { moved, stateChanged } = advanceStream(run, stream, previous, chunk, chunk.messages > 0);
    if (stateChanged) out.markStateChanged();
    result.messages += chunk.messages;
    result.observations += added;
    options.onProgress?.({ stream, messages: chunk.messages, observations: added });
    const last = chunk.done || !moved;
    if (last || out.saveDue) await out.saveIfChanged();
    if (last) return;
    await fill();
  }
  if (readFailure) throw readFailure.error;
}

/** A chunk read, and the Observer's work on it (a promise that never rejects). */
interface InFlight {
  chunk: ReadChunk;
  observing: Promise<Settled<ObserverResult>> | undefined;
}

/**
 * What the job needs of a chunk once its messages have gone to the Observer: not the messages.
 * Kept until the chunk's observations are written, several chunks later, they were most of the
 * main thread's garbage that lived long enough to be copied and promoted by the young-generation GC.
 */
interface ReadChunk {
  cursor: Cursor;
  malformed: MalformedRecord[];
  done: boolean;
  messages: number;
  tokens: number;
  /** The last message's time (undefined: no message). */
  lastTime: string | undefined;
}

function readChunk(chunk: StreamChunk): ReadChunk {
  const { messages } = chunk;
  return {
    cursor: chunk.cursor,
    malformed: chunk.malformed,
    done: chunk.done,
    messages: messages.length,
    tokens: streamTokens(messages),
    lastTime: messages.length > 0 ? messages[messages.length - 1]!.time : undefined,
  };
}

function batchOf(stream: SourceStream, messages: Message[], options: ObserveJobOptions, now: () => Date): ObserverBatch {
  return { source: stream.kind, agent: stream.agent, session: stream.session, messages, timeZone: options.timeZone, now: now().toISOString() };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects (the Observer may fail on a chunk handed over ahead while nobody awaits it yet). */
function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function unwrap<T>(s: Settled<T>): T {
  if (s.ok) return s.value;
  throw s.error;
}

/** What a stream's journal holds between an LLM batch and the cursor moving past it. */
/**
 * JSON of cursors already compared. A cursor can hold a source's dedupe memory
 * (~100 KB): each chunk's is compared as the new cursor and again as the next
 * read's previous one. A cursor is a value (each read returns a new one).
 */
const cursorJsonCache = new WeakMap<Cursor, string>();
function cursorJson(cursor: Cursor | null | undefined): string {
  if (!cursor) return JSON.stringify(cursor ?? null);
  let json = cursorJsonCache.get(cursor);
  if (json === undefined) cursorJsonCache.set(cursor, (json = JSON.stringify(cursor)));
  return json;
}

function sameCursor(a: Cursor | null | undefined, b: Cursor | null | undefined): boolean {
  return a === b || cursorJson(a) === cursorJson(b);
}

/** Greedy packing in order: groups of about `limit` tokens (one item over the limit is a group of its own). */
function packByTokens<T>(items: T[], tokensOf: (item: T) => number, limit: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let tokens = 0;
  for (const item of items) {
    const t = tokensOf(item);
    if (current.length > 0 && tokens + t > limit) {
      out.push(current);
      current = [];
      tokens = 0;
    }
    current.push(item);
    tokens += t;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Split messages into batches of about `limit` tokens (a single large message is a batch of its own). */
export function splitIntoBatches(messages: Message[], limit: number): Message[][] {
  return packByTokens(messages, (m) => estimateTokens(m.text), limit);
}

function isIdle(messages: Message[], idleMinutes: number, now: Date): boolean {
  if (idleMinutes <= 0) return true;
  const newest = Math.max(...messages.map((m) => Date.parse(m.time)).filter((t) => Number.isFinite(t)));
  if (!Number.isFinite(newest)) return true;
  return now.getTime() - newest >= idleMinutes * 60_000;
}

/** A session's last, small batch, ready to be observed together with other sessions' (one LLM call). */
interface PendingTail {
  stream: SourceStream;
  previous: State['streams'][string] | undefined;
  chunk: StreamChunk;
  messages: Message[];
  journal: ObserveJournal | undefined;
}

/** Malformed lines of one chunk logged one by one (the rest in one `transcript.malformed_more` record). */
const MALFORMED_LOGGED_PER_CHUNK = 5;

/**
 * Everything in the chunk is observed: advance the cursor and drop the journal
 * (in memory; the caller saves, after the observations, when `stateChanged`).
 */
function advanceStream(
  run: ObserveRun,
  stream: SourceStream,
  previous: State['streams'][string] | undefined,
  chunk: ReadChunk,
  wrote: boolean,
): { moved: boolean; stateChanged: boolean } {
  const { state, now, result } = run;
  const { logger } = run.options;
  // A garbage file has a malformed line per line: the first few are logged one by one, the rest counted.
  for (const bad of chunk.malformed.slice(0, MALFORMED_LOGGED_PER_CHUNK)) {
    logger.log('warn', 'transcript.malformed', { stream: stream.key, path: bad.path, line: bad.line, reason: bad.reason });
  }
  if (chunk.malformed.length > MALFORMED_LOGGED_PER_CHUNK) {
    const rest = chunk.malformed.slice(MALFORMED_LOGGED_PER_CHUNK);
    logger.log('warn', 'transcript.malformed_more', { stream: stream.key, path: rest[0]!.path, count: rest.length, firstLine: rest[0]!.line, lastLine: rest.at(-1)!.line });
  }
  const { tokens } = chunk;
  state.streams[stream.key] = {
    cursor: chunk.cursor,
    kind: stream.kind,
    agent: stream.agent,
    session: stream.session,
    path: stream.path,
    updatedAt: now().toISOString(),
    messages: (previous?.messages ?? 0) + chunk.messages,
    tokens: (previous?.tokens ?? 0) + tokens,
    malformed: (previous?.malformed ?? 0) + chunk.malformed.length,
  };
  delete observeJournals(state)[stream.key];
  delete waitingStreams(state)[stream.key];
  state.totals.messages += chunk.messages;
  state.totals.transcriptTokens += tokens;
  state.totals.malformed += chunk.malformed.length;
  const moved = !sameCursor(previous?.cursor, chunk.cursor);
  result.malformed += chunk.malformed.length;
  result.transcriptTokens += tokens;
  return { moved, stateChanged: moved || wrote || chunk.malformed.length > 0 };
}

/** Record one Observer answer for a stream: usage, current task, and the journal (written by the caller). */
function journalBatch(
  run: ObserveRun,
  stream: SourceStream,
  previous: State['streams'][string] | undefined,
  journal: ObserveJournal | undefined,
  messages: Message[],
  observed: { observations: Observation[]; currentTask?: string },
): ObserveJournal {
  const { state, result } = run;
  const next: ObserveJournal = {
    from: previous?.cursor ?? null,
    entryIds: [...(journal?.entryIds ?? []), ...messages.map((m) => m.entryId)],
    unwritten: observed.observations,
  };
  observeJournals(state)[stream.key] = next;
  if (observed.currentTask) {
    result.currentTask[stream.agent] = observed.currentTask;
    const tasks = currentTasks(state);
    tasks[stream.agent] = { text: observed.currentTask, at: messages[messages.length - 1]!.time };
  }
  return next;
}

async function recordObserverUsage(run: ObserveRun, usage: LlmUsage[] | undefined): Promise<void> {
  const { state, options, result } = run;
  const { recordUsage, recordLlmSuccess, mergeUsage } = await import('../llm/usage.js');
  const at = run.now();
  if (usage?.length) {
    recordUsage(state, 'observer', usage, at, localDateTime(at, options.timeZone).date);
    result.usage = mergeUsage(result.usage, usage);
  }
  recordLlmSuccess(state, 'observer', at);
}

/**
 * Observe one stream with batching. Full batches go to the Observer at once;
 * a flushable last batch smaller than a batch is returned (when the Observer
 * can observe several sessions in one call) to be packed with other
 * sessions' by observePendingTails.
 */
async function observeStreamBatched(
  stream: SourceStream,
  source: TranscriptSource,
  run: ObserveRun,
): Promise<PendingTail | undefined> {
  const { state, options, limits, now, result, changed, out } = run;
  const { logger } = options;
  const batching = options.batching ?? { batchTokens: 4000, idleMinutes: 10 };
  const packable = typeof options.observer.observeMany === 'function';
  const all = observeJournals(state);
  let journal: ObserveJournal | undefined = all[stream.key];
  if (journal && !sameCursor(journal.from, state.streams[stream.key]?.cursor)) {
    // The cursor moved past it (killed after the state write that advanced it): nothing pending.
    delete all[stream.key];
    journal = undefined;
    await out.save();
  }
  if (journal && journal.unwritten.length > 0) {
    // Killed between journal and day files: write the recorded observations (ids dedupe), no new LLM call.
    const added = await out.dayFiles.write(journal.unwritten);
    logger.log('info', 'observe.journal_replayed', { stream: stream.key, observations: journal.unwritten.length, added });
    if (added > 0) changed.add(stream.agent);
    state.totals.observations += added;
    result.observations += added;
    journal.unwritten = [];
    await out.save();
  }

  for (;;) {
    const previous = state.streams[stream.key];
    const chunk: StreamChunk = await source.read(stream, previous?.cursor, limits);
    const observed = new Set(journal?.entryIds ?? []);
    const fresh = chunk.messages.filter((m) => !observed.has(m.entryId));
    const batches = splitIntoBatches(fresh, batching.batchTokens);
    const last = batches[batches.length - 1];
    const lastFull = last !== undefined && streamTokens(last) >= batching.batchTokens;
    const flushRest =
      batching.flushAll === true ||
      stream.ended === true ||
      chunk.segmentEnded === true ||
      !chunk.done ||
      (last !== undefined && isIdle(last, batching.idleMinutes, now()));
    const packTail = packable && last !== undefined && !lastFull && flushRest && chunk.done;
    const toSend = last !== undefined && !lastFull && (!flushRest || packTail) ? batches.slice(0, -1) : batches;

    let added = 0;
    for (const messages of toSend) {
      const batch: ObserverBatch = {
        source: stream.kind,
        agent: stream.agent,
        session: stream.session,
        messages,
        timeZone: options.timeZone,
        now: now().toISOString(),
      };
      const observedBatch = await options.observer.observe(batch);
      await recordObserverUsage(run, observedBatch.usage);
      journal = journalBatch(run, stream, previous, journal, messages, observedBatch);
      // The journal reaches the disk before the observations do.
      await out.save();
      const n = await out.dayFiles.write(observedBatch.observations);
      journal.unwritten = [];
      added += n;
      if (n > 0) changed.add(stream.agent);
      state.totals.observations += n;
      result.messages += messages.length;
      result.observations += n;
      options.onProgress?.({ stream, messages: messages.length, observations: n });
    }

    if (packTail) {
      if (toSend.length > 0) await out.save();
      return { stream, previous, chunk, messages: last, journal };
    }
    const held = batches.length - toSend.length === 1 ? batches[batches.length - 1]! : undefined;
    if (held) {
      // Not enough yet: the cursor stays; the next tick re-reads these messages.
      const waiting = waitingStreams(state);
      waiting[stream.key] = { messages: held.length, tokens: streamTokens(held), since: held[0]!.time };
      result.waiting.streams++;
      result.waiting.messages += held.length;
      result.waiting.tokens += streamTokens(held);
      if (toSend.length > 0) await out.save();
      logger.log('debug', 'observe.batch_waiting', { stream: stream.key, messages: held.length, tokens: streamTokens(held) });
      return undefined;
    }

    journal = undefined;
    const { moved, stateChanged } = advanceStream(run, stream, previous, readChunk(chunk), toSend.length > 0);
    if (stateChanged) await out.save();
    if (toSend.length === 0) options.onProgress?.({ stream, messages: 0, observations: added });
    if (chunk.done || !moved) return undefined;
  }
}

/**
 * Observe the small last batches of several sessions together: packed per
 * agent up to batch_tokens, one Observer call per pack (the system prompt is
 * paid once, not once per short session). Each session keeps its own
 * journal, observations and cursor.
 */
async function observePendingTails(tails: PendingTail[], run: ObserveRun): Promise<void> {
  const { state, options, now, result, changed, out } = run;
  const limit = options.batching?.batchTokens ?? 4000;
  const packs: PendingTail[][] = [];
  for (const agent of [...new Set(tails.map((t) => `${t.stream.kind}\u0000${t.stream.agent}`))]) {
    const mine = tails.filter((x) => `${x.stream.kind}\u0000${x.stream.agent}` === agent);
    packs.push(...packByTokens(mine, (t) => streamTokens(t.messages), limit));
  }
  for (const pack of packs) {
    if (run.llmDown) {
      result.skippedStreams += pack.length;
      continue;
    }
    const batches: ObserverBatch[] = pack.map((t) => ({
      source: t.stream.kind,
      agent: t.stream.agent,
      session: t.stream.session,
      messages: t.messages,
      timeZone: options.timeZone,
      now: now().toISOString(),
    }));
    try {
      const answers = pack.length === 1 || !options.observer.observeMany ? [await options.observer.observe(batches[0]!)] : await options.observer.observeMany(batches);
      await recordObserverUsage(run, answers.flatMap((a) => a.usage ?? []));
      const journalsNow = pack.map((t, i) => journalBatch(run, t.stream, t.previous, t.journal, t.messages, answers[i] ?? { observations: [] }));
      await out.save();
      for (const [i, t] of pack.entries()) {
        const n = await out.dayFiles.write(answers[i]?.observations ?? []);
        journalsNow[i]!.unwritten = [];
        if (n > 0) changed.add(t.stream.agent);
        state.totals.observations += n;
        result.messages += t.messages.length;
        result.observations += n;
        options.onProgress?.({ stream: t.stream, messages: t.messages.length, observations: n });
      }
      for (const t of pack) advanceStream(run, t.stream, t.previous, readChunk(t.chunk), true);
      // Every cursor of the pack, and the journals dropped, in one state write.
      await out.save();
    } catch (error) {
      await streamsFailed(run, pack.map((t) => t.stream), error);
    }
  }
}
