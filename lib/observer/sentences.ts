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
const FENCE = /^\s*(```|~~~)\s*([\w+#.-]*)[^\n]*\n[\s\S]*?(?:^\s*\1\s*$|(?![\s\S]))/gm;
/** Lines that are tool plumbing rather than conversation. */
const TOOL_LINE = /^\s*(?:\[(?:tool|tool[ _-]?call|tool[ _-]?result|toolCall|toolResult|function[ _-]?call|thinking|bash|exec)\b[^\]]*\]|(?:→|->|=>)\s*\w+\(|\$ )/i;

/** Could the line hold a Markdown marker, emphasis, a link or inline code? (Else only trimming applies.) */
const MARKDOWN_HINT = /^\s{0,8}(?:#|>|[-*+•]\s|\d{1,3}[.)]\s)|[[*_`]/;

/**
 * Reduce a message to prose: fenced code removed (languages remembered),
 * tool-call lines dropped, Markdown list/heading/quote markers, emphasis and
 * inline-code backticks removed, links reduced to their text.
 */
export function cleanMessageText(raw: string): CleanText {
  const codeLanguages: string[] = [];
  let text = raw;
  if (SPECIAL_CHARS.test(text)) text = text.replace(/\r\n?/g, '\n').replace(/[\u2018\u2019\u02BC]/g, "'").replace(/[\u201C\u201D]/g, '"');
  if (text.includes('```') || text.includes('~~~')) {
    text = text.replace(FENCE, (_all, _fence: string, lang: string) => {
      if (lang) codeLanguages.push(lang.toLowerCase());
      return '\n';
    });
  }
  const lines: string[] = [];
  for (let line of text.split('\n')) {
    if (TOOL_LINE.test(line)) continue;
    // A bare attachment placeholder from the transcript reader says nothing.
    if (/^\s*\[(?:image|file|audio|video|attachment|sticker)\]\s*$/i.test(line)) continue;
    if (/^\s*\|.*\|\s*$/.test(line)) {
      // Table row: keep the cell text, drop separator rows.
      if (/^[\s|:-]+$/.test(line)) continue;
      line = line.split('|').map((c) => c.trim()).filter(Boolean).join(', ');
    }
    if (!MARKDOWN_HINT.test(line)) {
      line = line.trim();
      if (line) lines.push(line);
      continue;
    }
    line = line
      .replace(/^\s{0,8}(?:#{1,6}\s+|>\s?|[-*+•]\s+|\d{1,3}[.)]\s+)/, '')
      // Bounded quantifiers keep these linear on adversarial input.
      .replace(/!\[([^\][\n]{0,200})\]\([^()\s]{0,500}\)/g, '$1')
      .replace(/\[([^\][\n]{1,200})\]\([^()\s]{0,500}\)/g, '$1')
      .replace(/(\*\*|__)(?=[^\s*_])([^*_\n]{1,300}?)(?<=\S)\1/g, '$2')
      .replace(/(^|[\s(])[*_](?=[^\s*_])([^*_\n]{1,300}?)(?<=\S)[*_](?=[\s).,!?:;]|$)/g, '$1$2')
      .replace(/`([^`\n]{1,300})`/g, '$1')
      .trim();
    if (line) lines.push(line);
  }
  return { text: lines.join('\n'), codeLanguages };
}

/** Abbreviations after which a period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'approx',
  'no', 'vol', 'fig', 'inc', 'ltd', 'co', 'corp', 'dept', 'est', 'jan', 'feb', 'mar', 'apr', 'jun',
  'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'a.m', 'p.m', 'u.s', 'u.k', 'mt', 'ft', 'ave',
]);

/** Korean sentence-final endings that close a sentence even without punctuation. */
const KO_FINAL = /(?:습니다|니다|어요|아요|여요|해요|예요|에요|이에요|세요|네요|군요|죠|지요|래요|대요|을게요|ㄹ게요|게요|거든요|는데요|했다|한다|된다|있다|없다|이다|였다|었다|았다|겠다|했어|했음|할게|할래|했지|거야|이야|했네)$/;

/**
 * Split prose into sentences. Lines are split on sentence-final punctuation
 * (. ! ? … 。 and runs of them), except after abbreviations, inside numbers,
 * versions, file names and URLs; Korean lines are also split after a
 * sentence-final ending followed by a space.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    for (const piece of splitLine(trimmed)) {
      const s = piece.trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** A sentence that is only a parenthetical aside: "(item 42)", "(see PR #12)." */
const PARENTHETICAL = /^\([^()]{1,200}\)[.!?…。！？]*$/;

/** A sentence that starts like a question. */
const QUESTION_LEAD = /^(?:what|how|why|when|where|which|who|is|are|do|does|did|can|could|should|would|will|have|has)\b/i;

function splitLine(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  // Candidate boundaries: punctuation run followed by whitespace (or closing quote/bracket then whitespace).
  // The lookbehind starts a match only at the beginning of a punctuation run (linear on "......").
  // (The lookbehind follows the first mark it checks, so positions without a mark fail at once.)
  const boundary = /([.!?…。！？](?<![.!?…。！？].)[.!?…。！？]*)(["')\]]*)(\s+)/g;
  for (let m = boundary.exec(line); m; m = boundary.exec(line)) {
    const punct = m[1]!;
    const endOfSentence = m.index + punct.length + m[2]!.length;
    if (punct === '.') {
      // Only the last few characters matter (and looking further would be quadratic).
      const before = line.slice(Math.max(start, m.index - 16), m.index);
      const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(lastWord) || ABBREVIATIONS.has(lastWord.replace(/\.$/, ''))) continue;
      // Single initials ("J. R. R. Tolkien").
      if (/(?:^|\s)\p{Lu}$/u.test(before)) continue;
    }
    pieces.push(line.slice(start, endOfSentence));
    start = endOfSentence + m[3]!.length;
  }
  pieces.push(line.slice(start));
  // "I finished the migration today. (ticket 4242)": a parenthetical on its own says
  // nothing without the sentence before it, so it joins that sentence, before its final
  // punctuation ("I finished the migration today (ticket 4242).").
  for (let i = 1; i < pieces.length; i++) {
    const aside = pieces[i]!.trim();
    if (!PARENTHETICAL.test(aside)) continue;
    const previous = pieces[i - 1]!.trimEnd();
    const end = /[.!?…。！？]+$/.exec(previous);
    const joined = end ? `${previous.slice(0, end.index)} ${aside.replace(/[.!?…。！？]+$/, '')}${end[0]}` : `${previous} ${aside}`;
    pieces.splice(i - 1, 2, joined);
    i--;
  }
  // "I'm trying to pick the right ones - any advice on that?": a statement and a question.
  for (let i = 0; i < pieces.length; i++) {
    // (Only a piece with a "?" can match: most skip the backtracking regex.)
    const m = pieces[i]!.includes('?') ? /^(.{12,}?[^\s-])\s+[-–—]\s+([^-–—]{3,}\?["')\]]*)\s*$/.exec(pieces[i]!) : null;
    if (m && !/\?/.test(m[1]!) && !QUESTION_LEAD.test(m[1]!)) pieces.splice(i, 1, `${m[1]}.`, m[2]!);
  }
  // Korean: split after sentence-final endings without punctuation.
  const result: string[] = [];
  for (const piece of pieces) {
    if (!/[\uAC00-\uD7A3]/.test(piece)) {
      result.push(piece);
      continue;
    }
    const words = piece.split(/\s+/);
    let current: string[] = [];
    for (const [i, w] of words.entries()) {
      current.push(w);
      const bare = w.replace(/[~^♡♥❤️😊😂ㅋㅎ]+$/u, '');
      if (i < words.length - 1 && current.length >= 2 && KO_FINAL.test(bare)) {
        result.push(current.join(' '));
        current = [];
      }
    }
    if (current.length) result.push(current.join(' '));
  }
  return result;
}
