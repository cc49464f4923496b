/**
 * One read of a pi session file (the OpenClaw file era, the pi agent): the
 * entries after the cursor, up to the read's limits or a reset boundary (a
 * segment's end ends the chunk); then, without consuming them, the lines after
 * — far enough to judge each consumed entry's branch (pi-branches.ts); the
 * messages to emit and the next cursor, advanced only by what was consumed.
 * Which file of a session is read, and from where, is openclaw-files.ts's part.
 *
 * The lines come from the shared line engine (jsonl-tail.ts, LineQueue) and the
 * cursor's file checks from the shared reader (tailed-file.ts, resumePosition
 * and fileHead), as for every line file. It does not plug into
 * readTailedFile as a LineParser: what a line gives is only known once the
 * lines after it were seen, so a chunk's messages are decided after the
 * look-ahead; the limits count entries before branch and dedupe settle them;
 * and the cursor keeps the branch state, not a line parser's.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, MalformedRecord, ReadLimits, SourceKind, SourceStream, StreamChunk } from '../core/types.js';
import { LineQueue, readBytes, unreadableLineReason, type LineRecord } from './jsonl-tail.js';
import { fileHead, resumePosition, type FilePosition } from './tailed-file.js';
import { normalizePiEntry, type PiContext, type PiEntryResult } from './pi-entries.js';
import {
  branchStateOf,
  emptyBranchState,
  lookAheadNodeOf,
  rewindBranchState,
  settleConsumed,
  type BranchState,
  type ConsumedEntry,
  type LookAheadNode,
  type LookAheadWindow,
} from './pi-branches.js';
import { invalidJsonReason } from './log-safe.js';

// ---------------------------------------------------------------------------
// The cursor: where in which file (FilePosition, tailed-file.ts), and the branch state (pi-branches.ts)

export interface FileCursor extends FilePosition, BranchState {
  v: 1;
  /** File last read (informational; the inode decides). */
  path: string;
  /** Line number of the last consumed line. */
  line: number;
  size: number;
  /** How many times the stream was re-read from the start (shrink / replace). */
  rewinds: number;
}

/** A file cursor back from the state file, or undefined for none or another shape. */
export function parseFileCursor(cursor: Cursor | undefined): FileCursor | undefined {
  if (cursor?.v !== 1) return undefined;
  const c = cursor as Partial<FileCursor>;
  if (typeof c.ino !== 'string' || typeof c.offset !== 'number' || typeof c.line !== 'number') return undefined;
  return {
    v: 1,
    path: typeof c.path === 'string' ? c.path : '',
    ino: c.ino,
    offset: c.offset,
    line: c.line,
    size: typeof c.size === 'number' ? c.size : c.offset,
    headLen: typeof c.headLen === 'number' ? c.headLen : 0,
    headHash: typeof c.headHash === 'string' ? c.headHash : '',
    ...branchStateOf(c),
    rewinds: typeof c.rewinds === 'number' ? c.rewinds : 0,
  };
}

/** The cursor of a stream re-read from its start (shrink, replacement, the next file of a session): see pi-branches.ts. */
export function rewoundFileCursor(cursor: FileCursor): FileCursor {
  const branch = rewindBranchState(branchStateOf(cursor));
  return { ...cursor, ...branch, ino: '', offset: 0, line: 0, size: 0, headLen: 0, headHash: '', rewinds: cursor.rewinds + 1 };
}

/** An entry a read consumed. */
interface Consumed extends ConsumedEntry {
  /** Where its line ends and its number (not the line itself: the text is garbage once parsed). */
  end: number;
  lineNo: number;
}

// ---------------------------------------------------------------------------
// Look-ahead lines carried to the next read

/** A line with its entry once parsed and normalised (undefined: not yet, blank, or not JSON). */
interface ReadLine extends LineRecord {
  prepared?: PreparedEntry;
}

/** What a parsed line is: its tree node and its normalised result. */
interface PreparedEntry {
  node: LookAheadNode | null;
  result: PiEntryResult;
}

function prepareEntry(entry: unknown, end: number, ctx: PiContext): PreparedEntry {
  return { node: lookAheadNodeOf(entry, end), result: normalizePiEntry(entry, ctx) };
}

/**
 * The lines a read looked ahead at (parsed and normalised, not consumed), kept
 * for the next read of the same stream and file, which starts right there: a
 * chunked read of a long transcript then decodes and parses each line once
 * instead of once more per look-ahead. A line is kept as its result, not as
 * its text and parsed entry (a tool output of kilobytes): what is kept from
 * one read to the next outlives young-generation collections and is copied
 * to the old generation. The next read takes them only when its cursor is where they
 * start and the file still holds the very same bytes there (compared byte for
 * byte); only newline-terminated lines are kept, so the same bytes are the
 * same lines and the result is what reading them again would give.
 */
interface CarriedLines {
  /** The stream (the results are normalised for it). */
  key: string;
  ino: string;
  /** Byte offset and line number just before the first carried line. */
  offset: number;
  lineNo: number;
  bytes: Buffer;
  lines: ReadLine[];
}

