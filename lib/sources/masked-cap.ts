/**
 * Cutting a long payload (a tool output, a tool-call argument) down to a
 * short summary without cutting a secret in half: a key cut at the edge can
 * fall below its masking rule's minimum length and keep part of itself
 * unmasked ("sk-ant-api03-AbCd…"). When the kept part holds a secret rule's
 * anchor, the built-in rules mask a window long enough for any secret that
 * starts there, and the cut is made in the masked text. Pure.
 */
import { maskedPrefix, secretReach } from '../masking.js';
import { cap, capOneLine } from './whitespace.js';

/**
 * `capOneLine(text, max)`, with built-in secrets masked before the cut. The
 * cut looks at the first `max + 1` characters of the masked window only, so
 * only those are asked for.
 */
export function capOneLineMasked(text: string, max: number): string {
  const kept = capOneLine(text, max);
  const reach = secretReach(kept);
  return reach === 0 ? kept : cap(maskedPrefix(capOneLine(text, max + reach), max + 1), max);
}

/** `cap(text, max)`, with built-in secrets masked before the cut. */
export function capMasked(text: string, max: number): string {
  const kept = cap(text, max);
  const reach = secretReach(kept);
  return reach === 0 ? kept : cap(maskedPrefix(text.slice(0, max + reach), max + 1), max);
}
