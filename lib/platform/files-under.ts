/** Files under a folder, for the jobs that walk the memory home's own folders (forget, the vault's reflections). */
import { readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';

export interface FilesUnderOptions {
  /** Only names ending so (".md", ".log"). */
  suffix: string;
  /** Leave folders whose name starts with a dot (.obsidian, .trash) unvisited. */
  skipDotFolders?: boolean;
}

/**
 * Regular files under `dir`, recursively, in readdir order (absolute paths).
 * A folder that cannot be read (missing, not a folder, no permission) is
 * left out, as are symbolic links.
 */
export async function filesUnder(dir: string, options: FilesUnderOptions): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!(options.skipDotFolders && e.name.startsWith('.'))) await walk(p);
      } else if (e.isFile() && e.name.endsWith(options.suffix)) out.push(p);
    }
  };
  await walk(dir);
  return out;
}
