/**
 * Text preparation for the heuristic Observer: strip what is not prose (code
 * blocks, tool-call lines, Markdown markers) and split the rest into
 * sentences, for English and Korean. Pure functions.
 */

const HANGUL = /[\uAC00-\uD7A3\u3131-\u318E]/g;
const HANGUL_ANY = /[\uAC00-\uD7A3\u3131-\u318E]/;
const LATIN = /[A-Za-z]/g;

/** Does the text hold any Hangul (syllable or jamo)? Without any, it is not Korean. */
export function hasHangul(text: string): boolean {
  return HANGUL_ANY.test(text);
}

/** True when the text is mainly Korean (more Hangul syllables than Latin letters). */
export function isKorean(text: string): boolean {
  if (!HANGUL_ANY.test(text)) return false;
  const h = text.match(HANGUL)?.length ?? 0;
  const l = text.match(LATIN)?.length ?? 0;
  return h * 2 >= l;
}

export interface CleanText {
  /** Prose lines, Markdown markers removed. */
  text: string;
  /** Info strings of removed fenced code blocks ("ts", "sql"…), for tags. */
  codeLanguages: string[];
}

/** Carriage returns and curly quotes, normalised before anything else. */
const SPECIAL_CHARS = /[\r\u2018\u2019\u02BC\u201C\u201D]/;
/** Anything but one line of text to clean: special characters, a line break, a possible fence. */
const NOT_ONE_PLAIN_LINE = /[\r\u2018\u2019\u02BC\u201C\u201D\n`~]/;
const FENCE = /^\s*(```|~~~)\s*([\w+#.-]*)[^\n]*\n[\s\S]*?(?:^\s*\1\s*$|(?![\s\S]))/gm;
/** Lines that are tool plumbing rather than conversation. */
const TOOL_LINE =
  /^\s*(?:\[(?:tool|tool[ _-]?call|tool[ _-]?result|toolCall|toolResult|function[ _-]?call|thinking|bash|exec)\b[^\]]*\]|(?:→|->|=>)\s*\w+\(|\$ )/i;
/** A bare attachment placeholder from the transcript reader. */
const PLACEHOLDER_LINE = /^\s*\[(?:image|file|audio|video|attachment|sticker)\]\s*$/i;
const TABLE_ROW = /^\s*\|.*\|\s*$/;

/** Could the line hold a Markdown marker, emphasis, a link or inline code? (Else only trimming applies.) */
const MARKDOWN_HINT = /^\s{0,8}(?:#|>|[-*+•]\s|\d{1,3}[.)]\s)|[[*_`]/;

/**
 * Reduce a message to prose: fenced code removed (languages remembered),
 * tool-call lines dropped, Markdown list/heading/quote markers, emphasis and
 * inline-code backticks removed, links reduced to their text.
 */
export function cleanMessageText(raw: string): CleanText {
  const codeLanguages: string[] = [];
  // Most messages are one line without special characters: one scan says so, and the line is all there is to clean.
  if (!NOT_ONE_PLAIN_LINE.test(raw)) return { text: cleanLine(raw), codeLanguages };
  let text = raw;
  if (SPECIAL_CHARS.test(text))
    text = text
      .replace(/\r\n?/g, '\n')
      .replace(/[\u2018\u2019\u02BC]/g, "'")
      .replace(/[\u201C\u201D]/g, '"');
  if (text.includes('```') || text.includes('~~~')) {
    text = text.replace(FENCE, (_all, _fence: string, lang: string) => {
      if (lang) codeLanguages.push(lang.toLowerCase());
      return '\n';
    });
  }
  if (!text.includes('\n')) return { text: cleanLine(text), codeLanguages };
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const cleaned = cleanLine(line);
    if (cleaned) lines.push(cleaned);
  }
  return { text: lines.join('\n'), codeLanguages };
}

/** One line of a message as prose ('' for a line that is not). */
function cleanLine(line: string): string {
  if (TOOL_LINE.test(line)) return '';
  // A bare attachment placeholder from the transcript reader says nothing.
  if (PLACEHOLDER_LINE.test(line)) return '';
  if (TABLE_ROW.test(line)) {
    // Table row: keep the cell text, drop separator rows.
    if (/^[\s|:-]+$/.test(line)) return '';
    line = line
      .split('|')
      .map((cell) => cell.trim())
      .filter(Boolean)
      .join(', ');
  }
  if (!MARKDOWN_HINT.test(line)) return line.trim();
  line = line.replace(/^\s{0,8}(?:#{1,6}\s+|>\s?|[-*+•]\s+|\d{1,3}[.)]\s+)/, '');
  // Each replacement only where its marker occurs ("POSTGRES_URL" has a hint, no link or code).
  // Bounded quantifiers keep these linear on adversarial input.
  if (line.includes('](')) {
    line = line.replace(/!\[([^\][\n]{0,200})\]\([^()\s]{0,500}\)/g, '$1').replace(/\[([^\][\n]{1,200})\]\([^()\s]{0,500}\)/g, '$1');
  }
  if (line.includes('**') || line.includes('__')) line = line.replace(/(\*\*|__)(?=[^\s*_])([^*_\n]{1,300}?)(?<=\S)\1/g, '$2');
  if (line.includes('*') || line.includes('_'))
    line = line.replace(/(^|[\s(])[*_](?=[^\s*_])([^*_\n]{1,300}?)(?<=\S)[*_](?=[\s).,!?:;]|$)/g, '$1$2');
  if (line.includes('`')) line = line.replace(/`([^`\n]{1,300})`/g, '$1');
  return line.trim();
}

/** Abbreviations after which a period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'eg',
  'ie',
  'approx',
  'no',
  'vol',
  'fig',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'est',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'a.m',
  'p.m',
  'u.s',
  'u.k',
  'mt',
  'ft',
  'ave',
]);

/** Korean sentence-final endings that close a sentence even without punctuation. */
const KO_FINAL =
  /(?:습니다|니다|어요|아요|여요|해요|예요|에요|이에요|세요|네요|군요|죠|지요|래요|대요|을게요|ㄹ게요|게요|거든요|는데요|했다|한다|된다|있다|없다|이다|였다|었다|았다|겠다|했어|했음|할게|할래|했지|거야|이야|했네)$/;

/**
 * Split prose into sentences. Lines are split on sentence-final punctuation
 * (. ! ? … 。 and runs of them), except after abbreviations, inside numbers,
 * versions, file names and URLs; Korean lines are also split after a
 * sentence-final ending followed by a space.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  // (Most texts are one line: no split.)
  if (!text.includes('\n')) splitLine(text.trim(), out);
  else for (const line of text.split('\n')) splitLine(line.trim(), out);
  return out;
}

/** A sentence that is only a parenthetical aside: "(item 42)", "(see PR #12)." */
const PARENTHETICAL = /^\([^()]{1,200}\)[.!?…。！？]*$/;

/** White space, a dash, white space: the split of a statement and a question needs one. */
const SPACED_DASH = /\s[-–—]\s/;

/** A sentence that starts like a question. */
const QUESTION_LEAD = /^(?:what|how|why|when|where|which|who|is|are|do|does|did|can|could|should|would|will|have|has)\b/i;

const HANGUL_SYLLABLE = /[\uAC00-\uD7A3]/;

/**
 * A sentence boundary: a run of final punctuation taken whole from its first
 * mark, closing quotes or brackets, then white space.
 */
const BOUNDARY = /(?<![.!?…。！？])(?<marks>[.!?…。！？]+)(?<closers>["')\]]*)\s+/g;

/** The final punctuation at the end of a sentence (tried only where a run starts: linear on long runs). */
const FINAL_MARKS = /(?<![.!?…。！？])[.!?…。！？]+$/;

/** Where the final punctuation at the end of `s` starts (`s.length` if none). */
function finalMarksStart(s: string): number {
  return s.length - (FINAL_MARKS.exec(s)?.[0].length ?? 0);
}

/**
 * Does the period that ends `before` not end a sentence: after an abbreviation
 * ("Dr.", "e.g.") or a single initial ("J. R. R. Tolkien")? `before` is the
 * sentence so far, at most its last 16 characters.
 */
function periodContinues(before: string): boolean {
  const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
  if (ABBREVIATIONS.has(lastWord) || ABBREVIATIONS.has(lastWord.replace(/\.$/, ''))) return true;
  // Single initials ("J. R. R. Tolkien").
  return /(?:^|\s)\p{Lu}$/u.test(before);
}

/** Split one trimmed line into sentences, appending the non-empty ones (trimmed) to `out`. */
function splitLine(line: string, out: string[]): void {
  if (!line) return;
  const pieces: string[] = [];
  let start = 0;
  for (const boundary of line.matchAll(BOUNDARY)) {
    const { marks, closers } = boundary.groups as { marks: string; closers: string };
    const dot = boundary.index;
    if (marks === '.' && periodContinues(line.slice(Math.max(start, dot - 16), dot))) continue;
    // An elided argument is inside the sentence: "Promise.all(items.map(...)) to run them in parallel".
    if (closers && (marks === '…' || /^\.{2,}$/.test(marks)) && line[dot - 1] === '(') continue;
    addPiece(pieces, line.slice(start, dot + marks.length + closers.length));
    start = dot + boundary[0].length;
  }
  addPiece(pieces, line.slice(start));
  // "I'm trying to pick the right ones - any advice on that?": a statement and a question.
  for (let i = 0; i < pieces.length; i++) {
    // (Only a piece with a "?" and a spaced dash can match: most skip the backtracking regex.)
    const m =
      pieces[i]!.includes('?') && SPACED_DASH.test(pieces[i]!)
        ? /^(.{12,}?[^\s-])\s+[-–—]\s+([^-–—]{3,}\?["')\]]*)\s*$/.exec(pieces[i]!)
        : null;
    if (m && !/\?/.test(m[1]!) && !QUESTION_LEAD.test(m[1]!)) pieces.splice(i, 1, `${m[1]}.`, m[2]!);
  }
  // Korean: split after sentence-final endings without punctuation.
  const hangul = HANGUL_SYLLABLE.test(line);
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p]!;
    if (!hangul || !HANGUL_SYLLABLE.test(piece)) {
      pushTrimmed(out, piece);
      continue;
    }
    const words = piece.split(/\s+/);
    let current: string[] = [];
    for (const [i, w] of words.entries()) {
      current.push(w);
      // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class strips ❤️ as its two code points (U+2764, U+FE0F), one at a time.
      const bare = w.replace(/[~^♡♥❤️😊😂ㅋㅎ]+$/u, '');
      if (i < words.length - 1 && current.length >= 2 && KO_FINAL.test(bare)) {
        pushTrimmed(out, current.join(' '));
        current = [];
      }
    }
    if (current.length) pushTrimmed(out, current.join(' '));
  }
}

/**
 * Append a piece of a line, except that a parenthetical on its own ("I finished the
 * migration today. (ticket 4242)") says nothing without the sentence before it, so
 * it joins that sentence, before its final punctuation ("I finished the migration
 * today (ticket 4242).").
 */
function addPiece(pieces: string[], piece: string): void {
  const aside = pieces.length > 0 ? piece.trim() : '';
  if (!aside || !PARENTHETICAL.test(aside)) {
    pieces.push(piece);
    return;
  }
  const previous = pieces[pieces.length - 1]!.trimEnd();
  const end = finalMarksStart(previous);
  pieces[pieces.length - 1] =
    end < previous.length
      ? `${previous.slice(0, end)} ${aside.slice(0, finalMarksStart(aside))}${previous.slice(end)}`
      : `${previous} ${aside}`;
}

function pushTrimmed(out: string[], piece: string): void {
  const s = piece.trim();
  if (s) out.push(s);
}
