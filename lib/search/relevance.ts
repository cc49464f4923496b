/**
 * Absolute relevance, beside a search result's rank score. The rank score is
 * scaled to the best hit of its query (searcher.ts), so the best of nothing
 * relevant still scores 1.0 ("I want to buy some bananas" found a database
 * decision through "want"). Two measures that are not scaled:
 *
 * - relevanceScorer (every search result's `relevance`, and the OpenClaw
 *   plugin's `minRelevance`): each query term weighs its idf over the
 *   documents in scope (a word no memory contains weighs most: it is what the
 *   query is about and nothing has it); a result's relevance is the weight of
 *   the query terms it contains (a longer word the term is a prefix of counts
 *   half) over the weight of the query's heaviest terms (at most HEAVIEST of
 *   them, so a long request can still be matched by what it is mostly
 *   about), capped at 1.
 * - passesFloor (the agent hooks of lib/agent-hooks.ts): a result counts when
 *   it shares enough of the query's own words — terms as the index analyses
 *   them (stems, no stop words), a prefix match counting as a match (postg →
 *   postgresql), date terms ignored: at least `minTerms` distinct query terms
 *   (all of them for a shorter query) and at least `minShare` of them.
 */
import { documentTerms } from './segment.js';
import { documentFrequency, type IndexSnapshot } from './searcher.js';
import { analyze, prefixEligible } from './tokenizer.js';
import type { SearchDoc } from './types.js';

export interface RelevanceFloor {
  /** Share of the query's terms a result must contain (0..1). */
  minShare: number;
  /** Distinct query terms a result must contain (fewer when the query has fewer). */
  minTerms: number;
}

export const DEFAULT_RELEVANCE_FLOOR: RelevanceFloor = { minShare: 0.3, minTerms: 2 };

/** The query's distinct content terms (dates aside). */
export function contentTerms(text: string): string[] {
  return [...new Set(analyze(text).filter((t) => !t.startsWith('@')))];
}

/** How many of `queryTerms` occur in `text` (exactly, or as the start of a longer term of 4+ letters). */
export function matchedTerms(queryTerms: readonly string[], text: string): number {
  const own = new Set(analyze(text));
  let n = 0;
  for (const q of queryTerms) {
    if (own.has(q)) n++;
    else if (q.length >= 4) {
      for (const t of own) {
        if (t.startsWith(q)) {
          n++;
          break;
        }
      }
    }
  }
  return n;
}

/** Is a result with this text relevant to a query with these terms? */
export function passesFloor(queryTerms: readonly string[], text: string, floor: RelevanceFloor = DEFAULT_RELEVANCE_FLOOR): boolean {
  if (queryTerms.length === 0) return false;
  const n = matchedTerms(queryTerms, text);
  return n >= Math.min(floor.minTerms, queryTerms.length) && n / queryTerms.length >= floor.minShare;
}

/** Terms of the query that count in the denominator. */
const HEAVIEST = 4;
const PREFIX_CREDIT = 0.5;

export type RelevanceOf = (doc: Pick<SearchDoc, 'text' | 'tags' | 'category'> & { date?: string }) => number;

/** The relevance measure for one query's terms over a snapshot. */
export function relevanceScorer(snapshot: IndexSnapshot, terms: readonly string[]): RelevanceOf {
  const total = Math.max(1, snapshot.totalDocs);
  const weighted = terms.map((term) => {
    const df = documentFrequency(snapshot, Buffer.from(term, 'utf8'));
    return { term, weight: Math.log(1 + (total - df + 0.5) / (df + 0.5)), prefix: prefixEligible(term) };
  });
  const heaviest = weighted
    .map((w) => w.weight)
    .sort((a, b) => b - a)
    .slice(0, HEAVIEST)
    .reduce((sum, w) => sum + w, 0);
  return (doc) => {
    if (heaviest <= 0) return 0;
    const own = documentTerms(doc);
    const exact = new Set(own);
    let matched = 0;
    for (const w of weighted) {
      if (exact.has(w.term)) matched += w.weight;
      else if (w.prefix && own.some((t) => t.length > w.term.length && t.startsWith(w.term))) matched += PREFIX_CREDIT * w.weight;
    }
    return Math.min(1, Math.round((matched / heaviest) * 10000) / 10000);
  };
}
