/**
 * Incremental, read-only reading of one append-only line file — the JSONL
 * transcripts of Claude Code and Codex, generic JSONL and text logs — with a
 * JSON-serialisable cursor that survives rotation. A format plugs in as a
 * LineParser (one complete line → zero or more Messages).
 *
 * Rotation rules (docs/sources.md):
 * - The cursor remembers the file's inode, the byte offset after the last
 *   consumed line, and a hash of the file's first bytes.
 * - The path now holds another inode: if the old inode still exists in the
 *   same folder (logrotate renamed `app.log` → `app.log.1`), its unread rest
 *   is read first (its last line counts even without a newline), then the new
 *   file from its start. If the old inode is gone, the file was replaced (an
 *   atomic rewrite): it is re-read from the start, skipping messages not newer
 *   than the last one observed.
 * - Same inode but the file shrank, or its head changed (copytruncate, a
 *   rewrite in place): re-read from the start with the same skipping.
 * - A last line without its newline is left for the next read (the writer is
 *   mid-append), unless the stream has ended.
 */
import { readdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { OcmError, errorCode } from '../core/errors.js';
import type { Logger } from '../platform/log.js';
import type { Cursor, MalformedRecord, Message, ReadLimits, StreamChunk } from '../core/types.js';
import { DEFAULT_MAX_LINE_BYTES, headHash, LineQueue, unreadableLineReason, withReadOnlyFile } from './jsonl-tail.js';

/** A transcript format: how one line becomes messages. */
export interface LineParser<S> {
  /** Parser state at the start of a file (small: it is stored in the cursor). */
  initial(): S;
  /** State back from a cursor (tolerant of older/garbled shapes). */
  revive(raw: unknown): S;
  /** One complete, non-blank line. `invalid` marks it malformed (counted, logged, skipped). */
  line(text: string, state: S, lineNo: number): { messages: Message[]; invalid?: string };
  /** End of a chunk: messages still held back (e.g. a multi-line log message). */
  flush?(state: S): Message[];
}

export interface TailCursor extends FilePosition {
  v: 1;
  line: number;
  /** Newest message time observed (ISO), for skipping after a re-read. */
  lastTime: string;
  /** While re-reading a rewritten file: skip messages with time <= this. */
  skipUntil: string;
  rewinds: number;
  state: unknown;
}

export interface TailReadOptions<S> {
  path: string;
  cursor: Cursor | undefined;
  limits: ReadLimits;
  parser: LineParser<S>;
  /** The file will not grow any more: its last line counts without a newline. */
  ended?: boolean;
  maxLineBytes?: number;
  logger?: Logger;
  /** Stream key, for log lines. */
  key: string;
}

/** How many first bytes of a file a cursor hashes to notice a rewrite in place. */
const HEAD_BYTES = 4096;

function parseTailCursor(cursor: Cursor | undefined): TailCursor | undefined {
  if (cursor?.v !== 1 || typeof cursor.ino !== 'string' || typeof cursor.offset !== 'number') return undefined;
  const c = cursor as Partial<TailCursor>;
  return {
    v: 1,
    ino: c.ino!,
    offset: c.offset!,
    line: typeof c.line === 'number' ? c.line : 0,
    headLen: typeof c.headLen === 'number' ? c.headLen : 0,
    headHash: typeof c.headHash === 'string' ? c.headHash : '',
    lastTime: typeof c.lastTime === 'string' ? c.lastTime : '',
    skipUntil: typeof c.skipUntil === 'string' ? c.skipUntil : '',
    rewinds: typeof c.rewinds === 'number' ? c.rewinds : 0,
    state: c.state,
  };
}

export async function statFile(path: string): Promise<{ ino: string; size: number; mtimeMs: number } | null> {
  try {
    const st = await stat(path, { bigint: true });
    return st.isFile() ? { ino: String(st.ino), size: Number(st.size), mtimeMs: Number(st.mtimeMs) } : null;
  } catch {
    return null;
  }
}

/** What a cursor into a line file keeps of the file it points into (both readers' cursors have it). */
export interface FilePosition {
  /** The file's inode ('' after a rewind: the next file read is read from its start). */
  ino: string;
  /** Byte offset just after the last consumed line. */
  offset: number;
  /** How many first bytes `headHash` covers, and their hash (see fileHead). */
  headLen: number;
  headHash: string;
}

/**
 * Why a file a cursor points into (same inode) cannot be continued at the
 * cursor's offset — it shrank, or its first bytes changed (copytruncate, a
 * rewrite in place) — or null when it can.
 */
async function rereadReason(handle: FileHandle, cursor: FilePosition, size: number): Promise<string | null> {
  if (size < cursor.offset) return 'file shrank';
  if ((await headHash(handle, Math.min(cursor.headLen, size))) !== cursor.headHash) return 'file head changed';
  return null;
}

/**
 * Where a read of an open file starts: the cursor as it is when it points into
 * this very file and the file can be continued there; else the cursor rewound
 * by `rewind` (the file is read from its start), with `reread(reason)` told
 * why — another inode, a file that shrank, a head that changed. Also the
 * file's inode and size, as the read's next cursor needs them.
 */
export async function resumePosition<C extends FilePosition>(
  handle: FileHandle,
  cursor: C | undefined,
  rewind: (cursor: C) => C,
  reread: (reason: string) => void,
): Promise<{ ino: string; size: number; cursor: C | undefined }> {
  const st = await handle.stat({ bigint: true });
  const ino = String(st.ino);
  const size = Number(st.size);
  if (cursor && cursor.ino !== '' && cursor.ino !== ino) {
    reread('inode changed');
    cursor = rewind(cursor);
  }
  if (cursor && cursor.ino === ino) {
    const reason = await rereadReason(handle, cursor, size);
    if (reason) {
      reread(reason);
      cursor = rewind(cursor);
    }
  }
  return { ino, size, cursor };
}

/** The first bytes of a file a next cursor remembers (HEAD_BYTES at most), and their hash. */
export async function fileHead(handle: FileHandle, size: number): Promise<{ headLen: number; headHash: string }> {
  const headLen = Math.min(HEAD_BYTES, size);
  return { headLen, headHash: await headHash(handle, headLen) };
}

/**
 * Reads a transcript file opened read-only (jsonl-tail.ts, withReadOnlyFile).
 * A file gone meanwhile, or not a regular file (a FIFO, a device), reads as
 * nothing new with the cursor where it was; an unreadable one is a
 * PERMISSION_DENIED error with a hint, the cursor unmoved.
 */
export async function readTranscriptFile(
  path: string,
  where: { key: string; cursor: Cursor | undefined; logger?: Logger | undefined },
  read: (handle: FileHandle) => Promise<StreamChunk>,
): Promise<StreamChunk> {
  try {
    return await withReadOnlyFile(path, read);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { messages: [], cursor: where.cursor ?? {}, malformed: [], done: true };
    if (code === 'ENOTREG') {
      where.logger?.log('warn', 'transcripts.not_regular_file', { key: where.key, path, reason: (error as Error).message });
      return { messages: [], cursor: where.cursor ?? {}, malformed: [], done: true };
    }
    if (code === 'EACCES' || code === 'EPERM') {
      throw new OcmError('PERMISSION_DENIED', `Cannot read the transcript ${path}: permission denied.`, {
        hint: 'Run OC-Memory as the user that runs the agent, or give that user read access to the file. Its cursor did not move.',
        cause: error,
      });
    }
    throw error;
  }
}

/** A file in `dir` with inode `ino` (a rotated-away transcript), or null. */
async function findInode(dir: string, ino: string, except: string): Promise<{ path: string; size: number } | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (path === except) continue;
    const st = await statFile(path);
    if (st && st.ino === ino) return { path, size: st.size };
  }
  return null;
}

