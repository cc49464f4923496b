/**
 * watch: real file-system events on a real OpenClaw-layout transcript tree,
 * the real tick (runTick under the home lock) against a temp home. Every one
 * of 100 appended lines must be read by a tick that the append triggered; the
 * detection latency is reported (p50/p99), not asserted — speed is measured
 * in bench/watch-latency.ts. Stopping is clean: no tick after close().
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateConfig } from '../../lib/config/config.js';
import { homePaths, ensureHome } from '../../lib/platform/home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { runTick } from '../../lib/jobs/run-job.js';
import { readState } from '../../lib/platform/state.js';
import { startWatch, watchTargetsFromConfig, type TickEvent } from '../../lib/jobs/watch.js';
import { globBase } from '../../lib/sources/descriptors.js';
import { configTemplate } from '../../scripts/cli-context.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { tempDir } from '../helpers/cli.js';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

test('watch targets follow the configured sources; glob bases are the static prefix', async () => {
  const config = validateConfig({
    sources: {
      openclaw: { state_dirs: ['~/oc-a', '/srv/oc-b'] },
      pi: { enabled: true },
      codex: { enabled: true, dir: '~/.codex/sessions' },
      generic: [{ name: 'logs', path: '~/logs/**/*.jsonl' }],
    },
  });
  const targets = await watchTargetsFromConfig(config, {}, '/home/ada');
  const dirs = targets.map((t) => t.dir);
  assert.deepEqual(dirs, [
    '/home/ada/oc-a/agents',
    '/srv/oc-b/agents',
    '/home/ada/.pi/agent/sessions',
    '/home/ada/.codex/sessions',
    '/home/ada/logs',
  ]);
  assert.equal(globBase('/var/log/agent.log'), '/var/log');
  assert.equal(globBase('/data/{a,b}/*.jsonl'), '/data');
  const none = await watchTargetsFromConfig(validateConfig({}), { OPENCLAW_STATE_DIR: '/x/state' }, '/home/ada');
  assert.deepEqual(
    none.map((t) => t.dir),
    ['/x/state/agents'],
  );
});

test('watch: 100 appended lines, each read by a tick it triggered; p99 reported; clean stop', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-watch-');
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const paths = homePaths(join(dir, 'home'));
    await ensureHome(paths, configTemplate);
    const config = validateConfig({ sources: { openclaw: { state_dirs: [stateDir] } } });
    const logger = createMemoryLogger();
    const writer = new PiSessionWriter('0b6c2d1e-1111-4222-8333-944455556666', new Date('2026-02-12T09:00:00Z'), 1000);
    const file = join(sessions, '0b6c2d1e-1111-4222-8333-944455556666.jsonl');
    await writeFile(
      file,
      writer.header() + writer.message({ role: 'user', text: 'I prefer TypeScript over JavaScript for backend services.' }),
    );

    const ticks: TickEvent[] = [];
    let waiter: ((e: TickEvent) => void) | undefined;
    const watcher = startWatch({
      targets: await watchTargetsFromConfig(config, {}, dir),
      ignore: [paths.root],
      logger,
      debounceMs: 50,
      maxWaitMs: 250,
      // Detection is what is measured here: the observe step (the whole tick's speed is bench/watch-latency.ts's).
      tick: () => runTick({ paths, config, env: {}, logger, steps: ['observe', 'active_memory'] }),
      onTick: (e) => {
        ticks.push(e);
        waiter?.(e);
      },
    });
    await watcher.ready;
    assert.deepEqual(watcher.watching(), [join(stateDir, 'agents')]);
    // The start tick reads what is already there.
    await new Promise<void>((resolve) => {
      if (ticks.length > 0) resolve();
      else waiter = () => resolve();
    });
    assert.equal((ticks[0]!.result as { observe: { messages: number } }).observe.messages, 1);

    const latencies: number[] = [];
    for (let i = 0; i < 100; i++) {
      const role = i % 2 === 0 ? 'assistant' : 'user';
      const line = writer.message({
        role,
        text: role === 'user' ? `We decided to ship release ${i} on Friday.` : `Noted: release ${i} ships Friday.`,
      });
      const detected = new Promise<TickEvent>((resolve, reject) => {
        // A bound, not a latency figure (the p99 is reported): generous enough for a machine under load.
        const timer = setTimeout(() => reject(new Error(`line ${i} was not read within 120 s`)), 120_000);
        waiter = (e) => {
          const o = (e.result as { observe?: { messages: number; waiting: { messages: number } } } | undefined)?.observe;
          if (e.reason === 'change' && o && o.messages + o.waiting.messages > 0) {
            clearTimeout(timer);
            resolve(e);
          }
        };
      });
      const appendedAt = Date.now();
      await appendFile(file, line);
      const e = await detected;
      assert.equal(e.error, undefined);
      latencies.push(e.endedAt - appendedAt);
    }
    const { state } = await readState(paths.state);
    const stream = Object.values(state.streams)[0]!;
    assert.equal(stream.messages, 101, 'every line was read exactly once');
    assert.equal(ticks.filter((e) => e.error).length, 0);

    const tickMs = ticks.map((e) => e.endedAt - e.startedAt);
    t.diagnostic(
      `detection latency over 100 lines: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, ` +
        `max ${Math.max(...latencies)} ms (append → tick that read it finished); slowest tick ${Math.max(...tickMs)} ms`,
    );

    await watcher.close();
    const after = ticks.length;
    await appendFile(file, writer.message({ role: 'user', text: 'This line is written after the watcher stopped.' }));
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(ticks.length, after, 'no tick after close()');
  } finally {
    await cleanup();
  }
});

test('watch: a transcript folder created after start is picked up', async () => {
  const { dir, cleanup } = await tempDir('ocm-watch-');
  try {
    const stateDir = join(dir, 'later');
    const paths = homePaths(join(dir, 'home'));
    await ensureHome(paths, configTemplate);
    const config = validateConfig({ sources: { openclaw: { state_dirs: [stateDir] } } });
    const logger = createMemoryLogger();
    let read = 0;
    let done: (() => void) | undefined;
    const watcher = startWatch({
      targets: await watchTargetsFromConfig(config, {}, dir),
      ignore: [paths.root],
      logger,
      debounceMs: 50,
      rescanMs: 100,
      initialTick: false,
      tick: () => runTick({ paths, config, env: {}, logger }),
      onTick: (e) => {
        read += (e.result as { observe?: { messages: number } } | undefined)?.observe?.messages ?? 0;
        if (read >= 2) done?.();
      },
    });
    await watcher.ready;
    assert.deepEqual(watcher.watching(), []);
    const sessions = join(stateDir, 'agents', 'work', 'sessions');
    await mkdir(sessions, { recursive: true });
    const w = new PiSessionWriter('7a1b2c3d-1111-4222-8333-944455556666', new Date('2026-02-12T09:00:00Z'));
    const finished = new Promise<void>((resolve, reject) => {
      done = resolve;
      // A bound, not a latency figure (bench/ has those): a rescan, then a whole observe + index tick, which
      // beside two CPU hogs takes more than 10 s.
      setTimeout(() => reject(new Error('the new folder was not picked up within 120 s')), 120_000);
    });
    await writeFile(
      join(sessions, '7a1b2c3d-1111-4222-8333-944455556666.jsonl'),
      w.header() +
        w.message({ role: 'user', text: 'Remember that the staging database is Postgres 16.' }) +
        w.message({ role: 'assistant', text: 'Got it.' }),
    );
    await finished;
    assert.deepEqual(watcher.watching(), [join(stateDir, 'agents')]);
    await watcher.close();
  } finally {
    await cleanup();
  }
});
