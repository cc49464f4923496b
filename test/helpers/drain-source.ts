/** Read a stream to its end the way the observe job does: chunk after chunk, cursor carried. */
import type { Cursor, MalformedRecord, Message, ReadLimits, SourceStream, TranscriptSource } from '../../lib/core/types.js';

export const BIG: ReadLimits = { maxBytes: 64 * 1024 * 1024, maxMessages: 1_000_000 };

export interface Drained {
  messages: Message[];
  malformed: MalformedRecord[];
  cursor: Cursor | undefined;
  chunks: number;
}

export async function drain(
  source: TranscriptSource,
  stream: SourceStream,
  cursor: Cursor | undefined,
  limits: ReadLimits = BIG,
): Promise<Drained> {
  const out: Drained = { messages: [], malformed: [], cursor, chunks: 0 };
  for (let i = 0; i < 100_000; i++) {
    const chunk = await source.read(stream, out.cursor, limits);
    out.chunks++;
    out.messages.push(...chunk.messages);
    out.malformed.push(...chunk.malformed);
    const moved = JSON.stringify(chunk.cursor) !== JSON.stringify(out.cursor);
    out.cursor = chunk.cursor;
    if (chunk.done || !moved) return out;
  }
  throw new Error('drain: the stream never finished');
}

/** Discover, then drain every stream; cursors by stream key. */
export async function drainAll(
  source: TranscriptSource,
  cursors: Map<string, Cursor | undefined> = new Map(),
  limits: ReadLimits = BIG,
): Promise<{ streams: SourceStream[]; messages: Message[]; malformed: MalformedRecord[]; cursors: Map<string, Cursor | undefined> }> {
  const streams = await source.discover();
  const messages: Message[] = [];
  const malformed: MalformedRecord[] = [];
  for (const stream of streams) {
    const r = await drain(source, stream, cursors.get(stream.key), limits);
    cursors.set(stream.key, r.cursor);
    messages.push(...r.messages);
    malformed.push(...r.malformed);
  }
  return { streams, messages, malformed, cursors };
}
