import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendObservations,
  createDayFile,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  updateObservation,
} from '../lib/day-file.js';
import { formatObservationLine, observationId, parseObservationContent } from '../lib/observation-line.js';
import type { Observation } from '../lib/types.js';

function obs(text: string, extra: Partial<Observation> = {}): Observation {
  const base = { agent: 'main', session: 's1', category: extra.category ?? 'fact', text };
  return {
    id: observationId(base),
    date: '2026-02-12',
    time: '09:15',
    priority: 'high',
    done: false,
    category: 'fact',
    text,
    tags: [],
    agent: 'main',
    provenance: { source: 'openclaw', agent: 'main', session: 's1', entryIds: ['a1b2c3d4', 'e5f6a7b8'] },
    ...extra,
  };
}

const DESIGN_EXAMPLE = `---
date: 2026-02-12
tier: hot
agent: main
observations: 3
tags: [typescript, postgres]
---
# 2026-02-12

- 🔴 09:15 [preference] User prefers TypeScript over JavaScript for backend services. #typescript ^o-7f3a9c21
- 🔴 10:30 [decision] PostgreSQL is the main database, Redis for caching. #postgres ^o-0b41d2e8
- 🟡 11:20 [task] User asked how to validate JWT refresh tokens. ^o-c93e0f55
`;

test('the DESIGN example parses into three observations and formats back byte for byte', () => {
  const file = parseDayFile(DESIGN_EXAMPLE);
  const list = listObservations(file);
  assert.equal(list.length, 3);
  assert.deepEqual(
    list.map((o) => [o.id, o.priority, o.time, o.category, o.tags]),
    [
      ['o-7f3a9c21', 'high', '09:15', 'preference', ['typescript']],
      ['o-0b41d2e8', 'high', '10:30', 'decision', ['postgres']],
      ['o-c93e0f55', 'medium', '11:20', 'task', []],
    ],
  );
  assert.equal(list[0]!.text, 'User prefers TypeScript over JavaScript for backend services.');
  assert.equal(list[0]!.date, '2026-02-12');
  assert.equal(list[0]!.startLine, 10);
  assert.equal(formatDayFile(file), DESIGN_EXAMPLE);
});

test('a new file: append → format → parse is lossless, and appending the same ids again adds nothing', () => {
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  const a = obs('User prefers TypeScript.', { tags: ['typescript'], category: 'preference' });
  const b = obs('Ship the auth fix by Friday.', { category: 'task', done: true, priority: 'medium', time: '' });
  assert.equal(appendObservations(file, [a, b]), 2);
  const text = formatDayFile(file);
  const again = parseDayFile(text);
  assert.equal(formatDayFile(again), text);
  const list = listObservations(again);
  assert.deepEqual(
    list.map(({ startLine, endLine, ...o }) => o),
    [a, b].map((o) => ({ ...o, date: '2026-02-12' })),
  );
  assert.equal(appendObservations(again, [a, b]), 0);
  assert.equal(formatDayFile(again), text);
  assert.match(text, /^---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 2\ntags: \[typescript\]\nprovenance:\n/);
  assert.match(text, /- ✅ 🟡 \[task\] Ship the auth fix by Friday\. \^o-/);
});

test('hand edits survive: reordered lines, notes between observations, a changed emoji, nested notes', () => {
  const edited = `---
date: 2026-02-12
tier: hot
agent: main
observations: 3
tags: [typescript, postgres]
mood: fine
---
# 2026-02-12

My own note at the top.

- 🟢 10:30 [decision] PostgreSQL is the main database, Redis for caching. #postgres ^o-0b41d2e8
  - nested remark by the user

Some paragraph the user wrote in between.

- 🔴 09:15 [preference] User prefers TypeScript over JavaScript for backend services. #typescript ^o-7f3a9c21
- a plain list item that is not an observation
- 🟡 11:20 [task] User asked how to validate JWT refresh tokens. ^o-c93e0f55

Trailing note.
`;
  const file = parseDayFile(edited);
  assert.equal(formatDayFile(file), edited, 'an unchanged parse is byte-identical');
  const list = listObservations(file);
  assert.deepEqual(list.map((o) => o.id), ['o-0b41d2e8', 'o-7f3a9c21', 'o-c93e0f55']);
  assert.equal(list[0]!.priority, 'low', 'the changed emoji is read');

  const added = obs('Deadline moved to March 3.', { category: 'task' });
  appendObservations(file, [added]);
  const out = formatDayFile(file);
  for (const keep of ['My own note at the top.', '  - nested remark by the user', 'Some paragraph the user wrote in between.', '- a plain list item that is not an observation', 'Trailing note.', 'mood: fine']) {
    assert.ok(out.includes(keep), `keeps ${keep}`);
  }
  // Appended right after the last observation, before the trailing note.
  assert.ok(out.indexOf('Deadline moved') < out.indexOf('Trailing note.'));
  assert.ok(out.indexOf('Deadline moved') > out.indexOf('validate JWT'));
  assert.equal(listObservations(parseDayFile(out)).length, 4);
});

