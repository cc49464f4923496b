/**
 * Why a transcript line was skipped, in words that never quote the line:
 * these reasons go to the log (logs/observer.log), and a malformed line can
 * hold anything, a secret included (docs/trust.md). V8's JSON.parse messages
 * quote up to the whole input (`Unexpected token 's', "sk_live_…" is not
 * valid JSON`), so only the position is kept.
 */

/** `invalid JSON at position 31`, `invalid JSON (the line ends early)`, or `invalid JSON`. */
export function invalidJsonReason(error: unknown): string {
  const message = (error as Error)?.message ?? '';
  const position = /\bat position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `invalid JSON at position ${position}`;
  if (/^Unexpected end of JSON input/.test(message)) return 'invalid JSON (the line ends early)';
  return 'invalid JSON';
}

/** A `type` or `role` value from a line, shown only when it looks like a name (else it may be content). */
export function nameForLog(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z][A-Za-z0-9_.:-]{0,39}$/.test(value) ? JSON.stringify(value) : 'an unrecognised value';
}
