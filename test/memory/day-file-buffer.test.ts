import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { DayFileBuffer } from '../../lib/memory/day-file-buffer.js';
import { appendObservations, formatDayFile, listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, ensureHome, homePaths, type HomePaths } from '../../lib/platform/home.js';
import type { Observation } from '../../lib/core/types.js';
import { tempDir } from '../helpers/cli.js';

/** Observations for one day file; `tags` cycle so that later chunks bring new tags. */
function makeObservations(from: number, count: number): Observation[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      id: `o-${i.toString(16).padStart(10, '0')}`,
      date: '2026-02-12',
      time: '10:00',
      priority: 'medium',
      done: false,
      category: 'fact',
      text: `Fact number ${i}.`,
      tags: i % 3 === 0 ? [`t${i % 7}`] : [],
      agent: 'main',
      ...(i % 5 === 4 ? {} : { provenance: { source: 'openclaw', agent: 'main', session: `s${i % 2}`, entryIds: [`e${i}`, `f ${i}`] } }),
    };
  });
}

/** A new memory home for `fn`, with the path of the day file the observations above go to; removed afterwards. */
async function withHome(fn: (paths: HomePaths, path: string) => Promise<void>): Promise<void> {
  const { dir, cleanup } = await tempDir();
  try {
    const paths = homePaths(dir);
    await ensureHome(paths, async () => '');
    await fn(paths, dayFilePath(paths, 'hot', 'main', '2026-02-12'));
  } finally {
    await cleanup();
  }
}

test('one flush of a very long queue for one day file writes it (no argument spread of the queue)', async () => {
  await withHome(async (paths, path) => {
    // More than a call's arguments can hold: a queue spread into push() overflowed the stack here.
    const count = 130_000;
    const observations = makeObservations(0, count);
    const buffer = new DayFileBuffer(paths);
    assert.equal(await buffer.add(observations), count);
    await buffer.flush();
    assert.equal(buffer.pending, false);
    const written = listObservations(parseDayFile(await readFile(path, 'utf8')));
    assert.equal(written.length, count);
    assert.equal(written[count - 1]!.id, observations[count - 1]!.id);
  });
});

test('observations added in several chunks give the file one append of them all gives, also to a hand-made file', async () => {
  await withHome(async (paths, path) => {
    // Hand-made: a wrong count, provenance of a line that is gone, a note after the last line.
    const handMade = [
      '---',
      'date: 2026-02-12',
      'observations: 7',
      'tags: [old]',
      'provenance:',
      '  o-00000000ff: openclaw main s9 gone',
      '  o-0000000001: openclaw main s1 e1',
      '---',
      '# 2026-02-12',
      '',
      '- 🟡 09:00 [fact] Known already. ^o-0000000001',
      '',
      'A note.',
      '',
    ].join('\n');
    await writeFile(path, handMade);
    const all = makeObservations(0, 40);
    const buffer = new DayFileBuffer(paths);
    let added = 0;
    for (const [from, to] of [
      [0, 12],
      [10, 20],
      [20, 33],
      [33, 40],
    ] as const)
      added += await buffer.add(all.slice(from, to));
    assert.equal(added, 39, 'o-0000000001 was in the file already; 10 and 11 came twice');
    await buffer.flush();
    const expected = parseDayFile(handMade);
    appendObservations(expected, all);
    assert.equal(await readFile(path, 'utf8'), formatDayFile(expected));
  });
});

test('a file edited or removed between add and flush: the unsaved lines go to what is on disk, as one append would put them', async () => {
  await withHome(async (paths, path) => {
    const buffer = new DayFileBuffer(paths);
    const all = makeObservations(0, 30);
    await buffer.add(all.slice(0, 10));
    await buffer.flush();
    await buffer.add(all.slice(10, 20));
    await buffer.add(all.slice(20, 30));
    // Edited by hand: a note, and one of the unsaved observations written in by someone else.
    const onDisk = parseDayFile(await readFile(path, 'utf8'));
    appendObservations(onDisk, [all[15]!]);
    const edited = `${formatDayFile(onDisk)}\nA note I wrote.\n`;
    await writeFile(path, edited);
    await buffer.flush();
    const expected = parseDayFile(edited);
    appendObservations(expected, all.slice(10, 30));
    assert.equal(await readFile(path, 'utf8'), formatDayFile(expected));
    assert.equal(buffer.pending, false);

    // Removed while unsaved lines wait: a new file from the template, with those lines only.
    await buffer.add(makeObservations(30, 5));
    await rm(path);
    await buffer.flush();
    const written = listObservations(parseDayFile(await readFile(path, 'utf8')));
    assert.deepEqual(
      written.map((o) => o.id),
      makeObservations(30, 5).map((o) => o.id),
    );
    assert.equal(written[0]!.date, '2026-02-12');
  });
});
