/**
 * Absolute relevance, beside a search result's rank score. The rank score is
 * scaled to the best hit of its query (searcher.ts), so the best of nothing
 * relevant still scores 1.0 ("I want to buy some bananas" found a database
 * decision through "want"). A measure that is not scaled:
 *
 * - relevanceScorer (every search result's `relevance`, kept at or above
 *   DEFAULT_MIN_RELEVANCE by the agent hooks and the OpenClaw plugin's
 *   `minRelevance`): each query term weighs its idf over the documents in scope (a word no memory contains weighs most: it is what the
 *   query is about and nothing has it); a result's relevance is the weight of
 *   the query terms it contains (a longer word the term is a prefix of counts
 *   half) over the weight of the query's heaviest terms (at most HEAVIEST of
 *   them, so a long request can still be matched by what it is mostly
 *   about), capped at 1; words that only frame a request (remember, tell,
 *   want…) do not count.
 */
import { documentTerms } from './segment.js';
import { documentFrequency, type IndexSnapshot } from './searcher.js';
import { analyze, prefixEligible } from './tokenizer.js';
import type { SearchDoc } from './types.js';

/**
 * The floor below which memory is not injected unasked (the agent hooks of
 * lib/integrations/agent-hooks.ts; the OpenClaw plugin's `minRelevance` default is the same).
 */
export const DEFAULT_MIN_RELEVANCE = 0.5;

/** Terms of the query that count in the denominator. */
const HEAVIEST = 4;
/**
 * Words that frame a request rather than say what it is about ("what do you
 * remember about…", "can you tell me…", "I want to…"): left out of the
 * measure (a framing word no memory contains would otherwise weigh most).
 * Analysed as the query is, so their stems match.
 */
const REQUEST_WORDS = new Set(analyze('remember remind recall tell know think want need please thanks thank say said mention mentioned talk talked discuss discussed ask asked again anything something'));
const PREFIX_CREDIT = 0.5;

export type RelevanceOf = (doc: Pick<SearchDoc, 'text' | 'tags' | 'category'> & { date?: string }) => number;

/** The relevance measure for one query's terms over a snapshot. */
export function relevanceScorer(snapshot: IndexSnapshot, terms: readonly string[]): RelevanceOf {
  const total = Math.max(1, snapshot.totalDocs);
  const about = terms.filter((t) => !REQUEST_WORDS.has(t));
  const weighted = (about.length > 0 ? about : terms).map((term) => {
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
