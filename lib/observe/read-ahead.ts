/**
 * The heuristic Observer's way through a stream (lib/observe/job.ts): chunks
 * are read and observed ahead of the one whose observations are being written;
 * writing and the cursor stay in order.
 */
import { currentTasks } from '../platform/state.js';
import type { ObserverResult, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { advanceStream, observerBatch, readChunk, sameCursor, type ObserveRun, type ReadChunk } from './run.js';
import { noteObserved } from './session-summary.js';

/** Chunks a stream reads, and hands to the Observer, ahead of the one whose observations are being written. */
const READ_AHEAD = 3;

/** A stream read from its start with at least this many bytes is a backlog: the Observer is told to get ready. */
export const BACKLOG_BYTES = 2 * 1024 * 1024;

export async function observeStream(stream: SourceStream, source: TranscriptSource, run: ObserveRun): Promise<void> {
  const { state, options, limits, result, changed, out } = run;
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
      queue.push({
        chunk: readChunk(chunk),
        observing: chunk.messages.length > 0 ? settled(options.observer.observe(observerBatch(run, stream, chunk.messages))) : undefined,
      });
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
      noteObserved(state, stream, observed.observations, chunk.lastTime);
      if (observed.currentTask) {
        result.currentTask[stream.agent] = observed.currentTask;
        const tasks = currentTasks(state);
        // The newest across the agent's sessions, not the stream read last.
        const before = tasks[stream.agent];
        if (!before || !chunk.lastTime || !(Date.parse(before.at) > Date.parse(chunk.lastTime)))
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
