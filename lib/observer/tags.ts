/**
 * Topic tags for observations: technologies named in the text (English and
 * Korean spellings), code-block languages, and explicit #hashtags. At most a
 * few, lowercase, in order of appearance.
 */
import { isCommonWord } from './rules-en.js';

/**
 * [tag, pattern, words]: patterns match whole words, case-insensitively; `words` are the
 * lowercase alphanumeric words one of which every English match contains (`gpt*`: a word
 * starting so), so a text without any of them skips the pattern. Korean text runs every pattern.
 */
const TECH: [string, RegExp, string[]][] = [
  ['typescript', /\b(typescript|ts|tsx)\b|타입스크립트/i, ['typescript', 'ts', 'tsx']],
  ['javascript', /\b(javascript|js|jsx|ecmascript)\b|자바스크립트/i, ['javascript', 'js', 'jsx', 'ecmascript']],
  ['python', /\b(python|py|pip|pytest)\b|파이썬/i, ['python', 'py', 'pip', 'pytest']],
  ['rust', /\b(rust|cargo|rustc)\b|러스트/i, ['rust', 'cargo', 'rustc']],
  ['golang', /\b(golang|go (?:module|lang|routine)s?)\b|고랭/i, ['golang', 'go']],
  ['java', /\bjava\b(?!script)|자바(?!스크립트)/i, ['java']],
  ['kotlin', /\bkotlin\b|코틀린/i, ['kotlin']],
  ['swift', /\bswift(?:ui)?\b|스위프트/i, ['swift', 'swiftui']],
  ['csharp', /\bc#|\.net\b|\bdotnet\b/i, ['c', 'net', 'dotnet']],
  ['cpp', /\bc\+\+/i, ['c']],
  ['ruby', /\b(ruby|rails)\b|루비/i, ['ruby', 'rails']],
  ['php', /\b(php|laravel)\b/i, ['php', 'laravel']],
  ['postgres', /\b(postgres(?:ql)?|psql|pg)\b|포스트그레(?:스|SQL)?/i, ['postgres', 'postgresql', 'psql', 'pg']],
  ['mysql', /\b(mysql|mariadb)\b/i, ['mysql', 'mariadb']],
  ['sqlite', /\bsqlite3?\b/i, ['sqlite', 'sqlite3']],
  ['mongodb', /\b(mongo(?:db)?)\b|몽고/i, ['mongo', 'mongodb']],
  ['redis', /\bredis\b|레디스/i, ['redis']],
  ['grafana', /\bgrafana\b/i, ['grafana']],
  ['kibana', /\bkibana\b/i, ['kibana']],
  ['prometheus', /\bprometheus\b/i, ['prometheus']],
  ['elasticsearch', /\b(elasticsearch|opensearch)\b/i, ['elasticsearch', 'opensearch']],
  ['kafka', /\bkafka\b|카프카/i, ['kafka']],
  ['graphql', /\bgraphql\b/i, ['graphql']],
  ['docker', /\b(docker|dockerfile)\b|도커/i, ['docker', 'dockerfile']],
  ['kubernetes', /\b(kubernetes|k8s|kubectl|helm)\b|쿠버네티스/i, ['kubernetes', 'k8s', 'kubectl', 'helm']],
  ['aws', /\b(aws|s3|ec2|lambda)\b/i, ['aws', 's3', 'ec2', 'lambda']],
  ['gcp', /\b(gcp|google cloud|bigquery)\b/i, ['gcp', 'google', 'bigquery']],
  ['azure', /\bazure\b/i, ['azure']],
  ['react', /\b(react|next\.?js|jsx)\b|리액트/i, ['react', 'next', 'nextjs', 'jsx']],
  ['vue', /\bvue(?:\.?js)?\b/i, ['vue', 'vuejs']],
  ['svelte', /\bsvelte(?:kit)?\b/i, ['svelte', 'sveltekit']],
  ['node', /\b(node(?:\.?js)?|npm|pnpm|yarn|deno|bun)\b|노드/i, ['node', 'nodejs', 'npm', 'pnpm', 'yarn', 'deno', 'bun']],
  ['jwt', /\b(jwt|json web tokens?)\b/i, ['jwt', 'json']],
  ['oauth', /\b(oauth2?|oidc|openid)\b/i, ['oauth', 'oauth2', 'oidc', 'openid']],
  ['auth', /\b(auth|authentication|authorization|login|sign[- ]?in|refresh tokens?)\b|인증|로그인/i, ['auth', 'authentication', 'authorization', 'login', 'sign', 'signin', 'refresh']],
  ['async', /\b(async|await|promise\.all|callback hell)\b|비동기/i, ['async', 'await', 'promise', 'callback']],
  ['git', /\b(git|github|gitlab|pull requests?)\b/i, ['git', 'github', 'gitlab', 'pull']],
  ['ci', /\b(ci|ci\/cd|github actions|jenkins)\b/i, ['ci', 'github', 'jenkins']],
  ['testing', /\b(unit tests?|jest|vitest|mocha|tests? suite|e2e)\b|테스트/i, ['unit', 'jest', 'vitest', 'mocha', 'test', 'tests', 'e2e']],
  ['api', /\b(apis?|rest api|endpoints?|grpc)\b/i, ['api', 'apis', 'rest', 'endpoint', 'endpoints', 'grpc']],
  ['llm', /\b(llm|gpt-?\d*|openai|claude|gemini|ollama|embedding)s?\b/i, ['llm', 'llms', 'gpt*', 'openai', 'openais', 'claude', 'claudes', 'gemini', 'geminis', 'ollama', 'ollamas', 'embedding', 'embeddings']],
  ['linux', /\b(linux|ubuntu|debian|systemd)\b|리눅스/i, ['linux', 'ubuntu', 'debian', 'systemd']],
  ['macos', /\b(macos|launchd|homebrew)\b/i, ['macos', 'launchd', 'homebrew']],
  ['css', /\b(css|tailwind|sass|scss)\b/i, ['css', 'tailwind', 'sass', 'scss']],
  ['html', /\bhtml\b/i, ['html']],
  ['sql', /\bsql\b/i, ['sql']],
];

const HANGUL = /[\uAC00-\uD7A3]/;

/** Trigger word → numbers of the TECH entries it may start; and the `prefix*` triggers. */
const TRIGGERS = new Map<string, number[]>();
const PREFIX_TRIGGERS: Array<[string, number]> = [];
TECH.forEach(([, , words], i) => {
  for (const w of words) {
    if (w.endsWith('*')) PREFIX_TRIGGERS.push([w.slice(0, -1), i]);
    else TRIGGERS.set(w, [...(TRIGGERS.get(w) ?? []), i]);
  }
});

/**
 * The trigger words as a trie over [a-z0-9] (36 children per node, -1 for none),
 * so an ASCII text's words are looked up as they are scanned, case-folded on
 * the way, without a substring per word. Node 0 is the root.
 */
const TRIE_WIDTH = 36;
let trieChildren = new Int32Array(TRIE_WIDTH).fill(-1);
/** Per node: entries of the trigger word ending there; the entry of a `prefix*` trigger ending there (or -1). */
const trieWords: (number[] | undefined)[] = [undefined];
const triePrefix: number[] = [-1];

/** Trie index of each ASCII code: a–z and A–Z 0–25, 0–9 26–35, anything else -1. */
const TRIE_INDEX = Int8Array.from({ length: 128 }, (_, c) =>
  c >= 0x61 && c <= 0x7a ? c - 0x61 : c >= 0x41 && c <= 0x5a ? c - 0x41 : c >= 0x30 && c <= 0x39 ? 26 + c - 0x30 : -1,
);

/** Trie index of an ASCII letter or digit (either case), or -1. */
function trieIndex(c: number): number {
  return c < 128 ? TRIE_INDEX[c]! : -1;
}

function trieNode(word: string): number {
  let node = 0;
  for (let k = 0; k < word.length; k++) {
    const slot = node * TRIE_WIDTH + trieIndex(word.charCodeAt(k));
    if (trieChildren[slot] === -1) {
      const created = trieWords.length;
      trieWords.push(undefined);
      triePrefix.push(-1);
      if ((created + 1) * TRIE_WIDTH > trieChildren.length) {
        // Doubled, not grown by a node: a copy per node took ~15 ms at every start (and in the worker).
        const grown = new Int32Array(trieChildren.length * 2).fill(-1);
        grown.set(trieChildren);
        trieChildren = grown;
      }
      trieChildren[slot] = created;
    }
    node = trieChildren[slot]!;
  }
  return node;
}
for (const [w, entries] of TRIGGERS) trieWords[trieNode(w)] = entries;
for (const [prefix, i] of PREFIX_TRIGGERS) triePrefix[trieNode(prefix)] = i;

/** Scratch flags for candidateEntries (one per TECH entry), cleared after each use. */
const marks = new Uint8Array(TECH.length);

/** Mark the trigger words among the lowercase [a-z0-9] words of (non-ASCII) `text`. */
function markWords(text: string): void {
  // toLowerCase() can turn a non-ASCII letter into ASCII ones (K, İ): keep its exact word split.
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) markWord(w);
}

