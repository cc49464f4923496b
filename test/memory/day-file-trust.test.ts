/**
 * Day files a user or a tool changed in ways the program must respect: observations a user nested,
 * checked off, numbered or quoted (what the reader accepts, forget and the dashboard's edit find), a
 * Git conflict left in a file (reported, never rewritten), provenance that cannot end its comment.
 * Through the built CLI on temp homes where the behaviour is a command's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';
import {
  appendObservations,
  createDayFile,
  formatDayFile,
  listObservations,
  parseDayFile,
  removeObservations,
  updateObservation,
} from '../../lib/memory/day-file/index.js';
import { parseProvenance } from '../../lib/memory/day-file/provenance.js';
import { dayFilePath, ensureHome, homePaths } from '../../lib/platform/home.js';
import type { Observation } from '../../lib/core/types.js';

const CONFIG = 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nembeddings: {enabled: false}\n';

/** A user's day: observations nested under a note, checked off in Obsidian, numbered, quoted — and one plain. */
const HAND_EDITED = `---
date: 2026-02-12
tier: hot
agent: main
observations: 7
tags: []
---
# 2026-02-12

- Notes from the call with Dana
  - 🔴 09:15 [preference] Dana prefers the quarterly billing report in PDF. ^o-1111111111
- [ ] 🟡 10:00 [task] Renew the staging certificate before Friday. ^o-2222222222
- [x] 🟡 10:05 [task] Rotate the backup disk in the server room. ^o-3333333333
1. 🟢 10:10 [fact] The billing cluster runs in Frankfurt. ^o-4444444444

> - 🔴 10:20 [decision] The team moves the standup to 09:30. ^o-5555555555

- 🟡 11:00 [fact] The office plant needs water on Mondays. ^o-6666666666
  - 🟡 11:01 [fact] The watering can is in the kitchen. ^o-7777777777

A closing note of mine.
`;

test('an observation nested, checked off (- [ ] / - [x]), numbered or quoted is read as one: search finds it, forget removes exactly its line, the dashboard edit keeps its place', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = homePaths(join(dir, 'home'));
  await ensureHome(paths, async () => '');
  await writeFile(paths.config, CONFIG);
  const file = dayFilePath(paths, 'hot', 'main', '2026-02-12');
  await writeFile(file, HAND_EDITED);

  const day = parseDayFile(HAND_EDITED);
  assert.equal(formatDayFile(day), HAND_EDITED, 'read and written back unchanged, byte for byte');
  const read = listObservations(day);
  assert.deepEqual(
    read.map((o) => o.id),
    ['o-1111111111', 'o-2222222222', 'o-3333333333', 'o-4444444444', 'o-5555555555', 'o-6666666666', 'o-7777777777'],
  );
  assert.deepEqual(
    read.map((o) => o.done),
    [false, false, true, false, false, false, false],
    'a ticked checkbox is a done task',
  );
  // Edited by id (the dashboard's edit): the line keeps its indentation, number, quote and checkbox.
  updateObservation(day, 'o-2222222222', { done: true });
  updateObservation(day, 'o-4444444444', { priority: 'high' });
  const edited = formatDayFile(day);
  assert.match(edited, /^- \[x\] ✅ 🟡 10:00 \[task\] Renew the staging certificate before Friday\. \^o-2222222222$/m);
  assert.match(edited, /^1\. 🔴 10:10 The billing cluster runs in Frankfurt\. \^o-4444444444$/m);
  assert.deepEqual(
    listObservations(parseDayFile(edited)).map((o) => o.id),
    read.map((o) => o.id),
  );

  const search = await runCli(['search', 'billing report PDF', '--json', '--home', paths.root]);
  assert.equal(search.code, 0, search.stderr);
  assert.ok(search.stdout.includes('o-1111111111'), `the nested observation is found: ${search.stdout.slice(0, 400)}`);

  let expected = HAND_EDITED;
  for (const [id, line] of [
    ['o-1111111111', '  - 🔴 09:15 [preference] Dana prefers the quarterly billing report in PDF. ^o-1111111111\n'],
    ['o-2222222222', '- [ ] 🟡 10:00 [task] Renew the staging certificate before Friday. ^o-2222222222\n'],
    ['o-4444444444', '1. 🟢 10:10 [fact] The billing cluster runs in Frankfurt. ^o-4444444444\n'],
    ['o-5555555555', '> - 🔴 10:20 [decision] The team moves the standup to 09:30. ^o-5555555555\n'],
    ['o-7777777777', '  - 🟡 11:01 [fact] The watering can is in the kitchen. ^o-7777777777\n'],
  ] as const) {
    const forget = await runCli(['forget', id, '--yes', '--home', paths.root]);
    assert.equal(forget.code, 0, `${id}: ${forget.stderr}`);
    assert.doesNotMatch(forget.stdout + forget.stderr, /not found/i, id);
    expected = expected.replace(line, '');
    const now = await readFile(file, 'utf8');
    assert.ok(!now.includes(id), `${id} is gone`);
    // Only its line (and the owned count) changed: every other byte is the user's.
    assert.equal(now.replace(/^observations: \d+$/m, ''), expected.replace(/^observations: \d+$/m, ''), id);
  }
  assert.match(await readFile(file, 'utf8'), /^observations: 2$/m);
});

