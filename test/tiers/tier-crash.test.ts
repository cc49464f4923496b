/**
 * A move killed with SIGKILL at any point is completed (or undone) by the next
 * run: never half-moved, never duplicated, never lost. The CLI runs as a child
 * process; OCM_TEST_CRASH_AT makes it kill itself at a chosen step (test mode
 * only), and a second test kills it at random moments from outside.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { hashTree, idsByTier, newHome, spread, treeDiff, writeHot } from '../helpers/tier-home.js';
import { homePaths } from '../../lib/platform/home.js';
import { readAudit } from '../../lib/tiers/audit.js';
import { rng } from '../../bench/search-corpus.js';

// Real "today": the ages avoid the 90/365-day borders by more than a day, so a
// test that runs across midnight still expects the same moves.
const TODAY = new Date().toISOString().slice(0, 10);

async function makeHome(dir: string, scale = 1): Promise<void> {
  const paths = await newHome(dir);
  // A home that has been running: its active memory exists, so `run` has nothing
  // to rebuild or reflect and does the same work after a crash as without one.
  await writeFile(paths.activeMemory, '# Active memory\n');
  await writeHot(paths, [
    ...spread(20 * scale, 0, 80, TODAY, 0, ['main', 'work']),
    ...spread(60 * scale, 100, 350, TODAY, 1000, ['main', 'main', 'work']),
    ...spread(20 * scale, 380, 420, TODAY, 5000, ['main']),
  ]);
}

async function configure(dir: string): Promise<string> {
  const home = join(dir, 'home');
  await writeFile(
    join(home, 'config.yaml'),
    [
      'timezone: UTC',
      'sources:',
      '  openclaw: {enabled: false}',
      '  openclaw_db: {enabled: false}',
      'tiers:',
      `  vault_path: ${JSON.stringify(join(dir, 'vault'))}`,
      '  cold_requires_approval: false',
      '',
    ].join('\n'),
  );
  return home;
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const home = join(dir, 'home');
  // Temp files of a killed write count too: recovery removes them.
  return hashTree([join(home, 'memory'), join(home, 'archive'), join(dir, 'vault', 'OC-Memory')]);
}

async function copyOf(seed: string, into: string): Promise<string> {
  await mkdir(into, { recursive: true });
  await cp(join(seed, 'home'), join(into, 'home'), { recursive: true });
  return configure(into);
}

async function assertConsistent(dir: string, expected: Record<string, string>, label: string): Promise<void> {
  const home = join(dir, 'home');
  const got = await snapshot(dir);
  assert.ok(Object.keys(expected).length > 50);
  assert.deepEqual(treeDiff(got, expected), [], `${label}: same files, same bytes as an uninterrupted run`);
  const ids = await idsByTier(homePaths(home), join(dir, 'vault'));
  const all = [...ids.hot, ...ids.warm, ...ids.cold];
  assert.equal(new Set(all).size, all.length, `${label}: no observation twice`);
  const audit = await readAudit(join(home, '.ocm', 'audit.log'));
  const moves = audit.filter((e) => e.action === 'move').map((e) => e.op);
  assert.equal(new Set(moves).size, moves.length, `${label}: one audit line per move`);
}

test('kill -9 at every step of a move, then `run`: the same end state as an uninterrupted run', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const seed = join(dir, 'seed');
  await makeHome(seed);

  const ref = join(dir, 'ref');
  const refHome = await copyOf(seed, ref);
  const clean = await runCli(['tier', '--home', refHome]);
  assert.equal(clean.code, 0, clean.stderr);
  const expected = await snapshot(ref);
  const refIds = await idsByTier(homePaths(refHome), join(ref, 'vault'));
  assert.equal(refIds.hot.length, 20);
  assert.equal(refIds.warm.length, 60);
  assert.equal(refIds.cold.length, 20);

  const steps = ['staged', 'prepared', 'copied-one', 'copied', 'indexed', 'removed-one', 'removed', 'audited', 'committed'];
  for (let i = 0; i < steps.length; i += 3) {
    await Promise.all(
      steps.slice(i, i + 3).map(async (step) => {
        const run = join(dir, `crash-${step}`);
        const home = await copyOf(seed, run);
        const crashed = await execa(process.execPath, [CLI, 'tier', '--home', home], {
          reject: false,
          env: { OCM_TEST: '1', OCM_TEST_CRASH_AT: step, CI: '1' },
        });
        assert.equal(crashed.signal, 'SIGKILL', `${step}: the run was killed (${crashed.stderr})`);
        const after = await runCli(['run', '--home', home]);
        assert.equal(after.code, 0, `${step}: ${after.stderr}`);
        await assertConsistent(run, expected, step);
      }),
    );
  }
});

test('kill -9 at random moments, again and again, then `run`: nothing lost, nothing doubled', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const seed = join(dir, 'seed');
  await makeHome(seed, 3);
  const ref = join(dir, 'ref');
  const refHome = await copyOf(seed, ref);
  assert.equal((await runCli(['tier', '--home', refHome])).code, 0);
  const expected = await snapshot(ref);

  const random = rng(4242);
  const run = join(dir, 'random');
  const home = await copyOf(seed, run);
  let killed = 0;
  for (let attempt = 0; attempt < 6; attempt++) {
    const child = execa(process.execPath, [CLI, 'tier', '--home', home], { reject: false, env: { CI: '1' } });
    const delay = 300 + Math.floor(random() * 3500);
    const timer = setTimeout(() => child.kill('SIGKILL'), delay);
    const r = await child;
    clearTimeout(timer);
    if (r.signal === 'SIGKILL') killed++;
    else assert.equal(r.exitCode, 0, r.stderr);
  }
  t.diagnostic(`killed ${killed} of 6 runs`);
  const after = await runCli(['run', '--home', home]);
  assert.equal(after.code, 0, after.stderr);
  await assertConsistent(run, expected, `after ${killed} random kills`);
});
