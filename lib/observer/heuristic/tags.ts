/**
 * Topic tags for observations: technologies named in the text (English and
 * Korean spellings), code-block languages, and explicit #hashtags. At most a
 * few, lowercase, in order of appearance.
 */
import { isCommonWord } from './rules/en.js';

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
  [
    'auth',
    /\b(auth|authentication|authorization|login|sign[- ]?in|refresh tokens?)\b|인증|로그인/i,
    ['auth', 'authentication', 'authorization', 'login', 'sign', 'signin', 'refresh'],
  ],
  ['async', /\b(async|await|promise\.all|callback hell)\b|비동기/i, ['async', 'await', 'promise', 'callback']],
  ['git', /\b(git|github|gitlab|pull requests?)\b/i, ['git', 'github', 'gitlab', 'pull']],
  ['ci', /\b(ci|ci\/cd|github actions|jenkins)\b/i, ['ci', 'github', 'jenkins']],
  ['testing', /\b(unit tests?|jest|vitest|mocha|tests? suite|e2e)\b|테스트/i, ['unit', 'jest', 'vitest', 'mocha', 'test', 'tests', 'e2e']],
  ['api', /\b(apis?|rest api|endpoints?|grpc)\b/i, ['api', 'apis', 'rest', 'endpoint', 'endpoints', 'grpc']],
  [
    'llm',
    /\b(llm|gpt-?\d*|openai|claude|gemini|ollama|embedding)s?\b/i,
    ['llm', 'llms', 'gpt*', 'openai', 'openais', 'claude', 'claudes', 'gemini', 'geminis', 'ollama', 'ollamas', 'embedding', 'embeddings'],
  ],
  ['linux', /\b(linux|ubuntu|debian|systemd)\b|리눅스/i, ['linux', 'ubuntu', 'debian', 'systemd']],
  ['macos', /\b(macos|launchd|homebrew)\b/i, ['macos', 'launchd', 'homebrew']],
  ['css', /\b(css|tailwind|sass|scss)\b/i, ['css', 'tailwind', 'sass', 'scss']],
  ['html', /\bhtml\b/i, ['html']],
  ['sql', /\bsql\b/i, ['sql']],
];

const HANGUL = /[\uAC00-\uD7A3]/;

/** Trigger word → the numbers of the TECH entries it may start; and the `prefix*` triggers. */
const TRIGGERS = new Map<string, number[]>();
const PREFIX_TRIGGERS: Array<[prefix: string, entry: number]> = [];
TECH.forEach(([, , words], entry) => {
  for (const w of words) {
    if (w.endsWith('*')) PREFIX_TRIGGERS.push([w.slice(0, -1), entry]);
    else TRIGGERS.set(w, [...(TRIGGERS.get(w) ?? []), entry]);
  }
});

/**
 * The TECH entries that may match `text`, in TECH order: those with a trigger
 * word among the text's lowercase [a-z0-9] words (all of them for Korean
 * text, whose words the triggers do not cover).
 */
function candidateEntries(text: string): (typeof TECH)[number][] {
  if (HANGUL.test(text)) return TECH;
  const entries = new Set<number>();
  // toLowerCase() can turn a non-ASCII letter into ASCII ones (K, İ): split after it.
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    for (const entry of TRIGGERS.get(word) ?? []) entries.add(entry);
    for (const [prefix, entry] of PREFIX_TRIGGERS) if (word.startsWith(prefix)) entries.add(entry);
  }
  return [...entries].sort((a, b) => a - b).map((entry) => TECH[entry]!);
}

// A Map: a code block labelled ```constructor must not find Object.prototype's.
const CODE_LANG = new Map(
  Object.entries({
    ts: 'typescript',
    typescript: 'typescript',
    tsx: 'typescript',
    js: 'javascript',
    javascript: 'javascript',
    jsx: 'javascript',
    py: 'python',
    python: 'python',
    rs: 'rust',
    rust: 'rust',
    go: 'golang',
    sql: 'sql',
    java: 'java',
    kt: 'kotlin',
    rb: 'ruby',
    php: 'php',
    sh: 'shell',
    bash: 'shell',
    zsh: 'shell',
    yaml: 'yaml',
    yml: 'yaml',
    dockerfile: 'docker',
    css: 'css',
    html: 'html',
  }),
);

const HASHTAG = /(?:^|\s)#([\p{L}_][\p{L}\p{N}_-]{1,30})/gu;

/** Capitalised words inside a sentence (not its first word): names, places, products. */
const PROPER_NOUN = /(?<=[\p{Ll}\p{N},;]\s+)\p{Lu}[\p{Ll}]{2,}(?:-[\p{Lu}\p{Ll}]+)?\b|^\p{Lu}\p{Ll}{2,}(?=['’]s\s)/gu;
const NOT_NAMES = new Set([
  'user',
  'assistant',
  'the',
  'this',
  'that',
  'and',
  'but',
  'i',
  'okay',
  'yes',
  'no',
  'please',
  'thanks',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'english',
  'korean',
  'god',
  'mom',
  'dad',
  // "Life's about learning" opens a sentence with a noun, not a name (no #life tag).
  'life',
  'love',
  'music',
  'art',
  'nature',
  'family',
  'today',
  'tomorrow',
  'everyone',
  'everything',
  'nothing',
  'something',
  'there',
  'here',
]);

/**
 * Lowercase topic tags found in `text` (and code languages), at most `max`:
 * technologies first, then hashtags, then at most one proper noun (a name or
 * place) that is not one of `exclude` (the speakers).
 */
export function detectTags(text: string, codeLanguages: string[] = [], max = 3, exclude: string[] = []): string[] {
  const found: { tag: string; at: number }[] = [];
  if (text.includes('#')) findHashtags(text, found);
  for (const [tag, re] of candidateEntries(text)) {
    const m = re.exec(text);
    if (!m) continue;
    // A speaker named after a technology ("Claude", the assistant) is the speaker, not the topic.
    const at = isExcluded(m[0].toLowerCase(), exclude) ? nextMatchNotNamed(text, re, exclude) : m.index;
    if (at >= 0) found.push({ tag, at });
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
    for (const [word] of text.matchAll(PROPER_NOUN)) {
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

/** Where `re` matches `text` with a word that is none of the speakers' names, or -1. */
function nextMatchNotNamed(text: string, re: RegExp, exclude: string[]): number {
  for (const m of text.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`)))
    if (!isExcluded(m[0].toLowerCase(), exclude)) return m.index;
  return -1;
}

/** Is `tag` one of `exclude`, lowercased? */
function isExcluded(tag: string, exclude: string[]): boolean {
  return exclude.some((name) => name.toLowerCase() === tag);
}

function removeTag(tags: string[], tag: string): void {
  const i = tags.indexOf(tag);
  if (i >= 0) tags.splice(i, 1);
}