test('a broken frontmatter block is read without loss and never rewritten', () => {
  const broken = `---
date: 2026-02-12
tags: [unclosed
---
# 2026-02-12

- 🔴 09:15 [preference] Likes tea. ^o-1111111111
`;
  const file = parseDayFile(broken);
  assert.ok(file.frontmatter.error);
  assert.equal(formatDayFile(file), broken);
  const list = listObservations(file, { date: '2026-02-12' });
  assert.equal(list.length, 1);
  assert.equal(list[0]!.date, '2026-02-12');
  assert.throws(() => appendObservations(file, [obs('Another fact.')], 'memory/2026-02-12.md'), /broken frontmatter/);
  assert.equal(formatDayFile(file), broken);
});

test('remove and update re-format only what changed', () => {
  const file = parseDayFile(DESIGN_EXAMPLE);
  assert.deepEqual(removeObservations(file, ['o-0b41d2e8']), ['o-0b41d2e8']);
  const out = formatDayFile(file);
  assert.ok(!out.includes('PostgreSQL'));
  assert.match(out, /observations: 2/);
  const reparsed = parseDayFile(out);
  assert.deepEqual(listObservations(reparsed).map((o) => o.id), ['o-7f3a9c21', 'o-c93e0f55']);
  assert.ok(updateObservation(reparsed, 'o-c93e0f55', { done: true }));
  assert.match(formatDayFile(reparsed), /- ✅ 🟡 11:20 \[task\] User asked how to validate JWT refresh tokens\. \^o-c93e0f55/);
});

test('observation lines: tags, ids, markers and non-observations', () => {
  assert.equal(parseObservationContent('just text'), undefined);
  const p = parseObservationContent('✅ 🟡 9:05 [Task] Fix ticket-4242 in #backend today #work/urgent ^o-abc');
  assert.deepEqual(p, { priority: 'medium', done: true, time: '09:05', category: 'task', text: 'Fix ticket-4242 in #backend today', tags: ['backend', 'work/urgent'], id: 'o-abc' });
  const line = formatObservationLine({ priority: 'low', done: false, time: '23:59', category: 'fact', text: 'Issue #42 is\nclosed', tags: ['x'], id: 'o-1' });
  assert.equal(line, '- 🟢 23:59 [fact] Issue #42 is closed #x ^o-1');
  assert.notEqual(observationId({ agent: 'a', session: 's', category: 'fact', text: 'x' }), observationId({ agent: 'b', session: 's', category: 'fact', text: 'x' }));
  assert.equal(observationId({ agent: 'a', session: 's', category: 'fact', text: 'Hello  world.' }), observationId({ agent: 'a', session: 's', category: 'fact', text: 'hello world' }));
});

test('provenance with awkward session ids and entry ids round-trips through the frontmatter', () => {
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  const odd = [
    { source: 'generic', agent: 'main', session: 'log 2026-02-12T10:00:00 #1', entryIds: ['line:12', 'a,b'] },
    { source: 'claude-code', agent: 'main', session: 'true', entryIds: [] },
    { source: 'openclaw', agent: 'main', session: '-starts-with-dash: yes', entryIds: ['0001'] },
  ];
  const list = odd.map((p, i) => obs(`Fact number ${i} about the ledger.`, { provenance: p }));
  appendObservations(file, list);
  const text = formatDayFile(file);
  const back = listObservations(parseDayFile(text));
  assert.deepEqual(back.map((o) => o.provenance), odd);
  assert.equal(formatDayFile(parseDayFile(text)), text);
});
