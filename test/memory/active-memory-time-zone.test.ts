/**
 * Active memory after the user moves to another time zone: the newer of two conflicting preferences
 * is the one written later in absolute time, whatever the local clock text says. Through the CLI, with
 * the configured zone changed between two observe runs (Seoul, then Los Angeles).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import type { Observation } from '../../lib/core/types.js';

async function writeSession(stateDir: string, id: string, at: string, text: string): Promise<void> {
  const dir = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  const w = new PiSessionWriter(id, new Date(at));
  await writeFile(
    join(dir, `${id}.jsonl`),
    w.header() + w.message({ role: 'user', text }) + w.message({ role: 'assistant', text: 'Noted.' }),
  );
}

test('after a move from Seoul to Los Angeles the later preference wins in active memory, though its local date is the day before', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    const config = (zone: string) =>
      writeFile(join(home, 'config.yaml'), `timezone: ${zone}\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    // 2026-03-09 23:00 UTC = 2026-03-10 08:00 in Seoul.
    await config('Asia/Seoul');
    await writeSession(
      stateDir,
      '00000001-0000-4000-8000-000000000000',
      '2026-03-09T23:00:00Z',
      'I prefer tabs for indentation in Python files.',
    );
    let r = await runCli(['observe', '--home', home, '--json']);
    assert.equal(r.code, 0, r.stderr);
    // Three hours later, in Los Angeles: 2026-03-10 02:00 UTC = 2026-03-09 18:00 there (a day file dated before the Seoul one).
    await config('America/Los_Angeles');
    await writeSession(
      stateDir,
      '00000002-0000-4000-8000-000000000000',
      '2026-03-10T02:00:00Z',
      'I prefer spaces for indentation in Python files.',
    );
    r = await runCli(['observe', '--home', home, '--json']);
    assert.equal(r.code, 0, r.stderr);

    const active = await readFile(join(home, 'active_memory.md'), 'utf8');
    const prefs = active.split('## Preferences and constraints\n')[1]!.split('\n## ')[0]!;
    assert.match(prefs, /spaces for indentation/, prefs);
    assert.doesNotMatch(prefs, /tabs for indentation/, 'the older preference is superseded');
    const seoulDay = await readFile(join(home, 'memory', '2026-03-10.md'), 'utf8');
    assert.match(seoulDay, /^time_zone: Asia\/Seoul$/m, 'a day file says the zone its times are in');
    assert.match(seoulDay, /- 🔴 08:00 \[preference\] .*tabs/);
    const laDay = await readFile(join(home, 'memory', '2026-03-09.md'), 'utf8');
    assert.match(laDay, /^time_zone: America\/Los_Angeles$/m);
  } finally {
    await cleanup();
  }
});

test('a line written in another zone than its file says its UTC offset, and keeps it through a rewrite', async () => {
  const { createDayFile, appendObservations, formatDayFile, parseDayFile, listObservations, updateObservation } = await import(
    '../../lib/memory/day-file/index.js'
  );
  const file = createDayFile({ date: '2026-03-09', agent: 'main', tier: 'hot', zone: 'Asia/Seoul' });
  const seoul: Observation = {
    id: 'o-000000000a',
    date: '2026-03-09',
    time: '09:00',
    zone: 'Asia/Seoul',
    priority: 'high',
    done: false,
    category: 'preference',
    text: 'User prefers tabs.',
    tags: [],
    agent: 'main',
  };
  const la: Observation = {
    ...seoul,
    tags: [],
    id: 'o-000000000b',
    time: '18:00',
    zone: 'America/Los_Angeles',
    text: 'User prefers spaces.',
  };
  appendObservations(file, [seoul, la]);
  const text = formatDayFile(file);
  assert.match(text, /^- 🔴 09:00 \[preference\] User prefers tabs\. \^o-000000000a$/m, 'a line in the file zone is written as before');
  assert.match(
    text,
    /^- 🔴 18:00 -07:00 \[preference\] User prefers spaces\. \^o-000000000b$/m,
    'daylight time in Los Angeles on 9 March 2026',
  );
  const read = parseDayFile(text);
  assert.deepEqual(
    listObservations(read).map((o) => [o.id, o.zone]),
    [
      ['o-000000000a', 'Asia/Seoul'],
      ['o-000000000b', '-07:00'],
    ],
  );
  updateObservation(read, 'o-000000000b', { done: true });
  assert.match(formatDayFile(read), /^- ✅ 🔴 18:00 -07:00 \[preference\] User prefers spaces\./m, 'an edited line keeps its offset');
});
