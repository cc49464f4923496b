/**
 * The one place that chooses how the search index is stored: every module
 * that needs the index (the indexer, search, get, freshness, doctor, the
 * long-lived readers of lib/api/) asks here for an `Engine` (engine.ts) or an
 * `IndexReader`, and never names the concrete engine. To store the index
 * another way, construct the other engine here (docs/architecture.md,
 * "Store the search index another way").
 */
import type { Engine, IndexReader } from './engine.js';
import { SegmentEngine, type SegmentEngineOptions } from './segment-engine.js';

export type EngineOptions = SegmentEngineOptions;

/** The engine of the index folder `indexDir` (a home's `.ocm/index`). */
export function openEngine(indexDir: string, options: EngineOptions = {}): Engine {
  return new SegmentEngine(indexDir, options);
}

/** A reader of `indexDir` to keep open between queries (a long-lived process: MCP, the dashboard, a plugin's recall). */
export function openIndexReader(indexDir: string): IndexReader {
  return openEngine(indexDir).openReader();
}
