import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DayFileBuffer } from '../lib/day-file-buffer.js';
import { listObservations, parseDayFile } from '../lib/day-file.js';
import { dayFilePath, ensureHome, homePaths } from '../lib/home.js';
import type { Observation } from '../lib/types.js';
import { tempDir } from './helpers/cli.js';

test('one flush of a very long queue for one day file writes it (no argument spread of the queue)', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const paths = homePaths(dir);
    await ensureHome(paths, async () => '');
    // More than a call's arguments can hold: a queue spread into push() overflowed the stack here.
    const count = 130_000;
    const observations: Observation[] = Array.from({ length: count }, (_, i) => ({
      id: `o-${i.toString(16).padStart(10, '0')}`,
      date: '2026-02-12',
      time: '10:00',
      priority: 'medium',
      done: false,
      category: 'fact',
      text: `Fact number ${i}.`,
      tags: [],
      agent: 'main',
      provenance: { source: 'openclaw', agent: 'main', session: 's1', entryIds: [`e${i}`] },
    }));
    const buffer = new DayFileBuffer(paths);
    assert.equal(await buffer.add(observations), count);
    await buffer.flush();
    assert.equal(buffer.pending, false);
    const written = listObservations(parseDayFile(await readFile(dayFilePath(paths, 'hot', 'main', '2026-02-12'), 'utf8')));
    assert.equal(written.length, count);
    assert.equal(written[count - 1]!.id, observations[count - 1]!.id);
  } finally {
    await cleanup();
  }
});
