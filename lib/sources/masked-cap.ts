/**
 * Cutting a long payload (a tool output, a tool-call argument) down to a
 * short summary without cutting a secret in half: a key cut at the edge can
 * fall below its masking rule's minimum length and keep part of itself
 * unmasked ("sk-ant-api03-AbCd…"). When the kept part holds a secret rule's
 * anchor, the built-in rules mask a window long enough for any secret that
 * starts there, and the cut is made in the masked text. Pure.
 */
import { maskedPrefix, secretReach } from '../masking/masking.js';
import { cap, oneLineStart } from '../core/whitespace.js';

/**
 * `capOneLine(text, max)`, with built-in secrets masked before the cut. The
 * window to mask continues the one-line text already built for the kept
 * part, and the cut looks at its first `max + 1` masked characters only, so
 * only those are asked for.
 */
export function capOneLineMasked(text: string, max: number): string {
  const start = oneLineStart(text, max + 1);
  const kept = cap(start.text, max);
  const reach = secretReach(kept);
  if (reach === 0) return kept;
  const window = cap(oneLineStart(text, max + reach + 1, start).text, max + reach); // = capOneLine(text, max + reach)
  return cap(maskedPrefix(window, max + 1), max);
}

/** `cap(text, max)`, with built-in secrets masked before the cut. */
export function capMasked(text: string, max: number): string {
  const kept = cap(text, max);
  const reach = secretReach(kept);
  return reach === 0 ? kept : cap(maskedPrefix(text.slice(0, max + reach), max + 1), max);
}
