/**
 * `npm run bench -- markdown`: reading the list items of hand-edited and pathological day-file bodies
 * (lib/memory/day-file/list-items.ts), beside the former reader measured in the same run (remark with its
 * inline constructs, the whole body at any size), and `ocm-run search` end to end on a home holding a
 * pasted note of 700 KB and 4 MB of `*emphasis*`. Inputs are generated; nothing large is committed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { List, Root, RootContent } from 'mdast';
import { listItemRanges, PLAIN_TEXT_CHARS, readAsPlainText, simpleListItemRanges } from '../lib/memory/day-file/list-items.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'scripts', 'cli.js');

const emphasis = (kb: number) => {
  const unit = '*emphasis* ';
  return `# 2026-03-01\n\n- 🔴 09:15 [fact] User keeps a pasted note below. ^o-7f3a9c21e0\n\n${unit.repeat(Math.floor((kb * 1024) / unit.length))}\n\n- 🟡 10:00 [fact] After the note, the deploy moved to Thursdays. ^o-7f3a9c21e1\n`;
};
const busyDay = (n: number) =>
  `# 2026-03-01\n\n${Array.from({ length: n }, (_, i) => `- 🔴 09:${String(i % 60).padStart(2, '0')} [fact] User decided the billing service uses PostgreSQL ${i} on db-billing-1. ^o-${String(i).padStart(10, '0')}`).join('\n')}\n\nA note the user wrote, with *emphasis* and a [link](https://example.com).\n`;
const pastedLog = (kb: number) =>
  `- 🔴 09:15 [fact] User pasted the build log. ^o-7f3a9c21e0\n\n${'12:00:01 INFO step done\n'.repeat(Math.floor((kb * 1024) / 24))}`;

/** The former reader: remark with every construct, the whole body, top-level items (the baseline). */
function formerRanges(body: string): number {
  const tree = unified().use(remarkParse).parse(body) as Root;
  let n = 0;
  const visit = (nodes: readonly RootContent[]) => {
    for (const node of nodes) {
      if (node.type !== 'list') continue;
      for (const item of (node as List).children) {
        n++;
        visit(item.children);
      }
    }
  };
  visit(tree.children);
  return n;
}

function timed<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: performance.now() - t0, value };
}

export interface MarkdownBenchRow {
  input: string;
  kb: number;
  reading: 'markdown' | 'plain' | 'simple';
  items: number;
  ms: number;
  /** The former reader on the same input in the same run; null: not run (it takes minutes or runs out of memory). */
  formerMs: number | null;
}

export interface MarkdownBenchReport {
  rows: MarkdownBenchRow[];
  search: Array<{ kb: number; ms: number; found: boolean }>;
  plainTextChars: number;
}

export async function runMarkdownBench(options: { log?: (line: string) => void } = {}): Promise<MarkdownBenchReport> {
  const log = options.log ?? (() => {});
  const inputs: Array<[string, string, boolean]> = [
    ['*emphasis* note', emphasis(100), true],
    ['*emphasis* note', emphasis(700), false],
    ['*emphasis* note', emphasis(4096), false],
    ['busy day + a note (1,000 lines)', busyDay(1000), true],
    ['pasted log, one paragraph', pastedLog(200), true],
    ['pasted log, one paragraph', pastedLog(700), false],
  ];
  // Warm both readers up (module loading and JIT are not what is measured).
  listItemRanges(busyDay(50));
  formerRanges(busyDay(50));
  const rows: MarkdownBenchRow[] = [];
  for (const [input, body, former] of inputs) {
    const now = timed(() => listItemRanges(body));
    const before = former ? timed(() => formerRanges(body)).ms : null;
    const reading = simpleListItemRanges(body) !== undefined ? 'simple' : readAsPlainText(body) ? 'plain' : 'markdown';
    rows.push({ input, kb: Math.round(body.length / 1024), reading, items: now.value.length, ms: now.ms, formerMs: before });
    log(`${input} ${Math.round(body.length / 1024)} KB: ${now.ms.toFixed(0)} ms (former ${before === null ? '–' : before.toFixed(0)} ms)`);
  }
  const search: MarkdownBenchReport['search'] = [];
  for (const kb of [700, 4096]) {
    const dir = await mkdtemp(join(tmpdir(), 'ocm-md-bench-'));
    try {
      await mkdir(join(dir, 'memory'));
      await writeFile(join(dir, 'config.yaml'), 'timezone: UTC\n');
      await writeFile(join(dir, 'memory', '2026-03-01.md'), emphasis(kb));
      const t0 = performance.now();
      const r = await execa(process.execPath, [CLI, 'search', 'Thursdays', '--home', dir, '--json'], {
        reject: false,
        env: { OCM_HOME: undefined, CI: '1' },
        timeout: 300_000,
      });
      const ms = performance.now() - t0;
      const found = r.exitCode === 0 && String(r.stdout).includes('o-7f3a9c21e1');
      search.push({ kb, ms, found });
      log(`search on a ${kb} KB note: ${ms.toFixed(0)} ms, found: ${found}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { rows, search, plainTextChars: PLAIN_TEXT_CHARS };
}

export function markdownBenchTable(r: MarkdownBenchReport): string {
  const head = '| input | KB | read as | items | now (ms) | former reader, same run (ms) |\n|---|---|---|---|---|---|';
  const rows = r.rows.map(
    (x) =>
      `| ${x.input} | ${x.kb} | ${x.reading} | ${x.items} | ${x.ms.toFixed(0)} | ${x.formerMs === null ? 'not run' : x.formerMs.toFixed(0)} |`,
  );
  const search = r.search.map(
    (s) =>
      `| \`ocm-run search\` (first run: builds the index), ${s.kb} KB note | ${s.kb} | – | – | ${s.ms.toFixed(0)} | ${s.found ? 'found' : 'NOT FOUND'} |`,
  );
  return [
    head,
    ...rows,
    ...search,
    '',
    `Bodies over ${r.plainTextChars / 1024} K characters that the program did not write are read line by line.`,
  ].join('\n');
}
