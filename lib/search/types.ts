/**
 * Types of the search subsystem: what is indexed, what is asked, what comes back.
 */
import type { ObservationMark, Priority, Provenance, Tier } from '../core/types.js';

/** One searchable document: an observation of a day file, or a block of a reflection. */
export interface SearchDoc {
  id: string;
  /** Path of the file: relative to the memory home (memory/…, archive/…, reflections/…) or absolute (cold tier in the vault). */
  path: string;
  startLine: number;
  endLine: number;
  /** YYYY-MM-DD ('' when unknown). */
  date: string;
  /** HH:MM ('' when unknown). */
  time: string;
  priority: Priority;
  done: boolean;
  category: string;
  tier: Tier;
  agent: string;
  tags: string[];
  text: string;
  provenance?: Provenance;
  /** Done or superseded, as its line is marked (README, "File formats"). */
  mark?: ObservationMark;
}

export interface SearchFilters {
  /** Inclusive YYYY-MM-DD bounds. */
  since?: string;
  until?: string;
  priorities?: Priority[];
  categories?: string[];
  tiers?: Tier[];
  agents?: string[];
  /** A document must carry every one of these tags. */
  tags?: string[];
  /** Only what is current: superseded items and done tasks are left out (`search --current`). */
  current?: boolean;
}

export interface SearchOptions {
  limit: number;
  filters: SearchFilters;
  /** Weights of the hybrid score (normalised to sum 1). */
  vectorWeight: number;
  textWeight: number;
  /** Results below this final score (0..1) are dropped. */
  minScore: number;
}

export type SearchMode = 'hybrid' | 'text';

export interface SearchResult {
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  date: string;
  time: string;
  priority: Priority;
  category: string;
  tier: Tier;
  agent: string;
  tags: string[];
  done: boolean;
  /** Done or superseded, as its line is marked; absent for a current item. */
  mark?: ObservationMark;
  /** The whole observation text. */
  text: string;
  provenance: Provenance;
  /** Score parts (normalised 0..1) for --verbose / debugging. */
  scores: { text: number; vector: number | null };
  /**
   * How much of the query this result covers, 0..1, not scaled to the best hit
   * (relevance.ts): absent for a result looked up by id.
   */
  relevance?: number;
}

export interface SearchResponse {
  results: SearchResult[];
  mode: SearchMode;
  /** Why the search is text-only when embeddings are configured, or other caveats. */
  warnings: string[];
  /** Served from the repeated-query cache. */
  cached: boolean;
  /** Query terms after analysis (for highlighting). */
  terms: string[];
}
