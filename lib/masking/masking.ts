/**
 * Secret masking. Every transcript text is masked before any Observer sees it
 * and before anything is stored or logged.
 *
 * A match is replaced by `[REDACTED:<kind>]`; no part of the secret survives
 * (key=value pairs keep the key name and the separator, URLs keep the scheme
 * and host). Masking is idempotent: masking masked text changes nothing and
 * counts nothing.
 *
 * The rules: gitleaks' default rule set (lib/masking/gitleaks-rules.ts,
 * generated from gitleaks' config, MIT licence) between OC-Memory's own key
 * formats, labelled-value, prose, card-number and entropy rules
 * (lib/masking/rules.ts). docs/masking.md lists them and the measured recall.
 */
import { ConfigError } from '../core/errors.js';
import { gitleaksMaskingRules } from './gitleaks.js';
import { KeywordAutomaton, type TextShape } from './keyword-scan.js';
import type { Rule } from './rule.js';
import { CONTEXT_RULES, EMAIL_RULE, FORMAT_RULES } from './rules.js';
import { unsafeRegexReason } from './safe-pattern.js';

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

/** The replacement text for a secret of this kind. */
export function redaction(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Replacements counted by kind, in first-seen order; null: not counted (a caller that only
 * wants the text spares a Map per text).
 */
type Seen = Map<string, number> | null;

function count(seen: Seen, kind: string): void {
  if (seen !== null) seen.set(kind, (seen.get(kind) ?? 0) + 1);
}

/**
 * The built-in rules, in the order they are tried: OC-Memory's key formats,
 * gitleaks' rules, then labelled values, prose, card numbers and the entropy
 * rule. An earlier rule's redaction is never matched again by a later one.
 */
function builtInRules(): Rule[] {
  return [...FORMAT_RULES, ...gitleaksMaskingRules(), ...CONTEXT_RULES];
}

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

/** A rule with its own keyword test compiled (used once a replacement has changed the text). */
interface ActiveRule extends Rule {
  mayMatch: (text: string) => boolean;
}

function activate(rule: Rule): ActiveRule {
  if (rule.keywords.length === 0) return { ...rule, mayMatch: () => true };
  const test = new RegExp(rule.keywords.map(escapeLiteral).join('|'), 'i');
  return { ...rule, mayMatch: (text) => test.test(text) };
}

/*
 * The engine is built on the first text to mask, not at import: compiling ~230
 * rules and their keyword automaton costs tens of milliseconds, and a run tick
 * with nothing new masks nothing.
 */
let ACTIVE_RULES: ActiveRule[] = [];
let ACTIVE_EMAIL_RULE: ActiveRule | undefined;
/** Rules tried on every text (no keyword). */
let ALWAYS: number[] = [];
/** Per keyword (index in the automaton), the rules it switches on. */
let KEYWORD_RULES: number[][] = [];
/** PEM blocks are masked by maskPrivateKeys, not by a rule: its anchor is the last keyword. */
let PEM_KEYWORD = -1;
let AUTOMATON: KeywordAutomaton | undefined;
/** Per rule, the number of the last scan that found one of its keywords (no set is built per text). */
let stamps = new Uint32Array(0);
let stamp = 0;
let pemSeen = false;

/**
 * Keyword dispatch: one pass (an Aho–Corasick automaton) finds which rules'
 * keywords a text holds, so of the ~230 rules only those run, with those
 * that have no keyword.
 */
function buildEngine(): KeywordAutomaton {
  ACTIVE_RULES = builtInRules().map(activate);
  ACTIVE_EMAIL_RULE = activate(EMAIL_RULE);
  ALWAYS = ACTIVE_RULES.flatMap((rule, index) => (rule.keywords.length === 0 ? [index] : []));
  const keywords: string[] = [];
  KEYWORD_RULES = [];
  for (const [index, rule] of ACTIVE_RULES.entries()) {
    for (const keyword of rule.keywords) {
      let at = keywords.indexOf(keyword);
      if (at < 0) {
        at = keywords.push(keyword) - 1;
        KEYWORD_RULES.push([]);
      }
      KEYWORD_RULES[at]!.push(index);
    }
  }
  PEM_KEYWORD = keywords.push(PEM_ANCHOR.toLowerCase()) - 1;
  stamps = new Uint32Array(ACTIVE_RULES.length);
  AUTOMATON = new KeywordAutomaton(keywords);
  return AUTOMATON;
}

function markKeyword(keyword: number): void {
  if (keyword === PEM_KEYWORD) {
    pemSeen = true;
    return;
  }
  const rules = KEYWORD_RULES[keyword]!;
  for (let i = 0; i < rules.length; i++) stamps[rules[i]!] = stamp;
}

const shape: TextShape = { keyRun: 0, digits: 0 };

/** Marks the rules that can match `text` with a new stamp; returns it, and whether a PEM anchor was seen. */
function scanKeywords(text: string): { stamp: number; pem: boolean } {
  stamp = stamp === 0xffffffff ? 1 : stamp + 1;
  if (stamp === 1) stamps.fill(0);
  pemSeen = false;
  (AUTOMATON ?? buildEngine()).scan(text, markKeyword, shape);
  for (let i = 0; i < ALWAYS.length; i++) {
    const rule = ACTIVE_RULES[ALWAYS[i]!]!;
    if (shape.keyRun >= (rule.minKeyRun ?? 0) && shape.digits >= (rule.minDigits ?? 0)) stamps[ALWAYS[i]!] = stamp;
  }
  return { stamp, pem: pemSeen };
}

/** Anchors of the rules whose matches can be kilobytes long (a JWT up to ~16 KiB, a bearer token 4 KiB). */
const LONG_MATCH_ANCHORS = /eyJ|earer/i;

/**
 * How far past the end of `kept` a built-in secret that starts inside it can
 * reach. A rule's match may begin before its keyword, but the secret part of
 * every match ends within 1 KiB of where it starts (a JWT or bearer token
 * within 17 KiB), and a PEM block without its END is masked to the end of
 * what is given, so masking `kept` plus this many characters and then cutting
 * never leaves part of a secret unmasked. 0 only for text in which no rule
 * can start a match: no token character at all.
 */
export function secretReach(kept: string): number {
  if (!/[A-Za-z0-9]/.test(kept)) return 0;
  return LONG_MATCH_ANCHORS.test(kept) ? 17 * 1024 : 1024;
}

/**
 * `text` with the rule's matches replaced (the very same string when there is none to replace). With
 * `keep`, only the result's first `keep` characters count: matches that would land after them (and all
 * later ones) are left as they are, and the rest of the text is not searched.
 */
function applyRule(text: string, rule: ActiveRule, seen: Seen, keep = Infinity): string {
  const pattern = rule.pattern;
  const label = redaction(rule.kind);
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
    const replacement = rule.replace ? rule.replace(m, label) : label;
    if (replacement === null || replacement === match) continue;
    count(seen, rule.kind);
    out += text.slice(last, m.index) + replacement;
    last = m.index + match.length;
    if (out.length >= keep) break;
  }
  return last === 0 ? text : out + text.slice(last);
}

