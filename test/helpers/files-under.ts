// Every file under a folder, for tests that look through a whole home:
// leak searches (masking channels, the LLM CLI test, forget) and tree hashes (tiers).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The regular files under `root`, depth first; a root that does not exist has
 * none. `skip` sees every path (folders too) and leaves out what it matches.
 */
export async function filesUnder(root: string, options: { skip?: (path: string) => boolean } = {}): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (options.skip?.(path)) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  await walk(root);
  return out;
}
