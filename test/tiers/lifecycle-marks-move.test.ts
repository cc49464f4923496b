/**
 * A lifecycle mark is part of its line: it moves with the day file hot → warm → the vault (cold), is
 * searched there, and survives a Git merge of the memory with a change made elsewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { dayFilePath } from '../../lib/platform/home.js';

function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}

test('marks move with their files to warm and into the vault, and are searched there', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers: {vault_path: ` +
      `${JSON.stringify(vault)}, cold_requires_approval: false}\n`,
  );
  const old = daysAgo(400);
  const mid = daysAgo(100);
  const pg = makeObservation(1, old, {
    text: 'We use Postgres 16 for the crumbline database.',
    category: 'decision',
    mark: { kind: 'superseded', date: mid, by: 'o-2ba8f29992' },
  });
  const task = makeObservation(2, mid, {
    text: 'Assistant will do the login flow first.',
    category: 'task',
    done: true,
    mark: { kind: 'done', date: mid, by: 'o-93d9fc4be4' },
  });
  await writeHot(paths, [pg, task]);
  const superseded = `We use Postgres 16 for the crumbline database. (superseded ${mid} by o-2ba8f29992) ^${pg.id}`;
  const done = `Assistant will do the login flow first. (done ${mid} by o-93d9fc4be4) ^${task.id}`;

  assert.equal((await runCli(['archive', '--older-than', '50', '--to', 'warm', '--home', paths.root])).code, 0);
  assert.ok((await readFile(dayFilePath(paths, 'warm', 'main', mid), 'utf8')).includes(done));
  assert.equal((await runCli(['archive', '--older-than', '300', '--to', 'cold', '--approve-all', '--home', paths.root])).code, 0);
  const note = await readFile(join(vault, 'OC-Memory', old.slice(0, 4), `${old}.md`), 'utf8');
  assert.ok(note.includes(superseded), note);

  const found = JSON.parse((await runCli(['search', 'crumbline database login flow', '--json', '--home', paths.root])).stdout).results;
  const byId = new Map(found.map((r: { id: string }) => [r.id, r]));
  assert.deepEqual((byId.get(pg.id) as { mark: unknown; tier: string }).mark, { kind: 'superseded', date: mid, by: 'o-2ba8f29992' });
  assert.equal((byId.get(pg.id) as { tier: string }).tier, 'cold');
  assert.deepEqual((byId.get(task.id) as { mark: unknown }).mark, { kind: 'done', date: mid, by: 'o-93d9fc4be4' });
  const current = JSON.parse(
    (await runCli(['search', 'crumbline database login flow', '--current', '--json', '--home', paths.root])).stdout,
  ).results;
  assert.deepEqual(
    current.filter((r: { id: string }) => r.id === pg.id || r.id === task.id),
    [],
  );
});

test('a mark set on one machine and a line observed on another merge in Git without a conflict', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const day = daysAgo(2);
  const pg = makeObservation(1, day, { text: 'We use Postgres 16 for the crumbline database.', category: 'decision', time: '09:00' });
  const sqlite = makeObservation(2, day, { text: 'We moved the crumbline database to SQLite.', category: 'decision', time: '10:00' });
  await writeHot(paths, [pg, sqlite]);
  const git = (...args: string[]) =>
    execa('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: paths.memory });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'memory');
  // The other machine: a later observation of the same day.
  await git('checkout', '-qb', 'laptop');
  await writeHot(paths, [makeObservation(3, day, { text: 'The bakery opens at 6 on Saturdays.', category: 'fact', time: '11:00' })]);
  await git('commit', '-qam', 'observed on the laptop');
  await git('checkout', '-q', 'main');
  assert.equal((await runCli(['mark', pg.id, 'superseded-by', sqlite.id, '--home', paths.root])).code, 0);
  await git('commit', '-qam', 'marked here');
  const merged = await git('merge', '-q', '--no-edit', 'laptop');
  assert.equal(merged.exitCode, 0);
  const text = await readFile(dayFilePath(paths, 'hot', 'main', day), 'utf8');
  assert.doesNotMatch(text, /<<<<<<<|>>>>>>>/);
  assert.match(
    text,
    new RegExp(`Postgres 16 for the crumbline database\\. \\(superseded \\d{4}-\\d{2}-\\d{2} by ${sqlite.id}\\) \\^${pg.id}`),
  );
  assert.match(text, /The bakery opens at 6 on Saturdays\./);
  assert.equal((await runCli(['run', '--home', paths.root])).code, 0);
  const active = await readFile(paths.activeMemory, 'utf8');
  assert.doesNotMatch(active, /Postgres 16/);
  assert.match(active, /bakery opens at 6/);
});
