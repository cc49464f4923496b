/**
 * OC-Memory's own masking rules, around gitleaks' (lib/masking/gitleaks.ts):
 * key formats that are often pasted bare into a conversation (where
 * gitleaks, written for source files, wants a `name = value` context), labelled
 * values (`password=…`, `"api_key": "…"`, `STRIPE_RK=…`), prose ("my password
 * is …", "비밀번호는 …야"), Luhn-valid card numbers, and the context-aware
 * entropy rule. See docs/masking.md for what each catches and leaves alone.
 *
 * Every pattern is linear-time: no nested quantifiers, bounded repetition
 * where a match could otherwise be retried from many positions.
 */
import { ENTROPY_CANDIDATE, looksLikeSecret } from './entropy.js';
import type { Rule } from './rule.js';
import { anyOf, pattern } from '../core/pattern.js';

const HAS_DIGIT = /[0-9]/;

/** The text of `m` with the span of group `g` (found by indexOf from `from`) replaced. */
function replaceGroup(m: RegExpExecArray, g: number, redaction: string, value = m[g] ?? ''): string {
  const whole = m[0];
  const at = m.indices?.[g]?.[0];
  const start = at !== undefined ? at - m.index : whole.indexOf(value);
  return whole.slice(0, start) + redaction + whole.slice(start + value.length);
}

/** Unquoted values that are words, types or placeholders in code and prose, not secrets. */
const VALUE_WORDS = new Set(
  `stored saved required optional empty missing none null nil undefined true false yes no on off hidden redacted masked
  changed set unset same different wrong incorrect correct invalid valid expired not in the a an my your our his her their from see
  ask managed provided generated configured removed rotated revoked string str int integer number bool boolean any object env
  environment config default below above here there is was please todo tbd n/a na unknown secret password token key value
  needed needs used using reset forgotten strong weak long short too also still now then ok fine good bad same again new old
  it this that these those for with without via by of to at on be being been has have had`.split(/\s+/),
);
/** Placeholders and references written in place of a value. */
const MASKED = /\*+|[xX]{3,}|\.{3}|…|<[^>]*>?/;
/** `${VAR}`, `$VAR`, `{{ var }}`, `%VAR%`. */
const VARIABLE = /\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}?\}?|%[A-Za-z_][A-Za-z0-9_]*%/;
/** `process.env.X`, `config.secret`, `opts["key"]`: a reference to where the value is. */
const REFERENCE =
  /(?:process\.env|os\.environ|import\.meta\.env|env|this|self|config|settings|options|opts|props|params|args|req|request)(?:[.[][\w.'"\][]*)?/;
const PLACEHOLDER = pattern(['^(?:', MASKED, '|', VARIABLE, '|', REFERENCE, ')$']);

/** Key names, split into lower-case words (snake, kebab, dotted and camel case). */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Key words that make any real value a secret. */
const STRONG_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pwd',
  'token',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'authtoken',
  'accesstoken',
  'refreshtoken',
  'clientsecret',
  'masterkey',
  'signingkey',
]);
/** Key words also common in code and prose (`const key = …`, `pass = 0`): the value must look like a secret. */
const WEAK_WORDS = new Set(['key', 'pass', 'pw', 'auth', 'pin', 'pat', 'sk', 'rk']);
/** Pairs of words that name a secret together: api key, access key, private key, client secret… */
const STRONG_PAIRS = new Set([
  'api key',
  'access key',
  'secret key',
  'private key',
  'auth token',
  'client secret',
  'master key',
  'signing key',
  'app key',
  'auth key',
  'license key',
  'encryption key',
  'service key',
]);
/** Of those, the ones whose value can be a short number (a PIN, a numeric password). */
const NUMERIC_WORDS = new Set(['password', 'passwd', 'passphrase', 'passcode', 'pwd', 'pass', 'pw', 'pin']);
/** A key word that makes the value a count, a name or a setting about a secret, not the secret. */
const HARMLESS_KEY_WORDS = new Set(
  `budget count counts limit limits length len size usage used type types kind id ids name names url uri endpoint file path dir
  expiry expires expiration ttl timeout max min estimate estimated cache rate window prefix header format policy encoding index
  tokenizer tokens field label hint env var ref mode method strategy required enabled placeholder rotation version store storage
  manager location provider source strength reset changed updated created at date time pattern regex column input prompt error
  message hash algorithm algo alg chars bits rounds iterations`.split(/\s+/),
);

type KeyStrength = 'strong' | 'weak' | null;

/** How surely the key names a secret: strong (`DB_PASSWORD`, `apiKey`), weak (`key`, `stripe_rk`), or not at all. */
function keyStrength(key: string): { strength: KeyStrength; numeric: boolean } {
  const words = keyWords(key);
  let strength: KeyStrength = null;
  let numeric = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (HARMLESS_KEY_WORDS.has(word)) return { strength: null, numeric: false };
    const pair = i > 0 ? `${words[i - 1]} ${word}` : '';
    if (STRONG_WORDS.has(word) || STRONG_PAIRS.has(pair) || /(?:password|passwd|passphrase|token|secret)$/.test(word)) strength = 'strong';
    // ADMIN_PASS, stripe_rk, db-pass: a weak word closing a snake or kebab name is a name for a secret.
    else if (WEAK_WORDS.has(word) && i === words.length - 1 && i > 0 && /[_-]/.test(key)) strength = 'strong';
    else if (WEAK_WORDS.has(word) && strength === null) strength = 'weak';
    if (NUMERIC_WORDS.has(word) || /pass(?:word|wd|phrase|code)$/.test(word)) numeric = true;
  }
  return { strength, numeric };
}

