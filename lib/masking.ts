/**
 * Secret masking. Every transcript text is masked before any Observer sees it
 * and before anything is stored or logged.
 *
 * A match is replaced by `[REDACTED:<kind>]`; no part of the secret survives
 * (key=value pairs keep the key name and the separator, URLs keep the scheme
 * and host). Masking is idempotent: masking masked text changes nothing and
 * counts nothing.
 *
 * Every built-in pattern is linear-time: no nested quantifiers, bounded
 * repetition where a match could otherwise be retried from many positions,
 * and a fixed literal (prefix/keyword) that anchors each match.
 */
import { ConfigError } from './errors.js';

export interface MaskingOptions {
  /** Also mask e-mail addresses (off by default: they are often useful memory). */
  emails?: boolean;
  /** Extra patterns (from `masking.extra_patterns`); matches become `[REDACTED:custom]`. */
  extraPatterns?: RegExp[];
}

export interface MaskResult {
  text: string;
  /** Number of secrets replaced. */
  count: number;
  /** Distinct kinds replaced, in first-seen order. */
  kinds: string[];
}

export type SecretKind =
  | 'private-key'
  | 'url-credentials'
  | 'slack-webhook'
  | 'anthropic-key'
  | 'openai-key'
  | 'github-token'
  | 'aws-access-key'
  | 'aws-secret-key'
  | 'slack-token'
  | 'google-api-key'
  | 'jwt'
  | 'bearer-token'
  | 'secret'
  | 'email'
  | 'custom';

/** The replacement text for a secret of this kind. */
export function redaction(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const HAS_DIGIT = /[0-9]/;

/**
 * Replacements counted by kind, in first-seen order; null: not counted (a caller that only
 * wants the text spares a Map per text).
 */
type Seen = Map<string, number> | null;

function count(seen: Seen, kind: string): void {
  if (seen !== null) seen.set(kind, (seen.get(kind) ?? 0) + 1);
}

/** `m` is the match: m[0] the whole match, m[1]… its groups. */
type Replacer = (m: RegExpExecArray) => string | null;

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
  /** Build the replacement; `null` keeps the match (a near miss). Default: the whole match becomes the redaction. */
  replace?: Replacer;
  /**
   * Literals one of which every match contains (compared case-insensitively
   * when the pattern is): when the text holds none of them, the rule is
   * skipped. Speed only; see MAY_HOLD_SECRET.
   */
  anchors: readonly string[];
}

/** Keys whose value is a secret in `key=value` / `key: value` / `"key": "value"` pairs. */
const SECRET_KEYWORDS = [
  'password',
  'passwd',
  'passphrase',
  'token',
  'secret',
  'api[_-]?key',
  'apikey',
  'access[_-]?key',
  'private[_-]?key',
  'client[_-]?secret',
  'auth[_-]?token',
].join('|');

