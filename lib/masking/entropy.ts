/**
 * The context-aware high-entropy rule: a long run of token characters that
 * looks random (several character classes, high Shannon entropy) is a secret
 * even without a known prefix — a bare AWS secret key, a provider key in a
 * format no rule knows. Next to a secret word ("token", "key", "password",
 * "비밀번호"…) the bar is lower; with none, only strings no identifier, path,
 * hash or number looks like are masked. See docs/masking.md.
 */
import { oneOf } from '../core/pattern.js';

/** Shannon entropy in bits per character, as gitleaks computes it for its `entropy` thresholds. */
export function shannonEntropy(text: string): number {
  const n = text.length;
  if (n === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const k of counts.values()) {
    const p = k / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Candidates: a run of 16 to 256 token characters, not part of a longer run
 * (the lookbehind keeps the scan linear: no start inside a run).
 */
export const ENTROPY_CANDIDATE = /(?<![A-Za-z0-9+/=_~-])[A-Za-z0-9+/_~-][A-Za-z0-9+/=_~-]{15,255}(?![A-Za-z0-9+/=_~-])/g;

/** Words that make the string after them a secret, within CONTEXT_CHARS before it on the same line. */
const SECRET_WORD_EN =
  /pass(?:word|wd|phrase|code)?|pwd|token|secret|api[_ -]?key|access[_ -]?key|private[_ -]?key|\bkey\b|_key\b|credential|auth|bearer/;
const SECRET_WORD_KO = /비밀번호|비번|암호|패스워드|토큰|시크릿|인증/;
/** "sk", "rk", "pat" as words of their own. */
const SECRET_ABBREVIATION = /(?:^|[^a-z])(?:sk|rk|pat)\b/;
const SECRET_WORD = oneOf([SECRET_WORD_EN, SECRET_WORD_KO, SECRET_ABBREVIATION], 'i');
const CONTEXT_CHARS = 48;

const HEX = /^[0-9a-fA-F]+$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Hash and encoding labels right before the string: its value is data, not a credential. */
const DATA_PREFIX = /(?:base64,|sha(?:1|256|384|512)[-:]|md5[-:]|integrity[=:"' ]{1,4}|data:[^\s,]{0,40},)$/i;

interface Classes {
  upper: number;
  lower: number;
  digit: number;
  symbol: number;
}

function classes(text: string): Classes {
  const c: Classes = { upper: 0, lower: 0, digit: 0, symbol: 0 };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) c.upper += 1;
    else if (code >= 97 && code <= 122) c.lower += 1;
    else if (code >= 48 && code <= 57) c.digit += 1;
    else c.symbol += 1;
  }
  return c;
}

/** A name between slashes: a number, an acronym, a word, camelCase or CamelCase, a word with a short number ("v2", "node20"). */
const PATH_NAME_PART = /^(?:\d+|[A-Z]{1,5}|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*|[a-z]+\d{1,4})$/;

/**
 * A path whose every segment is made of names, numbers and dates joined by - _ ~:
 * "/home/alice/Obsidian/MyVault/OC-Memory/2025/2025-10-25" (a vault's day file) is not a
 * secret, whatever its entropy. The pieces of a base64 secret between its slashes
 * ("wJalrXUtnFEMI/K7MDENG/…") are not names.
 */
function isPathOfNames(value: string): boolean {
  if (!value.includes('/')) return false;
  const segments = value.split('/').filter((segment) => segment.length > 0);
  if (segments.length < 2) return false;
  return segments.every((segment) => segment.split(/[-_~]/).every((part) => PATH_NAME_PART.test(part)));
}

/** Whether `value`, found at `index` in `input`, is a secret by the entropy rule. */
export function looksLikeSecret(value: string, input: string, index: number): boolean {
  const c = classes(value);
  // Every secret this rule masks has a digit and a letter: most identifiers, paths and words stop here.
  if (c.digit === 0 || c.upper + c.lower === 0) return false;
  if (UUID.test(value)) return false;
  const window = input.slice(Math.max(0, index - CONTEXT_CHARS), index);
  const before = window.slice(window.lastIndexOf('\n') + 1); // the same line only
  if (DATA_PREFIX.test(before)) return false;
  // A path or an identifier: words joined by / _ - . (a secret does not break into lower-case words)
  if (/^[a-z]+(?:[/_-][a-z]+)*\/?$/.test(value)) return false;
  if (isPathOfNames(value)) return false;
  const entropy = shannonEntropy(value);
  const hex = HEX.test(value);
  if (SECRET_WORD.test(before)) {
    // Labelled: a hex string of 16+ (a Twilio auth token, a Discord key), or letters with digits.
    if (hex) return value.length >= 16 && entropy >= 3;
    return value.length >= 12 && entropy >= 3.2;
  }
  // Bare: never hex (git SHAs, hashes), never a very long blob (images, bundles); all three classes, random-looking.
  if (hex || value.length < 24 || value.length > 128) return false;
  if (c.upper === 0 || c.lower === 0 || c.digit < 2) return false;
  return entropy >= (value.length >= 32 ? 4.2 : 4.0);
}