// ---------------------------------------------------------------------------
// The read

export interface PiChunkSettings {
  kind: SourceKind;
  masking: MaskingOptions;
  maxLineBytes: number;
  lookAhead: LookAheadWindow;
  dedupeWindow: number;
  logger?: Logger | undefined;
}

export interface PiChunkRequest {
  stream: SourceStream;
  /** The file of the stream to read (the active file, or a rotated one before it). */
  path: string;
  /** The file will not grow any more: its last line counts without a newline. */
  ended: boolean;
  /** Where the previous read stopped; undefined or rewound: from the file's start. */
  cursor: FileCursor | undefined;
  limits: ReadLimits;
  /** The stream's current file: only a read of it can finish the stream (`done`). */
  isLastFile: boolean;
}

/** Reads chunks of pi session files for one source, keeping a read's look-ahead for the next (see CarriedLines). */
export class PiFileChunkReader {
  /** What the last read looked ahead at (see CarriedLines). */
  private carried: CarriedLines | null = null;

  constructor(private readonly settings: PiChunkSettings) {}

  /** One chunk of `request.path`, open as `handle`, after `request.cursor`. */
  async read(handle: FileHandle, request: PiChunkRequest): Promise<StreamChunk> {
    const { stream, path, ended, limits, isLastFile } = request;
    const { kind, masking, maxLineBytes, lookAhead, dedupeWindow, logger } = this.settings;
    const { ino, size, cursor } = await resumePosition(handle, request.cursor, rewoundFileCursor, (reason) =>
      logger?.log('info', 'transcripts.reread', { key: stream.key, path, reason }),
    );
    let branch = cursor ? branchStateOf(cursor) : emptyBranchState();
    const offset = cursor?.offset ?? 0;
    const lineNo = cursor?.line ?? 0;

    const ctx: PiContext = { source: kind, agent: stream.agent, session: stream.session, masking };
    // Lines come in batches (one per buffer read): an await per batch, not per line. The first
    // batch may be the previous read's look-ahead, already parsed.
    const reuse = await this.takeCarried(handle, stream.key, ino, offset, lineNo);
    const resume = reuse
      ? { offset: offset + reuse.bytes.length, lineNo: reuse.lines[reuse.lines.length - 1]!.lineNo }
      : { offset, lineNo };
    const lines = new LineQueue<ReadLine>(handle, { ...resume, maxLineBytes, includeUnterminated: ended }, reuse ? reuse.lines : []);
    const taken = await consumeEntries(lines, { path, ctx, maxLineBytes, limits });
    const { consumed, nodes, malformed } = taken;
    const lastEnd = consumed[consumed.length - 1]?.end ?? offset;
    // The consumed entries' nodes are the first ones: the look-ahead's come after them.
    const decideCount = nodes.length;
    const ahead = taken.eof ? { lookedAt: [], moreLines: false } : await lookAheadLines(lines, nodes, lastEnd, lookAhead, ctx);
    await lines.close();
    await this.carry(handle, stream.key, ino, lastEnd, consumed[consumed.length - 1]?.lineNo ?? lineNo, ahead.lookedAt);
    const settled = settleConsumed(consumed, nodes, decideCount, lookAhead, branch, dedupeWindow);
    branch = settled.branch;
    const messages = settled.emitted.map((e) => e.message);

    const last = consumed[consumed.length - 1];
    const endOffset = last ? last.end : offset;
    const done = (taken.eof || !ahead.moreLines) && isLastFile;
    const next: FileCursor = {
      v: 1,
      path,
      ino,
      offset: endOffset,
      line: last ? last.lineNo : lineNo,
      size: Math.max(size, endOffset),
      ...(await fileHead(handle, size)),
      ...branch,
      rewinds: cursor?.rewinds ?? 0,
    };
    if (done && ended) {
      // A finished rotated file: nothing more will come, so the dedupe memory is no longer needed.
      next.recent = '';
      next.cand = '';
    }
    const chunk: StreamChunk = { messages, cursor: next as unknown as Cursor, malformed, done };
    if (taken.segmentEnded) chunk.segmentEnded = true;
    return chunk;
  }

  /** The carried lines if they start at this file's `offset` and the file still holds the same bytes there. */
  private async takeCarried(handle: FileHandle, key: string, ino: string, offset: number, lineNo: number): Promise<CarriedLines | null> {
    const offered = this.carried;
    this.carried = null;
    if (!offered || offered.key !== key || offered.ino !== ino || offered.offset !== offset || offered.lineNo !== lineNo) return null;
    const now = await readBytes(handle, offset, offered.bytes.length);
    return now.equals(offered.bytes) ? offered : null;
  }

