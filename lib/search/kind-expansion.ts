/**
 * A question that asks which one of a kind ("Which database does crumbline use?", "RouteNote 백엔드는 뭐
 * 써?", "Which library generates the invoice PDFs?") is answered by a memory that names a member of the kind
 * — often without the kind's own word ("Nadia decided on SQLite + Litestream", "Firebase 접고 Supabase로
 * 갈래"). Such a question's text ranking gets the kind's members as extra words
 * (lib/memory/alternatives.ts), at EXPANSION_WEIGHT: as much as a word of its own, since the member is the
 * answer the question asks for (at half a word, "Which library generates the invoice PDFs?" ranked every line
 * saying "PDF" above "Nadia decided to go back to weasyprint"; agent-life dev, docs/search.md). A memory holding
 * the question's words still ranks first among those naming the same member. A kind named inside a quotation
 * ("Which café had the \"database is locked\" error?") is not the kind asked for. The expansion orders results
 * only: relevance, the gate's measure, reads the question's own words (relevance.ts).
 *
 * A question asking which version ("Which Python version does crumbline run on?", "노드 버전은?") is answered
 * by a memory holding a version number ("stay on 3.12"), which no word list names: its members are the
 * index's own terms of that shape, found by the searcher (`asksVersion`, `VERSION_TERM`); relevance counts
 * such a number as the word "version" held. Pure.
 */
import { KIND_NAMES, KINDS } from '../memory/alternatives.js';
import { queryTerms } from './tokenizer.js';

/** What a member of an asked-for kind counts beside a word of the question (a prefix expansion counts 0.375). */
export const EXPANSION_WEIGHT = 1;

/** Asking which one: "which", "what", "뭐", "무슨", "어떤", "어느". */
const ASKS_WHICH = /\b(?:which|what)\b|뭐|뭘|뭔|무슨|어떤|어느/iu;

/** Asking which version. */
const ASKS_VERSION = /\bversions?\b|버전/iu;

/** A version number as the tokenizer keeps it: "3.12", "v2.0.1", "16.4" (not a bare "12"). */
export const VERSION_TERM = /^v?\d+(?:\.\d+)+$/;

/** The first characters a version term can start with (the searcher scans the index's terms from each). */
export const VERSION_TERM_STARTS: readonly string[] = ['v', ...'0123456789'];

/** The word "version" as analysed, in English or Korean (버전, 버전은): what a version number answers. */
export function isVersionWord(term: string): boolean {
  return term === 'version' || term.startsWith('버전');
}

/** Does the question ask which version of something? */
export function asksVersion(question: string): boolean {
  return ASKS_VERSION.test(withoutQuotes(question));
}

/** Quoted text: an error message or a title the question cites ("the \"database is locked\" error"). */
const QUOTED = /"[^"\n]*"|“[^”\n]*”|`[^`\n]*`|(?<!\w)'[^'\n]*'(?!\w)/gu;

/** The question without what it quotes: a kind named inside a quotation is not the kind asked for. */
function withoutQuotes(question: string): string {
  return question.replace(QUOTED, ' ');
}

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
  const asked = withoutQuotes(question);
  const own = new Set(ownTerms);
  const out = new Set<string>();
  for (const [kind, names] of Object.entries(KIND_NAMES))
    if (names.test(asked)) for (const t of termsOfKind(kind)) if (!own.has(t)) out.add(t);
  return [...out];
}