const RULES: Rule[] = [
  {
    // scheme://user:pass@host → scheme://[REDACTED:url-credentials]@host
    kind: 'url-credentials',
    anchors: ['://'],
    pattern: /(?<![a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]{0,20}:\/\/)[^\s/:@[\]"'<>]{1,256}:[^\s/@[\]"'<>]{1,256}@/g,
    replace: (m) => `${m[1]}${redaction('url-credentials')}@`,
  },
  {
    kind: 'slack-webhook',
    anchors: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{8,512}/g,
  },
  { kind: 'anthropic-key', anchors: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,512}/g },
  {
    kind: 'openai-key',
    anchors: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,512}/g,
    // Real keys always mix in digits; "sk-learn-is-a-python-library" does not.
    replace: (m) => (HAS_DIGIT.test(m[0]) ? redaction('openai-key') : null),
  },
  {
    kind: 'github-token',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: 'aws-access-key', anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    kind: 'aws-secret-key',
    anchors: ['aws_secret_access_key'],
    pattern: /\b(aws_secret_access_key["']?\s{0,5}[=:]\s{0,5}["']?)(?!\[REDACTED)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    replace: (m) => `${m[1]}${redaction('aws-secret-key')}`,
  },
  { kind: 'slack-token', anchors: ['xox'], pattern: /\bxox[abeoprs]-[A-Za-z0-9-]{10,512}/g },
  { kind: 'google-api-key', anchors: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'jwt', anchors: ['eyJ'], pattern: /\beyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{8,4096}/g },
  {
    kind: 'bearer-token',
    anchors: ['earer'],
    pattern: /\b([Bb]earer\s{1,5})([A-Za-z0-9._~+/=-]{12,4096})/g,
    // Prose ("Bearer responsibilities") has no digits or token punctuation.
    replace: (m) => (/[0-9._~+/=-]/.test(m[2] ?? '') ? `${m[1]}${redaction('bearer-token')}` : null),
  },
  {
    // password=…, passwd: …, "api_key": "…", DB_PASSWORD='…', token=… (not max_tokens=…: the keyword must end the
    // key or be followed by _ . - and more key characters).
    kind: 'secret',
    // Every keyword contains one of these (password, passwd, passphrase; api_key, …; client_secret; auth_token).
    anchors: ['pass', 'token', 'secret', 'key'],
    pattern: new RegExp(
      `((?:${SECRET_KEYWORDS})(?:[_.-][A-Za-z0-9_.-]{0,40})?["']?\\s{0,5}[=:]\\s{0,5})` +
        `(?:"(?!\\[REDACTED|\\$\\{[A-Za-z_][A-Za-z0-9_]{0,100}\\})([^"\\n]{1,512})"|'(?!\\[REDACTED|\\$\\{[A-Za-z_][A-Za-z0-9_]{0,100}\\})([^'\\n]{1,512})'|(?!\\[REDACTED|\\$\\{[A-Za-z_][A-Za-z0-9_]{0,100}\\})([^\\s"'\`<>,;(){}[\\]]{1,512}))`,
      'gi',
    ),
    replace: (m) => {
      const value = m[2] ?? m[3] ?? m[4] ?? '';
      // ${ENV_VAR} references and obvious placeholders are not secrets (and are useful memory).
      if (/^(?:\*+|x+|\.\.\.|<[^>]*>)$/i.test(value)) return null;
      const quote = m[2] !== undefined ? '"' : m[3] !== undefined ? "'" : '';
      return `${m[1]}${quote}${redaction('secret')}${quote}`;
    },
  },
];

const EMAIL_RULE: Rule = {
  kind: 'email',
  anchors: ['@'],
  pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g,
};

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Body of a truncated block (no END line): base64, line breaks (real or JSON-escaped), PEM header values. */
const PEM_BODY = /[A-Za-z0-9+/=\s\\:,]{0,65536}/y;
const PEM_MAX_BLOCK = 65536;
/** Every PEM private-key block contains this. */
const PEM_ANCHOR = 'PRIVATE KEY';

/**
 * PEM private-key blocks, BEGIN … END. A block whose END is missing (output
 * cut short) is masked to the end of its base64 body. Linear: the END search
 * result is reused for every BEGIN before it.
 */
function maskPrivateKeys(text: string, seen: Seen): string {
  if (!text.includes(PEM_ANCHOR)) return text;
  const out: string[] = [];
  let last = 0;
  let endSearchFrom = -1;
  let nextEnd: RegExpExecArray | null = null;
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    const afterBegin = begin.index + begin[0].length;
    if (endSearchFrom < 0 || (nextEnd !== null && nextEnd.index < afterBegin)) {
      PEM_END.lastIndex = afterBegin;
      nextEnd = PEM_END.exec(text);
      endSearchFrom = afterBegin;
    }
    let stop: number;
    if (nextEnd !== null && nextEnd.index - afterBegin <= PEM_MAX_BLOCK) {
      stop = nextEnd.index + nextEnd[0].length;
    } else {
      PEM_BODY.lastIndex = afterBegin;
      const body = PEM_BODY.exec(text);
      stop = afterBegin + trimmedLength(body ? body[0] : '');
    }
    out.push(text.slice(last, begin.index), redaction('private-key'));
    count(seen, 'private-key');
    last = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  out.push(text.slice(last));
  return out.join('');
}

/** Length of `body` without trailing white space and JSON-escaped line breaks (`\\n`). */
function trimmedLength(body: string): number {
  let end = body.length;
  for (;;) {
    if (end > 0 && /\s/.test(body[end - 1] ?? '')) end -= 1;
    else if (end > 1 && body[end - 1] === 'n' && body[end - 2] === '\\') end -= 2;
    else return end;
  }
}

function escapeLiteral(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A test for "one of these literals occurs" (case-insensitive if asked). */
function anyLiteral(literals: readonly string[], ignoreCase: boolean): RegExp {
  return new RegExp(literals.map(escapeLiteral).join('|'), ignoreCase ? 'i' : '');
}

/** A rule with its anchor test compiled. */
interface ActiveRule extends Rule {
  mayMatch: (text: string) => boolean;
}

function activate(rule: Rule): ActiveRule {
  const [only] = rule.anchors;
  if (rule.anchors.length === 1 && only !== undefined && !rule.pattern.ignoreCase) {
    return { ...rule, mayMatch: (text) => text.includes(only) }; // one exact literal: includes() beats a regex
  }
  const test = anyLiteral(rule.anchors, rule.pattern.ignoreCase);
  return { ...rule, mayMatch: (text) => test.test(text) };
}

const ACTIVE_RULES = RULES.map(activate);
const ACTIVE_EMAIL_RULE = activate(EMAIL_RULE);

/**
 * Whether a built-in rule (or a PEM block) could match: one scan for all
 * their anchors instead of one per rule, so the many texts that hold none of
 * them (most conversation) are passed over at once. Case-insensitive, so it
 * accepts everything each rule's own anchor test accepts.
 */
const MAY_HOLD_SECRET = anyLiteral([PEM_ANCHOR, ...RULES.flatMap((rule) => rule.anchors)], true);

/**
 * The same split by case, for maskSecrets: the exact anchors of the
 * case-sensitive rules and of PEM blocks, and the anchors of the
 * case-insensitive rules ("key", "token", … common words in code). A text
 * that holds "token" but none of the exact anchors (a tool output) is then
 * spared the case-sensitive rules without a test per rule; and the exact
 * anchors, being matched without case folding, are found several times
 * faster than by MAY_HOLD_SECRET.
 */
const EXACT_ANCHORS = anyLiteral([PEM_ANCHOR, ...RULES.filter((rule) => !rule.pattern.ignoreCase).flatMap((rule) => rule.anchors)], false);
const FOLDED_ANCHORS = anyLiteral(RULES.filter((rule) => rule.pattern.ignoreCase).flatMap((rule) => rule.anchors), true);

/** Anchors of the rules whose matches can be kilobytes long (a JWT up to ~16 KiB, a bearer token 4 KiB). */
const LONG_MATCH_ANCHORS = /eyJ|earer/i;

/**
 * How far past the end of `kept` a built-in secret that starts inside it can
 * reach (0: no rule's anchor is in `kept`, so none starts there). A rule's
 * match may begin before its anchor (a key name before `api_key=`, "Bearer"
 * before "earer", a scheme before "://"), but the secret part of every match
 * comes after the anchor, and a PEM block without its END is masked to the
 * end of what is given, so masking `kept` plus this many characters and then
 * cutting never leaves part of a secret unmasked.
 */
export function secretReach(kept: string): number {
  if (!MAY_HOLD_SECRET.test(kept)) return 0;
  return LONG_MATCH_ANCHORS.test(kept) ? 17 * 1024 : 1024;
}

/**
 * `text` with the rule's matches replaced (the very same string when there is none to replace). With
 * `keep`, only the result's first `keep` characters count: matches that would land after them (and all
 * later ones) are left as they are, and the rest of the text is not searched.
 */
function applyRule(text: string, rule: ActiveRule, seen: Seen, keep = Infinity): string {
  if (!rule.mayMatch(text)) return text;
  const pattern = rule.pattern;
  // What text.replace(pattern, fn) does, without its per-match argument list; only replaced matches cost a slice.
  let out = '';
  let last = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const match = m[0];
    if (match.length === 0) {
      pattern.lastIndex += 1;
      continue;
    }
    if (out.length + (m.index - last) >= keep) break; // lands after the kept part, as do all later matches
    const replacement = rule.replace ? rule.replace(m) : redaction(rule.kind);
    if (replacement === null || replacement === match) continue;
    count(seen, rule.kind);
    out += text.slice(last, m.index) + replacement;
    last = m.index + match.length;
    if (out.length >= keep) break;
  }
  return last === 0 ? text : out + text.slice(last);
}

const REDACTED_TOKEN = /\[REDACTED:[a-z-]+\]/g;

/**
 * Replace secrets in `text`. Pure. Extra patterns run last and never match
 * inside an existing `[REDACTED:…]` label.
 */
export function maskSecrets(text: string, options: MaskingOptions = {}): MaskResult {
  const seen = new Map<string, number>();
  const out = maskWith(text, options, seen);
  let replaced = 0;
  for (const n of seen.values()) replaced += n;
  return { text: out, count: replaced, kinds: [...seen.keys()] };
}

/** `maskSecrets(text, options).text`, without counting: for a caller that keeps only the text (every transcript message). */
export function maskedText(text: string, options: MaskingOptions = {}): string {
  return maskWith(text, options, null);
}

function maskWith(text: string, options: MaskingOptions, seen: Seen): string {
  let out = maskBuiltIn(text, seen, Infinity);
  if (options.emails) out = applyRule(out, ACTIVE_EMAIL_RULE, seen);
  for (const pattern of options.extraPatterns ?? []) out = applyExtra(out, pattern, seen);
  return out;
}

/**
 * `maskSecrets(text).text.slice(0, length)`: the start of a text masked by the
 * built-in rules, for a caller that cuts the masked text there (a summary of a
 * long tool output). The last rule stops where its output passes `length`;
 * every other rule still masks the whole text, because its replacements can
 * move later text into the kept part or change what a later rule matches there.
 */
export function maskedPrefix(text: string, length: number): string {
  const masked = maskBuiltIn(text, null, length);
  return masked.length > length ? masked.slice(0, length) : masked;
}

/** The built-in rules and PEM blocks over `text`. `keep`: see applyRule; it applies to the last rule only. */
function maskBuiltIn(text: string, seen: Seen, keep: number): string {
  // No rule can match text without an anchor, and nothing is replaced then: skipping such rules changes nothing.
  // Without an exact anchor the case-sensitive rules are skipped, until a rule changes the text (a replacement
  // brings new text): from there on every rule tests its own anchors again.
  let exact = EXACT_ANCHORS.test(text);
  if (!exact && !FOLDED_ANCHORS.test(text)) return text;
  let out = exact ? maskPrivateKeys(text, seen) : text;
  const lastRule = ACTIVE_RULES.length - 1;
  for (let i = 0; i <= lastRule; i++) {
    const rule = ACTIVE_RULES[i]!;
    if (!exact && !rule.pattern.ignoreCase) continue;
    const before = out;
    out = applyRule(out, rule, seen, i === lastRule ? keep : Infinity);
    if (out !== before) exact = true;
  }
  return out;
}

function applyExtra(text: string, pattern: RegExp, seen: Seen): string {
  const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  // Split around existing redactions so a custom pattern cannot eat into them (keeps masking idempotent).
  const parts: string[] = [];
  let last = 0;
  REDACTED_TOKEN.lastIndex = 0;
  for (let m = REDACTED_TOKEN.exec(text); m !== null; m = REDACTED_TOKEN.exec(text)) {
    parts.push(maskCustom(text.slice(last, m.index), global, seen), m[0]);
    last = m.index + m[0].length;
  }
  parts.push(maskCustom(text.slice(last), global, seen));
  return parts.join('');
}

function maskCustom(text: string, pattern: RegExp, seen: Seen): string {
  if (text.length === 0) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, (match: string) => {
    if (match.length === 0) return match;
    count(seen, 'custom');
    return redaction('custom');
  });
}

