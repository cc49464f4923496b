/**
 * A day file saved by another editor: with a UTF-8 byte-order mark (Windows Notepad) and/or CRLF line
 * endings. It is the same day (frontmatter, observations, provenance), every command sees it, and the
 * program writes it back the way it was saved (README "File formats").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { runCli, tempDir } from '../helpers/cli.js';
import { LEGACY_DAY } from '../helpers/day-files.js';
import { makeObservation, newHome } from '../helpers/tier-home.js';
import { appendObservations, formatDayFile, listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath } from '../../lib/platform/home.js';
import { formatReflectionFile, parseReflectionFile } from '../../lib/memory/reflection-file.js';

const BOM = '\uFEFF';
const DAY = LEGACY_DAY;

const VARIANTS: Record<string, string> = {
  bom: BOM + DAY,
  'bom+crlf': BOM + DAY.replace(/\n/g, '\r\n'),
  crlf: DAY.replace(/\n/g, '\r\n'),
};

const newObservation = (text: string) => makeObservation(9, '2026-02-12', { text, tags: ['lisbon'] });

for (const [name, saved] of Object.entries(VARIANTS)) {
  test(`a day file saved with ${name} is the same day, and is written back byte for byte`, () => {
    const plain = parseDayFile(DAY);
    const file = parseDayFile(saved);
    assert.equal(file.frontmatter.error, undefined);
    assert.deepEqual(file.frontmatter.data, plain.frontmatter.data);
    assert.deepEqual(listObservations(file), listObservations(plain));
    assert.equal(formatDayFile(file), saved);
  });

  test(`appending to a day file saved with ${name} keeps one frontmatter, the BOM and the line endings`, () => {
    const file = parseDayFile(saved);
    assert.equal(appendObservations(file, [newObservation('User’s sister Ana lives in Lisbon.')]), 1);
    const out = formatDayFile(file);
    assert.equal(out.startsWith(BOM), saved.startsWith(BOM));
    assert.equal((out.match(/^\uFEFF?---/gm) ?? []).length, 2, 'one frontmatter block (two fences)');
    if (saved.includes('\r\n')) assert.doesNotMatch(out, /[^\r]\n/, 'every line ends in CRLF');
    else assert.doesNotMatch(out, /\r/);
    const again = parseDayFile(out);
    assert.equal(again.frontmatter.data.observations, 3);
    assert.equal(again.frontmatter.data.date, '2026-02-12');
    assert.deepEqual(
      listObservations(again).map((o) => o.text),
      ['User prefers TypeScript over JavaScript.', 'PostgreSQL is the main database.', 'User’s sister Ana lives in Lisbon.'],
    );
  });
}

test('a file with mixed line endings is kept as it is, and new lines get LF', () => {
  const mixed = BOM + DAY.replace('# 2026-02-12\n', '# 2026-02-12\r\n');
  const file = parseDayFile(mixed);
  assert.equal(listObservations(file).length, 2);
  assert.equal(formatDayFile(file), mixed);
  appendObservations(file, [newObservation('Mixed endings stay.')]);
  const out = formatDayFile(file);
  assert.ok(out.startsWith(`${BOM}---\n`));
  assert.ok(out.includes('# 2026-02-12\r\n'));
  assert.equal(listObservations(parseDayFile(out)).length, 3);
});

test('a reflection file saved with a BOM and CRLF endings is still a reflection, with the same fields and lines', () => {
  const text = formatReflectionFile(
    {
      periodStart: '2026-01-01',
      periodEnd: '2026-01-31',
      agent: 'main',
      reflector: 'heuristic',
      created: '2026-02-12T10:00:00.000Z',
      tokensBefore: 1200,
      tokensAfter: 300,
      compressionRatio: 4,
      keywordPreservation: 0.9,
      sourceObservations: ['o-7f3a9c21e0'],
    },
    [{ date: '2026-01-05', priority: 'high', done: false, category: 'decision', text: 'PostgreSQL is the main database.', tags: [] }],
  );
  const plain = parseReflectionFile(text, 'r.md');
  assert.ok(plain);
  assert.deepEqual(parseReflectionFile(BOM + text.replace(/\n/g, '\r\n'), 'r.md'), plain);
});

test('status, search, get, active memory and forget treat a BOM / BOM+CRLF day file as the day it is', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await writeFile(`${paths.root}/config.yaml`, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const bomFile = dayFilePath(paths, 'hot', 'main', yesterday);
  const crlfFile = dayFilePath(paths, 'hot', 'main', today);
  const dated = (date: string) => DAY.replaceAll('2026-02-12', date);
  await writeFile(bomFile, BOM + dated(yesterday));
  await writeFile(
    crlfFile,
    BOM +
      dated(today)
        .replaceAll('o-7f3a9c21e0', 'o-1111111111')
        .replaceAll('o-0b41d2e8aa', 'o-2222222222')
        .replace('TypeScript over JavaScript', 'Kotlin over Java')
        .replace(/\n/g, '\r\n'),
  );
  const home = ['--home', paths.root];

  const status = await runCli(['status', ...home, '--json']);
  assert.equal(status.code, 0, status.stderr);
  const byDay = (JSON.parse(status.stdout) as { observations: { byAgent: Record<string, { byDay: Record<string, number> }> } }).observations
    .byAgent.main!.byDay;
  assert.equal(byDay[yesterday], 2, status.stdout);
  assert.equal(byDay[today], 2, status.stdout);

  const search = await runCli(['search', ...home, 'Kotlin', '--json']);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /o-1111111111/);
  const search2 = await runCli(['search', ...home, 'PostgreSQL', '--json']);
  assert.match(search2.stdout, /o-0b41d2e8aa/);
  assert.match(search2.stdout, /o-2222222222/);
  for (const id of ['o-7f3a9c21e0', 'o-1111111111']) {
    const get = await runCli(['get', ...home, id]);
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /over Java/);
  }

  const observe = await runCli(['observe', ...home]);
  assert.equal(observe.code, 0, observe.stderr);
  const active = await readFile(`${paths.root}/active_memory.md`, 'utf8');
  assert.match(active, /Kotlin over Java/);
  assert.match(active, /TypeScript over JavaScript/);

  const forget = await runCli(['forget', ...home, 'o-2222222222', '--yes']);
  assert.equal(forget.code, 0, forget.stderr + forget.stdout);
  const after = await readFile(crlfFile, 'utf8');
  assert.ok(after.startsWith(`${BOM}---\r\ndate: ${today}\r\n`), JSON.stringify(after.slice(0, 40)));
  assert.doesNotMatch(after, /[^\r]\n/);
  assert.doesNotMatch(after, /o-2222222222/);
  assert.match(after, /observations: 1\r\n/);
  assert.match(after, /Kotlin over Java/);
});
