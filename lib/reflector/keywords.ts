/**
 * Words that carry a memory's content, for the Reflector and its scores:
 *
 * - `keyTerms`: the key terms of a text — names (capitalised words that are
 *   not ordinary sentence words), numbers and dates, technical tokens
 *   (Node.js, C++, snake_case, #tags), Korean nouns without particles. The
 *   keyword-preservation score of a reflection is the share of its sources'
 *   key terms it still contains.
 * - `contentWords`: every word but function words (a standard English stop
 *   list, Korean particles), lower-cased and lightly stemmed, with dates
 *   normalised — used for "is this answer still in there" checks.
 *
 * Dates are normalised so "7 May 2023", "May 7, 2023" and "2023-05-07" are
 * the same term; an ISO date also stands for its month, year and day of year
 * ("--05-07"), so "June 2023" or "13 August" match a full date.
 * Pure functions.
 */
import { isHangulWord, isKoreanFunctionWord, koreanStem } from '../core/korean.js';

/** A standard English stop list (function words only; no content words). */
export const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    "it's i'm i've i'd i'll you're you've he's she's we're we've they're they've that's there's what's let's isn't aren't wasn't weren't don't doesn't didn't won't can't couldn't shouldn't ago also yet may might must shall"
  ).split(/\s+/),
);

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function monthIndex(name: string): number {
  const n = name.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(n)) + 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Rewrite written dates as ISO: "7 May 2023" → 2023-05-07, "June 2023" → 2023-06, "13 August" → --08-13. */
