/**
 * The run tick's memory fingerprint (lib/search/fingerprint.ts) lists the
 * files the indexer lists, with the same error policy: an unreadable folder
 * fails the tick's index step instead of leaving the fingerprint unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryFingerprint } from '../../lib/search/fingerprint.js';
import { updateIndex } from '../../lib/search/indexer.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';

test("the fingerprint covers exactly the files the indexer indexes (dot folders and the vault's ignored notes left out)", async () => {
  const paths = await tempHome();
  const vault = join(paths.root, 'vault');
  const config = testConfig({ tiers: { vault_path: vault } });
  await writeDay(paths, '2026-02-10', [{ text: 'User prefers TypeScript.' }]);
  await writeDay(paths, '2025-06-01', [{ text: 'Old decision: MySQL.' }], { tier: 'warm' });
  await mkdir(join(paths.memory, '.trash'), { recursive: true });
  await writeFile(join(paths.memory, '.trash', 'old.md'), '# gone\n');
  await mkdir(join(vault, 'OC-Memory', 'Reflections'), { recursive: true });
  await writeFile(join(vault, 'OC-Memory', 'README.md'), '# The vault\n');
  await writeFile(join(vault, 'OC-Memory', 'Reflections', 'r.md'), '# A copy\n');
  const indexed = await updateIndex(paths, config);
  const fingerprint = await memoryFingerprint(paths, vault);
  assert.equal(indexed.files, 2);
  assert.equal(fingerprint.files, indexed.files);
});

test('a memory folder that cannot be read is an error of the fingerprint, as of the indexer', async () => {
  const paths = await tempHome();
  const config = testConfig();
  await writeDay(paths, '2026-02-10', [{ text: 'User prefers TypeScript.' }]);
  // A symbolic link to itself: unreadable for every user (root too, where a chmod would not be).
  await symlink(paths.archive, paths.archive);
  await assert.rejects(updateIndex(paths, config), { code: 'ELOOP' });
  await assert.rejects(memoryFingerprint(paths, ''), { code: 'ELOOP' });
  // A root that does not exist is empty, not an error.
  await rm(paths.archive);
  assert.equal((await memoryFingerprint(paths, '')).files, 1);
});

test('a tick after an idle one fails on a memory folder that became unreadable, instead of skipping the index', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'home');
    const stateDir = join(dir, 'openclaw');
    const vault = join(dir, 'vault');
    await mkdir(stateDir, { recursive: true });
    await mkdir(vault, { recursive: true });
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\ntiers:\n  vault_path: ${JSON.stringify(vault)}\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`,
    );
    const env = { HOME: dir, USERPROFILE: dir };
    const first = await runCli(['run', '--home', home], { env });
    assert.equal(first.code, 0, first.stderr);
    // Past the index's mtime safety window: the next tick may skip the index when the fingerprint is unchanged.
    await new Promise((r) => setTimeout(r, 2500));
    // The cold tier's folder, which no other step of an idle tick opens, becomes unreadable.
    await rm(join(vault, 'OC-Memory'), { recursive: true, force: true });
    await symlink(join(vault, 'OC-Memory'), join(vault, 'OC-Memory'));
    const second = await runCli(['run', '--home', home], { env });
    assert.notEqual(second.code, 0, 'the tick reported success over an unreadable memory folder');
    assert.match(second.stderr, /ELOOP/);
  } finally {
    await cleanup();
  }
});