function markWord(w: string): void {
  const entries = TRIGGERS.get(w);
  if (entries) for (const i of entries) marks[i] = 1;
  for (const [prefix, i] of PREFIX_TRIGGERS) if (w.startsWith(prefix)) marks[i] = 1;
}

/**
 * Capitals at the start of the text or right after white space, as the last
 * markAsciiWords pass met them: where a proper noun of ASCII text can start.
 */
const capitals: number[] = [];
/** How many of `capitals` the last pass found (the array is reused, not truncated: setting `length` is a runtime call). */
let capitalCount = 0;

/**
 * Mark the trigger words among `text`'s [A-Za-z0-9] words, case-insensitively
 * (the words `toLowerCase().split(/[^a-z0-9]+/)` would look up on ASCII text):
 * each word walks the trie until it leaves it. The same pass notes the
 * proper-noun starts (`capitals`). Returns false, with nothing marked, at the
 * first non-ASCII character: such text takes the general paths.
 */
function markAsciiWords(text: string): boolean {
  capitalCount = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      marks.fill(0);
      return false;
    }
    let k = TRIE_INDEX[c]!;
    if (k < 0) {
      i++;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a && (i === 0 || isAsciiSpace(text.charCodeAt(i - 1)))) capitals[capitalCount++] = i;
    // Walk the trie while the word's characters stay in it…
    let node = 0;
    for (;;) {
      node = trieChildren[node * TRIE_WIDTH + k]!;
      i++;
      if (node < 0) break;
      // `gpt*`: every word going on from the prefix.
      if (triePrefix[node]! >= 0) marks[triePrefix[node]!] = 1;
      k = i < n ? trieIndex(text.charCodeAt(i)) : -1;
      if (k < 0) break;
    }
    if (node >= 0) {
      const entries = trieWords[node];
      if (entries) for (const e of entries) marks[e] = 1;
    } else {
      // …then skip the rest of a word that left it.
      while (i < n && trieIndex(text.charCodeAt(i)) >= 0) i++;
    }
  }
  return true;
}

