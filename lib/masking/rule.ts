/** One masking rule: what it finds, how it is replaced, and the literals that let a text skip it. */

/** `m` is the match (from a global RegExp, with `d` when the rule needs group positions); `redaction` the label for its kind. */
export type Replacer = (m: RegExpExecArray, redaction: string) => string | null;

export interface Rule {
  /** The kind in `[REDACTED:<kind>]`. */
  kind: string;
  /** Global. */
  pattern: RegExp;
  /** Build the replacement of the whole match; `null` keeps the match (a near miss). Default: the whole match becomes the redaction. */
  replace?: Replacer;
  /**
   * Lower-case literals one of which every text the rule can change holds
   * (most rules: every match holds one), compared case-insensitively: a
   * text holding none of them skips the rule (speed only). Empty: the rule
   * is tried on every text.
   */
  keywords: readonly string[];
  /**
   * Speed only, for rules without keywords: every match holds a run of at
   * least this many token characters ([A-Za-z0-9+/=_~-]) with a digit and a
   * letter, so a text without one skips the rule.
   */
  minKeyRun?: number;
  /** Speed only: every match holds at least this many digits in one sequence (single spaces or dashes between). */
  minDigits?: number;
}
