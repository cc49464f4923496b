import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  countContentWords,
  isCommonWord,
  isQuestion,
  restateEnglish,
  ruleGates,
  thirdPerson,
} from '../../../lib/observer/heuristic/rules/en.js';
import { splitSentences } from '../../../lib/observer/heuristic/sentences.js';

// The English rules skip a rule's regex when the sentence has none of the words
// the rule is built from (its gate). A gate must never be closed on a sentence
// the regex matches: checked here on real sentences, on random sentences made of
// the rules' own words (glued and punctuated in odd ways) and on strings
// generated from the regexes themselves.

/** Sentences of the English test inputs and the sample transcripts. */
function realSentences(): string[] {
  const texts: string[] = [];
  const source = readFileSync(join(import.meta.dirname, 'observer-heuristic.test.ts'), 'utf8');
  for (const m of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`/g))
    texts.push(m[1] ?? m[2] ?? m[3] ?? '');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.jsonl/.test(name)) {
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          const strings = line.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
          for (const s of strings) {
            try {
              texts.push(JSON.parse(s) as string);
            } catch {
              // not a complete string literal
            }
          }
        }
      }
    }
  };
  walk(join(import.meta.dirname, '..', '..', '..', 'samples'));
  const sentences = texts.flatMap((t) => splitSentences(t)).filter((s) => s.length > 0);
  assert.ok(sentences.length > 1000, 'the test inputs and samples were read');
  return sentences;
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random sentences of the literal words in the rules' regexes, joined by spaces, punctuation or nothing. */
function randomSentences(count: number): string[] {
  const vocabulary = new Set<string>();
  for (const { re } of ruleGates('')) {
    // The literal words and phrases of the regex source (escapes such as \b and \s removed).
    for (const phrase of re.source.replace(/\\[a-zA-Z]/g, '|').match(/[a-z' ]+/g) ?? []) {
      if (phrase.trim()) vocabulary.add(phrase.trim());
      for (const w of phrase.split(' ')) if (w) vocabulary.add(w);
    }
  }
  for (const w of ['I', 'We', 'it', 'my', 'the', 'a', 'tests', 'item', '42', '3rd', 'Friday', 'docs', 'DONE', 'e.g.', 'POSTGRES_URL'])
    vocabulary.add(w);
  const words = [...vocabulary];
  const separators = [' ', ' ', ' ', ' ', ' ', '', "'", '-', '.', ', ', '_', ': ', '! ', '  ', '\t', '#', '+'];
  const next = random(0x5eed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = 1 + Math.floor(next() * 7);
    for (let j = 0; j < n; j++) {
      let w = pick(words);
      const r = next();
      if (r < 0.1) w = w.toUpperCase();
      else if (r < 0.25) w = w[0]!.toUpperCase() + w.slice(1);
      s += (j > 0 ? pick(separators) : '') + w;
    }
    out.push(next() < 0.3 ? s + pick(['.', '!', '?', ' please.', '']) : s);
  }
  return out;
}

/**
 * Random strings a regex is likely to match, generated from its source: the
 * subset of the syntax the rules use (groups, alternatives, quantifiers, classes,
 * \b \s \S \w \d, anchors; lookarounds generate nothing).
 */
function regexSampler(source: string, next: () => number): () => string {
  type Node = (out: string[]) => void;
  let i = 0;
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]!;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const candidates = [...letters, ...letters.toUpperCase(), ...'0123456789', ' ', '\t', ...".,:;!?'-_#+/()"];
  const fromClass = (body: string): Node => {
    const re = new RegExp(`[${body}]`);
    const chars = candidates.filter((c) => re.test(c));
    return (out) => out.push(pick(chars));
  };
  const parseAlternatives = (): Node => {
    const options: Node[][] = [[]];
    while (i < source.length && source[i] !== ')') {
      if (source[i] === '|') {
        i++;
        options.push([]);
        continue;
      }
      options[options.length - 1]!.push(parseQuantified());
    }
    return (out) => {
      for (const n of pick(options)) n(out);
    };
  };
  const parseAtom = (): Node => {
    const c = source[i++]!;
    if (c === '(') {
      let lookaround = false;
      if (source.startsWith('?:', i)) i += 2;
      else if (/^\?<?[=!]/.test(source.slice(i, i + 3))) {
        i += source[i + 1] === '<' ? 3 : 2;
        lookaround = true;
      }
      const inner = parseAlternatives();
      i++; // ')'
      return lookaround ? () => {} : inner;
    }
    if (c === '[') {
      let body = '';
      while (source[i] !== ']') body += source[i] === '\\' ? source[i++]! + source[i++]! : source[i++]!;
      i++;
      return fromClass(body);
    }
    if (c === '\\') {
      const e = source[i++]!;
      if (e === 'b' || e === 'B') return () => {};
      if (e === 's') return (out) => out.push(pick([' ', ' ', ' ', '\t', '  ']));
      if (e === 'S') return (out) => out.push(pick([...letters, '.', "'", '-']));
      if (e === 'w') return (out) => out.push(pick([...letters, '_', '7']));
      if (e === 'd') return (out) => out.push(String(Math.floor(next() * 10)));
      return (out) => out.push(e);
    }
    if (c === '^' || c === '$') return () => {};
    if (c === '.') return (out) => out.push(pick(candidates));
    return (out) => out.push(c);
  };
  const parseQuantified = (): Node => {
    const atom = parseAtom();
    let min = 1;
    let max = 1;
    const q = source[i];
    if (q === '?' || q === '*' || q === '+') {
      i++;
      [min, max] = q === '?' ? [0, 1] : q === '*' ? [0, 2] : [1, 3];
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))!;
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 2;
    } else return atom;
    if (source[i] === '?') i++; // lazy
    return (out) => {
      const n = min + Math.floor(next() * (max - min + 1));
      for (let k = 0; k < n; k++) atom(out);
    };
  };
  const root = parseAlternatives();
  return () => {
    const out: string[] = [];
    root(out);
    return out.join('');
  };
}

/** Strings sampled from every rule's regex, set in random context (glued or not, any case). */
function sampledSentences(perRule: number): string[] {
  const next = random(0xb0a7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]!;
  const contexts = ['', '', 'Ok, ', 'so ', 'x', 'The item 42 ', 'I ', 'we', 'my ', 'done-', "it's ", '_'];
  const out: string[] = [];
  for (const { re } of ruleGates('')) {
    const sample = regexSampler(re.source, next);
    for (let k = 0; k < perRule; k++) {
      let s = pick(contexts) + sample() + pick(['', '', '.', '!', '?', ' today.', 'x', '_', "'s", '-ish', ' by Friday']);
      const r = next();
      if (r < 0.15) s = s.toUpperCase();
      else if (r < 0.3) s = s.replace(/\b\w/g, (c) => c.toUpperCase());
      out.push(s);
    }
  }
  return out;
}

test('a rule gate is open on every sentence its regex matches', () => {
  const sentences = [
    ...realSentences(),
    ...randomSentences(30000),
    ...sampledSentences(3000),
    // glued forms the gates list explicitly
    'Ineed to ship it',
    'wewill fix it',
    'I reallyneed to go',
    'Rememberalways eat vegetables',
    'Fyinever sleep',
    'from now onnever push on Fridays',
    "fyi: don't push to main",
    "I'm fromage",
    'my_fixed thing is done_',
  ];
  const matched = new Map<string, number>();
  for (const s of sentences) {
    for (const { rule, re, open, matches } of ruleGates(s)) {
      const hit = re.test(s);
      // (The rules run without the i flag on the lowercased sentence: the same answer.)
      assert.equal(matches, hit, `${rule} on ${JSON.stringify(s)}`);
      if (!hit) continue;
      matched.set(rule, (matched.get(rule) ?? 0) + 1);
      assert.ok(open, `${rule} matches but its gate is closed: ${JSON.stringify(s)}`);
    }
    // Non-ASCII text opens every gate; İ and the Kelvin sign lowercase into ASCII ("i̇", "k"), which the i flag does not match.
    for (const t of [`${s} café`, s.replace(/i/g, '\u0130'), s.replace(/k/g, '\u212A')]) {
      for (const g of ruleGates(t)) assert.equal(g.matches, g.re.test(t), `${g.rule} on ${JSON.stringify(t)}`);
      if (t !== s)
        assert.ok(
          ruleGates(t).every((g) => g.open),
          t,
        );
    }
  }
  // Not a vacuous check: every rule matched many sentences.
  for (const { rule } of ruleGates(''))
    assert.ok((matched.get(rule) ?? 0) >= 30, `${rule} matched only ${matched.get(rule) ?? 0} sentences`);
});

/** Content words as the scan must count them, the straightforward way. */
function referenceContentWords(sentence: string, names: string[]): number {
  const lowerNames = names.map((n) => n.toLowerCase());
  let n = 0;
  for (const raw of sentence
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'#+.-]+/gu, ' ')
    .split(' ')) {
    let w = raw.replace(/^['.-]+|['.-]+$/g, '');
    if (w.endsWith("'s")) w = w.slice(0, -2);
    if (!w || (w.length < 2 && !/\d/.test(w)) || isCommonWord(w)) continue;
    if (lowerNames.some((name) => name === w || (name.length >= 3 && w.length >= 3 && name.startsWith(w)))) continue;
    n++;
  }
  return n;
}

test('content words: stop words, filler, names and punctuation inside words', () => {
  const names = ['Caroline', 'Mel'];
  for (const s of [
    ...realSentences(),
    ...randomSentences(20000),
    "Caro's 'quoted' words -- e.g. node.js, C++ and C# (3 of 'em)",
    'Ünïcode wörds ok',
  ]) {
    assert.equal(countContentWords(s, []), referenceContentWords(s, []), s);
    assert.equal(countContentWords(s, names), referenceContentWords(s, names), s);
  }
});

test('thirdPerson: every ending rule and exception', () => {
  const expected: Record<string, string> = {
    prefer: 'prefers',
    like: 'likes',
    go: 'goes',
    do: 'does',
    have: 'has',
    am: 'is',
    watch: 'watches',
    wash: 'washes',
    fix: 'fixes',
    buzz: 'buzzes',
    echo: 'echoes',
    try: 'tries',
    play: 'plays',
    fly: 'flies',
    need: 'needs',
    bring: 'brings',
    apply: 'applies',
    started: 'started',
    going: 'going',
    really: 'really',
    cant: 'cants',
    "can't": "can't",
    can: 'can',
    x: 'x',
    Ping: 'Ping',
    WATCH: 'WATCHes',
    Try: 'Tries',
    pass: 'passes',
    bless: 'blesses',
    stay: 'stays',
    enjoy: 'enjoys',
    deny: 'denies',
    sketch: 'sketches',
    teach: 'teaches',
    embed: 'embeds',
    sh: 'shes',
    oy: 'oys',
    by: 'bies',
  };
  for (const [word, third] of Object.entries(expected)) assert.equal(thirdPerson(word), third, word);
});

test('isQuestion: a question mark followed only by closing quotes, brackets and space', () => {
  for (const s of ['Really?', 'Is it "ready?"', "(is it done?)'", 'done?]  ', '?', 'x?\u00a0']) assert.equal(isQuestion(s), true, s);
  for (const s of ['', '?x', 'It is.', '"Done?" she said.', '??-', 'It is?.']) assert.equal(isQuestion(s), false, s);
});

test('thirdPerson and restateEnglish: words that are Object.prototype keys are plain verbs', () => {
  assert.equal(thirdPerson('constructor'), 'constructors');
  assert.equal(thirdPerson('valueOf'), 'valueOfs');
  assert.equal(restateEnglish('I constructor things daily.', 'User'), 'User constructors things daily.');
});
