import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireHomeLock, withHomeLock } from '../../lib/platform/lock.js';
import { tempDir } from '../helpers/cli.js';

test('a second job waits for the lock, or fails with LOCKED and a hint when it may not wait', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const target = join(dir, '.ocm', 'home');
    const release = await acquireHomeLock(target);
    await assert.rejects(
      acquireHomeLock(target, { waitMs: 0 }),
      (e: Error & { code?: string; hint?: string }) => e.code === 'LOCKED' && /Another OC-Memory job/.test(e.message) && Boolean(e.hint),
    );
    const order: string[] = [];
    const waiting = withHomeLock(target, async () => order.push('second'), { waitMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    order.push('first-done');
    await release();
    await waiting;
    assert.deepEqual(order, ['first-done', 'second']);
  } finally {
    await cleanup();
  }
});

test('a lock whose owner was killed is taken over at once, not after the stale timeout', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const target = join(dir, '.ocm', 'home');
    // A real process takes the lock and is killed with SIGKILL while holding it.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${new URL('../../lib/platform/lock.ts', import.meta.url).pathname}').then(async (m) => { await ` +
          `m.acquireHomeLock(${JSON.stringify(target)}); process.stdout.write('locked\\n'); setInterval(() => {}, 1000); ` +
          `})`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    assert.ok((await stat(`${target}.lock`)).isDirectory(), 'the dead owner left its lock behind');
    const t0 = Date.now();
    const release = await acquireHomeLock(target, { waitMs: 0, staleMs: 60_000 });
    await release();
    assert.ok(Date.now() - t0 < 60_000);
  } finally {
    await cleanup();
  }
});

test('a lock whose recorded owner is alive is respected', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const target = join(dir, '.ocm', 'home');
    await mkdir(`${target}.lock`, { recursive: true });
    await writeFile(target, '');
    // Owner: this very test process (alive) → must not be broken.
    await writeFile(`${target}.owner.json`, JSON.stringify({ pid: process.ppid, host: hostname(), since: new Date().toISOString() }));
    await assert.rejects(acquireHomeLock(target, { waitMs: 0, staleMs: 60_000 }), /Another OC-Memory job/);
  } finally {
    await cleanup();
  }
});

test('a lock held past its first refresh is released cleanly: the next job gets it at once', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const target = join(dir, '.ocm', 'home');
    // staleMs 6 s → refresh every 2 s; hold it through a refresh.
    await withHomeLock(target, () => new Promise((r) => setTimeout(r, 2500)), { staleMs: 6000 });
    await assert.rejects(stat(`${target}.lock`), 'the lock folder is gone after release');
    await withHomeLock(target, async () => undefined, { waitMs: 0, staleMs: 6000 });
  } finally {
    await cleanup();
  }
});

test('a live owner whose CPU-bound step keeps it from refreshing the lock is not taken over as stale', async () => {
  const { dir, cleanup } = await tempDir();
  const target = join(dir, '.ocm', 'home');
  const stop = join(dir, 'stop');
  // A real process takes the lock, then blocks its event loop (no lock refresh) until told to stop.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('${new URL('../../lib/platform/lock.ts', import.meta.url).pathname}').then(async (m) => { const ` +
        `release = await m.acquireHomeLock(${JSON.stringify(target)}, { staleMs: 5000 }); ` +
        `process.stdout.write('locked\\n'); const { existsSync } = await import('node:fs'); while ` +
        `(!existsSync(${JSON.stringify(stop)})) {} await release(); process.stdout.write('released\\n'); })`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (what: string, ok: () => Promise<boolean> | boolean, ms = 60_000) => {
      const deadline = Date.now() + ms;
      while (!(await ok())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await until('the child to take the lock', () => out.includes('locked'));
    // Its lock is older than staleMs now: it has not been refreshed while the child computes.
    await until('the lock to pass its stale age', async () => (await stat(`${target}.lock`)).mtimeMs < Date.now() - 6000);
    await assert.rejects(
      acquireHomeLock(target, { waitMs: 0, staleMs: 5000 }),
      (e: Error & { hint?: string }) =>
        new RegExp(`Another OC-Memory job \\(PID ${child.pid}, since `).test(e.message) && e.hint!.includes(`kill ${child.pid}`),
    );
    await writeFile(stop, '');
    await until('the child to release', () => out.includes('released'));
    const release = await acquireHomeLock(target, { waitMs: 5000, staleMs: 5000 });
    await release();
  } finally {
    child.kill('SIGKILL');
    await cleanup();
  }
});
