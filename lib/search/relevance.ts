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
 *   want…) do not count. A question asking which version has its word
 *   "version" held by a memory holding a version number (kind-expansion.ts).
 */
import { documentTerms } from './segment.js';
import { documentFrequency, type IndexSnapshot } from './searcher.js';
import { analyze, prefixEligible, queryTerms } from './tokenizer.js';
import { hasKoreanSuffix, isHangulWord, isKoreanFramingWord, koreanStems } from '../core/korean.js';
import type { SearchDoc } from './types.js';
import type { RenderedWord } from './bridge.js';
import { asksVersion, isVersionWord, VERSION_TERM } from './kind-expansion.js';

/**
 * The floor below which memory is not injected unasked (the agent hooks of
 * lib/hooks/agent-hooks.ts; the OpenClaw plugin's `minRelevance` default is the same).
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
const REQUEST_WORDS = new Set(
  analyze(
    'remember remind recall tell know think want need please thanks thank say said mention mentioned talk talked discuss discussed ask asked again anything something',
  ),
);
const PREFIX_CREDIT = 0.5;

export type RelevanceOf = (
  doc: Pick<SearchDoc, 'text' | 'tags' | 'category'> & { date?: string },
  cosines?: ReadonlyArray<number | null>,
) => number;

/** One rendering of the question: its text (for its sentences) and its analysed terms. */
export interface RelevanceQuery {
  text: string;
  terms: readonly string[];
  /** A word-by-word rendering (bridge.ts): each word's alternatives, one word of the measure each. */
  words?: readonly RenderedWord[];
}

/**
 * The sentences of a request that say what it is about: its questions when
 * it asks any ("What's my dog's name again? I need it for the vet form." →
 * the first sentence), else every sentence, each measured on its own (the
 * best counts). The words of the other sentences are context: they may be
 * in no memory at all without vetoing the question's match.
 */
export function focusSentences(text: string): string[] {
  const sentences = text
    .split(/(?<=[.?!。？！])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => queryTerms(x).length > 0);
  if (sentences.length <= 1) return [text];
  const questions = sentences.filter((x) => /[?？]\s*$/.test(x));
  return questions.length > 0 ? questions : sentences;
}

/** A word of the question: the term it weighs as, and every form that counts as the same word (a Korean word's surface and stems). */
type Weighted = {
  term: string;
  forms: readonly string[];
  weight: number;
  prefix: boolean;
  /** A Hangul word with no particle or ending that no memory holds (see SPECIFIC). */
  unheldBare?: boolean;
};

/** Does this query term only frame the request (an English request word, a Korean question word or light predicate)? */
function framing(term: string): boolean {
  return REQUEST_WORDS.has(term) || (isHangulWord(term) && isKoreanFramingWord(term));
}

/**
 * The question's words as the measure counts them: a Korean word gives its
 * surface (건강검진에서) and its stems (건강검진) as terms; they are one word
 * here, held by a memory holding any of them and weighed as the form the
 * memories write most (else the surface, which no memory writes with the
 * question's particle, would weigh most and go unmatched).
 */
function questionWords(terms: readonly string[], weigh: (term: string) => number, held: (term: string) => boolean): Weighted[] {
  const out: Weighted[] = [];
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    const stems = isHangulWord(t) ? koreanStems(t) : [];
    const forms = [t];
    while (stems.length > 0 && stems.includes(terms[i + 1]!)) forms.push(terms[++i]!);
    const weights = forms.map(weigh);
    const primary = forms[weights.indexOf(Math.min(...weights))]!;
    const unheldBare = isHangulWord(t) && !hasKoreanSuffix(t) && !held(t);
    out.push({ term: primary, forms, weight: Math.min(...weights), prefix: prefixEligible(primary), unheldBare });
  }
  const seen = new Set<string>();
  return out.filter((w) => !seen.has(w.term) && seen.add(w.term));
}

/** A sentence's words as the measure weighs them: framing words out, the weight of its heaviest words. */
interface Unit {
  weighted: Weighted[];
  heaviest: number;
  names: string[];
  /** A rendering's translated words: the unit counts only for a memory holding one of them (its names and numbers alone are the question's own words). */
  anchors?: string[];
}

/**
 * A Korean question's predicate and adverbs are seldom written as the
 * memories write them: "왜 빵굼터 대신 소금빵집을 골랐어?" is answered by
 * "빵굼터는 리뷰가… 소금빵집으로 할래", which holds neither 골랐어 (chose)
 * nor 대신 (instead). Such a word carries no particle or ending this
 * analyser strips, and no memory holds it in any form: it would weigh most
 * and veto every memory (there is no vector for Hangul to outweigh it). So a
 * bare Hangul word no memory holds leaves the measure — when what remains
 * is still the question's subject: a word of it specific (weighing at least
 * SPECIFIC of a word no memory holds: held by about √(N/2) of N memories or
 * fewer). "민수는 어디 살아?" is not reduced to the user's name, nor "민수는
 * 계획을 왜 미뤘어?" to words many memories hold; a noun with its particle
 * (생일은) stays, so "민수 생일은 언제야?" is still vetoed by the birthday no
 * memory holds.
 */