/** A day file both sides of a Git merge changed, left with its conflict markers. */
function conflicted(date: string): string {
  return `---
date: ${date}
tier: hot
agent: main
<<<<<<< HEAD
observations: 2
=======
observations: 3
>>>>>>> laptop
tags: []
---
# ${date}

- 🔴 08:00 [preference] User prefers dark roast coffee. ^o-aaaaaaaaaa
<<<<<<< HEAD
- 🟡 08:10 [fact] The kettle is broken. ^o-bbbbbbbbbb
=======
- 🟡 08:10 [fact] The kettle was repaired. ^o-cccccccccc
- 🟢 08:20 [fact] New mugs arrived. ^o-dddddddddd
>>>>>>> laptop
`;
}

test('a day file with Git conflict markers is reported by name and left byte for byte alone by observe, forget and tier moves; once resolved, observe writes the waiting observations', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = homePaths(join(dir, 'home'));
  await ensureHome(paths, async () => '');
  const stateDir = join(dir, 'openclaw');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const w = new PiSessionWriter('33333333-0000-4000-8000-000000000000', new Date('2026-02-01T09:00:00Z'), 60_000);
  await writeFile(join(sessions, '33333333-0000-4000-8000-000000000000.jsonl'), w.header() + generateConversation(w, 6, 5));
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {state_dirs: [${JSON.stringify(stateDir)}]}, openclaw_db: {enabled: false}}\nembeddings: {enabled: false}\n`,
  );
  const file = dayFilePath(paths, 'hot', 'main', '2026-02-01');
  const text = conflicted('2026-02-01');
  await writeFile(file, text);
  const home = ['--home', paths.root];

  const observe = await runCli(['observe', ...home]);
  assert.notEqual(observe.code, 0, 'observe fails for that stream');
  assert.match(observe.stdout + observe.stderr, /2026-02-01\.md has unresolved Git conflict markers \(<<<<<<< at line 5\)/);
  assert.match(observe.stdout + observe.stderr, /Resolve the conflict/);
  assert.equal(await readFile(file, 'utf8'), text, 'observe left it alone');
  const status = await runCli(['status', '--json', ...home]);
  assert.match(status.stdout, /unresolved Git conflict markers/, 'status says so too');

  const forget = await runCli(['forget', 'o-bbbbbbbbbb', '--yes', ...home]);
  assert.notEqual(forget.code, 0);
  assert.match(forget.stderr, /2026-02-01\.md has unresolved Git conflict markers/);
  const forgetQuery = await runCli(['forget', '--query', 'kettle', '--yes', ...home]);
  assert.notEqual(forgetQuery.code, 0);
  assert.equal(await readFile(file, 'utf8'), text, 'forget left it alone (no ======= line eaten)');

  const archive = await runCli(['archive', '--older-than', '30', '--to', 'warm', ...home]);
  assert.match(
    archive.stdout + archive.stderr,
    /unresolved Git conflict markers/,
    `the move says why the day stays: ${archive.stdout}${archive.stderr}`,
  );
  assert.equal(await readFile(file, 'utf8'), text, 'the tier move left it alone');

  // Resolved by hand: the next run writes what waited.
  const resolved = text
    .replace(/^<<<<<<< HEAD\nobservations: 2\n=======\n(observations: 3)\n>>>>>>> laptop\n/m, '$1\n')
    .replace(/^<<<<<<< HEAD\n.*\n=======\n/m, '')
    .replace(/^>>>>>>> laptop\n/m, '');
  await writeFile(file, resolved);
  const again = await runCli(['observe', ...home]);
  assert.equal(again.code, 0, again.stderr);
  const after = await readFile(file, 'utf8');
  assert.ok(after.includes('The kettle was repaired. ^o-cccccccccc') && after.includes('New mugs arrived'), 'the resolution is kept');
  assert.ok(listObservations(parseDayFile(after)).length > 3, 'and the waiting observations are written');
});

test('a provenance session id holding `-->` cannot end the provenance comment early; it reads back as it was', () => {
  const file = createDayFile({ date: '2026-02-12', agent: 'main', tier: 'hot' });
  const session = 'evil --> <script>alert(1)</script> # Heading';
  const o: Observation = {
    id: 'o-abcdefabcd',
    date: '2026-02-12',
    time: '09:00',
    priority: 'high',
    done: false,
    category: 'fact',
    text: 'A fact.',
    tags: [],
    agent: 'main',
    provenance: { source: 'remember', agent: 'main', session, entryIds: ['a-->b'] },
  };
  appendObservations(file, [o]);
  const text = formatDayFile(file);
  assert.equal(text.split('-->').length - 1, 1, `only the block's own close line ends the comment:\n${text}`);
  assert.match(text, /^-->$/m);
  const back = parseDayFile(text);
  assert.deepEqual(parseProvenance(back.provenance!.map['o-abcdefabcd']), o.provenance);
  removeObservations(back, []);
});

