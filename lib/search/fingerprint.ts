/**
 * A cheap fingerprint of every memory file (path, size, mtime) so the `run`
 * tick can tell "nothing changed since the last index update" with a few
 * readdir/stat calls, without loading the indexer and its Markdown parser.
 *
 * The files are listed by `listMarkdown` with each root's `ignore`, as the
 * indexer and search's freshness check list them, so the three agree on
 * which files are memory and on what a folder that cannot be read means: a
 * missing root is empty, any other failure to list a folder (no permission,
 * a symbolic-link loop, an I/O error) is thrown. The tick then records the
 * index step's error in `state.json` for `status` and fails, as it would when
 * the indexer met the same folder (docs/architecture.md, "A tick, step by
 * step"). A fingerprint that left the folder out instead would stay equal
 * from tick to tick and the tick would call an index it cannot update current.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { listMarkdown } from './files.js';
import { memoryRoots } from './roots.js';
import type { HomePaths } from '../platform/home.js';

export interface MemoryFingerprint {
  hash: string;
  /** Newest mtime of any file (ms). */
  newestMtimeMs: number;
  files: number;
}

export async function memoryFingerprint(paths: HomePaths, vaultPath: string): Promise<MemoryFingerprint> {
  const files: string[] = [];
  for (const root of memoryRoots(paths, vaultPath)) files.push(...(await listMarkdown(root.dir, root.ignore)));
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