function rewind(cursor: TailCursor, skip: boolean): TailCursor {
  return {
    ...cursor,
    ino: '',
    offset: 0,
    line: 0,
    headLen: 0,
    headHash: '',
    skipUntil: skip ? cursor.lastTime : '',
    rewinds: cursor.rewinds + 1,
    state: undefined,
  };
}

/** Read the messages after the cursor, following rotation. */
export async function readTailedFile<S>(options: TailReadOptions<S>): Promise<StreamChunk> {
  const { path, logger, key } = options;
  let cursor = parseTailCursor(options.cursor);
  const current = await statFile(path);
  const unchanged = { messages: [], cursor: options.cursor ?? {}, malformed: [], done: true };
  if (cursor && cursor.ino !== '' && (!current || current.ino !== cursor.ino)) {
    const old = await findInode(dirname(path), cursor.ino, path);
    if (old && old.size > cursor.offset) {
      // Rotated away with unread lines: finish the old file first.
      const chunk = await readOne(options, old.path, true, cursor);
      return { ...chunk, done: false };
    }
    if (!current) return unchanged; // rotated or deleted, and no new file yet
    logger?.log('info', 'transcripts.reread', { key, path, reason: old ? 'rotated: new file' : 'file replaced' });
    cursor = rewind(cursor, !old);
  }
  if (!current) return unchanged;
  return readOne(options, path, options.ended === true, cursor);
}

