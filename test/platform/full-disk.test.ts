/**
 * A full disk and a read-only home for the commands that mostly read
 * (issue #22 item 10): `search` answers from the index it has when it cannot
 * bring the index up to date (it says so), and `export` on a full disk says
 * what is true for it — not observe's "the cursor did not advance". The home
 * sits on a tiny tmpfs (or a read-only bind mount) in a private mount
 * namespace (`unshare -rm`); skipped where none can be made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { runOnRefusingDisk } from '../helpers/refusing-disk.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';

const TODAY = new Date().toISOString().slice(0, 10);

test('search answers from the index it has on a full disk and on a read-only home; export says what is true', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-full-');
  t.after(cleanup);
  const paths = await newHome(join(dir, 'src'));
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  await writeHot(paths, [makeObservation(1, TODAY, { text: 'The quarterly budget review is on Friday.' })]);
  const indexed = await runCli(['index', '--home', paths.root]);
  assert.equal(indexed.code, 0, indexed.stderr);
  // A newer memory the index has not seen: search wants to update the index first.
  await writeHot(paths, [makeObservation(2, TODAY, { text: 'The quarterly budget moved to Monday.' })]);
  const mount = join(dir, 'mnt');
  await mkdir(mount, { recursive: true });

  const probe = await runOnRefusingDisk('full', paths.root, mount, ['--version']).catch(() => undefined);
  if (probe?.code !== 0) return t.skip('no mount namespace here (unshare not allowed)');

  for (const kind of ['full', 'read-only'] as const) {
    const search = (await runOnRefusingDisk(kind, paths.root, mount, ['search', 'quarterly budget', '--json']))!;
    assert.equal(search.code, 0, `${kind}: ${search.stderr}${search.stdout}`);
    const response = JSON.parse(search.stdout) as { results: Array<{ snippet: string }>; warnings: string[] };
    assert.ok(
      response.results.some((r) => /Friday/.test(r.snippet)),
      `${kind}: answered from the index it has`,
    );
    assert.ok(
      response.warnings.some((w) => /could not be updated/.test(w)),
      `${kind}: says the index is behind: ${response.warnings.join(' | ')}`,
    );
  }

  const exported = (await runOnRefusingDisk('full', paths.root, mount, ['export', '--output', join(mount, 'out.json')]))!;
  assert.notEqual(exported.code, 0);
  assert.match(exported.stderr, /The disk is full/);
  assert.doesNotMatch(exported.stderr, /cursor/);
});
