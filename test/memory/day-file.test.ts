import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execa } from 'execa';
import matter from 'gray-matter';
import jsYaml from 'js-yaml';
import {
  appendObservations,
  createDayFile,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  updateObservation,
} from '../../lib/memory/day-file/index.js';
import {
  formatObservationLine,
  normaliseForId,
  observationId,
  oneLine,
  parseObservationContent,
} from '../../lib/memory/observation-line.js';
import type { Observation } from '../../lib/core/types.js';

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
  assert.match(text, /^---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 2\ntags: \[typescript\]\n---\n# 2026-02-12\n\n- 🔴/);
  // Provenance is at the end, out of the first lines a chunking indexer reads.
  assert.match(
    text,
    /\^o-[0-9a-f]+\n\n<!-- oc-memory provenance \(id: source agent session entries\)\no-[0-9a-f]+: openclaw main s1 a1b2c3d4,e5f6a7b8\no-[0-9a-f]+: openclaw main s1 a1b2c3d4,e5f6a7b8\n-->\n$/,
  );
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
  assert.deepEqual(
    list.map((o) => o.id),
    ['o-0b41d2e8', 'o-7f3a9c21', 'o-c93e0f55'],
  );
  assert.equal(list[0]!.priority, 'low', 'the changed emoji is read');

  const added = obs('Deadline moved to March 3.', { category: 'task' });
  appendObservations(file, [added]);
  const out = formatDayFile(file);
  for (const keep of [
    'My own note at the top.',
    '  - nested remark by the user',
    'Some paragraph the user wrote in between.',
    '- a plain list item that is not an observation',
    'Trailing note.',
    'mood: fine',
  ]) {
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
  assert.deepEqual(
    listObservations(reparsed).map((o) => o.id),
    ['o-7f3a9c21', 'o-c93e0f55'],
  );
  assert.ok(updateObservation(reparsed, 'o-c93e0f55', { done: true }));
  assert.match(formatDayFile(reparsed), /- ✅ 🟡 11:20 \[task\] User asked how to validate JWT refresh tokens\. \^o-c93e0f55/);
});

test('observation lines: tags, ids, markers and non-observations', () => {
  assert.equal(parseObservationContent('just text'), undefined);
  const p = parseObservationContent('✅ 🟡 9:05 [Task] Fix ticket-4242 in #backend today #work/urgent ^o-abc');
  assert.deepEqual(p, {
    priority: 'medium',
    done: true,
    time: '09:05',
    category: 'task',
    text: 'Fix ticket-4242 in #backend today',
    tags: ['backend', 'work/urgent'],
    id: 'o-abc',
  });
  const line = formatObservationLine({
    priority: 'low',
    done: false,
    time: '23:59',
    category: 'fact',
    text: 'Issue #42 is\nclosed',
    tags: ['x'],
    id: 'o-1',
  });
  // A fact leaves its category unwritten (a line without `[…]` reads as a fact).
  assert.equal(line, '- 🟢 23:59 Issue #42 is closed #x ^o-1');
  assert.notEqual(
    observationId({ agent: 'a', session: 's', category: 'fact', text: 'x' }),
    observationId({ agent: 'b', session: 's', category: 'fact', text: 'x' }),
  );
  assert.equal(
    observationId({ agent: 'a', session: 's', category: 'fact', text: 'Hello  world.' }),
    observationId({ agent: 'a', session: 's', category: 'fact', text: 'hello world' }),
  );
});

