/**
 * An absolute relevance floor for memory a hook injects unasked. Search scores
 * are relative (the best hit of any query scores 1), so they cannot tell "the
 * best of nothing relevant" from a real match. Here a result counts when it
 * shares enough of the query's own words — terms as the index analyses them
 * (stems, no stop words), a prefix match counting as a match (postg →
 * postgresql), date terms ignored: at least `minTerms` distinct query terms
 * (all of them for a shorter query) and at least `minShare` of them.
 */
import { analyze } from './tokenizer.js';

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
