/**
 * The search analyzer: text → index terms, the same for documents and queries.
 *
 * - Case folding (and NFKC, so full-width ＡＢＣ and half-width forms agree).
 * - English: stop words dropped, light stemming (Porter, the `stemmer` package,
 *   the algorithm SQLite FTS5's `porter` tokenizer uses): "deployed",
 *   "deploying", "deploys" all become "deploy".
 * - Identifiers stay findable as written: `POSTGRES_URL`, `ticket-4242`,
 *   `v1.2.3`, `api.example.com`, `getUserById` are one term (folded, not
 *   stemmed) plus their parts (postgres, url; ticket, 4242; get, user, id).
 * - Korean: a word gives its surface form and its stem without the particle or
 *   ending (lib/search/korean.ts), so 데이터베이스를 matches 데이터베이스.
 *   A Latin word with a Hangul particle glued on (PostgreSQL을) is split at
 *   the script boundary.
 * - Chinese / Japanese (no spaces between words): overlapping character
 *   bigrams, the standard dictionary-free CJK approach (as in Lucene's CJK
 *   analyzer); a lone character is kept as a unigram.
 *
 * Pure functions, no I/O.
 */
import { stemmer } from 'stemmer';
import { isKoreanFunctionWord, koreanStems } from '../core/korean.js';

/** Bump when the terms produced for the same text change: stored indexes are rebuilt. */
export const ANALYZER_VERSION = 4;

const ENGLISH_STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves im ive youre youve youll dont doesnt didnt isnt arent wasnt ' +
    'werent hasnt havent hadnt wont wouldnt cant couldnt shouldnt lets thats theres whats hes shes its also us yes ok'
  ).split(' '),
);

