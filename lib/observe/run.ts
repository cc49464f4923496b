/**
 * One run of the observe job (lib/observe/job.ts): the context its steps share
 * (`ObserveRun`), where its results go (`JobOutput`), and what both ways
 * through a stream do alike — advance its cursor past a chunk, and fail.
 */
import { DayFileBuffer } from '../memory/day-file-buffer.js';
import type { HomePaths } from '../platform/home.js';
import { describeError } from '../core/errors.js';
import { LlmError } from '../core/llm-error.js';
import { lifecyclePending, observeJournals, waitingStreams, writeState, type State } from '../platform/state.js';
import { estimateTokens } from '../core/tokens.js';
import type { Cursor, MalformedRecord, Message, Observation, ObserverBatch, ReadLimits, SourceStream, StreamChunk } from '../core/types.js';
import { localDateTime } from '../platform/time-zone.js';
import type { ObserveJobOptions, ObserveJobResult } from './job.js';

/**
 * Where a job's results go: day files (buffered) and state.json. The one rule
 * of crash safety lives in save(): state.json, whose cursors say what has been
 * observed, is written only after every observation changed in memory is on
 * disk. Nothing else in this job writes state.json.
 */
/** The day files of a run, and the ids of every observation handed to them, by agent (the lifecycle's fresh ones). */
class RecordingDayFiles extends DayFileBuffer {
  /** Ids handed over since the last save, by agent. */
  fresh = new Map<string, Set<string>>();

  override async add(observations: Observation[]): Promise<number> {
    for (const o of observations) {
      let ids = this.fresh.get(o.agent);
      if (!ids) this.fresh.set(o.agent, (ids = new Set()));
      ids.add(o.id);
    }
    return super.add(observations);
  }
}

export class JobOutput {
  readonly dayFiles: RecordingDayFiles;
  private stateChanged = false;
  private savedAt = performance.now();

  constructor(
    private readonly paths: HomePaths,
    private readonly state: State,
    private readonly checkpointMs: number,
    private readonly onStep?: ObserveJobOptions['onStep'],
    zone?: string,
    dayFileOptions?: ObserveJobOptions['dayFiles'],
  ) {
    this.dayFiles = new RecordingDayFiles(paths, zone, dayFileOptions);
  }

  /** The in-memory state changed (cursor, totals); it reaches the disk with the next save(). */
  markStateChanged(): void {
    this.stateChanged = true;
  }

  /** The last save is `checkpointMs` old. */
  get saveDue(): boolean {
    return performance.now() - this.savedAt >= this.checkpointMs;
  }

  /** Write the changed day files, then state.json (with the lifecycle's pending ids of what was written). */
  async save(): Promise<void> {
    await this.dayFiles.flush();
    this.onStep?.('observe-written');
    if (this.dayFiles.fresh.size > 0) {
      const pending = lifecyclePending(this.state);
      for (const [agent, ids] of this.dayFiles.fresh) pending[agent] = [...new Set([...(pending[agent] ?? []), ...ids])];
      this.dayFiles.fresh = new Map();
    }
    await writeState(this.paths.state, this.state);
    this.onStep?.('observe-saved');
    this.stateChanged = false;
    this.savedAt = performance.now();
  }

  async saveIfChanged(): Promise<void> {
    if (this.stateChanged || this.dayFiles.pending) await this.save();
  }
}

export function streamTokens(messages: Message[]): number {
  let n = 0;
  for (const m of messages) n += estimateTokens(m.text);
  return n;
}

/** One run of the observe job: what every step reads and updates. */
export interface ObserveRun {
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

/** What the Observer is handed for `messages` of one stream (both ways through a stream hand it alike). */
export function observerBatch(run: ObserveRun, stream: SourceStream, messages: Message[]): ObserverBatch {
  return {
    source: stream.kind,
    agent: stream.agent,
    session: stream.session,
    messages,
    timeZone: run.options.timeZone,
    now: run.now().toISOString(),
  };
}

/** The one failure path of a stream, or of the streams of one Observer call: logged, reported, and an LLM failure recorded. */
export async function streamsFailed(run: ObserveRun, streams: SourceStream[], error: unknown): Promise<void> {
  const d = describeError(error);
  // The cursor advances only after the observations are written: a full disk lost nothing of this session.
  if (d.code === 'DISK_FULL')
    d.hint = `${d.hint ?? 'Free some space.'} Nothing was lost: this session's cursor did not advance, so the next run reads it again.`;
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

/**
 * What the job needs of a chunk once its messages have gone to the Observer: not the messages.
 * Kept until the chunk's observations are written, several chunks later, they were most of the
 * main thread's garbage that lived long enough to be copied and promoted by the young-generation GC.
 */
export interface ReadChunk {
  cursor: Cursor;
  malformed: MalformedRecord[];
  done: boolean;
  messages: number;
  tokens: number;
  /** The last message's time (undefined: no message). */
  lastTime: string | undefined;
}

export function readChunk(chunk: StreamChunk): ReadChunk {
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

export function sameCursor(a: Cursor | null | undefined, b: Cursor | null | undefined): boolean {
  return a === b || cursorJson(a) === cursorJson(b);
}

/** Malformed lines of one chunk logged one by one (the rest in one `transcript.malformed_more` record). */
const MALFORMED_LOGGED_PER_CHUNK = 5;

/**
 * Everything in the chunk is observed: advance the cursor and drop the journal
 * (in memory; the caller saves, after the observations, when `stateChanged`).
 */
export function advanceStream(
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
    logger.log('warn', 'transcript.malformed_more', {
      stream: stream.key,
      path: rest[0]!.path,
      count: rest.length,
      firstLine: rest[0]!.line,
      lastLine: rest.at(-1)!.line,
    });
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
