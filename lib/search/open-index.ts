/**
 * The segment engine's IndexReader (engine.ts, SegmentEngine.openReader): the
 * search index kept open by a long-lived process (`ocm-run mcp`, the
 * dashboard, an agent plugin): segments are loaded once and reused by every
 * query, and reloaded only when an `index` run has replaced a tier's manifest
 * since. Whether it changed is told by the manifest file's size, mtime and
 * inode (one stat per tier per query); the manifest is re-read only then, and
 * a new snapshot is built only when its generation differs (docs/running.md, "The MCP server").
 * Whether the memory files are ahead of the index (search/freshness.ts) is
 * checked at most once every FRESHNESS_TRUST_MS.
 *
 * A snapshot is loaded without filters (every file in scope); `rank` applies a
 * query's filters document by document, so one snapshot serves every query.
 */
import { statSync } from 'node:fs';
import type { Tier } from '../core/types.js';
import { IndexUnavailable, type IndexReader, type Ranked, type RankRequest } from './engine.js';
import { manifestPath, TIERS } from './manifest.js';
import { IndexSnapshot } from './searcher.js';
import { findIn, rankSnapshot } from './segment-engine.js';
import type { SearchResult } from './types.js';

interface ManifestStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

interface Loaded {
  snapshot: IndexSnapshot;
  /** The manifests' stamps when the snapshot was loaded. */
  stamps: Array<ManifestStamp | undefined>;
  modelKey: string | undefined;
}

function stampOf(path: string): ManifestStamp | undefined {
  try {
    const st = statSync(path);
    return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch {
    return undefined;
  }
}

function sameStamp(a: ManifestStamp | undefined, b: ManifestStamp | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino);
}

/**
 * How long a check that the memory files and the index agree is trusted
 * (search/freshness.ts lists and stats every memory file: several ms per
 * query). A file written less than this before a query may be missed by it;
 * OC-Memory's own writers (observe, remember) update the index themselves.
 */
export const FRESHNESS_TRUST_MS = 1000;

export class OpenIndex implements IndexReader {
  private readonly loaded = new Map<string, Loaded>();
  private readonly freshAt = new Map<string, number>();
  /** Snapshots built so far (reloads after a change included): for tests and `stats`. */
  loads = 0;

  constructor(readonly indexDir: string) {}

  /** The memory files of `tiers` were found in step with the index less than FRESHNESS_TRUST_MS ago. */
  checkedFresh(tiers: readonly Tier[]): boolean {
    const at = this.freshAt.get(tiers.join(','));
    return at !== undefined && performance.now() - at < FRESHNESS_TRUST_MS;
  }

  markFresh(tiers: readonly Tier[]): void {
    this.freshAt.set(tiers.join(','), performance.now());
  }

  /**
   * The snapshot of `tiers`, reloaded when a manifest changed since the last
   * call. Throws IndexUnavailable as IndexSnapshot.load does (the caller
   * rebuilds the index and asks again).
   */
  snapshot(tiers: readonly Tier[] = TIERS, modelKey?: string): IndexSnapshot {
    const key = tiers.join(',');
    const stamps = tiers.map((tier) => stampOf(manifestPath(this.indexDir, tier)));
    const held = this.loaded.get(key);
    if (held && held.modelKey === modelKey && held.stamps.every((s, i) => sameStamp(s, stamps[i]))) return held.snapshot;
    const snapshot = IndexSnapshot.load(this.indexDir, tiers, {}, modelKey);
    // The same generations (a manifest rewritten with the same content): keep the segments already loaded.
    if (held && held.modelKey === modelKey && tiers.every((t) => held.snapshot.generations[t] === snapshot.generations[t])) {
      held.stamps = stamps;
      return held.snapshot;
    }
    this.loads++;
    this.loaded.set(key, { snapshot, stamps, modelKey });
    return snapshot;
  }

  /** Manifest generations of the snapshot `snapshot(tiers)` would return (loading it if needed). */
  generations(tiers: readonly Tier[] = TIERS, modelKey?: string): { generations: Record<string, string>; problems: IndexUnavailable[] } {
    try {
      return { generations: { ...this.snapshot(tiers, modelKey).generations }, problems: [] };
    } catch (error) {
      if (!(error instanceof IndexUnavailable)) throw error;
      return IndexSnapshot.generations(this.indexDir, tiers);
    }
  }

  rank(query: string, request: RankRequest): Ranked {
    return rankSnapshot(this.snapshot(request.tiers, request.modelKey), query, request);
  }

  /** A one-off load of the tier, as the engine's `find` (`get <id>` is rare; the kept snapshots stay as they are). */
  find(id: string, tier: Tier): SearchResult | undefined {
    return findIn(IndexSnapshot.load(this.indexDir, [tier]), id);
  }

  /** Forget every loaded snapshot (the next query loads afresh). */
  close(): void {
    this.loaded.clear();
    this.freshAt.clear();
  }
}