/** A run of letters/digits with inner connectors (_ - . / : @ + #) kept together as one identifier. */
export const RAW_TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)*(?:[_\-./:@+#][\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)*)*/gu;
/**
 * RAW_TOKEN for ASCII-only text: the same matches there (the ASCII letters,
 * marks and numbers are A-Z a-z 0-9, and ’ is not ASCII), and far cheaper for
 * V8 to compile than Unicode property classes — a few ms of every fresh
 * process that searches English text.
 */
export const RAW_TOKEN_ASCII = /[A-Za-z0-9]+(?:'[A-Za-z]+)*(?:[_\-./:@+#][A-Za-z0-9]+(?:'[A-Za-z]+)*)*/g;
const CONNECTOR = /[_\-./:@+#]/;

type Script = 'hangul' | 'cjk' | 'other';

function scriptOf(code: number): Script {
  if ((code >= 0xac00 && code <= 0xd7a3) || (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f)) return 'hangul';
  if (
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified ideographs
    (code >= 0x3400 && code <= 0x4dbf) || // extension A
    (code >= 0x3040 && code <= 0x30ff) || // hiragana, katakana
    (code >= 0x31f0 && code <= 0x31ff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x20000 && code <= 0x2fa1f)
  )
    return 'cjk';
  return 'other';
}

/** Split a token into runs of one script each ("postgresql을" → ["postgresql", "을"]). */
function scriptRuns(token: string): Array<{ text: string; script: Script }> {
  const runs: Array<{ text: string; script: Script }> = [];
  let current = '';
  let currentScript: Script | undefined;
  for (const ch of token) {
    const script = scriptOf(ch.codePointAt(0)!);
    if (script !== currentScript && current) {
      runs.push({ text: current, script: currentScript! });
      current = '';
    }
    currentScript = script;
    current += ch;
  }
  if (current) runs.push({ text: current, script: currentScript! });
  return runs;
}

/**
 * Irregular English forms → their base form, so "bought" finds "buy" and
 * "children" finds "child" (Porter stemming only handles regular endings).
 * Forms that are also common nouns or other words (bound, ground, left, rose,
 * wound…) are left out.
 */
const IRREGULAR_BASE = new Map<string, string>(
  `
  arisen:arise arose:arise ate:eat awoke:awake awoken:awake beaten:beat became:become began:begin begun:begin
  bent:bend bit:bite bitten:bite bled:bleed blew:blow blown:blow bought:buy bred:breed broke:break broken:break
  brought:bring built:build burnt:burn came:come caught:catch children:child chose:choose chosen:choose clung:cling
  crept:creep dealt:deal drank:drink drawn:draw dreamt:dream drew:draw driven:drive drove:drive drunk:drink dug:dig
  eaten:eat fallen:fall fed:feed feet:foot fell:fall felt:feel fled:flee flew:fly flown:fly forbade:forbid
  forbidden:forbid forgave:forgive forgiven:forgive forgot:forget forgotten:forget fought:fight found:find
  froze:freeze frozen:freeze gave:give geese:goose given:give got:get gotten:get grew:grow grown:grow heard:hear
  held:hold hid:hide hidden:hide hung:hang kept:keep knelt:kneel knew:know known:know leant:lean leapt:leap
  learnt:learn led:lead lent:lend lost:lose made:make meant:mean men:man met:meet mice:mouse paid:pay people:person
  ran:run rang:ring ridden:ride risen:rise rode:ride rung:ring said:say sang:sing sank:sink sat:sit saw:see seen:see
  sent:send shaken:shake shone:shine shook:shake shot:shoot shown:show shrank:shrink shrunk:shrink slept:sleep
  slid:slide sold:sell sought:seek spat:spit sped:speed spent:spend spoke:speak spoken:speak spun:spin stank:stink
  stole:steal stolen:steal stood:stand striven:strive strove:strive struck:strike stuck:stick stung:sting stunk:stink
  sung:sing sunk:sink swam:swim swept:sweep swore:swear sworn:swear swum:swim swung:swing taken:take taught:teach
  teeth:tooth thought:think threw:throw thrown:throw told:tell took:take tore:tear torn:tear understood:understand
  wept:weep withdrawn:withdraw withdrew:withdraw woke:wake woken:wake women:woman won:win wore:wear worn:wear
  wove:weave woven:weave written:write wrote:write
`
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
);

const ASCII_WORD = /^[a-z]+$/;
export const ASCII_ONLY = /^[\x00-\x7f]*$/;
/**
 * Words of Hangul syllables alone, spaces between: RAW_TOKEN would match each word whole. Asking this first
 * spares a process whose only non-ASCII text is such words — an English question's Korean rendering
 * (bridge.ts), ranked as a query — the compilation of RAW_TOKEN's Unicode classes: 6–9 ms at its first use (seen
 * in `node --cpu-prof` of a one-off `ocm-run search` of an English question: the self time of analyze).
 */
export const HANGUL_WORDS = /^[\uAC00-\uD7A3]+(?: +[\uAC00-\uD7A3]+)*$/;

/** One plain word (no connectors) of Latin or other alphabetic script. */
function wordTerm(word: string): string | undefined {
  const w = word.replace(/['’]s$/, '').replace(/['’]/g, '');
  if (!w || ENGLISH_STOP_WORDS.has(w)) return undefined;
  if (ASCII_WORD.test(w)) {
    const base = IRREGULAR_BASE.get(w) ?? w;
    return base.length > 2 ? stemmer(base) : base;
  }
  return w;
}

function pushHangul(run: string, out: string[]): void {
  if (isKoreanFunctionWord(run)) return;
  out.push(run);
  for (const stem of koreanStems(run)) out.push(stem);
}

function pushCjk(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Terms of a word without connectors (may still mix scripts). */
function pushWord(original: string, folded: string, out: string[]): void {
  const runs = scriptRuns(folded);
  if (runs.length === 1 && runs[0]!.script === 'other') {
    const term = wordTerm(folded);
    if (term) out.push(term);
    // camelCase / PascalCase identifiers: also their parts.
    const parts = camelParts(original);
    if (parts.length > 1) {
      if (term !== folded && term !== undefined) out.push(folded);
      for (const p of parts) {
        const t = wordTerm(p.toLowerCase());
        if (t) out.push(t);
      }
    }
    return;
  }
  for (const run of runs) {
    if (run.script === 'hangul') pushHangul(run.text, out);
    else if (run.script === 'cjk') pushCjk(run.text, out);
    else {
      const term = wordTerm(run.text);
      if (term) out.push(term);
    }
  }
}

/** getUserById → [get, User, By, Id]; HTTPServer → [HTTP, Server]; only for mixed-case words. */
function camelParts(word: string): string[] {
  if (!/[a-z]/.test(word) || !/[A-Z]/.test(word.slice(1))) return [];
  return word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter(Boolean);
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\.?\\s+${DAY},?\\s*(\\d{4})\\b`, 'gi');
const DAY_MONTH_YEAR = new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\.?,?\\s*(\\d{4})\\b`, 'gi');
const MONTH_YEAR = new RegExp(`\\b${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'gi');
/** Korean dates: 2026년 2월 12일, 2월 12일 2026년 is rare; also 2026년 2월. */
const KOREAN_DATE = /(\d{4})년\s*(\d{1,2})월(?:\s*(\d{1,2})일)?/g;

function monthIndex(name: string): number {
  return MONTH_NAMES.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function dayTerm(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return `@${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Date terms of a text: "@2026-02-12" for a day and "@2026-02" for its month,
 * from ISO dates, "February 12, 2026", "12th Feb 2026", "2026년 2월 12일", and
 * "@2026-02" alone from "February 2026". A query naming a date thereby finds
 * what was observed that day (documents also carry their own date's terms).
 */
export function dateTerms(text: string): string[] {
  const out: string[] = [];
  if (!/\d{4}/.test(text)) return out;
  const add = (y: number, m: number, d?: number) => {
    if (m < 1 || m > 12) return;
    if (d !== undefined) {
      const t = dayTerm(y, m, d);
      if (t) out.push(t);
    }
    out.push(`@${y}-${String(m).padStart(2, '0')}`);
  };
  const covered: Array<[number, number]> = [];
  const note = (m: RegExpMatchArray) => covered.push([m.index!, m.index! + m[0].length]);
  for (const m of text.matchAll(ISO_DATE)) add(Number(m[1]), Number(m[2]), Number(m[3]));
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    add(Number(m[3]), monthIndex(m[1]!), Number(m[2]));
    note(m);
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    add(Number(m[3]), monthIndex(m[2]!), Number(m[1]));
    note(m);
  }
  for (const m of text.matchAll(MONTH_YEAR)) {
    if (covered.some(([s, e]) => m.index! >= s && m.index! < e)) continue;
    add(Number(m[2]), monthIndex(m[1]!));
  }
  for (const m of text.matchAll(KOREAN_DATE)) add(Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : undefined);
  return out;
}

/** The date terms of a document's own date (YYYY-MM-DD). */
export function ownDateTerms(date: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return m ? [`@${m[1]}-${m[2]}-${m[3]}`, `@${m[1]}-${m[2]}`] : [];
}

/**
 * Analyze text into index terms (with repeats: term frequency counts).
 * Documents and queries go through the same function.
 */
export function analyze(text: string): string[] {
  const out: string[] = dateTerms(text);
  if (!text) return out;
  const ascii = ASCII_ONLY.test(text);
  const normalized = ascii ? text : text.normalize('NFKC');
  if (!ascii && HANGUL_WORDS.test(normalized)) for (const word of normalized.split(/ +/)) pushTokenTerms(word, out);
  else for (const m of normalized.matchAll(ascii ? RAW_TOKEN_ASCII : RAW_TOKEN)) pushTokenTerms(m[0], out);
  return out;
}

function pushTokenTerms(original: string, out: string[]): void {
  let terms = memo.get(original);
  if (terms === undefined) {
    terms = tokenTerms(original);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(original, terms);
  }
  for (const t of terms) out.push(t);
}

/** Word → terms memo: vocabulary is Zipfian, so most tokens repeat (bounded; cleared when full). */
const memo = new Map<string, readonly string[]>();
const MEMO_LIMIT = 200_000;

function tokenTerms(original: string): string[] {
  const out: string[] = [];
  const folded = original.toLowerCase();
  if (CONNECTOR.test(folded)) {
    // An identifier: the whole thing as written (folded), then its parts.
    const whole = folded.replace(/['’]/g, '');
    if (scriptRuns(whole).every((r) => r.script === 'other')) out.push(whole);
    const originalParts = original.split(/[_\-./:@+#]+/);
    for (const part of originalParts) if (part) pushWord(part, part.toLowerCase(), out);
  } else {
    pushWord(original, folded, out);
  }
  return out;
}

/** Distinct terms of a query, in order of first appearance. */
export function queryTerms(query: string): string[] {
  return [...new Set(analyze(query))];
}

/**
 * Whether a query term also matches index terms that start with it
 * (typeahead-style: "postg" finds postgresql). Not for short terms (too many
 * expansions), pure numbers, or CJK bigrams.
 */
export function prefixEligible(term: string): boolean {
  if (term.startsWith('@')) return false; // date terms
  const first = term.codePointAt(0)!;
  const script = scriptOf(first);
  if (script === 'cjk') return false;
  if (script === 'hangul') return [...term].length >= 2;
  return term.length >= 4 && !/^\d+$/.test(term);
}
