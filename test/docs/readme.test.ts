/**
 * The README is a user's page: at most 16 KB, the two commands that work on a fresh machine at its top
 * (the demo, and the test command that CI runs, read from .ci/run), and `ocm-run setup` as the first
 * command a newcomer is told to run. Everything else lives in docs/, and every relative link of the
 * README and of docs/*.md — file and heading — leads somewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const README = join(ROOT, 'README.md');

/** The bodies of the fenced code blocks of a Markdown text, in order. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
}

/** The commands of a shell code block: each line without its trailing `# comment`, blank lines left out. */
function commands(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces → '-', -1 … for repeats). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const m of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('the README is at most 16 KB', () => {
  const bytes = readFileSync(README).byteLength;
  assert.ok(bytes <= 16 * 1024, `README.md is ${bytes} bytes; keep it ≤ 16384 and move detail to docs/`);
});

test('the README opens with the demo and exactly the test command CI runs', () => {
  const readme = readFileSync(README, 'utf8');
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  const ciCommand = ci
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .at(-1);
  assert.ok(ciCommand, '.ci/run runs a command');
  const first = codeBlocks(readme)[0];
  assert.ok(first !== undefined, 'the README has a code block');
  // Nothing but the title and one line of what it is before the two commands.
  const before = readme.slice(0, readme.indexOf('```'));
  assert.ok(before.split('\n').filter((l) => l.trim() !== '').length <= 4, `the two commands come first; before them:\n${before}`);
  const lines = commands(first);
  assert.deepEqual(lines, ['npm ci && npm run demo', ciCommand]);
});

test('the first command the README tells a user to run is `ocm-run setup`', () => {
  const readme = readFileSync(README, 'utf8');
  const invocations = codeBlocks(readme)
    .flatMap(commands)
    .filter((c) => /^(npx )?ocm-run\b/.test(c));
  assert.equal(invocations[0], 'ocm-run setup', `ocm-run commands in the README's code blocks, in order: ${invocations.join(' | ')}`);
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
  assert.equal(headings[0], 'Install');
  assert.match(headings[1]!, /ocm-run setup/);
});

test('every relative link of the README and docs/ leads to a file and a heading that exist', () => {
  const files = [
    README,
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, 'docs', f)),
  ];
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/`[^`\n]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) {
        broken.push(`${file.slice(ROOT.length + 1)}: ${target} (no such file)`);
        continue;
      }
      if (anchor !== undefined && dest.endsWith('.md') && !anchors(readFileSync(dest, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${file.slice(ROOT.length + 1)}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