/** An unquoted value that is code: a comparison (`key === x`), a call, a camelCase or dotted name, an operator next. */
function isCode(value: string, after: string): boolean {
  if (value.startsWith('=')) return true;
  if (/^[(.[]|^\s{0,3}(?:[=|&?+*/<>!]|\.\w)/.test(after)) return true;
  // A camelCase name (jsonToken) or a CONSTANT_NAME (RAW_TOKEN, OPENAI_API_KEY): a variable, not its value.
  return !/[0-9]/.test(value) && (/^[a-z_$][a-z_$]{1,}(?:[A-Z][a-z]{2,})+$/.test(value) || /^[A-Z]+(?:_[A-Z]+)+$/.test(value));
}

/** Whether a value looks like a secret by itself: long enough, with a digit and a letter (or digits for a PIN). */
function looksRandom(value: string, numeric: boolean): boolean {
  if (numeric && /^\d{4,}$/.test(value)) return true;
  return value.length >= 8 && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** Whether a value is a real value rather than a word, type, count or placeholder. */
function isSecretValue(value: string, quoted: boolean, numericAllowed: boolean): boolean {
  if (value.length === 0) return false;
  if (PLACEHOLDER.test(value)) return false;
  if (!quoted && VALUE_WORDS.has(value.toLowerCase())) return false;
  if (/^\d+$/.test(value) && !numericAllowed && value.length < 10) return false;
  return true;
}

const KEY_CHARS = /[A-Za-z0-9_.-]/;

/**
 * `password=…`, `passwd: …`, `"api_key": "…"`, `DB_PASSWORD='…'`, `stripe_key: …`,
 * `STRIPE_RK=…`: a key whose words name a secret (not `max_tokens`, `token_budget`,
 * `monkey`), a value that is not a placeholder or a word.
 */
/** Group 1: the key and its `=` or `:` ("DB_PASSWORD=", `"api_key": `). */
const SECRET_KEY =
  /((?:pass(?:word|wd|phrase|code)?|pwd|pw|token|secret|key|credentials?|auth|rk|sk|pat|pin)(?:[_.-][A-Za-z0-9_.-]{0,40})?["']?\s{0,5}[=:]\s{0,5})/;
/** Groups 2, 3, 4: the value, quoted or bare, unless it is already redacted (or a `${…}` reference). */
const DOUBLE_QUOTED_VALUE = /"(?!\[REDACTED)([^"\n]{1,512})"/;
const SINGLE_QUOTED_VALUE = /'(?!\[REDACTED)([^'\n]{1,512})'/;
const BARE_VALUE = /(?!\[REDACTED|\$\{)([^\s"'`<>,;(){}[\]]{1,512})/;
const KEY_VALUE: Rule = {
  kind: 'secret',
  keywords: ['pass', 'pwd', 'pw', 'token', 'secret', 'key', 'credential', 'auth', 'rk', 'sk', 'pat', 'pin'],
  pattern: pattern([SECRET_KEY, anyOf(DOUBLE_QUOTED_VALUE, SINGLE_QUOTED_VALUE, BARE_VALUE)], 'gi'),
  replace: (m, redaction) => {
    const input = m.input;
    let start = m.index;
    while (start > 0 && start > m.index - 64 && KEY_CHARS.test(input[start - 1] ?? '')) start -= 1;
    const head = m[1] ?? '';
    const key = input.slice(start, m.index) + head.replace(/["']?\s*[=:]\s*$/, '');
    const { strength, numeric } = keyStrength(key);
    if (strength === null) return null;
    const quoted = m[2] !== undefined || m[3] !== undefined;
    const value = m[2] ?? m[3] ?? m[4] ?? '';
    if (!quoted && isCode(value, input.slice(m.index + m[0].length, m.index + m[0].length + 4))) return null;
    if (!isSecretValue(value, quoted, numeric)) return null;
    if (strength === 'weak' && !looksRandom(value, numeric)) return null;
    const quote = m[2] !== undefined ? '"' : m[3] !== undefined ? "'" : '';
    return `${head}${quote}${redaction}${quote}`;
  },
};

/** Trailing punctuation after a value in prose. */
const TRAILING_PUNCTUATION = /[.,!?;:)\]}>]+$/;

/** Common words after "password is" that are not the password. */
const PROSE_WORDS = new Set(
  `incorrect wrong right correct expired changed stored saved shown hidden weak strong long short required missing empty blank encrypted hashed reset case sensitive protected different same fine valid invalid in on at for what how too very`.split(
    /\s+/,
  ),
);

const UUID_VALUE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Whether a value named by a word that is also common in prose ("token", "key", "login", "secret") is a
 * credential: a UUID, or letters with digits (6+ characters), or 8+ characters of three kinds. A plain word
 * ("the key is simplicity"), a number ("key 42"), a path or a file name is not.
 */
function credentialShaped(value: string): boolean {
  if (UUID_VALUE.test(value)) return true;
  if (value.includes('/') || value.includes('://') || /\.(?:pub|pem|key|txt|json|ya?ml|env|md|ts|js|py)$/i.test(value)) return false;
  const digit = /[0-9]/.test(value);
  const letter = /\p{L}/u.test(value);
  if (digit && letter && value.length >= 6) return true;
  // Hyphens, dots and underscores join words ("API-first", "Node-RED"); other symbols are a password's.
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9._-]/].filter((k) => k.test(value)).length;
  return value.length >= 8 && kinds >= 3;
}

/** A value that is a word, a placeholder or a known non-answer ("is required", "is stored in 1Password"). */
function notAValue(value: string): boolean {
  return (
    value.length < 3 ||
    VALUE_WORDS.has(value.toLowerCase()) ||
    PLACEHOLDER.test(value) ||
    (/^[a-z]+$/.test(value) && PROSE_WORDS.has(value))
  );
}

/** Password words: whatever follows "my password is" is the password (unless it is a word about it). */
const PASSWORD_WORD = /^(?:pass(?:word|phrase|code)|pwd|pw|pin(?: ?code)?)s?$/i;
/** A user name and a password: `bob:hunter2` (the name has a letter; the password is not a port or a path). */
const COLON_PAIR = /^([\p{L}\p{N}._%+@-]{2,64}):(\S{3,128})$/u;

/**
 * "my password is hunter2", "the PIN was 4821", "server token is 9c4f1e2a-…", "the Etsy login is bob / hunter2",
 * "credentials: admin:S3cret!": the value after a credential word and "is", "was", ":" or "=". After a password
 * word any value but a word about it is masked; after token, key, secret, login or credentials the value must
 * look like one (credentialShaped), or be the password of a `name / password` or `name:password` pair (the name
 * stays). Not "the token bucket", "key decisions", "password reset flow is broken", "the key is simplicity".
 */
/** Group 1: what the secret is called ("password", "the API key", "login"). */
const PROSE_SECRET_NAME =
  /\b((?:pass(?:word|phrase|code)|pwd|pw|pin(?: ?code)?|(?:api |access |auth |server |secret |session |bearer )?(?:token|key)|secret|log-?in|credentials?)s?)/;
/** Group 2: the value, unless already redacted; groups 3 and 4: " / " and a second value ("user / pass"). */
const PROSE_VALUE = /(?!\[REDACTED)([^\s"'”’`]{1,128})/;
const PROSE_SECOND_VALUE = /(?:( \/ )(?!\[REDACTED)([^\s"'”’`]{1,128}))?/;
const PROSE_EN: Rule = {
  kind: 'password',
  keywords: ['pass', 'pwd', 'pw', 'pin', 'token', 'key', 'secret', 'login', 'credential'],
  pattern: pattern(
    [PROSE_SECRET_NAME, /\s{1,3}(?:is|was|is now|will be|are|were|:|=)\s{1,3}["'“‘`]?/, PROSE_VALUE, PROSE_SECOND_VALUE],
    'dgi',
  ),
  replace: (m, redaction) => {
    const word = m[1] ?? '';
    const raw = m[2] ?? '';
    const value = raw.replace(TRAILING_PUNCTUATION, '');
    const password = PASSWORD_WORD.test(word);
    if (raw.includes('[REDACTED') || m[4]?.includes('[REDACTED')) return null; // masked already (idempotence)
    if (m[4] !== undefined) {
      // name / password
      const secret = m[4].replace(TRAILING_PUNCTUATION, '') || m[4];
      if (!notAValue(secret) && (password || !/^[a-z]+$/.test(secret)))
        return replaceGroup(m, 4, redactionOf(redaction, 'password'), secret);
    }
    if (notAValue(value)) return null;
    const pair = COLON_PAIR.exec(value);
    if (pair && /\p{L}/u.test(pair[1]!) && !/^\d{1,5}$/.test(pair[2]!) && !pair[2]!.startsWith('/')) {
      const at = (m.indices?.[2]?.[0] ?? m.index) - m.index + pair[1]!.length + 1;
      return m[0].slice(0, at) + redactionOf(redaction, 'password') + m[0].slice(at + pair[2]!.length);
    }
    if (password) return replaceGroup(m, 2, redaction, value);
    if (!credentialShaped(value)) return null;
    return replaceGroup(m, 2, redactionOf(redaction, 'credential'), value);
  },
};

/** The same redaction, of another kind (a rule whose matches are of several kinds). */
function redactionOf(redaction: string, kind: string): string {
  return redaction.replace(/:[a-z0-9-]+\]$/, `:${kind}]`);
}

/** Words that say a text is about a login, within PAIR_CONTEXT characters before a `name / password` pair. */
const LOGIN_CONTEXT =
  /\b(?:log-?ins?|sign[ -]?in|passwords?|passwd|credentials?|user ?names?|accounts?)\b|로그인|비밀번호|비번|계정|아이디|패스워드/i;
const PAIR_CONTEXT = 240;
/** Names before a colon that label a value (`password:x`, `login:bob`) or a scheme (`https:`), not a user name. */
const NOT_A_USER =
  /^(?:redacted|https?|ftp|ssh|git|file|mailto|user(?:name)?|login|password|passwd|pass|pw|pwd|email|e-mail|id|name|note|notes|re|fw|fwd|todo|tip|ps|eg|ie)$/i;

/**
 * "can you remember my Etsy login? helenpark.clay / Glaze&Kiln2026!": a `name / password` or `name:password`
 * pair standing alone in a text that spoke of a login, a password, credentials or an account just before it.
 * The password is masked, the name kept. Not "yes / no", "read / write" or "TCP / IP" (the second half must
 * not be a plain lower-case word or an upper-case acronym), not "10:30" or "localhost:5432" (a name has a letter,
 * a password is not a port number), not `https://…`.
 */
const LOGIN_PAIR: Rule = {
  kind: 'password',
  // The words of LOGIN_CONTEXT: a match does not hold one, but a text the rule can change does (before the pair).
  keywords: [
    'login',
    'log-in',
    'sign in',
    'sign-in',
    'signin',
    'password',
    'passwd',
    'credential',
    'username',
    'user name',
    'account',
    '로그인',
    '비밀번호',
    '비번',
    '계정',
    '아이디',
    '패스워드',
  ],
  pattern: /(?<![^\s([{"'“‘`])([\p{L}\p{N}._%+@-]{2,64})( \/ |:)(?!\/|\[REDACTED)([^\s"'”’`]{4,128})/dgu,
  replace: (m, redaction) => {
    const name = m[1] ?? '';
    const secret = (m[3] ?? '').replace(/[.,;:)\]}>]+$/, '');
    if (!/\p{L}/u.test(name) || NOT_A_USER.test(name) || secret.length < 4) return null;
    if (/^\d{1,5}$/.test(secret) || /^[a-z]+$/.test(secret) || /^[A-Z]{2,6}$/.test(secret) || VALUE_WORDS.has(secret.toLowerCase()))
      return null;
    if (m[2] === ':' && (/^\d+$/.test(name) || /^[\p{N}:]+$/u.test(secret))) return null;
    const before = m.input.slice(Math.max(0, m.index - PAIR_CONTEXT), m.index);
    if (!LOGIN_CONTEXT.test(before)) return null;
    return replaceGroup(m, 3, redaction, secret);
  },
};

const HANGUL = /[\uac00-\ud7a3\u3131-\u318e]/;
/** Korean endings and particles glued to a value: "hunter2야", "1234입니다", "abc123이고". */
const KOREAN_TAIL = /(?:이에요|입니다|이야|예요|에요|이다|이고|라고|이라고|이요|야|요|임|다|고|[.,!?;:)~]+)+$/;

/**
 * "비밀번호는 hunter2야", "비번: 1234", "암호가 abc123이에요"; "토큰은 9c4f1e2a-…", "API 키는 …" (토큰 and 키
 * also mean other things — 키 is a person's height — so their value must look like a credential).
 */
const PROSE_KO: Rule = {
  kind: 'password',
  keywords: ['비밀번호', '비번', '암호', '패스워드', '핀번호', '핀 번호', '토큰', '키'],
  pattern:
    /(비밀번호|비번|암호|패스워드|핀 ?번호|토큰|키)\s{0,3}(?:는|은|가|이|를|을|도)?\s{0,3}(?:[:=]\s{0,3})?["'“‘`]?(?!\[REDACTED)([^\s"'”’`]{2,128})/dg,
  replace: (m, redaction) => {
    const value = (m[2] ?? '').replace(KOREAN_TAIL, '');
    if (value.length < 2 || HANGUL.test(value) || VALUE_WORDS.has(value.toLowerCase()) || PLACEHOLDER.test(value)) return null;
    if (m[1] === '토큰' || m[1] === '키')
      return credentialShaped(value) ? replaceGroup(m, 2, redactionOf(redaction, 'credential'), value) : null;
    return replaceGroup(m, 2, redaction, value);
  },
};

/** Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9]|22)|35[2-8]|30[0-5]|3[689]|62|5[06-8]|6[37])/;

function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** 13–19 digits, plain or grouped by spaces or dashes, with a card network's prefix and a valid Luhn check digit. */
const CARD: Rule = {
  kind: 'card-number',
  keywords: [],
  minDigits: 13,
  pattern: /(?<![\d.,-])\d(?:[ -]?\d){12,18}(?![\d])/g,
  replace: (m, redaction) => {
    const digits = m[0].replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) return null;
    if (!CARD_PREFIX.test(digits) || !luhnValid(digits)) return null;
    return redaction;
  },
};

const ENTROPY: Rule = {
  kind: 'high-entropy',
  keywords: [],
  minKeyRun: 16,
  pattern: ENTROPY_CANDIDATE,
  replace: (m, redaction) => (looksLikeSecret(m[0], m.input, m.index) ? redaction : null),
};

/** Rules for key formats, tried before gitleaks' rules (their kinds name the redactions of the common keys). */
export const FORMAT_RULES: readonly Rule[] = [
  {
    // scheme://user:pass@host and scheme://:pass@host (redis) → scheme://[REDACTED:url-credentials]@host
    kind: 'url-credentials',
    keywords: ['://'],
    pattern: /(?<![a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]{0,20}:\/\/)[^\s/:@[\]"'<>]{0,256}:[^\s/@[\]"'<>]{1,256}@/g,
    replace: (m, redaction) => (m[0].includes(':[REDACTED') ? null : `${m[1]}${redaction}@`),
  },
  {
    kind: 'slack-webhook',
    keywords: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{8,512}/g,
  },
  { kind: 'anthropic-key', keywords: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,512}/g },
  {
    // Legacy, project, service-account and admin keys; also short test keys such as the PRD's `sk-1234567890abcdef`.
    kind: 'openai-key',
    keywords: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{16,512}/g,
    // Real keys always mix in digits; "sk-learn-is-a-python-library" does not.
    replace: (m, redaction) => (HAS_DIGIT.test(m[0]) ? redaction : null),
  },
  {
    kind: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: 'aws-access-key', keywords: ['akia', 'asia', 'abia', 'acca'], pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    kind: 'aws-secret-key',
    keywords: ['aws_secret_access_key'],
    pattern: /\b(aws_secret_access_key["']?\s{0,5}[=:]\s{0,5}["']?)(?!\[REDACTED)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    replace: (m, redaction) => `${m[1]}${redaction}`,
  },
  { kind: 'slack-token', keywords: ['xox'], pattern: /\bxox[abeoprs]-[A-Za-z0-9-]{10,512}/g },
  { kind: 'google-api-key', keywords: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'jwt', keywords: ['eyj'], pattern: /\beyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{8,4096}/g },
  {
    kind: 'bearer-token',
    keywords: ['earer'],
    pattern: /\b([Bb]earer\s{1,5})([A-Za-z0-9._~+/=-]{12,4096})/g,
    // Prose ("Bearer responsibilities") has no digits or token punctuation.
    replace: (m, redaction) => (/[0-9._~+/=-]/.test(m[2] ?? '') ? `${m[1]}${redaction}` : null),
  },
  {
    // Azure storage and Service Bus connection strings.
    kind: 'azure-key',
    keywords: ['accountkey', 'sharedaccesskey'],
    pattern: /\b((?:AccountKey|SharedAccessKey)=)(?!\[REDACTED)[A-Za-z0-9+/]{20,200}={0,2}/gi,
    replace: (m, redaction) => `${m[1]}${redaction}`,
  },
  {
    // Discord bot token: base64 user id, timestamp, HMAC.
    kind: 'discord-bot-token',
    keywords: [],
    minKeyRun: 27,
    pattern: /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_.-])/g,
  },
  {
    kind: 'telegram-bot-token',
    keywords: [':a'],
    pattern: /(?<![0-9])[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
  },
  // gitleaks wants "mailgun" / "new relic" next to these; their prefixes are distinctive enough bare.
  { kind: 'mailgun-key', keywords: ['key-'], pattern: /\bkey-[0-9a-f]{32}\b/g },
  { kind: 'new-relic-key', keywords: ['nrak-'], pattern: /\bNRAK-[A-Z0-9]{27}\b/g },
  { kind: 'twilio-account-sid', keywords: [], minKeyRun: 34, pattern: /\bAC[0-9a-f]{32}\b/g },
];

/** Rules for labelled values and prose, tried after gitleaks' rules (which name the provider when they know the key). */
export const CONTEXT_RULES: readonly Rule[] = [KEY_VALUE, PROSE_EN, LOGIN_PAIR, PROSE_KO, CARD, ENTROPY];

export const EMAIL_RULE: Rule = {
  kind: 'email',
  keywords: ['@'],
  pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g,
};