export function normaliseDates(text: string): string {
  return text
    .replace(
      new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`, 'gi'),
      (_m, d: string, mon: string, y: string) => `${y}-${pad(monthIndex(mon))}-${pad(Number(d))}`,
    )
    .replace(
      new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
      (_m, mon: string, d: string, y: string) => `${y}-${pad(monthIndex(mon))}-${pad(Number(d))}`,
    )
    .replace(new RegExp(`\\b${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`, 'gi'), (_m, mon: string, y: string) => `${y}-${pad(monthIndex(mon))}`)
    .replace(
      new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b`, 'gi'),
      (_m, d: string, mon: string) => `--${pad(monthIndex(mon))}-${pad(Number(d))}`,
    )
    .replace(
      new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!:)`, 'gi'),
      (_m, mon: string, d: string) => `--${pad(monthIndex(mon))}-${pad(Number(d))}`,
    );
}

/** Light English stemming: plurals and possessives (enough for "agencies" ~ "agency"). */
export function stem(word: string): string {
  let w = word.replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  return w;
}

const WORD = /--\d{2}-\d{2}|\d{4}-\d{2}(?:-\d{2})?|[\p{L}\p{N}][\p{L}\p{N}'’+#._/-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;

/** Raw word tokens of a text (dates normalised first). */
export function words(text: string): string[] {
  return normaliseDates(text).match(WORD) ?? [];
}

/** The forms an ISO date also stands for. */
function dateForms(token: string): string[] {
  const full = /^(\d{4})-(\d{2})-(\d{2})$/.exec(token);
  if (full) return [token, `${full[1]}-${full[2]}`, full[1]!, `--${full[2]}-${full[3]}`];
  const month = /^(\d{4})-(\d{2})$/.exec(token);
  if (month) return [token, month[1]!];
  return [token];
}

/** Normalise one token for matching; undefined for a function word. */
export function normaliseWord(raw: string): string | undefined {
  const lower = raw
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/[.'-]+$/, '');
  if (!lower || STOP_WORDS.has(lower)) return undefined;
  if (isHangulWord(lower)) {
    if (isKoreanFunctionWord(lower)) return undefined;
    const s = koreanStem(lower);
    return s.length > 0 ? s : undefined;
  }
  if (/\d/.test(lower)) return lower;
  return stem(lower);
}

/**
 * Content words of a text: lower-cased, stemmed. With `expand`, a date also
 * yields the forms it stands for (use it on the text searched in, not on
 * the words searched for).
 */
export function contentWords(text: string, options: { expand?: boolean } = {}): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const n = normaliseWord(w);
    if (!n) continue;
    if (options.expand) for (const f of dateForms(n)) out.add(f);
    else out.add(n);
  }
  return out;
}

/** Capitalised words that are ordinary at a sentence start, not names. */
const ORDINARY_CAPITALS = new Set(
  'also although another anyway as at because before but by could did do does during each even ever every first for from had has have he her here hers his how however i if in instead is it its just last later let like maybe me meanwhile mine more most much my next no not now of oh okay on once one only or our perhaps please she since so some still such sure than thanks thank that the their them then there these they this those though through to today tomorrow too user assistant was we well were what when where which while who why will with would yeah yes yesterday yet you your wow hey hi hello great good nice awesome'.split(
    ' ',
  ),
);

/** Positions where a sentence starts (a capital there says nothing about a name). */
const SENTENCE_START = /(?:^|[.!?:;…]\s+|["“‘([]\s*|\n\s*|[-–—]\s+)$/u;

/**
 * Key terms: names, numbers/dates, technical tokens, Korean nouns.
 * A capitalised word is a name when it is capitalised in mid-sentence
 * somewhere, or never written in lower case in the text. Lower-cased for
 * matching; `expand` as for contentWords.
 */
export function keyTerms(text: string, options: { expand?: boolean } = {}): Set<string> {
  const out = new Set<string>();
  const normalised = normaliseDates(text);
  const lowerSeen = new Set<string>();
  const midCapital = new Set<string>();
  for (const m of normalised.matchAll(WORD)) {
    const raw = m[0];
    const lower = raw.toLowerCase().replace(/’/g, "'").replace(/'s$/, '');
    if (/^\p{Ll}/u.test(raw)) lowerSeen.add(lower);
    else if (/^\p{Lu}/u.test(raw)) {
      if (!SENTENCE_START.test(normalised.slice(Math.max(0, m.index - 4), m.index))) midCapital.add(lower);
    }
  }
  for (const tag of normalised.matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]*[\p{L}_][\p{L}\p{N}_/-]*)/gu)) out.add(tag[1]!.toLowerCase());
  for (const raw of normalised.match(WORD) ?? []) {
    const lower = raw.toLowerCase().replace(/’/g, "'").replace(/'s$/, '');
    if (/\d/.test(raw)) {
      // Numbers, versions, dates (not lone digits, not clock times).
      if (/^\d$/.test(raw) || /^\d{1,2}:\d{2}$/.test(raw)) continue;
      if (options.expand) for (const f of dateForms(lower)) out.add(f);
      else out.add(lower);
      continue;
    }
    if (isHangulWord(raw)) {
      if (raw.length >= 2 && !isKoreanFunctionWord(raw)) {
        const s = koreanStem(raw);
        if (s.length >= 2) out.add(s);
      }
      continue;
    }
    const technical = /[+#_/]|[a-z]\.[a-z]|[a-z][A-Z]/.test(raw);
    if (technical) {
      out.add(lower);
      continue;
    }
    if (!/^\p{Lu}/u.test(raw) || lower.length < 2 || /'/.test(lower) || ORDINARY_CAPITALS.has(lower) || STOP_WORDS.has(lower)) continue;
    const acronym = /^\p{Lu}{2,}[\p{Lu}\d+]*$/u.test(raw);
    if (acronym || midCapital.has(lower) || !lowerSeen.has(lower)) out.add(stem(lower));
  }
  return out;
}

/** Share of `source` terms present in `target` (1 when the source has none). */
export function preservation(source: Set<string>, target: Set<string>): number {
  if (source.size === 0) return 1;
  let kept = 0;
  for (const t of source) if (target.has(t)) kept++;
  return kept / source.size;
}

/** Source terms missing from the target (for logs). */
export function missingTerms(source: Set<string>, target: Set<string>, limit = 20): string[] {
  const out: string[] = [];
  for (const t of source) {
    if (!target.has(t)) out.push(t);
    if (out.length >= limit) break;
  }
  return out;
}
