/**
 * The shape of an observation's text: one line, ending with one period (or the
 * question mark, or a pictograph), cut between words at a length.
 */
import { oneLine } from '../../memory/observation-line.js';

/** End a sentence with a period (questions keep nothing; "!" becomes "."). */
export function finishSentence(s: string): string {
  let t = s.trim();
  // The replacements only apply when the sentence ends in one of these characters.
  if (endsOpen(t))
    t = t
      .replace(/\s*[!]+$/, '.')
      .replace(/\s*\?+$/, '')
      .replace(/[,;:\s-]+$/, '');
  if (!endsClosed(t, false) && !endsWithPictograph(t)) t += '.';
  return t;
}

// (End tests look at the last character only: a `$`-anchored regex is tried from every position.)

/** Does `t` end with one of `!?,;:-` or white space? */
function endsOpen(t: string): boolean {
  return /[!?,;:\-\s]/.test(t.slice(-1));
}

/** Does `t` end with one of `.。…)"'\]` (or `?` when `question`)? */
function endsClosed(t: string, question: boolean): boolean {
  return (question ? /[.。…)"'\]?]/ : /[.。…)"'\]]/).test(t.slice(-1));
}

/** Does `t` end with an emoji-like pictograph? */
function endsWithPictograph(t: string): boolean {
  return /\p{Extended_Pictographic}$/u.test(t.slice(-2));
}

/** "!!" or "??" */
const REPEATED_MARK = /!!|\?\?/;

/** The text as an observation: one line as oneLine() gives it (what follows oneLine adds no white space, truncate trims it). */
export function finishText(text: string, maxChars: number): string {
  let t = oneLine(text);
  if (REPEATED_MARK.test(t)) t = t.replace(/([!?])\1+/g, '$1');
  if (/[.!?][.!?]$/.test(t.slice(-2))) t = t.replace(/([.!?])[.!?]+$/, '$1');
  if (!endsClosed(t, true) && !endsWithPictograph(t)) t += '.';
  return t.length > maxChars ? truncate(t, maxChars) : t;
}

/** How many pieces `text.split(/\s+/)` makes, at most `cap`. */
export function splitCount(text: string, cap: number): number {
  return Math.min(text.split(/\s+/).length, cap);
}

export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:\s]+$/, '')}…`;
}
