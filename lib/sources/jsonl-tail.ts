/**
 * Streaming line reader for append-only JSONL transcripts. Reads a file from a
 * byte offset in bounded buffers and yields complete lines only: a last line
 * without its newline (the writer is mid-append) is left for the next read,
 * unless the caller says the file is finished. A line longer than
 * `maxLineBytes` is never buffered whole: it is reported as too long and
 * skipped. Read-only: the file is opened with 'r' and never written.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export interface LineRecord {
  /** 1-based line number. */
  lineNo: number;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just after the line's newline (or after its last byte when unterminated). */
  end: number;
  /** The decoded line (no newline, no trailing CR); absent when `problem` is set. */
  text?: string;
  /** Why the line cannot be used. */
  problem?: 'too-long' | 'invalid-utf8';
  /** Length of the line in bytes (without the newline). */
  bytes: number;
}

export interface LineReadOptions {
  /** Byte offset to start at (the start of a line). */
  offset: number;
  /** Line number of the line before `offset` (0 at the start of the file). */
  lineNo: number;
  /** Lines longer than this are skipped without buffering them. */
  maxLineBytes: number;
  /** Yield a final line without a newline too (the file will not grow any more). */
  includeUnterminated?: boolean;
  /** Read buffer size. */
  bufferBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * The reader's progress between reads: what `finishLine` needs to make the
 * next record. A plain object with every field set from the start and
 * module-level functions, not closures in the generator: those were compiled
 * again for each new closure.
 */
interface LineState {
  /** Line number of the last finished line. */
  lineNo: number;
  /** Byte offset of the line being read. */
  lineStart: number;
  readonly maxLineBytes: number;
  readonly decoder: InstanceType<typeof TextDecoder>;
  /** The start of a line that began in an earlier read (copied: the buffer is reused); emptied in place. */
  readonly pieces: Buffer[];
  pieceBytes: number;
  /** The line being read is already longer than the limit: its bytes are not kept. */
  tooLong: boolean;
}

function lineState(options: LineReadOptions): LineState {
  return {
    lineNo: options.lineNo,
    lineStart: options.offset,
    maxLineBytes: options.maxLineBytes,
    decoder: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }),
    pieces: [],
    pieceBytes: 0,
    tooLong: false,
  };
}

/**
 * The record of the line that ends at file offset `end`; its part in the current buffer is
 * `source[from, to)`. `asciiSource`: that buffer is all ASCII (tested once for all its lines).
 */
function finishLine(
  state: LineState,
  end: number,
  terminated: boolean,
  source: Buffer,
  from: number,
  to: number,
  asciiSource: boolean,
): LineRecord {
  const lineNo = ++state.lineNo;
  const start = state.lineStart;
  const length = (terminated ? end - 1 : end) - start;
  let record: LineRecord;
  if (state.tooLong || length > state.maxLineBytes) {
    record = { lineNo, start, end, bytes: length, problem: 'too-long' };
  } else if (asciiSource && state.pieces.length === 0) {
    // The common case, decoded straight from the buffer: the same text as below, without a view per line.
    record = {
      lineNo,
      start,
      end,
      bytes: length,
      text: source.toString('latin1', from, to > from && source[to - 1] === 0x0d ? to - 1 : to),
    };
  } else {
    record = decodeLine(state, lineNo, start, end, length, source.subarray(from, to));
  }
  if (state.pieces.length > 0) state.pieces.length = 0;
  state.pieceBytes = 0;
  state.tooLong = false;
  state.lineStart = end;
  return record;
}

/** A line that is not plain ASCII inside one buffer: decoded in place, or joined when split across reads. */
function decodeLine(state: LineState, lineNo: number, start: number, end: number, length: number, tail: Buffer): LineRecord {
  let bytes = state.pieces.length === 0 ? tail : Buffer.concat([...state.pieces, tail], state.pieceBytes + tail.length);
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
  // Plain ASCII is valid UTF-8 and has no BOM: copy it as a one-byte string, skipping the decoder.
  if (isAscii(bytes)) return { lineNo, start, end, bytes: length, text: bytes.toString('latin1') };
  try {
    return { lineNo, start, end, bytes: length, text: state.decoder.decode(bytes) };
  } catch {
    return { lineNo, start, end, bytes: length, problem: 'invalid-utf8' };
  }
}

/** Keep `rest`, the start of a line that continues in the next read, unless the line is already too long. */
function keepPiece(state: LineState, rest: Buffer): void {
  if (state.tooLong) return;
  if (state.pieceBytes + rest.length > state.maxLineBytes) {
    state.tooLong = true;
    state.pieces.length = 0;
    state.pieceBytes = 0;
  } else {
    state.pieces.push(Buffer.from(rest));
    state.pieceBytes += rest.length;
  }
}

/**
 * Complete lines of an open file from `offset`, one batch per buffer read
 * (a batch is never empty). Batching spares the caller an await per line;
 * stop early by breaking out of the loop (reading stops at the next batch).
 */
