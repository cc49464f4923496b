/**
 * What is current in a ranked list (README, "Search"): an observation marked
 * superseded is history, and the one that replaced it is the answer; a task
 * marked done has its answer in the observation that closed it. Where such a
 * result is ranked, the observation its mark names (following the chain to the
 * newest) is put just above it — found by id when the query's words did not
 * find it — so the current item always ranks first for its subject, and the
 * history stays below it. `current` (`search --current`, the
 * MCP `current` argument) leaves superseded items and done tasks out. Pure.
 */
import type { SearchFilters, SearchResult } from './types.js';

/** How many `superseded by` links are followed from one result (a hand-made loop ends here too). */
const MAX_CHAIN = 8;

export interface CurrentOptions {
  filters: SearchFilters;
  limit: number;
  /** The observation with this id (any tier), or undefined. */
  lookup: (id: string) => SearchResult | undefined;
}

/** Is the result history: superseded, or a done task? */
export function isHistory(r: Pick<SearchResult, 'mark' | 'done'>): boolean {
  return r.mark?.kind === 'superseded' || r.done || r.mark?.kind === 'done';
}

/** The results with each superseded one's replacement above it; `filters.current` leaves history out. */
export function currentFirst(results: SearchResult[], options: CurrentOptions): SearchResult[] {
  const { filters } = options;
  if (!results.some((r) => r.mark?.by) && !filters.current) return results;
  const ranked = new Map(results.map((r) => [r.id, r]));
  const out: SearchResult[] = [];
  const placed = new Set<string>();
  const place = (r: SearchResult) => {
    if (placed.has(r.id)) return;
    placed.add(r.id);
    if (!(filters.current && isHistory(r))) out.push(r);
  };
  for (const r of results) {
    if (r.mark?.by) {
      const head = newestOf(r, ranked, options);
      // It answers what the older one was found for: its score and relevance at least the older one's.
      if (head && !placed.has(head.id))
        place({ ...head, score: Math.max(head.score, r.score), relevance: Math.max(head.relevance ?? 0, r.relevance ?? 0) });
    }
    place(r);
  }
  return out.slice(0, options.limit);
}

/** The end of the chain of replacements from `r`: the newest observation still in scope, or undefined. */
function newestOf(r: SearchResult, ranked: Map<string, SearchResult>, options: CurrentOptions): SearchResult | undefined {
  let head: SearchResult | undefined;
  let at: SearchResult = r;
  const seen = new Set([r.id]);
  for (let hop = 0; hop < MAX_CHAIN && at.mark?.by && !seen.has(at.mark.by); hop++) {
    seen.add(at.mark.by);
    const next = ranked.get(at.mark.by) ?? options.lookup(at.mark.by);
    if (!next || !inScope(next, options.filters)) break;
    head = next;
    at = next;
  }
  return head;
}

/** The filters a ranked result passed, checked for a replacement looked up by id. */
function inScope(r: SearchResult, f: SearchFilters): boolean {
  if (f.agents && !f.agents.includes(r.agent)) return false;
  if (f.tiers && !f.tiers.includes(r.tier)) return false;
  if (f.since && r.date && r.date < f.since) return false;
  if (f.until && r.date && r.date > f.until) return false;
  if (f.priorities && !f.priorities.includes(r.priority)) return false;
  if (f.categories && !f.categories.includes(r.category)) return false;
  if (f.tags && !f.tags.every((t) => r.tags.some((x) => x.toLowerCase() === t))) return false;
  return true;
}
