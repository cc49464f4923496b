/**
 * Small file helpers of the index. Index files are rebuildable caches: they
 * are written atomically (temp + rename, a reader never sees half a file) but
 * without fsync — after a power loss a broken segment is detected and rebuilt.
 */
import { mkdir, open, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromSystemError } from '../errors.js';

export async function writeIndexFile(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw fromSystemError(error, `write the search index file ${path}`);
  }
}

/** Like writeIndexFile, for a file too large to build in memory: `write` fills the open temp file. */
export async function writeIndexFileWith(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(tmp, 'w', 0o600);
    try {
      await write(handle);
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw fromSystemError(error, `write the search index file ${path}`);
  }
}

/** Markdown files under `dir` (recursive), skipping dot folders/files (.obsidian, .trash, temp files). Absolute paths, sorted. */
export async function listMarkdown(dir: string, ignore: string[] = []): Promise<string[]> {
  const { default: fg } = await import('fast-glob');
  try {
    const files = await fg('**/*.md', { cwd: dir, absolute: true, dot: false, onlyFiles: true, followSymbolicLinks: false, suppressErrors: true, ignore });
    return files.sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
