/**
 * The observe job (DESIGN §4.1): for every stream of every source, read the
 * entries after its cursor, have the Observer turn them into observations,
 * append those to the day files, and only then advance the cursor.
 *
 * Crash safety: day files are written atomically before the cursor moves, and
 * observation ids are stable, so a job killed at any point and run again
 * re-reads at most one chunk and appends nothing twice.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.js';
import { dayFilePath, type HomePaths } from './home.js';
import { describeError } from './errors.js';
import { readState, writeState, type State } from './state.js';
import { estimateTokens } from './tokens.js';
import type { Logger } from './log.js';
import type { Message, Observation, Observer, ReadLimits, SourceStream, TranscriptSource } from './types.js';

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
}

export interface StreamFailure {
  stream: string;
  message: string;
  code: string;
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
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 };

/** Append observations to their day files (grouped by agent and date). */
export async function writeObservations(paths: HomePaths, observations: Observation[]): Promise<number> {
  if (observations.length === 0) return 0;
  // Loaded here, not at start-up: a tick with nothing new never parses Markdown.
  const { dateFromFileName, appendObservations, createDayFile, formatDayFile, parseDayFile } = await import('./day-file.js');
  const groups = new Map<string, Observation[]>();
  for (const o of observations) {
    const path = dayFilePath(paths, 'hot', o.agent, o.date);
    const list = groups.get(path);
    if (list) list.push(o);
    else groups.set(path, [o]);
  }
  let added = 0;
  for (const [path, list] of groups) {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const file = text === undefined ? createDayFile({ date: list[0]!.date || dateFromFileName(path) || '', agent: list[0]!.agent, tier: 'hot' }) : parseDayFile(text);
    const n = appendObservations(file, list, path);
    if (n > 0) {
      await writeFileAtomic(path, formatDayFile(file), { mode: 0o600 });
      added += n;
    }
  }
  return added;
}

function streamTokens(messages: Message[]): number {
  let n = 0;
  for (const m of messages) n += estimateTokens(m.text);
  return n;
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
  };
  const changed = new Set<string>();

  for (const source of options.sources) {
    let streams: SourceStream[];
    try {
      streams = await source.discover();
    } catch (error) {
      const d = describeError(error);
      logger.log('error', 'source.discover_failed', { source: source.kind, error: d.message });
      result.failures.push({ stream: source.kind, message: d.message, code: d.code });
      continue;
    }
    for (const stream of streams) {
      result.streams++;
      try {
        await observeStream(stream, source, state, options, limits, now, result, changed);
      } catch (error) {
        const d = describeError(error);
        logger.log('error', 'stream.failed', { stream: stream.key, path: stream.path, error: d.message, code: d.code });
        result.failures.push({ stream: stream.key, message: d.message, code: d.code });
      }
    }
  }
  result.changedAgents = [...changed].sort();
  logger.log('info', 'observe.done', {
    streams: result.streams,
    messages: result.messages,
    observations: result.observations,
    malformed: result.malformed,
    failures: result.failures.length,
  });
  return result;
}

async function observeStream(
  stream: SourceStream,
  source: TranscriptSource,
  state: State,
  options: ObserveJobOptions,
  limits: ReadLimits,
  now: () => Date,
  result: ObserveJobResult,
  changed: Set<string>,
): Promise<void> {
  const { logger, paths } = options;
  for (;;) {
    const previous = state.streams[stream.key];
    const chunk = await source.read(stream, previous?.cursor, limits);
    for (const bad of chunk.malformed) {
      logger.log('warn', 'transcript.malformed', { stream: stream.key, path: bad.path, line: bad.line, reason: bad.reason });
    }
    let added = 0;
    if (chunk.messages.length > 0) {
      const batch = {
        source: stream.kind,
        agent: stream.agent,
        session: stream.session,
        messages: chunk.messages,
        timeZone: options.timeZone,
        now: now().toISOString(),
      };
      const observed = await options.observer.observe(batch);
      added = await writeObservations(paths, observed.observations);
      if (observed.currentTask) {
        result.currentTask[stream.agent] = observed.currentTask;
        const tasks = (state.extra.currentTask ??= {}) as Record<string, { text: string; at: string }>;
        tasks[stream.agent] = { text: observed.currentTask, at: chunk.messages[chunk.messages.length - 1]!.time };
      }
      if (added > 0) changed.add(stream.agent);
    }
    // Advance the cursor only now that the observations are on disk.
    const tokens = streamTokens(chunk.messages);
    state.streams[stream.key] = {
      cursor: chunk.cursor,
      kind: stream.kind,
      agent: stream.agent,
      session: stream.session,
      path: stream.path,
      updatedAt: now().toISOString(),
      messages: (previous?.messages ?? 0) + chunk.messages.length,
      tokens: (previous?.tokens ?? 0) + tokens,
      malformed: (previous?.malformed ?? 0) + chunk.malformed.length,
    };
    state.totals.messages += chunk.messages.length;
    state.totals.transcriptTokens += tokens;
    state.totals.observations += added;
    state.totals.malformed += chunk.malformed.length;
    const cursorMoved = JSON.stringify(previous?.cursor) !== JSON.stringify(chunk.cursor);
    if (cursorMoved || chunk.messages.length > 0 || chunk.malformed.length > 0) await writeState(paths.state, state);
    result.messages += chunk.messages.length;
    result.observations += added;
    result.malformed += chunk.malformed.length;
    result.transcriptTokens += tokens;
    options.onProgress?.({ stream, messages: chunk.messages.length, observations: added });
    if (chunk.done || !cursorMoved) break;
  }
}