/**
 * Compile `masking.extra_patterns` from config. A pattern may be written as a
 * plain source (`acme_[a-z0-9]{32}`, case-sensitive) or as `/source/flags`.
 * A bad pattern is a ConfigError that says which one and why.
 */
export function compileExtraPatterns(patterns: readonly string[], keyPath = 'masking.extra_patterns'): RegExp[] {
  return patterns.map((raw, index) => {
    const where = `${keyPath}[${index}]`;
    if (typeof raw !== 'string' || raw.length === 0) {
      throw new ConfigError(`${where} is empty.`, {
        keyPath: where,
        hint: 'Remove the empty entry or write a regular expression, e.g. "acme_[a-z0-9]{32}".',
      });
    }
    if (raw.length > 1000) {
      throw new ConfigError(`${where} is longer than 1000 characters.`, {
        keyPath: where,
        hint: 'Split it into several shorter patterns.',
      });
    }
    let source = raw;
    let flags = '';
    const literal = /^\/(.+)\/([a-z]*)$/s.exec(raw);
    if (literal) {
      source = literal[1] ?? '';
      flags = literal[2] ?? '';
      if (/[^imsu]/.test(flags)) {
        throw new ConfigError(`${where} has unsupported flags "${flags}".`, {
          keyPath: where,
          hint: 'Only the flags i, m, s and u are allowed (g is added automatically).',
        });
      }
    }
    let regex: RegExp;
    try {
      regex = new RegExp(source, `${flags}g`);
    } catch (error) {
      throw new ConfigError(`${where} is not a valid regular expression: ${(error as Error).message}`, {
        keyPath: where,
        hint: 'Fix the pattern (JavaScript regular-expression syntax; escape backslashes in YAML double quotes, or use single quotes).',
        cause: error,
      });
    }
    if (regex.test('')) {
      throw new ConfigError(`${where} matches the empty string, so it would mask nothing useful.`, {
        keyPath: where,
        hint: 'Make the pattern require at least one character, e.g. use + instead of *.',
      });
    }
    regex.lastIndex = 0;
    return regex;
  });
}
