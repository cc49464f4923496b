/**
 * File primitives for tier moves: content hashes, existence-aware reads,
 * keeping a byte-exact copy of a file (hard link, or copy across devices),
 * and durable deletes. Every helper says what it did; none prints.
 */
import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncPath, writeFileAtomic } from '../platform/atomic-file.js';

export { fsyncPath };
import { fromSystemError, errorCode, isNotFound } from '../core/errors.js';

/** SHA-256 of a string or bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The file's bytes, or undefined when it does not exist. */
export async function readBytesIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw fromSystemError(error, `read ${path}`);
  }
}

/** SHA-256 of a file's bytes, or null when it does not exist. */
export async function hashFile(path: string): Promise<string | null> {
  const bytes = await readBytesIfExists(path);
  return bytes === undefined ? null : sha256(bytes);
}

/** Permission bits of a file (undefined when missing). */
export async function fileMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** Write bytes to a new file and fsync it (staging, backups). Overwrites. */
export async function writeDurable(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const handle = await open(path, 'w', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fromSystemError(error, `write ${path}`);
  }
}

/**
 * Keep the current bytes of `path` at `copy`: a hard link (free, and the
 * original inode survives the atomic rename that replaces `path`), or a
 * copy when the two are on different devices. Verified by hash.
 */
export async function preserveCopy(path: string, copy: string, expectedHash: string, options: { sync?: boolean } = {}): Promise<void> {
  const existing = await hashFile(copy);
  if (existing === expectedHash) return;
  try {
    await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
    if (existing !== null) await unlink(copy);
    try {
      // Same inode: its data is already on disk; only the new name needs the folder fsync.
      await link(path, copy);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      await copyFile(path, copy);
      await fsyncPath(copy);
    }
    if (options.sync !== false) await fsyncPath(dirname(copy));
  } catch (error) {
    throw fromSystemError(error, `keep a copy of ${path}`);
  }
  const got = await hashFile(copy);
  if (got !== expectedHash) {
    throw new Error(`The copy of ${path} at ${copy} does not match (sha256 ${got} ≠ ${expectedHash}).`);
  }
}

/** Delete a file and fsync its folder (unless the caller syncs folders itself); a missing file is fine. */
export async function removeDurable(path: string, options: { sync?: boolean } = {}): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (isNotFound(error)) return;
    throw fromSystemError(error, `remove ${path}`);
  }
  if (options.sync !== false) await fsyncPath(dirname(path));
}

/**
 * Put new bytes at `path` atomically: temp file in the same folder, fsync,
 * rename. The caller fsyncs the folder (once for many files).
 */
export async function installFile(path: string, data: Uint8Array, mode: number): Promise<void> {
  await writeFileAtomic(path, data, { mode, syncFolder: false });
}
