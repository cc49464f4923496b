/**
 * Topic tags for observations: technologies named in the text (English and
 * Korean spellings), code-block languages, and explicit #hashtags. At most a
 * few, lowercase, in order of appearance.
 */
import { isCommonWord } from './rules-en.js';

/** [tag, pattern] — patterns match whole words, case-insensitively. */
const TECH: [string, RegExp][] = [
  ['typescript', /\b(typescript|ts|tsx)\b|타입스크립트/i],
  ['javascript', /\b(javascript|js|jsx|ecmascript)\b|자바스크립트/i],
  ['python', /\b(python|py|pip|pytest)\b|파이썬/i],
  ['rust', /\b(rust|cargo|rustc)\b|러스트/i],
  ['golang', /\b(golang|go (?:module|lang|routine)s?)\b|고랭/i],
  ['java', /\bjava\b(?!script)|자바(?!스크립트)/i],
  ['kotlin', /\bkotlin\b|코틀린/i],
  ['swift', /\bswift(?:ui)?\b|스위프트/i],
  ['csharp', /\bc#|\.net\b|\bdotnet\b/i],
  ['cpp', /\bc\+\+/i],
  ['ruby', /\b(ruby|rails)\b|루비/i],
  ['php', /\b(php|laravel)\b/i],
  ['postgres', /\b(postgres(?:ql)?|psql|pg)\b|포스트그레(?:스|SQL)?/i],
  ['mysql', /\b(mysql|mariadb)\b/i],
  ['sqlite', /\bsqlite3?\b/i],
  ['mongodb', /\b(mongo(?:db)?)\b|몽고/i],
  ['redis', /\bredis\b|레디스/i],
  ['grafana', /\bgrafana\b/i],
  ['kibana', /\bkibana\b/i],
  ['prometheus', /\bprometheus\b/i],
  ['elasticsearch', /\b(elasticsearch|opensearch)\b/i],
  ['kafka', /\bkafka\b|카프카/i],
  ['graphql', /\bgraphql\b/i],
  ['docker', /\b(docker|dockerfile)\b|도커/i],
  ['kubernetes', /\b(kubernetes|k8s|kubectl|helm)\b|쿠버네티스/i],
  ['aws', /\b(aws|s3|ec2|lambda)\b/i],
  ['gcp', /\b(gcp|google cloud|bigquery)\b/i],
  ['azure', /\bazure\b/i],
  ['react', /\b(react|next\.?js|jsx)\b|리액트/i],
  ['vue', /\bvue(?:\.?js)?\b/i],
  ['svelte', /\bsvelte(?:kit)?\b/i],
  ['node', /\b(node(?:\.?js)?|npm|pnpm|yarn|deno|bun)\b|노드/i],
  ['jwt', /\b(jwt|json web tokens?)\b/i],
  ['oauth', /\b(oauth2?|oidc|openid)\b/i],
  ['auth', /\b(auth|authentication|authorization|login|sign[- ]?in|refresh tokens?)\b|인증|로그인/i],
  ['async', /\b(async|await|promise\.all|callback hell)\b|비동기/i],
  ['git', /\b(git|github|gitlab|pull requests?)\b/i],
  ['ci', /\b(ci|ci\/cd|github actions|jenkins)\b/i],
  ['testing', /\b(unit tests?|jest|vitest|mocha|tests? suite|e2e)\b|테스트/i],
  ['api', /\b(apis?|rest api|endpoints?|grpc)\b/i],
  ['llm', /\b(llm|gpt-?\d*|openai|claude|gemini|ollama|embedding)s?\b/i],
  ['linux', /\b(linux|ubuntu|debian|systemd)\b|리눅스/i],
  ['macos', /\b(macos|launchd|homebrew)\b/i],
  ['css', /\b(css|tailwind|sass|scss)\b/i],
  ['html', /\bhtml\b/i],
  ['sql', /\bsql\b/i],
];

const CODE_LANG: Record<string, string> = {
  ts: 'typescript', typescript: 'typescript', tsx: 'typescript', js: 'javascript', javascript: 'javascript',
  jsx: 'javascript', py: 'python', python: 'python', rs: 'rust', rust: 'rust', go: 'golang', sql: 'sql',
  java: 'java', kt: 'kotlin', rb: 'ruby', php: 'php', sh: 'shell', bash: 'shell', zsh: 'shell',
  yaml: 'yaml', yml: 'yaml', dockerfile: 'docker', css: 'css', html: 'html',
};

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
  const found: { tag: string; at: number }[] = [];
  for (const m of text.matchAll(HASHTAG)) found.push({ tag: m[1]!.toLowerCase(), at: m.index ?? 0 });
  for (const [tag, re] of TECH) {
    const m = re.exec(text);
    if (m) found.push({ tag, at: m.index });
  }
  found.sort((a, b) => a.at - b.at);
  const tags: string[] = [];
  for (const { tag } of found) if (!tags.includes(tag)) tags.push(tag);
  for (const lang of codeLanguages) {
    const tag = CODE_LANG[lang];
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  // A specific tag makes its generic parent redundant.
  if (tags.includes('jwt') || tags.includes('oauth')) removeTag(tags, 'auth');
  if (tags.includes('postgres') || tags.includes('mysql') || tags.includes('sqlite')) removeTag(tags, 'sql');
  if (tags.length < max) {
    const excluded = new Set(exclude.map((e) => e.toLowerCase()));
    for (const m of text.matchAll(PROPER_NOUN)) {
      const tag = m[0].toLowerCase();
      if (excluded.has(tag) || NOT_NAMES.has(tag) || isCommonWord(tag) || tags.includes(tag)) continue;
      tags.push(tag);
      break;
    }
  }
  return tags.slice(0, max);
}

function removeTag(tags: string[], tag: string): void {
  const i = tags.indexOf(tag);
  if (i >= 0) tags.splice(i, 1);
}
