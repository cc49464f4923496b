/**
 * Small file helpers of the index. Index files are rebuildable caches: they
 * are written atomically (temp + rename, a reader never sees half a file) but
 * without fsync — after a power loss a broken segment is detected and rebuilt.
 */
import { readdirSync, type Dirent } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic, writeFileAtomicWith } from '../platform/atomic-file.js';
import { errorCode } from '../core/errors.js';

export async function writeIndexFile(path: string, data: string | Uint8Array): Promise<void> {
  await writeFileAtomic(path, data, { durable: false, what: `write the search index file ${path}` });
}

/** Like writeIndexFile, for a file too large to build in memory: `write` fills the open temp file. */
export async function writeIndexFileWith(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  await writeFileAtomicWith(path, write, { durable: false, what: `write the search index file ${path}` });
}

/**
 * Markdown files under `dir` (recursive), skipping dot folders/files
 * (.obsidian, .trash, temp files) and symlinks. Absolute paths, sorted.
 * `ignore` holds paths relative to `dir`: a file (`README.md`) or a folder
 * with everything in it (`Reflections/**`). One recursive readdir: `search`
 * and the OpenClaw plugin list the memory files before every answer
 * (freshness.ts), and a glob library's set-up cost more than the listing
 * (so did one awaited readdir per folder, as platform/files-under.ts walks).
 * The indexer, freshness.ts and the run tick's fingerprint.ts all list here:
 * a missing folder is empty, any other failure to read one is thrown.
 */
export async function listMarkdown(dir: string, ignore: string[] = []): Promise<string[]> {
  let entries: Dirent[];
  try {
    // Synchronous: a few hundred names in well under a millisecond, where queued async calls took several.
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  const folders = ignore.filter((p) => p.endsWith('/**')).map((p) => p.slice(0, -2));
  const files = new Set(ignore.filter((p) => !p.endsWith('/**')));
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    // `parentPath` since Node 20.12, `path` before.
    const parent = (entry as Dirent & { parentPath?: string }).parentPath ?? (entry as Dirent & { path: string }).path;
    const rel = relative(dir, join(parent, entry.name)).split(sep).join('/');
    if (rel.split('/').some((part) => part.startsWith('.'))) continue;
    if (files.has(rel) || folders.some((f) => rel.startsWith(f))) continue;
    out.push(join(dir, rel));
  }
  return out.sort();
}