const REDACTED_TOKEN = /\[REDACTED:[a-z0-9-]+\]/g;

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
  if (options.emails) {
    if (AUTOMATON === undefined) buildEngine();
    const email = ACTIVE_EMAIL_RULE!;
    if (email.mayMatch(out)) out = applyRule(out, email, seen);
  }
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
  if (text.length === 0) return text;
  const scan = scanKeywords(text);
  let out = scan.pem ? maskPrivateKeys(text, seen) : text;
  // Until a replacement changes the text, the scan says which rules can match; after one, each rule tests
  // its own keywords again (a replacement can bring new text next to old).
  let changed = out !== text;
  const lastRule = ACTIVE_RULES.length - 1;
  for (let i = 0; i <= lastRule; i++) {
    const rule = ACTIVE_RULES[i]!;
    if (changed ? !rule.mayMatch(out) : stamps[i] !== scan.stamp) continue;
    const before = out;
    out = applyRule(out, rule, seen, i === lastRule ? keep : Infinity);
    if (out !== before) changed = true;
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
    const unsafe = unsafeRegexReason(regex);
    if (unsafe !== null) {
      throw new ConfigError(`${where} is refused: ${unsafe}.`, {
        keyPath: where,
        hint: 'Write it without a repetition inside a repetition, e.g. "acme_[a-z0-9]{32}" rather than "(acme_[a-z0-9]+)+".',
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