const SPECIFIC = 0.5;

function measured(words: Weighted[], names: string[], absentWeight = Number.POSITIVE_INFINITY): Unit {
  const framed = words.filter((w) => !w.forms.some(framing));
  const subject = framed.filter((w) => !w.unheldBare);
  const aboutSubject = subject.some((w) => w.weight >= SPECIFIC * absentWeight);
  const about = aboutSubject ? subject : framed;
  const weighted = about.length > 0 ? about : words;
  const heaviest = weighted
    .map((w) => w.weight)
    .sort((a, b) => b - a)
    .slice(0, HEAVIEST)
    .reduce((sum, w) => sum + w, 0);
  return { weighted, heaviest, names };
}

/** A word-by-word rendering: each group of alternatives is one word, weighed as its most written form. */
function alternativesUnit(groups: readonly RenderedWord[], weigh: (term: string) => number): Unit {
  const words: Weighted[] = [];
  const translated: string[] = [];
  for (const { forms, translated: isTranslation } of groups) {
    if (forms.length === 0) continue;
    const weights = forms.map(weigh);
    const primary = forms[weights.indexOf(Math.min(...weights))]!;
    words.push({ term: primary, forms, weight: Math.min(...weights), prefix: false });
    if (isTranslation) translated.push(...forms);
  }
  return { ...measured(words, []), anchors: translated };
}

/**
 * The analysed terms of the names a sentence asks about: words written with
 * a capital inside the sentence (Caroline, Tokyo, PostgreSQL), not its first
 * word nor "I". (Hangul has no capitals: a Korean sentence names nothing here.)
 */
export function namesIn(sentence: string): string[] {
  const words = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’._-]*/gu) ?? [];
  const names = words.slice(1).filter((w) => /^\p{Lu}/u.test(w) && w !== 'I' && !/^I['’]/.test(w));
  return [...new Set(names.flatMap((w) => queryTerms(w)))];
}

/** The relevance measure for a question's renderings over a snapshot. */
export function relevanceScorer(snapshot: IndexSnapshot, queries: readonly RelevanceQuery[]): RelevanceOf {
  const total = Math.max(1, snapshot.totalDocs);
  /** Documents holding a term, looked up once per term. */
  const frequencyOf = new Map<string, number>();
  const frequency = (term: string): number => {
    let df = frequencyOf.get(term);
    if (df === undefined) frequencyOf.set(term, (df = documentFrequency(snapshot, Buffer.from(term, 'utf8'))));
    return df;
  };
  const idf = (df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));
  const weigh = (term: string): number => idf(frequency(term));
  const held = (term: string) => frequency(term) > 0;
  /** The weight of a word no memory holds. */
  const absentWeight = idf(0);
  /** Per rendering, per focus sentence: its weighted terms, the weight of its heaviest ones, and the names it asks about. */
  const units = queries.map((q) => {
    if (q.words) return [alternativesUnit(q.words, weigh)];
    const all = new Set(q.terms);
    const focus = focusSentences(q.text).map((x) => ({
      terms: analyze(x).filter((t) => all.has(t)),
      names: namesIn(x).filter((t) => all.has(t)),
    }));
    return (focus.some((x) => x.terms.length > 0) ? focus : [{ terms: [...q.terms], names: [] as string[] }]).map(({ terms, names }) => {
      return measured(questionWords(terms, weigh, held), names, absentWeight);
    });
  });
  const quantity = asksQuantity(queries.map((q) => q.text));
  const version = queries.some((q) => asksVersion(q.text));
  return (doc, cosines) => {
    const own = documentTerms(doc);
    const exact = new Set(own);
    const holds = (term: string, prefix: boolean) =>
      exact.has(term) || (prefix && own.some((t) => t.length > term.length && t.startsWith(term)));
    // "Which Python version …?": a version number ("stay on 3.12") is the word "version" answered.
    const holdsVersion = version && own.some((t) => VERSION_TERM.test(t));
    let best = 0;
    units.forEach((sentences, q) => {
      const cosine = cosines?.[q] ?? null;
      for (const { weighted, heaviest, names, anchors } of sentences) {
        if (heaviest <= 0) continue;
        // A rendering's names and numbers alone are the question's own words: its words count only beside a translated one.
        const anchored = !anchors || anchors.some((a) => exact.has(a));
        let matched = 0;
        for (const w of weighted) {
          if (w.forms.some((f) => exact.has(f)) || (holdsVersion && w.forms.some(isVersionWord))) matched += w.weight;
          else if (w.prefix && holds(w.term, true)) matched += PREFIX_CREDIT * w.weight;
        }
        const words = anchored ? Math.min(1, matched / heaviest) : 0;
        // A memory that names none of the people or things the question names is about something else, however alike it reads.
        const sameSubject = names.length === 0 || names.some((n) => holds(n, prefixEligible(n)));
        best = Math.max(best, sameSubject ? combine(words, cosine) : words);
      }
    });
    if (quantity && !holdsNumber(doc.text, quantity.given)) best *= DETAIL_MISSING;
    return Math.round(best * 10000) / 10000;
  };
}