test('a fact line leaves its category unwritten; it reads back as a fact, old `[fact]` lines too, and a text that would misread keeps it', () => {
  const fact = (text: string, time = '09:00', more: Partial<Observation> = {}) =>
    formatObservationLine({ priority: 'medium', done: false, time, category: 'fact', text, tags: [], id: 'o-0c0c0c0c0c', ...more });
  assert.equal(fact('The staging host is db-stage-7.'), '- 🟡 09:00 The staging host is db-stage-7. ^o-0c0c0c0c0c');
  // Read back: the same observation as the old line with `[fact]` written.
  const unwritten = parseObservationContent('🟡 09:00 The staging host is db-stage-7. ^o-0c0c0c0c0c');
  assert.deepEqual(unwritten, parseObservationContent('🟡 09:00 [fact] The staging host is db-stage-7. ^o-0c0c0c0c0c'));
  assert.equal(unwritten?.category, 'fact');
  // Every other category is written.
  assert.equal(fact('Ship it.', '09:00', { category: 'task' }), '- 🟡 09:00 [task] Ship it. ^o-0c0c0c0c0c');
  // With a mark: the category stays out, the mark reads back.
  const marked = fact('The cutoff is 2 pm.', '09:00', { mark: { kind: 'superseded', date: '2026-06-01', by: 'o-634ca4f5b6' } });
  assert.equal(marked, '- 🟡 09:00 The cutoff is 2 pm. (superseded 2026-06-01 by o-634ca4f5b6) ^o-0c0c0c0c0c');
  assert.deepEqual(parseObservationContent(marked.slice(2))?.mark, { kind: 'superseded', date: '2026-06-01', by: 'o-634ca4f5b6' });
  // A text that would read as a category, a time or a marker without it keeps `[fact]`; so does a line with a UTC offset.
  for (const [text, time] of [
    ['[draft] notes are in the wiki.', '09:00'],
    ['12:30 is the stand-up.', ''],
    ['🔴 means urgent here.', ''],
  ] as const) {
    const line = fact(text, time);
    assert.match(line, /\[fact\] /, line);
    const back = parseObservationContent(line.slice(2))!;
    assert.deepEqual([back.category, back.time, back.text, back.priority], ['fact', time, text, 'medium'], line);
  }
  assert.equal(fact('x.', '09:00'), '- 🟡 09:00 x. ^o-0c0c0c0c0c');
  const offset = formatObservationLine(
    { priority: 'medium', done: false, time: '18:00', category: 'fact', text: 'Moved to LA.', tags: [], id: 'o-1' },
    '-07:00',
  );
  assert.equal(offset, '- 🟡 18:00 -07:00 [fact] Moved to LA. ^o-1');
  assert.equal(parseObservationContent(offset.slice(2))?.offset, '-07:00');
});

test('provenance with awkward session ids and entry ids round-trips through the provenance block', () => {
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
  assert.deepEqual(
    back.map((o) => o.provenance),
    odd,
  );
  assert.equal(formatDayFile(parseDayFile(text)), text);
});

test('a file written again after appends gets the provenance block that formatting every entry gives, whatever changed in the map', () => {
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  // The same file with a copy of its map: nothing remembered about it, every line formatted.
  const reference = () => {
    const block = file.provenance!;
    const segment = { ...block.segment };
    const segments = file.segments.map((s) => (s === block.segment ? segment : s));
    return formatDayFile({
      frontmatter: { ...file.frontmatter },
      segments,
      provenance: { ...block, map: { ...block.map }, segment, dirty: true },
    });
  };
  const step = (texts: string[], provenance?: Observation['provenance']) => {
    appendObservations(
      file,
      texts.map((t) => obs(t, provenance ? { provenance } : {})),
    );
    assert.equal(formatDayFile(file), reference());
  };
  step(['First fact.', 'Second fact.', 'Third fact.']);
  step(['Fourth fact.'], { source: 'openclaw', agent: 'main', session: 's 2', entryIds: ['', 'x,y'] });
  const prov = file.provenance!.map;
  const [first, second] = Object.keys(prov);
  prov[first!] = 'openclaw main other e1'; // changed in place: same key, same place
  assert.equal(formatDayFile(file), reference());
  step(['Fifth fact.']);
  delete prov[second!];
  prov[second!] = 'openclaw main s1 z9'; // the same key again, now at the end
  assert.equal(formatDayFile(file), reference());
  prov[first!] = { not: 'a string' };
  assert.equal(formatDayFile(file), reference());
  step(['Sixth fact.']);
  prov[first!] = 'openclaw main s1 back';
  step(['Seventh fact.']);
});

