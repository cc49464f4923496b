/**
 * Is the search index behind the memory files? A memory file that is new,
 * changed (size or mtime differ from what the engine stored of it) or gone since the
 * last index update makes the index stale: `search` and `get` refresh it
 * before answering, so what a writer (observe, forget, a hand edit) put in a
 * file a moment ago is found (README, "Search"). A listing and one stat per
 * file; no file is read and the indexer is not loaded.
 */
import { statSync } from 'node:fs';
import type { HomePaths } from '../platform/home.js';
import type { Tier } from '../core/types.js';
import { listMarkdown } from './files.js';
import { openEngine } from './open-engine.js';
import { displayPath, memoryRoots } from './roots.js';

export interface Staleness {
  stale: boolean;
  /** The first difference found, for the log ("memory/2026-04-06.md changed"). */
  reason?: string;
}

/** Compare the memory files of `tiers` with what the engine stored of them (a missing or unreadable tier is stale too: an update rebuilds it). */
export async function indexStaleness(paths: HomePaths, vaultPath: string, tiers: readonly Tier[]): Promise<Staleness> {
  const roots = memoryRoots(paths, vaultPath).filter((r) => tiers.includes(r.tier));
  const engine = openEngine(paths.index);
  for (const tier of tiers) {
    const { state } = engine.openTier(tier);
    if (state !== 'ok') return { stale: true, reason: `the ${tier} index is ${state}` };
    const indexed = new Set(engine.storedPaths(tier));
    const files = new Map<string, string>();
    for (const root of roots.filter((r) => r.tier === tier)) {
      for (const file of await listMarkdown(root.dir, root.ignore)) {
        const key = displayPath(paths, file);
        if (!files.has(key)) files.set(key, file);
      }
    }
    for (const key of files.keys()) if (!indexed.has(key)) return { stale: true, reason: `${key} is new` };
    for (const key of indexed) if (!files.has(key)) return { stale: true, reason: `${key} is gone` };
    // Synchronous stats: a file per agent and day, a fraction of a millisecond in all (queued async stats took several).
    for (const [key, file] of files) {
      const entry = engine.stored(tier, key)!;
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st) return { stale: true, reason: `${key} is gone` };
      if (st.size !== entry.size || st.mtimeMs !== entry.mtimeMs) return { stale: true, reason: `${key} changed` };
    }
  }
  return { stale: false };
}
