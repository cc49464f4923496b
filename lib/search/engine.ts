/**
 * The search index's storage engine: the one seam between what is indexed and
 * ranked (the indexer, `search`) and how it is kept on disk. The indexer
 * decides which memory files changed and turns them into documents; it hands
 * them over with `replaceFile` / `removeFile` and `flush`. `search` asks for
 * the tiers' generations (the query cache's key) and for `rank`. The engine
 * OC-Memory ships is segment-engine.ts (segments, packs, manifests and vector
 * sidecars under `.ocm/index/`; docs/architecture.md, "Formats").
 *
 * A long-lived process (the MCP server, the dashboard, an agent plugin) asks
 * `openReader()` for an IndexReader and keeps it: it answers the same queries
 * as the engine, reusing what it loaded until an update changes a tier.
 */
import type { Tier } from '../core/types.js';
import type { SearchDoc, SearchFilters, SearchResult } from './types.js';
import type { Embedder } from './embedder.js';
import type { EmbedProgress } from './vectors.js';
import type { RenderedWord } from './bridge.js';
import type { FusionMethod } from './fusion.js';

/** Every tier an engine holds, in the order they are searched. */
export { TIERS } from './manifest.js';

/** What the engine holds of one memory file: enough for the indexer to tell whether it changed. */
export interface StoredFile {
  /** sha256 of the file's content when it was indexed. */
  hash: string;
  size: number;
  mtimeMs: number;
  /** When the content hash was last checked (ms since epoch). */
  checkedMs: number;
  kind: string;
  /** Documents indexed from it. */
  docs: number;
}

/** The state of a tier's stored index when an update opens it. */
export interface TierState {
  /** missing: never built; corrupt or version: unreadable or of another format, so the tier starts empty (rebuilt). */
  state: 'ok' | 'missing' | 'corrupt' | 'version';
  reason?: string;
}

/** A tier's stored index could not be read for a query (the caller rebuilds it and asks again). */
export class IndexUnavailable extends Error {
  readonly tier: Tier;
  /** 'segment': the tier's listing is fine but stored documents are not (rebuild that tier in full). */
  readonly state: Exclude<TierState['state'], 'ok'> | 'segment';
  constructor(tier: Tier, state: IndexUnavailable['state'], message: string) {
    super(message);
    this.name = 'IndexUnavailable';
    this.tier = tier;
    this.state = state;
  }
}

export interface RankRequest {
  tiers: readonly Tier[];
  filters: SearchFilters;
  limit: number;
  vectorWeight: number;
  textWeight: number;
  minScore: number;
  /** Embedding model key and the query's normalised vector: hybrid ranking where documents have vectors of that model. */
  modelKey?: string;
  queryVector?: Float32Array;
  /** Other renderings of the same question (other words, another language), each with its vector when hybrid: fused into one ranking. */
  also?: Array<{
    query: string;
    vector?: Float32Array;
    /**
     * A word-by-word rendering's words, each as its alternatives (the lexicon's translations of one word of the
     * question: bridge.ts): relevance counts each group as one word, held when the memory holds any of it.
     */
    words?: RenderedWord[];
  }>;
  /** How the rankings are fused (search/fusion.ts; default DEFAULT_FUSION). */
  fusion?: FusionMethod;
}

export interface Ranked {
  results: SearchResult[];
  /** The query's analysed terms. */
  terms: string[];
  /** Ranking used vectors. */
  hybrid: boolean;
  /** Tier → generation of what was ranked (query-cache key). */
  generations: Record<string, string>;
  /** Documents in scope, and those of them with a vector of `modelKey`. */
  totalDocs: number;
  vectorDocs: number;
}

export interface FlushResult {
  /** Documents embedded through the endpoint (cache misses), and those whose vectors came from the cache. */
  embedded: number;
  embeddingCacheHits: number;
  warnings: string[];
  /** Every stored document has a vector of the configured model. */
  hybrid: boolean;
  /** Why embedding stopped, when it did (EmbeddingError's kind). */
  embeddingFailure?: string;
}

/** The querying half of an engine, kept open between queries (Engine.openReader). */
export interface IndexReader {
  /**
   * Tier → generation (changes whenever the tier's index does), and the tiers
   * that cannot be read. `modelKey`: the embedding model a following `rank`
   * will ask for (a reader loads the index now).
   */
  generations(tiers: readonly Tier[], modelKey?: string): { generations: Record<string, string>; problems: IndexUnavailable[] };
  /** The best documents for `query`. Throws IndexUnavailable when a tier cannot be read. */
  rank(query: string, request: RankRequest): Ranked;
  /** The document with observation id `id` in `tier` (`get <id>`), as a result with score 1. Throws IndexUnavailable as rank does. */
  find(id: string, tier: Tier): SearchResult | undefined;
  /** Forget what is loaded (the next query loads afresh). */
  close(): void;
  /** The memory files of `tiers` were found in step with the index a moment ago (search/freshness.ts need not look again). */
  checkedFresh(tiers: readonly Tier[]): boolean;
  /** Record that the memory files of `tiers` are in step with the index now. */
  markFresh(tiers: readonly Tier[]): void;
}

export interface Engine extends Omit<IndexReader, 'close' | 'checkedFresh' | 'markFresh'> {
  // ---- updating (the indexer; callers hold the home lock). Nothing is visible to a query before `flush`.
  /** Open a tier for changes: how its stored index was found. */
  openTier(tier: Tier): TierState;
  /** What is stored for `path` (undefined: nothing). */
  stored(tier: Tier, path: string): StoredFile | undefined;
  /** Every path stored for the tier. */
  storedPaths(tier: Tier): string[];
  /** The stored documents of `path` are present on disk (`thorough`: and readable). */
  intact(tier: Tier, path: string, thorough: boolean): Promise<boolean>;
  /** The file's content is unchanged (same hash): record its new size and mtime. */
  touchFile(tier: Tier, path: string, stamp: Pick<StoredFile, 'size' | 'mtimeMs' | 'checkedMs'>): void;
  /** Store `documents` as the whole content of `path`, in place of what was stored for it. */
  replaceFile(tier: Tier, path: string, file: Omit<StoredFile, 'docs'>, documents: SearchDoc[]): Promise<void>;
  /** Drop everything stored for `path`. */
  removeFile(tier: Tier, path: string): void;
  /** Make the changes visible to queries at once (with vectors when `embedding` is given), then delete what they replaced. */
  flush(embedding?: { embedder: Embedder; onProgress?: EmbedProgress }): Promise<FlushResult>;

  // ---- querying: generations, rank and find (IndexReader), each loading what it needs
  /** A reader to keep open: it reuses what it loaded until an update changes a tier. */
  openReader(): IndexReader;
}