test('oneLine, normaliseForId and observationId agree with their plain regex definitions on awkward text', () => {
  const texts = [
    '',
    ' ',
    'tidy text',
    'a  b',
    '\tTabbed\n',
    'x\u00a0y',
    'x\u2028y',
    '\ufeffBOM',
    ' lead',
    'trail ',
    'a \n b',
    'Done.',
    'Done...!?',
    'end。',
    'end…',
    '...',
    '!?',
    'MiXeD Case',
    'İstanbul ß',
    'emoji 🎉!',
    'dots. in. middle.',
    '.leading',
  ];
  for (const text of texts) {
    const reference = text.replace(/\s+/g, ' ').trim();
    assert.equal(oneLine(text), reference, JSON.stringify(text));
    assert.equal(normaliseForId(text), reference.toLowerCase().replace(/[.!?。…]+$/u, ''), JSON.stringify(text));
    const parts = { agent: 'main', session: 's 1', date: '2026-02-12', category: 'fact', text, salt: 'x' };
    const key = [parts.agent, parts.session, parts.date, parts.category, normaliseForId(text), parts.salt].join('\u0000');
    assert.equal(observationId(parts), `o-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`);
  }
  // Optional parts are empty strings in the key.
  const bare = { agent: 'main', session: 's', category: 'fact', text: 'Hi.' };
  assert.equal(
    observationId(bare),
    `o-${createHash('sha256').update(['main', 's', '', 'fact', 'hi', ''].join('\u0000')).digest('hex').slice(0, 10)}`,
  );
});

test('owned frontmatter keys are written as the yaml serialiser writes them, for plain and awkward values alike', () => {
  const values = [
    'main',
    'my-agent',
    'a_b',
    'node.js',
    'a/b',
    '2026-02-12',
    '2026',
    '1e5',
    '0x1F',
    '0o17',
    '1.5',
    'true',
    'Yes',
    'no',
    'on',
    'null',
    'y',
    'N',
    'two words',
    'a: b',
    'x #y',
    '#tag',
    '-dash',
    'ünïcode',
    '',
    "it's",
    'tab\there',
  ];
  for (const value of values) {
    const data = { date: value, tier: 'hot', agent: value, observations: 3, tags: [value, 'other'] };
    // An extra key sends the whole block through the serialiser: the reference for the owned lines.
    const owned = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
    Object.assign(owned.frontmatter.data, data);
    const withExtra = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
    Object.assign(withExtra.frontmatter.data, data, { zz: 1 });
    assert.equal(formatDayFile(owned), formatDayFile(withExtra).replace('zz: 1\n', ''), JSON.stringify(value));
  }
  for (const tags of [[], ['only']]) {
    const owned = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
    owned.frontmatter.data.tags = tags;
    const withExtra = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
    Object.assign(withExtra.frontmatter.data, { tags, zz: 1 });
    assert.equal(formatDayFile(owned), formatDayFile(withExtra).replace('zz: 1\n', ''));
  }
});

