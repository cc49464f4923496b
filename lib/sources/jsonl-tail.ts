/**
 * Streaming line reader for append-only JSONL transcripts. Reads a file from a
 * byte offset in bounded buffers and yields complete lines only: a last line
 * without its newline (the writer is mid-append) is left for the next read,
 * unless the caller says the file is finished. A line longer than
 * `maxLineBytes` is never buffered whole: it is reported as too long and
 * skipped. Read-only: the file is opened with 'r' and never written.
 */
import { createHash } from 'node:crypto';
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

/** Iterate complete lines of an open file from `offset`. Stop early by breaking out of the loop. */
export async function* iterateLines(handle: FileHandle, options: LineReadOptions): AsyncGenerator<LineRecord> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const bufferBytes = Math.max(4096, options.bufferBytes ?? 256 * 1024);
  const buffer = Buffer.allocUnsafe(bufferBytes);
  let position = options.offset;
  let lineNo = options.lineNo;
  let lineStart = options.offset;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let tooLong = false;

  const finish = (end: number, terminated: boolean): LineRecord => {
    lineNo += 1;
    const length = (terminated ? end - 1 : end) - lineStart;
    const record: LineRecord = { lineNo, start: lineStart, end, bytes: length };
    if (tooLong) {
      record.problem = 'too-long';
    } else {
      let bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pieceBytes);
      if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
      try {
        record.text = decoder.decode(bytes);
      } catch {
        record.problem = 'invalid-utf8';
      }
    }
    pieces = [];
    pieceBytes = 0;
    tooLong = false;
    lineStart = end;
    return record;
  };

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, bufferBytes, position);
    if (bytesRead === 0) break;
    let from = 0;
    while (from < bytesRead) {
      const nl = buffer.indexOf(NEWLINE, from);
      const to = nl === -1 || nl >= bytesRead ? bytesRead : nl;
      const length = to - from;
      if (!tooLong) {
        if (pieceBytes + length > options.maxLineBytes) {
          tooLong = true;
          pieces = [];
          pieceBytes = 0;
        } else if (length > 0) {
          pieces.push(Buffer.from(buffer.subarray(from, to)));
          pieceBytes += length;
        }
      }
      if (nl === -1 || nl >= bytesRead) {
        from = bytesRead;
      } else {
        yield finish(position + nl + 1, true);
        from = nl + 1;
      }
    }
    position += bytesRead;
  }
  if (options.includeUnterminated && position > lineStart) yield finish(position, false);
}

/** Open a file read-only, run `fn`, always close it. */
export async function withReadOnlyFile<T>(path: string, fn: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/** A short hash of the first `length` bytes: tells a rewritten or replaced file from one that only grew. */
export async function headHash(handle: FileHandle, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return createHash('sha256').update(buffer.subarray(0, read)).digest('base64url').slice(0, 16);
}
