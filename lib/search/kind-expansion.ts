/**
 * A question that asks which one of a kind ("Which database does crumbline use?", "RouteNote 백엔드는 뭐
 * 써?", "Which library generates the invoice PDFs?") is answered by a memory that names a member of the kind
 * — often without the kind's own word ("Nadia decided on SQLite + Litestream", "Firebase 접고 Supabase로
 * 갈래"). Such a question's text ranking gets the kind's members as extra words
 * (lib/memory/alternatives.ts), at EXPANSION_WEIGHT of a word of its own: a memory holding the question's
 * words still ranks first among those naming the same member, and one naming a member rises above one that
 * only repeats the kind's word. The expansion orders results only: relevance, the gate's measure, reads the
 * question's own words (relevance.ts). Pure.
 */
import { KIND_NAMES, KINDS } from '../memory/alternatives.js';
import { queryTerms } from './tokenizer.js';

/** What a member of an asked-for kind counts beside a word of the question (a prefix expansion counts 0.375). */
export const EXPANSION_WEIGHT = 0.5;

/** Asking which one: "which", "what", "뭐", "무슨", "어떤", "어느". */
const ASKS_WHICH = /\b(?:which|what)\b|뭐|뭘|뭔|무슨|어떤|어느/iu;

/** Each kind's members as analysed terms, worked out on first use. */
const memberTerms = new Map<string, readonly string[]>();

function termsOfKind(kind: string): readonly string[] {
  let terms = memberTerms.get(kind);
  if (!terms) memberTerms.set(kind, (terms = queryTerms((KINDS[kind] ?? []).join(' '))));
  return terms;
}

/**
 * The analysed terms of the members of every kind the question asks which one of (none for another
 * question), without the question's own (`ownTerms`: its analysed terms, when the caller has them).
 */
export function kindExpansion(question: string, ownTerms: readonly string[] = queryTerms(question)): string[] {
  if (!ASKS_WHICH.test(question)) return [];
  const own = new Set(ownTerms);
  const out = new Set<string>();
  for (const [kind, names] of Object.entries(KIND_NAMES))
    if (names.test(question)) for (const t of termsOfKind(kind)) if (!own.has(t)) out.add(t);
  return [...out];
}