test('frontmatter is read as gray-matter with js-yaml read it: empty, comments only, CRLF, odd closing lines, broken YAML', () => {
  const blocks = [
    '---\n---\n',
    '---\n# just a comment\n---\n',
    '--- \ndate: 2026-02-12\n---\n',
    '---\r\ndate: 2026-02-12\r\ntags: [a, b]\r\n---\r\n',
    '---\ntitle: a --- b\n---\n',
    '---\ntitle: x---\n',
    '---\na: 1\n---x: 2\n---\n',
    '---\n- a\n- b\n---\n',
    '---\njust a string\n---\n',
    '---\ndate: 2026-02-12\ndate: 2026-02-13\n---\n',
    '---\ntags: [unclosed\n---\n',
    '---\nn: 012\nt: yes\nd: 2026-02-12T10:00:00Z\n---\n',
  ];
  for (const block of blocks) {
    const text = `${block}# 2026-02-12\n`;
    const file = parseDayFile(text);
    const raw = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(text)![0];
    let data: unknown = {};
    let error: string | undefined;
    try {
      data = matter(raw, { engines: { yaml: (s: string) => jsYaml.load(s, { schema: jsYaml.CORE_SCHEMA }) as object } }).data;
    } catch (e) {
      error = (e as Error).message.split('\n')[0];
    }
    const expected = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
    assert.deepEqual(file.frontmatter.data, error ? {} : expected, JSON.stringify(block));
    assert.equal(file.frontmatter.error, error, JSON.stringify(block));
    assert.equal(formatDayFile(file), text, 'an unchanged parse is byte-identical');
  }
});

test('appending in one call gives the same file as appending chunk by chunk, with notes after the list and into a new file', () => {
  const many = Array.from({ length: 40 }, (_, i) =>
    obs(`Fact ${i} about the deploy.`, { tags: i % 3 === 0 ? ['deploy'] : [], time: `10:${String(i).padStart(2, '0')}` }),
  );
  const starts = [
    () => createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot', template: '# {{date}}\n\nNotes first.' }),
    () => parseDayFile(`${DESIGN_EXAMPLE}\nA note after the list.\n`),
  ];
  for (const start of starts) {
    const once = start();
    assert.equal(appendObservations(once, many), many.length);
    const chunked = start();
    for (let i = 0; i < many.length; i += 7) appendObservations(chunked, many.slice(i, i + 7));
    assert.equal(formatDayFile(once), formatDayFile(chunked));
    assert.equal(listObservations(parseDayFile(formatDayFile(once))).length, listObservations(once).length);
  }
});

test('the Markdown parser also loads where require() cannot load ES modules (Node < 20.19): a hand-edited body parses the same', {
  skip: process.features.require_module !== true && 'this Node cannot require() ES modules: every test here runs that way',
}, async () => {
  const body =
    '# 2026-02-12\n\nA note.\n\n- 🔴 09:15 [fact] Likes tea. ^o-1111111111\n  a nested line\n\n* 🟡 [fact] Star bullet. ^o-2222222222\n';
  const code = `const m = await import(${JSON.stringify(new URL('../../lib/memory/day-file/index.ts', import.meta.url).href)});
console.log(JSON.stringify([process.features.require_module, m.listObservations(m.parseDayFile(${JSON.stringify(body)}))]));`;
  const child = await execa(process.execPath, ['--no-experimental-require-module', '--import', 'tsx', '--input-type=module', '-e', code]);
  const [canRequire, list] = JSON.parse(child.stdout) as [boolean, unknown];
  assert.equal(canRequire, false);
  assert.deepEqual(list, JSON.parse(JSON.stringify(listObservations(parseDayFile(body)))));
  assert.equal(listObservations(parseDayFile(body)).length, 2);
});

test('a day file reads in time order: a later batch with earlier messages goes in place, not after (issue 20: 05:01 before 00:40)', () => {
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  appendObservations(file, [obs('Session B, first message.', { time: '05:01' }), obs('Session B, second message.', { time: '05:03' })]);
  appendObservations(file, [
    obs('Session A, late at night.', { time: '00:40' }),
    obs('Session A, after B started.', { time: '05:02' }),
    obs('Session A, last.', { time: '06:10' }),
  ]);
  const times = listObservations(parseDayFile(formatDayFile(file))).map((o) => o.time);
  assert.deepEqual(times, ['00:40', '05:01', '05:02', '05:03', '06:10']);
  // Appending again changes nothing, and the text parses back to the same lines.
  const before = formatDayFile(file);
  appendObservations(file, [obs('Session A, late at night.', { time: '00:40' })]);
  assert.equal(formatDayFile(file), before);
  assert.equal(formatDayFile(parseDayFile(before)), before);
});
