/**
 * White-space helpers for transcript text: collapse runs to one space, and
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

/**
 * `text.replace(/\s+/g, ' ')`. Most texts already have only single plain
 * spaces; those are returned as they are, without building a new string.
 */
export function collapseWhiteSpace(text: string): string {
  let previousSpace = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code > 0x20 && code < 0xa0) {
      previousSpace = false; // printable ASCII, the common case, without the full test
    } else if (code === 0x20) {
      if (previousSpace) return text.replace(/\s+/g, ' ');
      previousSpace = true;
    } else if (isWhiteSpace(code)) {
      return text.replace(/\s+/g, ' ');
    } else {
      previousSpace = false;
    }
  }
  return text;
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
 * characters of work, not a pass over the whole output. Only the first
 * `max + 1` characters of the one-line text are built (all `cap` looks at).
 * They are copied in runs, not word by word: a stretch of `text` whose words
 * are already separated by single plain spaces is its own one-line form, so
 * a run ends only where white space needs collapsing (a line break, an
 * indent, a tab), and a run of code or prose costs one slice.
 */
export function capOneLine(text: string, max: number): string {
  const length = text.length;
  const limit = max + 1;
  let out = '';
  let i = 0;
  while (i < length) {
    while (i < length && isWhiteSpace(text.charCodeAt(i))) i += 1;
    if (i === length) break; // trailing white space is trimmed
    if (out.length > 0) out += ' ';
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
    if (out.length > max) break;
    i = j;
  }
  return cap(out, max);
}