/**
 * Numbers of the TECH entries that may match `text`, ascending (all of them
 * for Korean text): those whose trigger words occur among the text's
 * lowercase [a-z0-9] words. `ascii`: markAsciiWords(text) has marked them.
 */
function candidateEntries(text: string, ascii: boolean): number[] {
  const out: number[] = [];
  if (ascii) {
    // Marked already.
  } else if (HANGUL.test(text)) {
    for (let i = 0; i < TECH.length; i++) out.push(i);
    return out;
  } else {
    markWords(text);
  }
  for (let i = 0; i < marks.length; i++) {
    if (marks[i]) {
      out.push(i);
      marks[i] = 0;
    }
  }
  return out;
}

// A Map: a code block labelled ```constructor must not find Object.prototype's.
const CODE_LANG = new Map(Object.entries({
  ts: 'typescript', typescript: 'typescript', tsx: 'typescript', js: 'javascript', javascript: 'javascript',
  jsx: 'javascript', py: 'python', python: 'python', rs: 'rust', rust: 'rust', go: 'golang', sql: 'sql',
  java: 'java', kt: 'kotlin', rb: 'ruby', php: 'php', sh: 'shell', bash: 'shell', zsh: 'shell',
  yaml: 'yaml', yml: 'yaml', dockerfile: 'docker', css: 'css', html: 'html',
}));

const HASHTAG = /(?:^|\s)#([\p{L}_][\p{L}\p{N}_-]{1,30})/gu;