export async function* iterateLineBatches(handle: FileHandle, options: LineReadOptions): AsyncGenerator<LineRecord[]> {
  const bufferBytes = Math.max(4096, options.bufferBytes ?? 256 * 1024);
  const includeUnterminated = options.includeUnterminated === true;
  const buffer = Buffer.allocUnsafe(bufferBytes);
  const lines = lineState(options);
  let position = options.offset;
  // One read covers what the file held when it began: a writer appending faster than this reads
  // (a line that never ends) cannot keep it going; what comes later is read next time.
  const { size } = await handle.stat();
  for (;;) {
    const want = Math.min(bufferBytes, size - position);
    if (want <= 0) break;
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    if (bytesRead === 0) break;
    const filled = buffer.subarray(0, bytesRead);
    const batch = splitLines(lines, filled, position);
    position += bytesRead;
    if (batch.length > 0) yield batch;
  }
  if (includeUnterminated && position > lines.lineStart) yield [finishLine(lines, position, false, EMPTY, 0, 0, false)];
}

/**
 * The lines that end in `filled` (read from file offset `position`); the rest is kept for the next read.
 * Out of the generator: a plain function is optimised as a whole, not entered mid-loop.
 */
function splitLines(lines: LineState, filled: Buffer, position: number): LineRecord[] {
  const ascii = isAscii(filled);
  const batch: LineRecord[] = [];
  let from = 0;
  for (let nl = filled.indexOf(NEWLINE, from); nl !== -1; nl = filled.indexOf(NEWLINE, from)) {
    const end = position + nl + 1;
    batch.push(lines.tooLong ? finishLine(lines, end, true, EMPTY, 0, 0, false) : finishLine(lines, end, true, filled, from, nl, ascii));
    from = nl + 1;
  }
  if (from < filled.length) keepPiece(lines, filled.subarray(from));
  return batch;
}

const EMPTY = Buffer.alloc(0);

/** Complete lines of an open file from `offset`, one at a time (see iterateLineBatches). */
export async function* iterateLines(handle: FileHandle, options: LineReadOptions): AsyncGenerator<LineRecord> {
  for await (const batch of iterateLineBatches(handle, options)) yield* batch;
}

/**
 * The lines of an open file one at a time, read in batches (iterateLineBatches): `take()` hands out
 * the rest of the current batch without an await, `next()` reads the next batch once it is used up.
 * It may start with lines read before (a previous read's look-ahead); `options.offset` is then where
 * they end. Both transcript readers (tailed-file.ts, pi-file-chunk.ts) read their lines through it.
 */
export class LineQueue<L extends LineRecord = LineRecord> {
  private batch: L[];
  private at = 0;
  private readonly batches: AsyncGenerator<LineRecord[]>;

  constructor(handle: FileHandle, options: LineReadOptions, first: L[] = []) {
    this.batch = first;
    this.batches = iterateLineBatches(handle, options);
  }

  /** The next line of the current batch, or undefined when the next one needs a read (then call next()). */
  take(): L | undefined {
    return this.at < this.batch.length ? this.batch[this.at++] : undefined;
  }

  /** The next line, or undefined at the end of the file. */
  async next(): Promise<L | undefined> {
    if (this.at === this.batch.length) {
      const next = await this.batches.next();
      if (next.done) return undefined;
      this.batch = next.value as L[];
      this.at = 0;
    }
    return this.batch[this.at++];
  }

  /** Stop reading (the lines not taken are dropped). */
  async close(): Promise<void> {
    await this.batches.return(undefined);
  }
}

/** Why a line the reader could not decode is skipped, as a malformed record's reason; null for a usable line. */
export function unreadableLineReason(record: LineRecord, maxLineBytes: number): string | null {
  if (record.problem === 'too-long') return `line of ${record.bytes} bytes exceeds the ${maxLineBytes}-byte limit`;
  if (record.problem === 'invalid-utf8') return 'invalid UTF-8';
  return null;
}

/**
 * Thrown (code `ENOTREG`) for a transcript path that is not a regular file: a FIFO, a socket, a device or a
 * symbolic link to one (/dev/zero, /dev/urandom). Reading one never ends, or blocks until a writer comes,
 * while the job holds the home lock; readers skip it with a log entry (docs/trust.md).
 */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly type: string,
  ) {
    super(`${path} is ${type}, not a regular file: only regular files are read as transcripts`);
  }
}

/** O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (undefined on Windows, which has no FIFOs in the file system). */
const OPEN_READ_NONBLOCKING = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

function fileType(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Open a regular file read-only, run `fn`, always close it. Anything else (after following symbolic
 * links) throws NotRegularFileError before a byte is read: the type is checked on the open handle, so a
 * path swapped between a stat and the open cannot slip a device in.
 */
export async function withReadOnlyFile<T>(path: string, fn: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await openRegularFile(path);
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/** A read-only handle on a regular file (see withReadOnlyFile); the caller closes it. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, OPEN_READ_NONBLOCKING);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new NotRegularFileError(path, fileType(st));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Up to `length` bytes from `position` (fewer at the end of the file). */
export async function readBytes(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  // Not zero-filled: only the bytes read are returned.
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}

/** A short hash of the first `length` bytes: tells a rewritten or replaced file from one that only grew. */
export async function headHash(handle: FileHandle, length: number): Promise<string> {
  return createHash('sha256')
    .update(await readBytes(handle, 0, length))
    .digest('base64url')
    .slice(0, 16);
}