async function readOne<S>(
  options: TailReadOptions<S>,
  path: string,
  ended: boolean,
  previous: TailCursor | undefined,
): Promise<StreamChunk> {
  const { parser, logger, key, limits } = options;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  return readTranscriptFile(path, { key, cursor: options.cursor, logger }, async (handle) => {
    const { ino, size, cursor } = await resumePosition(
      handle,
      previous,
      (c) => rewind(c, true),
      (reason) => logger?.log('info', 'transcripts.reread', { key, path, reason }),
    );
    const state = cursor?.state === undefined ? parser.initial() : parser.revive(cursor.state);
    let lastTime = cursor?.lastTime ?? '';
    let skipUntil = cursor?.skipUntil ?? '';
    const offset = cursor?.offset ?? 0;
    const malformed: MalformedRecord[] = [];
    const messages: Message[] = [];
    const maxMessages = Math.max(1, limits.maxMessages);
    const maxBytes = Math.max(1, limits.maxBytes);

    const accept = (list: Message[]) => {
      for (const m of list) {
        if (skipUntil !== '' && m.time !== '') {
          if (m.time <= skipUntil) continue;
          skipUntil = '';
        }
        messages.push(m);
        if (m.time > lastTime) lastTime = m.time;
      }
    };

    let endOffset = offset;
    let endLine = cursor?.line ?? 0;
    let bytes = 0;
    let eof = true;
    const lines = new LineQueue(handle, { offset, lineNo: endLine, maxLineBytes, includeUnterminated: ended });
    // An await per batch, not per line: take() hands out the rest of the batch read last.
    for (let record = lines.take() ?? (await lines.next()); record !== undefined; record = lines.take() ?? (await lines.next())) {
      endOffset = record.end;
      endLine = record.lineNo;
      bytes += record.end - record.start;
      const unreadable = unreadableLineReason(record, maxLineBytes);
      if (unreadable !== null) {
        malformed.push({ path, line: record.lineNo, reason: unreadable });
      } else if ((record.text ?? '').trim().length > 0) {
        const result = parser.line(record.text ?? '', state, record.lineNo);
        if (result.invalid) malformed.push({ path, line: record.lineNo, reason: result.invalid });
        accept(result.messages);
      }
      if (messages.length >= maxMessages || bytes >= maxBytes) {
        eof = false;
        break;
      }
    }
    await lines.close();
    if (parser.flush) accept(parser.flush(state));
    if (!eof && endOffset >= size) eof = true;
    const next: TailCursor = {
      v: 1,
      ino,
      offset: endOffset,
      line: endLine,
      ...(await fileHead(handle, size)),
      lastTime,
      skipUntil,
      rewinds: cursor?.rewinds ?? 0,
      state,
    };
    return { messages, cursor: next as unknown as Cursor, malformed, done: eof };
  });
}