  /** Keep the newline-terminated lines looked ahead at, with the bytes they were read from. */
  private async carry(handle: FileHandle, key: string, ino: string, offset: number, lineNo: number, lines: ReadLine[]): Promise<void> {
    const count = terminatedLines(lines);
    if (count === 0) return;
    const kept = count === lines.length ? lines : lines.slice(0, count);
    this.carried = { key, ino, offset, lineNo, bytes: await readBytes(handle, offset, kept[count - 1]!.end - offset), lines: kept };
  }
}

/** What a read consumed: its entries (the cursor moves past them), their tree nodes, the malformed lines among them. */
interface Taken {
  consumed: Consumed[];
  nodes: LookAheadNode[];
  malformed: MalformedRecord[];
  /** The file has no line after the consumed ones (yet). */
  eof: boolean;
  /** The last entry consumed is a reset boundary: the chunk ends a segment. */
  segmentEnded: boolean;
}

/** Consume lines up to the read's limits (messages before branch and dedupe settle them, bytes), a reset boundary, or the end of the file. */
async function consumeEntries(
  lines: LineQueue<ReadLine>,
  read: { path: string; ctx: PiContext; maxLineBytes: number; limits: ReadLimits },
): Promise<Taken> {
  const { path, ctx, maxLineBytes, limits } = read;
  const malformed: MalformedRecord[] = [];
  const consumed: Consumed[] = [];
  const nodes: LookAheadNode[] = [];
  const maxMessages = Math.max(1, limits.maxMessages);
  const maxBytes = Math.max(1, limits.maxBytes);
  let bytes = 0;
  let candidates = 0;
  let eof = false;
  let segmentEnded = false;
  for (;;) {
    const record = lines.take() ?? (await lines.next());
    if (record === undefined) {
      eof = true;
      break;
    }
    let prepared = record.prepared;
    if (prepared === undefined) {
      const parsed = parseLine(record, path, malformed, maxLineBytes);
      if (parsed !== undefined) prepared = prepareEntry(parsed, record.end, ctx);
    }
    const node = prepared === undefined ? null : prepared.node;
    let result: Consumed['result'] = null;
    if (prepared !== undefined) {
      result = prepared.result;
      if (prepared.result.kind === 'invalid') malformed.push({ path, line: record.lineNo, reason: prepared.result.reason });
      if (prepared.result.kind === 'message') candidates += 1;
    }
    let nodeIndex = -1;
    if (node) {
      nodeIndex = nodes.length;
      nodes.push(node);
    }
    consumed.push({ end: record.end, lineNo: record.lineNo, nodeIndex, result, node });
    bytes += record.end - record.start;
    // A reset boundary ends the chunk: what came before it is one finished segment.
    if (result !== null && result.kind === 'boundary') {
      segmentEnded = true;
      break;
    }
    if (candidates >= maxMessages || bytes >= maxBytes) break;
  }
  return { consumed, nodes, malformed, eof, segmentEnded };
}

/**
 * Look at the lines after the consumed ones (without consuming them) far enough to judge the
 * branch of every consumed entry: their tree nodes join `nodes`. Returns the lines looked at
 * (carried to the next read) and whether there was any.
 */
async function lookAheadLines(
  lines: LineQueue<ReadLine>,
  nodes: LookAheadNode[],
  lastEnd: number,
  lookAhead: LookAheadWindow,
  ctx: PiContext,
): Promise<{ lookedAt: ReadLine[]; moreLines: boolean }> {
  let moreLines = false;
  const lookedAt: ReadLine[] = [];
  const decided = nodes.length;
  for (;;) {
    const record = lines.take() ?? (await lines.next());
    if (record === undefined) break;
    moreLines = true;
    if (record.prepared === undefined && record.text !== undefined) {
      const entry = safeParse(record.text);
      if (entry !== undefined) {
        record.prepared = prepareEntry(entry, record.end, ctx);
        record.text = undefined; // not needed any more (a line that did not parse keeps it for its error)
      }
    }
    const node = record.prepared === undefined ? null : record.prepared.node;
    if (node) nodes.push(node);
    lookedAt.push(record);
    if (nodes.length - decided >= lookAhead.entries || record.end - lastEnd >= lookAhead.bytes) break;
  }
  return { lookedAt, moreLines };
}

/**
 * How many lines from the first end with a newline (an unterminated line may still grow). A
 * function of its own: as a loop inside the async `carry`, it had that whole function optimised.
 */
function terminatedLines(lines: readonly LineRecord[]): number {
  let count = 0;
  while (count < lines.length && lines[count]!.end - lines[count]!.start === lines[count]!.bytes + 1) count++;
  return count;
}

function safeParse(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Parse one line; problems are recorded and yield undefined. Blank lines are silently skipped. */
function parseLine(record: LineRecord, path: string, malformed: MalformedRecord[], maxLineBytes: number): unknown {
  const unreadable = unreadableLineReason(record, maxLineBytes);
  if (unreadable !== null) {
    malformed.push({ path, line: record.lineNo, reason: unreadable });
    return undefined;
  }
  const text = record.text ?? '';
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    malformed.push({ path, line: record.lineNo, reason: invalidJsonReason(error) });
    return undefined;
  }
}
