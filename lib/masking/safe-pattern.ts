/**
 * `masking.extra_patterns` are run on every transcript line, so one with
 * catastrophic (exponential) backtracking — `(a+)+$`, `^(\w+\s?)*$` — would
 * hang `observe` on a line that almost matches. Such patterns are refused
 * when the config is read, by the safe-regex checker (star height: a
 * repetition inside a repetition). It does not see overlapping alternatives
 * under a repetition (`(a|aa)+`); see docs/masking.md.
 */
import { createRequire } from 'node:module';

type SafeRegex = (pattern: RegExp | string) => boolean;
let check: SafeRegex | undefined;

/** Why `pattern` is refused, or null when it is accepted. */
export function unsafeRegexReason(pattern: RegExp): string | null {
  // Loaded on first use: most configs have no extra patterns, and a run tick should not pay for the parser.
  check ??= createRequire(import.meta.url)('safe-regex') as SafeRegex;
  if (check(pattern)) return null;
  return 'it can backtrack catastrophically (a repetition inside a repetition, such as (a+)+ or (\\w+\\s?)*), which could hang observe on one line';
}
