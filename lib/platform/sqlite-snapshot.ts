/**
 * A consistent, read-only copy of a SQLite database as it stands on disk —
 * the main file with the committed frames of its write-ahead log applied —
 * for a SQLite that cannot open the live files itself: a WebAssembly build
 * (sql.js) has no POSIX locks and no WAL shared memory, so it reads an image
 * in its own memory instead (lib/platform/sqlite.ts).
 *
 * Nothing here writes: not the database, not its `-wal` or `-shm`, not a
 * lock file beside them (node-sqlite3-wasm, for one, locks by creating a
 * `<db>.lock` folder in the agent's folder; it is not used for that reason).
 *
 * How the copy stays consistent without taking SQLite's locks:
 * - WAL mode (OpenClaw's): a writer only appends frames to the log; the main
 *   file changes only when a checkpoint copies committed frames into it, and
 *   the log starts over (new salts in its header) only after a complete
 *   checkpoint. The log's header is read before the main file and compared
 *   with the log read after it: unchanged salts mean every frame a
 *   checkpoint may have been copying while the main file was read is still in
 *   the log, and applying the log over the copy gives exactly the last
 *   committed state. Frames after the last commit frame, or whose salt or
 *   checksum do not match, are left out, as SQLite's own recovery does.
 * - Rollback-journal mode: a writer saves the original pages in a "hot"
 *   journal before it changes the file. A hot journal before or after the
 *   read, or a main file whose size or mtime changed during it, means a write
 *   was under way.
 * Either way an inconsistent read is retried a few times and then reported
 * as `SQLITE_BUSY` (the reader leaves the database for the next tick).
 *
 * The format: https://www.sqlite.org/fileformat2.html ("The Write-Ahead Log").
 */
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const WAL_MAGIC = 0x377f0682;
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
/** Offsets 18 and 19 of the database header: file format write/read version (1 legacy, 2 WAL). */
const FORMAT_VERSION_OFFSETS = [18, 19] as const;
const ATTEMPTS = 5;

/** What was copied, and what to compare with the files to know whether the copy is still current. */
export interface DatabaseSnapshot {
  /** The database as of its last commit, in rollback-journal format (no log needed to read it). */
  image: Uint8Array;
  /** Size and mtime of the main file and of its log when the copy was made. */
  signature: string;
}

/** The files' current signature: a snapshot whose signature differs is out of date. */
export function fileSignature(path: string): string {
  return [statOrNull(path), statOrNull(`${path}-wal`)].map((s) => (s ? `${s.ino}:${s.size}:${s.mtimeMs}` : '-')).join('|');
}

/** A consistent image of the database at `path`; throws `SQLITE_BUSY` when a writer kept changing it. */
export function snapshotDatabase(path: string): DatabaseSnapshot {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const snapshot = trySnapshot(path);
    if (snapshot) return snapshot;
  }
  throw Object.assign(new Error(`database is locked: ${path} kept changing while it was read`), { code: 'SQLITE_BUSY' });
}

function trySnapshot(path: string): DatabaseSnapshot | undefined {
  const signature = fileSignature(path);
  if (hotJournal(path)) return undefined;
  const walHeaderBefore = readPrefix(`${path}-wal`, WAL_HEADER);
  const before = statOrNull(path);
  const main = readWhole(path);
  const after = statOrNull(path);
  if (!before || !after || before.size !== after.size || before.mtimeMs !== after.mtimeMs) return undefined;
  if (hotJournal(path)) return undefined;
  const wal = readWhole(`${path}-wal`, true);
  if (!sameBytes(walHeaderBefore, wal.subarray(0, WAL_HEADER))) return undefined;
  const image = inWalMode(main) || main.length === 0 ? applyWal(main, wal) : main;
  if (image.length >= 20) for (const offset of FORMAT_VERSION_OFFSETS) image[offset] = 1;
  return { image, signature };
}

/** A rollback journal whose header is intact: a write transaction is under way (or was interrupted). */
function hotJournal(path: string): boolean {
  const head = readPrefix(`${path}-journal`, JOURNAL_MAGIC.length);
  return head.length === JOURNAL_MAGIC.length && head.equals(JOURNAL_MAGIC);
}

function inWalMode(main: Buffer): boolean {
  return main.length >= 20 && main[18] === 2 && main[19] === 2;
}

/**
 * The main file with the log's committed frames over it, sized as the last
 * commit says. A log that is missing, empty or not valid leaves the main file
 * as it is (SQLite would ignore such a log too).
 */
export function applyWal(main: Buffer, wal: Buffer): Buffer {
  if (wal.length < WAL_HEADER) return main;
  const magic = wal.readUInt32BE(0);
  if ((magic & 0xfffffffe) !== WAL_MAGIC) return main;
  const bigEndian = (magic & 1) === 1;
  const pageSize = wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return main;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let sum = checksum(wal, 0, 24, [0, 0], bigEndian);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return main;

  // First the valid frames up to the last commit frame, then the page each of them holds.
  const frameSize = FRAME_HEADER + pageSize;
  let committedEnd = WAL_HEADER;
  let committedPages = -1;
  for (let at = WAL_HEADER; at + frameSize <= wal.length; at += frameSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sum = checksum(wal, at, 8, sum, bigEndian);
    sum = checksum(wal, at + FRAME_HEADER, pageSize, sum, bigEndian);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    if (wal.readUInt32BE(at) === 0) break;
    const pagesAfterCommit = wal.readUInt32BE(at + 4);
    if (pagesAfterCommit !== 0) {
      committedEnd = at + frameSize;
      committedPages = pagesAfterCommit;
    }
  }
  if (committedPages < 0) return main;
  const image = Buffer.alloc(committedPages * pageSize);
  main.copy(image, 0, 0, Math.min(main.length, image.length));
  for (let at = WAL_HEADER; at < committedEnd; at += frameSize) {
    const page = wal.readUInt32BE(at);
    if (page <= committedPages) wal.copy(image, (page - 1) * pageSize, at + FRAME_HEADER, at + frameSize);
  }
  return image;
}

/** SQLite's WAL checksum: two running 32-bit sums over pairs of words in the log's byte order. */
function checksum(buffer: Buffer, start: number, length: number, [s1, s2]: [number, number], bigEndian: boolean): [number, number] {
  let a = s1;
  let b = s2;
  for (let i = start; i < start + length; i += 8) {
    const x0 = bigEndian ? buffer.readUInt32BE(i) : buffer.readUInt32LE(i);
    const x1 = bigEndian ? buffer.readUInt32BE(i + 4) : buffer.readUInt32LE(i + 4);
    a = (a + x0 + b) >>> 0;
    b = (b + x1 + a) >>> 0;
  }
  return [a, b];
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function readPrefix(path: string, length: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/** The whole file as it is now (read to its end even if it grows meanwhile); a missing optional file is empty. */
function readWhole(path: string, optional = false): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw Object.assign(new Error(`unable to open database file: ${path}`), { code: 'SQLITE_CANTOPEN', cause: error });
  }
  try {
    const chunks: Buffer[] = [];
    let size = fstatSync(fd).size;
    let position = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.max(size - position, 64 * 1024));
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      chunks.push(buffer.subarray(0, n));
      position += n;
      size = Math.max(size, position);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && a.equals(b);
}
