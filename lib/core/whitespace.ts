/**
 * White-space helpers for transcript and observation text: collapse runs to one space, and
 * reduce a (possibly multi-kilobyte) text to one capped line. Pure.
 *
 * "White space" is exactly what `/\s/` and `String.prototype.trim` mean, so
 * the fast paths here give the same strings as the regular-expression
 * spellings they replace (`text.replace(/\s+/g, ' ')`, `.trim()`).
 */

/** Whether a UTF-16 code unit is white space for `/\s/` (and for `trim()`). */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** White space other than a plain space, or two plain spaces in a row: what `/\s+/g` → " " changes. */
const COLLAPSIBLE = /[^\S ]| {2}/;

/**
 * `text.replace(/\s+/g, ' ')`. Most texts already have only single plain
 * spaces; those are returned as they are, without building a new string.
 * (The check is a regex test: the regex engine scans text faster than a loop of charCodeAt.)
 */
export function collapseWhiteSpace(text: string): string {
  return COLLAPSIBLE.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/** White space collapsed to single spaces, trimmed. */
export function oneLine(text: string): string {
  return collapseWhiteSpace(text).trim();
}

/** Cut to `max` characters (plus "…"), never inside a surrogate pair. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * `cap(oneLine(text), max)`, reading only as much of `text` as the result
 * needs: a 5 KB tool output summarised to 200 characters costs about 200
 * characters of work, not a pass over the whole output.
 */
export function capOneLine(text: string, max: number): string {
  return cap(oneLineStart(text, max + 1).text, max);
}

/** The start of `oneLine(text)`, built as far as asked; an earlier start can be taken further. */
export interface OneLineStart {
  /** The first characters of `oneLine(text)`: at least the `limit` asked for, unless it is shorter. */
  text: string;
  /** Where in `text` building stopped. */
  next: number;
  /** Building stopped inside a run of text (at the limit), not at white space. */
  midRun: boolean;
}

/**
 * The first `limit` characters (or one more) of `oneLine(text)`, or all of it
 * when shorter: what `cap` needs for a cut at `limit - 1`. `from` is a
 * shorter start of the same text, continued rather than built again.
 * The text is copied in runs, not word by word: a stretch of `text` whose
 * words are already separated by single plain spaces is its own one-line
 * form, so a run ends only where white space needs collapsing (a line break,
 * an indent, a tab), and a run of code or prose costs one slice.
 */
export function oneLineStart(text: string, limit: number, from?: OneLineStart): OneLineStart {
  const length = text.length;
  let out = from ? from.text : '';
  let i = from ? from.next : 0;
  // Continuing a run cut at the limit: no space goes before the rest of it (if it went on).
  let midRun = from?.midRun === true && i < length && !isWhiteSpace(text.charCodeAt(i));
  while (i < length && out.length < limit) {
    if (!midRun) {
      while (i < length && isWhiteSpace(text.charCodeAt(i))) i += 1;
      if (i === length) break; // trailing white space is trimmed
      if (out.length > 0) out += ' ';
    }
    // Never copy more than can still be kept.
    const stop = Math.min(length, i + (limit - out.length));
    let j = i + 1;
    for (; j < stop; j += 1) {
      const code = text.charCodeAt(j);
      if (code > 0x20 && code < 0xa0) continue; // printable ASCII: never white space
      // A single plain space before more text stays as it is; any other white space ends the run.
      if (code === 0x20 ? j + 1 < length && !isWhiteSpace(text.charCodeAt(j + 1)) : !isWhiteSpace(code)) continue;
      break;
    }
    out += text.slice(i, j);
    midRun = j >= stop; // stopped by the limit (or the end of the text), not by white space
    i = j;
  }
  return { text: out, next: i, midRun };
}
