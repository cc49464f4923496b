/**
 * Snippets with the matching words marked: which words of a text match the
 * analysed query terms (same analyzer as the index, so "deployed" is marked
 * for the query "deploy" and 데이터베이스를 for 데이터베이스). Pure.
 */
import { analyze, ASCII_ONLY, prefixEligible, RAW_TOKEN, RAW_TOKEN_ASCII } from './tokenizer.js';

export interface Snippet {
  text: string;
  /** [start, end) character ranges of matches within `text`. */
  highlights: Array<[number, number]>;
}

export function matchesQuery(word: string, terms: ReadonlySet<string>, prefixes: readonly string[]): boolean {
  for (const t of analyze(word)) {
    if (terms.has(t)) return true;
    for (const p of prefixes) if (t.startsWith(p)) return true;
  }
  return false;
}

/** A window of at most `max` characters around the first match, with match ranges. */
export function makeSnippet(text: string, queryTerms: readonly string[], max = 220): Snippet {
  const terms = new Set(queryTerms);
  const prefixes = queryTerms.filter(prefixEligible);
  const matches: Array<[number, number]> = [];
  for (const m of text.matchAll(ASCII_ONLY.test(text) ? RAW_TOKEN_ASCII : RAW_TOKEN)) {
    if (matchesQuery(m[0], terms, prefixes)) matches.push([m.index, m.index + m[0].length]);
  }
  if (text.length <= max) return { text, highlights: matches };
  const first = matches[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(max / 3));
  // Start at a word boundary.
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    start = space === -1 ? start : space + 1;
  }
  let end = Math.min(text.length, start + max);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + max / 2) end = space;
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  return {
    text: prefix + text.slice(start, end) + suffix,
    highlights: matches.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s + shift, e + shift]),
  };
}

/** Wrap highlighted ranges with markers (ANSI codes for a terminal, ** otherwise). */
export function markSnippet(snippet: Snippet, open: string, close: string): string {
  let out = '';
  let at = 0;
  for (const [s, e] of snippet.highlights) {
    if (s < at) continue;
    out += snippet.text.slice(at, s) + open + snippet.text.slice(s, e) + close;
    at = e;
  }
  return out + snippet.text.slice(at);
}
