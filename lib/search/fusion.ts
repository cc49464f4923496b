/**
 * Fusing rankings into one: the text and vector scores of one query, and the
 * renderings of one question ("API 인증 문제", "API authentication problems").
 *
 * Each query q gives every candidate document g a text score t_q(g) — BM25+
 * with conversation context, scaled by the best text score over *all* the
 * queries, so a rendering that matches only common words does not count as
 * much as one that matches the memory's own words — and, where both have a
 * vector, its cosine c_q(g). The methods (docs/performance.md, "Hybrid
 * ranking", has the measurements):
 *
 * - 'linear' (the default): per query, text_weight · t + vector_weight · v, where v
 *   is the cosine mapped onto 0..1 between COSINE_FLOOR (what unrelated
 *   short texts score) and COSINE_CEILING (a near paraphrase), an absolute
 *   scale rather than one relative to the best hit, so a query nothing
 *   resembles does not lift its nearest vector to 1; the best query wins
 *   (CombMAX).
 * - 'rrf': reciprocal rank fusion (Cormack et al., SIGIR 2009, k = 60) over
 *   every list (each query's text list and vector list).
 *
 * Documents without a vector (Hangul-dominant text, a model that failed)
 * are ranked by text alone in 'linear': v counts as the text part then, so
 * they are not pushed down by a signal they cannot have.
 */

export type FusionMethod = 'linear' | 'rrf';

export const DEFAULT_FUSION: FusionMethod = 'linear';

/** Cosine of unrelated short texts (measured on the bundled samples with the local model: p90 of unrelated pairs). */
export const COSINE_FLOOR = 0.2;
/** Cosine of a close paraphrase. */
export const COSINE_CEILING = 0.7;
/** Reciprocal rank fusion's constant. */
const RRF_K = 60;

/** A cosine on the absolute 0..1 scale of the linear fusion. */
export function cosineScale(c: number): number {
  return Math.min(1, Math.max(0, (c - COSINE_FLOOR) / (COSINE_CEILING - COSINE_FLOOR)));
}

export interface Candidate {
  /** Per query: text score scaled to the best over all queries (0 when the document matches none of its words). */
  text: number[];
  /** Per query: the cosine, null without a vector (or without a query vector). */
  cosine: Array<number | null>;
}

export interface FusionWeights {
  text: number;
  vector: number;
}

/**
 * Fused scores (0..1, best first is the caller's sort), in candidate order.
 * `hybrid`: at least one query has a vector.
 */
export function fuse(method: FusionMethod, candidates: Candidate[], weights: FusionWeights, hybrid: boolean): number[] {
  if (candidates.length === 0) return [];
  const queries = candidates[0]!.text.length;
  if (method === 'rrf') return reciprocalRank(candidates, queries, hybrid);
  const sum = weights.text + weights.vector || 1;
  const wt = hybrid ? weights.text / sum : 1;
  const wv = hybrid ? weights.vector / sum : 0;
  return candidates.map((c) => {
    let best = 0;
    for (let q = 0; q < queries; q++) {
      const t = c.text[q]!;
      const cos = c.cosine[q];
      const v = cos === null || cos === undefined ? t : cosineScale(cos);
      const s = wt * t + wv * v;
      if (s > best) best = s;
    }
    return best;
  });
}

function reciprocalRank(candidates: Candidate[], queries: number, hybrid: boolean): number[] {
  const scores = new Float64Array(candidates.length);
  const order = candidates.map((_, i) => i);
  const add = (value: (c: Candidate) => number | null) => {
    const ranked = order.filter((i) => (value(candidates[i]!) ?? 0) > 0).sort((a, b) => value(candidates[b]!)! - value(candidates[a]!)!);
    ranked.forEach((i, r) => {
      scores[i] = scores[i]! + 1 / (RRF_K + r + 1);
    });
  };
  for (let q = 0; q < queries; q++) {
    add((c) => c.text[q]!);
    if (hybrid) add((c) => c.cosine[q] ?? null);
  }
  const lists = queries * (hybrid ? 2 : 1);
  const max = lists / (RRF_K + 1);
  return Array.from(scores, (s) => s / max);
}
