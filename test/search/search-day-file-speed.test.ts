/**
 * The day-file fast path (lib/memory/day-file/list-items.ts simpleListItemRanges) must find
 * exactly the list items remark finds, and must apply to what the program
 * writes (the search index parses every day file; remark alone made a 100k
 * observation rebuild take ~25 s).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendObservations,
  createDayFile,
  formatDayFile,
  remarkListItemRanges,
  simpleListItemRanges,
} from '../../lib/memory/day-file/index.js';
import { dayObservations, makeGenerator } from '../../bench/search-corpus.js';

function rangesOf(list: Array<{ start: number; end: number; line: number; endLine: number }>) {
  return list.map(({ start, end, line, endLine }) => ({ start, end, line, endLine }));
}

function bodyOf(text: string): string {
  const m = /^---\n[\s\S]*?\n---\n/.exec(text);
  // The provenance block at the end is split off before the body is parsed (lib/memory/day-file/parse.ts).
  return (m ? text.slice(m[0].length) : text).replace(/<!-- oc-memory provenance[\s\S]*$/, '');
}

test('program-written day files take the fast path and agree with remark', () => {
  const gen = makeGenerator(7);
  for (let day = 1; day <= 6; day++) {
    const date = `2026-03-0${day}`;
    const file = createDayFile({ date, agent: 'main', tier: 'hot' });
    appendObservations(file, dayObservations(gen, date, 'main', 40 * day, 0.4));
    const body = bodyOf(formatDayFile(file));
    const fast = simpleListItemRanges(body);
    assert.ok(fast, 'fast path applies to a generated file');
    assert.equal(fast.length, 40 * day);
    assert.deepEqual(rangesOf(fast), rangesOf(remarkListItemRanges(body)));
  }
});

test('random simple and not-so-simple bodies: the fast path is either declined or identical to remark', () => {
  const r = makeGenerator(11).r;
  const pieces = [
    '# 2026-02-12',
    '## Notes',
    '#',
    '',
    '',
    '- 🔴 09:15 [preference] User prefers TypeScript. #typescript ^o-7f3a9c21e0',
    '- 🟡 [task] Ship it <b>now</b> [link](http://x) `code` \\',
    '- ✅ 🟢 11:20 [task] 데이터베이스를 PostgreSQL로 바꾸기로 결정했다. ^o-c93e0f55aa',
    '- plain item with *emphasis* and _under_',
    '- item\twith tab',
    'a note line',
    '  indented continuation',
    '- 1. nested ordered',
    '- - nested bullet',
    '---',
    '===',
    '```',
    '    code block',
    '> quote',
    '* star item',
    '- trailing space ',
    '-',
    '#hashtag line',
    '<div>',
    '- [ ] task box',
    '1. ordered',
  ];
  let fastCount = 0;
  for (let i = 0; i < 400; i++) {
    const n = 1 + Math.floor(r() * 12);
    const lines = Array.from({ length: n }, () => pieces[Math.floor(r() * (i % 2 === 0 ? 9 : pieces.length))]!);
    const body = lines.join('\n') + (r() < 0.5 ? '\n' : '');
    const fast = simpleListItemRanges(body);
    if (!fast) continue;
    fastCount++;
    assert.deepEqual(rangesOf(fast), rangesOf(remarkListItemRanges(body)), JSON.stringify(body));
  }
  assert.ok(fastCount > 100, `the fast path was exercised (${fastCount})`);
});
