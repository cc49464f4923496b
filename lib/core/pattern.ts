/**
 * Long regular expressions written as named parts. A part is a RegExp (its
 * source is used, its flags are not) or a string of pattern text; `anyOf`
 * joins alternatives into a non-capturing group, `pattern` puts parts one
 * after the other into one RegExp, `oneOf` makes a RegExp of top-level
 * alternatives. The result is the same expression as if
 * written on one line: `pattern([/^/, anyOf('a', 'b')], 'i').source` is
 * `^(?:a|b)`.
 */

/** Pattern text: a RegExp's source, or a string of pattern syntax (not escaped). */
export type Part = RegExp | string;

function sourceOf(part: Part): string {
  return typeof part === 'string' ? part : part.source;
}

/** `(?:a|b|c)`: one of the alternatives. */
export function anyOf(...alternatives: readonly Part[]): string {
  return `(?:${alternatives.map(sourceOf).join('|')})`;
}

/** The parts one after the other, as one RegExp with `flags`. */
export function pattern(parts: readonly Part[], flags = ''): RegExp {
  return new RegExp(parts.map(sourceOf).join(''), flags);
}

/** A RegExp that is one of the alternatives at its top level (`a|b|c`, no group around them). */
export function oneOf(alternatives: readonly Part[], flags = ''): RegExp {
  return new RegExp(alternatives.map(sourceOf).join('|'), flags);
}
