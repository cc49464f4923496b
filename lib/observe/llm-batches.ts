/**
 * The LLM Observer's way through a stream (lib/observe/job.ts).
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
import { currentTasks, observeJournals, waitingStreams, type ObserveJournal, type State } from '../platform/state.js';
import { estimateTokens } from '../core/tokens.js';
import type { LlmUsage, Message, Observation, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { localDateTime } from '../platform/time-zone.js';
import { advanceStream, observerBatch, readChunk, sameCursor, streamsFailed, streamTokens, type ObserveRun } from './run.js';
import { noteObserved } from './session-summary.js';

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
export interface PendingTail {
  stream: SourceStream;
  previous: State['streams'][string] | undefined;
  chunk: StreamChunk;
  messages: Message[];
  journal: ObserveJournal | undefined;
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
    // The newest across the agent's sessions, not the session observed last.
    const at = messages[messages.length - 1]!.time;
    const before = tasks[stream.agent];
    if (!before || !(Date.parse(before.at) > Date.parse(at))) tasks[stream.agent] = { text: observed.currentTask, at };
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
export async function observeStreamBatched(
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

    // The session has ended (a flush, idle, the stream or segment ended) when its last messages go now: that batch is asked for its summary.
    const sessionEnds = chunk.done && flushRest && toSend.length === batches.length;
    let added = 0;
    for (const [k, messages] of toSend.entries()) {
      const batch = observerBatch(run, stream, messages);
      if (sessionEnds && k === toSend.length - 1) batch.sessionEnds = true;
      const observedBatch = await options.observer.observe(batch);
      await recordObserverUsage(run, observedBatch.usage);
      journal = journalBatch(run, stream, previous, journal, messages, observedBatch);
      // The journal reaches the disk before the observations do.
      await out.save();
      const n = await out.dayFiles.write(observedBatch.observations);
      noteObserved(state, stream, observedBatch.observations, messages[messages.length - 1]?.time, observedBatch.sessionSummary);
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
export async function observePendingTails(tails: PendingTail[], run: ObserveRun): Promise<void> {
  const { state, options, result, changed, out } = run;
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
    // A tail goes now because its session has ended (flush, idle, the stream ended): each is asked for its summary.
    const batches = pack.map((t) => ({ ...observerBatch(run, t.stream, t.messages), sessionEnds: true }));
    try {
      const answers =
        pack.length === 1 || !options.observer.observeMany
          ? [await options.observer.observe(batches[0]!)]
          : await options.observer.observeMany(batches);
      await recordObserverUsage(
        run,
        answers.flatMap((a) => a.usage ?? []),
      );
      const journalsNow = pack.map((t, i) =>
        journalBatch(run, t.stream, t.previous, t.journal, t.messages, answers[i] ?? { observations: [] }),
      );
      await out.save();
      for (const [i, t] of pack.entries()) {
        const n = await out.dayFiles.write(answers[i]?.observations ?? []);
        noteObserved(state, t.stream, answers[i]?.observations ?? [], t.messages[t.messages.length - 1]?.time, answers[i]?.sessionSummary);
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
      await streamsFailed(
        run,
        pack.map((t) => t.stream),
        error,
      );
    }
  }
}