test('bytes of a note saved as Latin-1 (not UTF-8) survive the next append and a forget byte for byte — never replaced by U+FFFD', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = homePaths(join(dir, 'home'));
  await ensureHome(paths, async () => '');
  await writeFile(paths.config, CONFIG);
  const file = dayFilePath(paths, 'hot', 'main', '2026-02-12');
  // "Café crème à 9 h — ½ tasse" as Windows-1252/Latin-1 bytes, in a note between UTF-8 lines.
  const note = Buffer.from([
    0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0xe0, 0x20, 0x39, 0x20, 0x68, 0x20, 0x97, 0x20, 0xbd, 0x20, 0x74,
    0x61, 0x73, 0x73, 0x65,
  ]);
  const head = Buffer.from(
    '---\ndate: 2026-02-12\ntier: hot\nagent: main\nobservations: 1\ntags: []\n---\n# 2026-02-12\n\n- 🔴 09:15 [preference] User prefers TypeScript. ^o-1111111111\n\nMy note: ',
  );
  const tail = Buffer.from('\n');
  await writeFile(file, Buffer.concat([head, note, tail]));

  const { DayFileBuffer } = await import('../../lib/memory/day-file-buffer.js');
  const buffer = new DayFileBuffer(paths);
  const o: Observation = {
    id: 'o-2222222222',
    date: '2026-02-12',
    time: '10:00',
    priority: 'medium',
    done: false,
    category: 'fact',
    text: 'The staging database is db-stage-2.',
    tags: [],
    agent: 'main',
  };
  assert.equal(await buffer.write([o]), 1);
  const appended = await readFile(file);
  assert.ok(appended.includes(Buffer.concat([Buffer.from('My note: '), note, tail])), 'the Latin-1 bytes are as they were');
  assert.ok(!appended.includes(Buffer.from('\uFFFD')), 'no replacement character');
  assert.ok(appended.includes(Buffer.from('^o-2222222222')));

  const forget = await runCli(['forget', 'o-1111111111', '--yes', '--home', paths.root]);
  assert.equal(forget.code, 0, forget.stderr);
  const after = await readFile(file);
  assert.ok(!after.includes(Buffer.from('o-1111111111')));
  assert.ok(after.includes(Buffer.concat([Buffer.from('My note: '), note, tail])), 'and after a forget');
  assert.ok(!after.includes(Buffer.from('\uFFFD')));
});

test("a 240-character agent id gets a safe file name of its own (its start and a hash): `run` neither fails with ENAMETOOLONG nor skips the other agents' active memory", async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = homePaths(join(dir, 'home'));
  await ensureHome(paths, async () => '');
  const stateDir = join(dir, 'openclaw');
  const longAgent = `research-${'a'.repeat(231)}`;
  assert.equal(longAgent.length, 240);
  for (const [agent, session] of [
    [longAgent, '66666666-0000-4000-8000-000000000000'],
    ['main', '77777777-0000-4000-8000-000000000000'],
  ] as const) {
    const sessions = join(stateDir, 'agents', agent, 'sessions');
    await mkdir(sessions, { recursive: true });
    const w = new PiSessionWriter(session, new Date('2026-02-01T09:00:00Z'), 60_000);
    await writeFile(join(sessions, `${session}.jsonl`), w.header() + generateConversation(w, 6, agent === 'main' ? 2 : 4));
  }
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {state_dirs: [${JSON.stringify(stateDir)}]}, openclaw_db: {enabled: false}}\nembeddings: {enabled: false}\n`,
  );
  const run = await runCli(['run', '--home', paths.root]);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout + run.stderr, /ENAMETOOLONG/);
  const { readdir } = await import('node:fs/promises');
  const names = await readdir(paths.root);
  const longActive = names.find((n) => n.startsWith('active_memory.research-'));
  assert.ok(longActive, `the long agent has an active memory: ${names.join(', ')}`);
  assert.match(longActive!, /^active_memory\.research-a+~[0-9a-f]{8}\.md$/);
  assert.ok(Buffer.byteLength(longActive!) < 160);
  assert.ok(names.includes('active_memory.md'), "main's active memory is rebuilt too");
  // The day is months old: the same run's tier step moved it to the warm tier.
  const dayName = [
    ...(await readdir(paths.memory, { recursive: true })),
    ...(await readdir(paths.archive, { recursive: true }).then(
      (l) => l.map((n) => `../archive/${n}`),
      () => [],
    )),
  ].find((n) => n.includes('research-') && n.endsWith('.md'));
  assert.ok(dayName, 'the long agent has a day file');
  assert.match(dayName!, /research-a+~[0-9a-f]{8}\//);
  const day = parseDayFile(await readFile(join(paths.memory, dayName!), 'utf8'));
  assert.equal(day.frontmatter.data.agent, longAgent, 'the file says whose it is in full');
  assert.ok(listObservations(day).length > 0);
});
