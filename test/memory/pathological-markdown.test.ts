/**
 * A pasted Markdown note that remark cannot parse in reasonable time (megabytes of `*emphasis*`): its
 * structure is read without remark's inline parsing, a body over PLAIN_TEXT_CHARS line by line, so
 * `search` and the jobs stay quick, answer SIGTERM and release the home lock. Files are generated here
 * (no large fixture is committed); timings are in `npm run bench -- markdown`, not in these tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { listItemRanges, plainListItemRanges, remarkListItemRanges, PLAIN_TEXT_CHARS } from '../../lib/memory/day-file/list-items.js';

/** A day file with one observation, a pasted note of `kb` KB of emphasis, and one observation after it. */
function pathologicalDay(kb: number): string {
  const unit = '*emphasis* ';
  return `# 2026-03-01\n\n- 🔴 09:15 [fact] User keeps a pasted note below. ^o-7f3a9c21e0\n\n${unit.repeat(Math.floor((kb * 1024) / unit.length))}\n\n- 🟡 10:00 [fact] After the note, the deploy moved to Thursdays. ^o-7f3a9c21e1\n`;
}

const HAND_EDITED = [
  '# 2026-03-01\n\n- 🔴 09:00 [fact] a ^o-1111111111\n- 🟡 10:00 [fact] b ^o-2222222222\n\nA note the user wrote.\nOn two lines.\n\n- 🟢 11:00 [fact] c ^o-3333333333\n',
  '- 🔴 09:00 [fact] wrapped\n  over two lines ^o-1111111111\n- next\n  - nested child\n  - another\n- last\n',
  '- item\nlazy continuation\n\nparagraph\n- [ ] checkbox\n1. numbered\n2) other\n> - quoted item\n> quoted more\n\n---\n\n- after break\n',
  '- item\n\n  loose paragraph of item\n\n- two\n```\n- not an item\n```\n- three\n',
  '* star\n+ plus\n    - deep\n\n# heading\n- x\n## h2\n',
  '- parent\n  ```\n  code\n  ```\n- *emphasis* and [a link](x) and `code`\n',
];

test('the line-by-line reader finds the items remark finds in hand-edited bodies', () => {
  for (const body of HAND_EDITED) assert.deepEqual(plainListItemRanges(body), remarkListItemRanges(body), JSON.stringify(body));
});

test('a 700 KB note of *emphasis* is read line by line: both observations found, at their lines', () => {
  const body = pathologicalDay(700);
  assert.ok(body.length > PLAIN_TEXT_CHARS);
  const items = listItemRanges(body).map((r) => body.slice(r.start, r.end));
  assert.deepEqual(items, [
    '- 🔴 09:15 [fact] User keeps a pasted note below. ^o-7f3a9c21e0',
    '- 🟡 10:00 [fact] After the note, the deploy moved to Thursdays. ^o-7f3a9c21e1',
  ]);
  // Under the limit remark reads it, inline markup switched off: the same items.
  const small = pathologicalDay(100);
  assert.deepEqual(listItemRanges(small), plainListItemRanges(small));
});

async function homeWith(dir: string, kb: number): Promise<{ home: string; day: string; text: string }> {
  const home = join(dir, 'home');
  await mkdir(join(home, 'memory'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
  const day = join(home, 'memory', '2026-03-01.md');
  const text = pathologicalDay(kb);
  await writeFile(day, text);
  return { home, day, text };
}

test('index and search on a 4 MB pasted note: the observation after it is found; index warns that the file was read as plain text', async () => {
  const { dir, cleanup } = await tempDir('ocm-patho-md-');
  try {
    const { home } = await homeWith(dir, 4096);
    const indexed = await runCli(['index', '--home', home], { timeoutMs: 90_000 });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(
      indexed.stderr,
      /memory\/2026-03-01\.md is longer than 256 K characters of hand-edited Markdown: its list items were read line by line/,
    );
    const found = await runCli(['search', 'Thursdays', '--home', home, '--json'], { timeoutMs: 90_000 });
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(
      (JSON.parse(found.stdout) as { results: Array<{ id: string }> }).results.map((r) => r.id),
      ['o-7f3a9c21e1'],
    );
  } finally {
    await cleanup();
  }
});

test('SIGTERM to `run` while it appends to a day file holding a 4 MB pasted note: it stops, releases the home lock, keeps the note', async () => {
  const { dir, cleanup } = await tempDir('ocm-patho-term-');
  try {
    const { home, day, text } = await homeWith(dir, 4096);
    // A new message of that day: the observe step (the run's first) reads the day file to append to it.
    const sessions = join(dir, 'openclaw', 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '55555555-0000-4000-8000-0000000000e1';
    const w = new PiSessionWriter(id, new Date('2026-03-01T11:00:00Z'), 2_000);
    await writeFile(
      join(sessions, `${id}.jsonl`),
      w.header() + w.message({ role: 'user', text: 'I decided that the billing service uses PostgreSQL 16.' }),
    );
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(join(dir, 'openclaw'))}]\n  openclaw_db: {enabled: false}\n`,
    );
    const child = spawn(process.execPath, [CLI, 'run', '--home', home], {
      env: { ...process.env, OCM_HOME: undefined, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    let done = false;
    void exited.then(() => (done = true));
    // The signal goes as soon as the job holds the lock: it is in its first step.
    const lock = join(home, '.ocm', 'home.lock');
    while (
      !done &&
      !(await stat(lock).then(
        () => true,
        () => false,
      ))
    )
      await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGTERM');
    // A bound on the wait, not a timing assertion: before, the step parsed the file for 60–96 s and died out of memory.
    const bound = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await exited;
    clearTimeout(bound);
    assert.ok(code === 143 || code === 0, `exit ${code} (stopped by SIGTERM, or done before it came): ${stderr.slice(-800)}`);
    assert.equal(
      await stat(lock).then(
        () => true,
        () => false,
      ),
      false,
      'the home lock is released',
    );
    const after = await readFile(day, 'utf8');
    const note = text.slice(text.indexOf('*emphasis*'), text.lastIndexOf('*emphasis*') + 10);
    assert.ok(after.includes(note), 'the pasted note is kept byte for byte');
    assert.match(after, /User keeps a pasted note below\. \^o-7f3a9c21e0/);
    assert.match(after, /After the note, the deploy moved to Thursdays\. \^o-7f3a9c21e1/);
  } finally {
    await cleanup();
  }
});