/** Capitalised words inside a sentence (not its first word): names, places, products. */
const PROPER_NOUN = /(?<=[\p{Ll}\p{N},;]\s+)\p{Lu}[\p{Ll}]{2,}(?:-[\p{Lu}\p{Ll}]+)?\b|^\p{Lu}\p{Ll}{2,}(?=['’]s\s)/gu;
const NOT_NAMES = new Set(['user', 'assistant', 'the', 'this', 'that', 'and', 'but', 'i', 'okay', 'yes', 'no', 'please', 'thanks',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may',
  'june', 'july', 'august', 'september', 'october', 'november', 'december', 'english', 'korean', 'god', 'mom', 'dad']);

/**
 * Lowercase topic tags found in `text` (and code languages), at most `max`:
 * technologies first, then hashtags, then at most one proper noun (a name or
 * place) that is not one of `exclude` (the speakers).
 */
export function detectTags(text: string, codeLanguages: string[] = [], max = 3, exclude: string[] = []): string[] {
  const ascii = markAsciiWords(text);
  const found: { tag: string; at: number }[] = [];
  if (text.includes('#')) findHashtags(text, found);
  for (const c of candidateEntries(text, ascii)) {
    const [tag, re] = TECH[c]!;
    const m = re.exec(text);
    if (m) found.push({ tag, at: m.index });
  }
  if (found.length > 1) found.sort(byPosition);
  const tags: string[] = [];
  for (const { tag } of found) if (!tags.includes(tag)) tags.push(tag);
  for (const language of codeLanguages) {
    const tag = CODE_LANG.get(language);
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  // A specific tag makes its generic parent redundant.
  if (tags.includes('jwt') || tags.includes('oauth')) removeTag(tags, 'auth');
  if (tags.includes('postgres') || tags.includes('mysql') || tags.includes('sqlite')) removeTag(tags, 'sql');
  if (tags.length < max) {
    PROPER_NOUN.lastIndex = 0;
    for (let k = 0; ; ) {
      let word: string;
      if (ascii) {
        // (No candidate lies inside an earlier match: a match holds no white space.)
        let end = -1;
        while (k < capitalCount && end < 0) end = asciiProperNounEnd(text, capitals[k++]!);
        if (end < 0) break;
        word = text.slice(capitals[k - 1]!, end);
      } else {
        const m = PROPER_NOUN.exec(text);
        if (!m) break;
        word = m[0];
      }
      const tag = word.toLowerCase();
      // ("Let's …" opens a sentence: "let" is no name, "let's" a common word.)
      if (NOT_NAMES.has(tag) || isCommonWord(tag) || isCommonWord(`${tag}'s`) || tags.includes(tag) || isExcluded(tag, exclude)) continue;
      tags.push(tag);
      break;
    }
  }
  return tags.length <= max ? tags : tags.slice(0, max);
}

const byPosition = (a: { at: number }, b: { at: number }): number => a.at - b.at;

/** The #hashtags of `text`, appended to `found`. */
function findHashtags(text: string, found: { tag: string; at: number }[]): void {
  for (const m of text.matchAll(HASHTAG)) found.push({ tag: m[1]!.toLowerCase(), at: m.index ?? 0 });
}

/** Is `tag` one of `exclude`, lowercased? */
function isExcluded(tag: string, exclude: string[]): boolean {
  return exclude.some((name) => name.toLowerCase() === tag);
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isLetter = (c: number): boolean => isUpper(c) || isLower(c);
/** The characters of \w. */
const isWordChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 57) || c === 95;
/** ASCII characters of \s. */
const isAsciiSpace = (c: number): boolean => (c >= 9 && c <= 13) || c === 32;

/**
 * Where the match of PROPER_NOUN starting at `p` in ASCII `text` ends, or -1.
 * `p` is 0 or follows white space (the candidates `capitals` holds). A character
 * scan: Unicode property classes make the regex several times slower, and on
 * ASCII text \p{Lu} is A–Z, \p{Ll} a–z, \p{N} 0–9 and \s the ASCII spaces.
 */
function asciiProperNounEnd(text: string, p: number): number {
  const n = text.length;
  let e = p + 1;
  while (e < n && isLower(text.charCodeAt(e))) e++;
  if (e - p - 1 < 2) return -1;
  if (p === 0) {
    // ^[A-Z][a-z]{2,}(?=['’]s\s)
    return text.charCodeAt(e) === 39 && text.charCodeAt(e + 1) === 115 && isAsciiSpace(text.charCodeAt(e + 2)) ? e : -1;
  }
  // (?<=[a-z0-9,;]\s+): spaces right before the capital, a lowercase letter, digit, comma or semicolon before them.
  let q = p - 1;
  if (!isAsciiSpace(text.charCodeAt(q))) return -1;
  while (q >= 0 && isAsciiSpace(text.charCodeAt(q))) q--;
  const before = q >= 0 ? text.charCodeAt(q) : -1;
  if (!(isLower(before) || (before >= 48 && before <= 57) || before === 44 || before === 59)) return -1;
  // (?:-[A-Za-z]+)?\b
  if (text.charCodeAt(e) === 45 && isLetter(text.charCodeAt(e + 1))) {
    let f = e + 1;
    while (f < n && isLetter(text.charCodeAt(f))) f++;
    if (f >= n || !isWordChar(text.charCodeAt(f))) return f;
  }
  return e >= n || !isWordChar(text.charCodeAt(e)) ? e : -1;
}

function removeTag(tags: string[], tag: string): void {
  const i = tags.indexOf(tag);
  if (i >= 0) tags.splice(i, 1);
}