/**
 * Questions that ask for a quantity — how much, how many, how old, what
 * number, price or version, 얼마, 몇 — are answered by a memory holding a
 * number, and not by one that is only about the same subject ("How much did
 * the wheel cost?" is not answered by "User wants a pottery wheel"). A
 * memory without a number the question does not already give keeps
 * DETAIL_MISSING of its relevance: still a result, no longer injected
 * unasked on its words alone (0.45 of a full match is under the 0.5 floor). (How long, how often are answered in words as
 * often as in numbers: weekly, every Monday.)
 */
const QUANTITY_QUESTION =
  /\b(?:how\s+(?:much|many|old)|(?:what|which)(?:\s+[\w'’]+){0,3}\s+(?:number|price|amount|version|cost))\b|얼마|몇/i;
/** Under the injection floor even for a memory holding every word of the question. */
const DETAIL_MISSING = 0.45;
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion dozen half once twice couple 하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉 열 스물 서른 마흔 쉰 한 두 세 네'.split(
    ' ',
  ),
);

/** The question asks for a quantity: the numbers it gives itself (a memory must hold another). */
function asksQuantity(texts: readonly string[]): { given: Set<string> } | undefined {
  if (!texts.some((t) => QUANTITY_QUESTION.test(t))) return undefined;
  return { given: new Set(texts.flatMap((t) => t.match(STANDALONE_NUMBER) ?? [])) };
}

/** Dates and years say when, not how much: left out before looking for a number (2026-07-08, 8 July, July 8, 2026). */
const DATE_PARTS =
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\b|\b(?:19|20)\d{2}\b|\d+\s*(?:년|월|일)/gi;
/** A number standing alone (420, $420, 1.5, 10-year-old, 35만원), not the digits inside a code or a name (A1C, CX22). */
const STANDALONE_NUMBER = /(?<![A-Za-z\d])\d+(?:[.,]\d+)?(?![A-Za-z\d])/g;

function holdsNumber(text: string, given: ReadonlySet<string>): boolean {
  const undated = text.replace(DATE_PARTS, ' ');
  if ((undated.match(STANDALONE_NUMBER) ?? []).some((n) => !given.has(n))) return true;
  // "one" is left out: as often a pronoun ("the main one") as a number.
  return (undated.toLowerCase().match(/[\p{L}]+/gu) ?? []).some((w) => NUMBER_WORDS.has(w));
}

/**
 * Own relevance at which a result is kept in the company of a clear answer
 * (withCompany): under the floor alone, at or above it when a result ranked
 * above it passes the floor (docs/performance.md, "The injection gate").
 */
export const COMPANY_RELEVANCE = 0.3;

/**
 * Whether a request is answered from memory is decided once, by its best
 * match; what comes with it need not carry the question's words alone. An
 * answer often lies in the turn after the one that holds the question's
 * words ("Which email service…?" / "Postmark: it sends the reminder mails…"),
 * and a question about two things is answered by two memories, each holding
 * half of its words. So, in rank order: once a result passes the floor, each
 * later result whose own relevance is at least COMPANY_RELEVANCE is raised to
 * the floor. A request with no result at the floor gets nothing raised: the
 * gate is as closed as before, for unrelated prompts and for questions the
 * memory only partly matches.
 */
export function withCompany<T extends { relevance?: number }>(ranked: T[], floor = DEFAULT_MIN_RELEVANCE): T[] {
  let answered = false;
  return ranked.map((r) => {
    const own = r.relevance;
    if (own === undefined) return r;
    if (own >= floor) {
      answered = true;
      return r;
    }
    return answered && own >= COMPANY_RELEVANCE ? { ...r, relevance: floor } : r;
  });
}

/**
 * Cosine (query ↔ memory) at which meaning starts to count as evidence, and
 * at which it is full evidence (docs/performance.md, "The injection gate").
 */
export const MEANING_FLOOR = 0.35;
export const MEANING_FULL = 0.75;

/**
 * Words and meaning together, as two pieces of evidence that the memory
 * answers the request (a noisy-or: 1 − (1 − words)(1 − meaning)). Either
 * alone can carry a memory over the floor when it is strong — the focus's
 * words all there, or a near paraphrase — and two moderate ones together
 * can, while a memory that shares one common word and vaguely resembles
 * the request stays below it.
 */
function combine(words: number, cosine: number | null): number {
  if (cosine === null) return words;
  const meaning = Math.min(1, Math.max(0, (cosine - MEANING_FLOOR) / (MEANING_FULL - MEANING_FLOOR)));
  return 1 - (1 - words) * (1 - meaning);
}
