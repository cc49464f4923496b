/**
 * An idle tick skips loading the move journal's code when hasPendingOps says
 * there is nothing to recover; it must say "pending" for every op recovery
 * would act on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { homePaths } from '../../lib/platform/home.js';
import { hasPendingOps } from '../../lib/tiers/op-scan.js';
import { tempDir } from '../helpers/cli.js';

test('hasPendingOps: only committed or aborted ops (or none) mean nothing to recover', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const paths = homePaths(join(dir, 'home'));
    assert.equal(await hasPendingOps(paths), false, 'no journal');
    const ops = join(paths.machine, 'ops');
    const op = async (id: string, manifest?: string) => {
      await mkdir(join(ops, id), { recursive: true });
      if (manifest !== undefined) await writeFile(join(ops, id, 'op.json'), manifest);
    };
    await mkdir(ops, { recursive: true });
    assert.equal(await hasPendingOps(paths), false, 'empty journal');
    await op('op-20260101-000000-aaaaaa', JSON.stringify({ state: 'committed' }));
    await op('op-20260101-000001-bbbbbb', JSON.stringify({ state: 'aborted' }));
    await writeFile(join(ops, 'README'), 'not an op');
    assert.equal(await hasPendingOps(paths), false, 'finished ops only');
    await op('op-20260101-000002-cccccc', JSON.stringify({ state: 'prepared' }));
    assert.equal(await hasPendingOps(paths), true, 'a prepared op rolls forward');
    await writeFile(join(ops, 'op-20260101-000002-cccccc', 'op.json'), JSON.stringify({ state: 'committed' }));
    await op('op-20260101-000003-dddddd');
    assert.equal(await hasPendingOps(paths), true, 'an op without a manifest is discarded by recovery');
    await writeFile(join(ops, 'op-20260101-000003-dddddd', 'op.json'), '{"state": "prep');
    assert.equal(await hasPendingOps(paths), true, 'a torn manifest');
    await writeFile(join(ops, 'op-20260101-000003-dddddd', 'op.json'), JSON.stringify({ state: 'committed' }));
    await op('op-bad.name', JSON.stringify({ state: 'committed' }));
    assert.equal(await hasPendingOps(paths), true, 'a folder name recovery rejects is left to recovery to report');
  } finally {
    await cleanup();
  }
});
