/**
 * A note a user writes under an item (`  - (me) we use Helm 3.14, not 4`) is kept in the day file and
 * found by search as part of that item: the result is the item's id, and its text carries the note.
 * Through the built CLI, on a day file written by the program and then edited by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { runCli } from '../helpers/cli.js';
import { tempHome, writeDay } from '../helpers/search-fixtures.js';

test('a note under an item is searchable and belongs to that item', async () => {
  const paths = await tempHome();
  const day = await writeDay(paths, '2026-02-12', [
    { text: 'We deploy the billing service with Helm on the staging cluster.', category: 'decision', priority: 'high' },
    { text: 'The staging cluster runs in Frankfurt.', category: 'fact', priority: 'medium' },
  ]);
  const text = await readFile(day.path, 'utf8');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(day.ids[0]!));
  lines.splice(at + 1, 0, '  - (me) we pin chartmuseum 3.14, not 4');
  await writeFile(day.path, lines.join('\n'));

  const r = await runCli(['search', 'chartmuseum', '--home', paths.root, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const results = JSON.parse(r.stdout).results as Array<{ id: string; snippet: string }>;
  assert.deepEqual(
    results.map((x) => x.id),
    [day.ids[0]],
    'found as the item it was written under, and only as that',
  );
  assert.match(results[0]!.snippet, /chartmuseum/);
  // The item's own words still find it, and the next item does not take the note.
  const frankfurt = JSON.parse((await runCli(['search', 'Frankfurt chartmuseum', '--home', paths.root, '--json'])).stdout)
    .results as Array<{ id: string }>;
  assert.deepEqual(new Set(frankfurt.map((x) => x.id)), new Set(day.ids));
  assert.match(await readFile(day.path, 'utf8'), /\n {2}- \(me\) we pin chartmuseum 3\.14, not 4\n/, 'the note stays as written');
});
