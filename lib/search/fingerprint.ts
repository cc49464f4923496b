/**
 * A cheap fingerprint of every memory file (path, size, mtime) so the `run`
 * tick can tell "nothing changed since the last index update" with a few
 * readdir/stat calls, without loading the indexer and its Markdown parser.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryRoots } from './roots.js';
import type { HomePaths } from '../platform/home.js';

export interface MemoryFingerprint {
  hash: string;
  /** Newest mtime of any file (ms). */
  newestMtimeMs: number;
  files: number;
}

async function walk(dir: string, out: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
}

export async function memoryFingerprint(paths: HomePaths, vaultPath: string): Promise<MemoryFingerprint> {
  const files: string[] = [];
  for (const root of memoryRoots(paths, vaultPath)) await walk(root.dir, files);
  files.sort();
  const h = createHash('sha256');
  let newest = 0;
  for (const f of files) {
    try {
      const st = await stat(f);
      h.update(`${f}\u0000${st.size}\u0000${st.mtimeMs}\n`);
      newest = Math.max(newest, st.mtimeMs);
    } catch {
      h.update(`${f}\u0000gone\n`);
    }
  }
  return { hash: h.digest('hex'), newestMtimeMs: newest, files: files.length };
}
