/**
 * The WebAssembly driver's copy of a live database (lib/platform/sqlite-snapshot.ts):
 * committed WAL frames applied, a torn or uncommitted tail left out, and
 * nothing written beside the database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { openWritable } from '../helpers/sqlite-writable.js';
import { applyWal, snapshotDatabase } from '../../lib/platform/sqlite-snapshot.js';

process.env.OCM_SQLITE_DRIVER = 'sql.js';
const { openReadOnly } = await import('../../lib/platform/sqlite.js');

async function count(path: string): Promise<number> {
  const db = await openReadOnly(path);
  try {
    return db.get<{ n: number }>('SELECT count(*) AS n FROM t')!.n;
  } finally {
    db.close();
  }
}

test('rows still only in the WAL are read; nothing is created beside the database', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = join(dir, 'a.sqlite');
    const w = openWritable(path);
    w.pragma('journal_mode = wal');
    w.pragma('wal_autocheckpoint = 0');
    w.exec('CREATE TABLE t (x TEXT)');
    const insert = w.prepare('INSERT INTO t (x) VALUES (?)');
    for (let i = 0; i < 300; i++) insert.run(`row ${i}`);
    const files = (await readdir(dir)).sort();
    assert.ok(files.includes('a.sqlite-wal'));
    assert.ok((await readFile(path)).length < 8192, 'the rows are in the WAL, not yet in the main file');
    assert.equal(await count(path), 300);
    insert.run('one more');
    assert.equal(await count(path), 301, 'a later commit is seen by the next open');
    w.pragma('wal_checkpoint(TRUNCATE)');
    insert.run('after the log started over');
    assert.equal(await count(path), 302);
    assert.deepEqual((await readdir(dir)).sort(), files, 'no lock file, no -shm or -journal of ours');
    w.close();
  } finally {
    await cleanup();
  }
});

test('a torn last frame or a commit never finished is left out, as SQLite recovery does', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = join(dir, 'b.sqlite');
    const w = openWritable(path);
    w.pragma('journal_mode = wal');
    w.pragma('wal_autocheckpoint = 0');
    w.exec('CREATE TABLE t (x TEXT)');
    w.prepare('INSERT INTO t (x) VALUES (?)').run('first');
    const main = await readFile(path);
    const committedOnce = await readFile(`${path}-wal`);
    w.prepare('INSERT INTO t (x) VALUES (?)').run('second');
    const wal = await readFile(`${path}-wal`);
    w.close();
    assert.ok(wal.length > committedOnce.length);
    // The second commit's frames, cut short and then with a damaged byte: only the first commit remains.
    const torn = wal.subarray(0, wal.length - 100);
    const damaged = Buffer.from(wal);
    damaged[wal.length - 10] = damaged[wal.length - 10]! ^ 0xff;
    for (const [label, log] of [
      ['torn', torn],
      ['damaged', damaged],
      ['whole', wal],
    ] as const) {
      const copy = join(dir, `${label}.sqlite`);
      await writeFile(copy, applyWal(main, log));
      assert.equal(await count(copy), label === 'whole' ? 2 : 1, label);
    }
    assert.ok(snapshotDatabase(path).image.length > 0);
  } finally {
    await cleanup();
  }
});
