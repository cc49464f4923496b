/**
 * start --daemon / status / stop as real child processes of the built CLI:
 * the daemon detaches, writes its pidfile, observes a transcript line written
 * after it started, and stops on SIGTERM; stop exits 3 when nothing runs;
 * --force kills a watcher that ignores SIGTERM; a stale pidfile is cleaned up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { isAlive, processStartTime } from '../../lib/jobs/daemon.js';
import { readState } from '../../lib/platform/state.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await fn();
    if (v !== undefined) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('daemon: start --daemon detaches and observes, status shows PID and uptime, stop ends it; stop without a daemon exits 3', async () => {
  const { dir, cleanup } = await tempDir('ocm-daemon-');
  let pid: number | undefined;
  try {
    const home = join(dir, 'home');
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const w = new PiSessionWriter('5d1e2f3a-1111-4222-8333-944455556666', new Date('2026-02-12T09:00:00Z'));
    const file = join(sessions, '5d1e2f3a-1111-4222-8333-944455556666.jsonl');
    await writeFile(file, w.header() + w.message({ role: 'user', text: 'I prefer tabs over spaces in Go code.' }));
    const env = { OPENCLAW_STATE_DIR: stateDir, HOME: dir };

    const notRunning = await runCli(['stop', '--home', home], { env });
    assert.equal(notRunning.code, 3, notRunning.stderr);
    assert.match(notRunning.stderr, /not running/);
    assert.match(notRunning.stderr, /start --daemon/);

    const started = await runCli(['start', '--daemon', '--home', home], { env });
    assert.equal(started.code, 0, started.stderr);
    const m = /PID (\d+)/.exec(started.stdout);
    assert.ok(m, started.stdout);
    pid = Number(m[1]);
    assert.ok(isAlive(pid));
    const pidfile = JSON.parse(await readFile(join(home, '.ocm', 'watch.pid'), 'utf8'));
    assert.equal(pidfile.pid, pid);
    assert.equal(pidfile.mode, 'daemon');

    const again = await runCli(['start', '--daemon', '--home', home], { env });
    assert.equal(again.code, 0);
    assert.match(again.stdout, new RegExp(`Already running \\(PID ${pid}`));

    // It observes a line appended after it started.
    await appendFile(file, w.message({ role: 'user', text: 'We decided to deploy on Fridays only after 10am.' }));
    await until('the daemon to read the new line', async () => {
      const { state } = await readState(join(home, '.ocm', 'state.json'));
      const s = Object.values(state.streams)[0];
      return s && s.messages >= 2 ? true : undefined;
    });

    await sleep(1100);
    const status = await runCli(['status', '--json', '--home', home], { env });
    assert.equal(status.code, 0, status.stderr);
    const daemon = JSON.parse(status.stdout).daemon;
    assert.equal(daemon.running, true);
    assert.equal(daemon.pid, pid);
    assert.ok(daemon.uptimeSeconds >= 1);
    const human = await runCli(['status', '--home', home], { env });
    assert.match(human.stdout, new RegExp(`Watcher: running \\(PID ${pid}, up \\d+s`));

    const stopped = await runCli(['stop', '--home', home], { env });
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, new RegExp(`Stopped ocm-run watch \\(PID ${pid}\\)`));
    assert.equal(isAlive(pid), false);
    await assert.rejects(stat(join(home, '.ocm', 'watch.pid')), 'pidfile removed');
    const log = await readFile(join(home, 'logs', 'daemon.log'), 'utf8');
    assert.match(log, /Watching .*agents/);
    assert.match(log, /Stopped watching\./);
    const after = JSON.parse((await runCli(['status', '--json', '--home', home], { env })).stdout).daemon;
    assert.equal(after.running, false);
    assert.equal((await runCli(['stop', '--home', home], { env })).code, 3);
    pid = undefined;
  } finally {
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    await cleanup();
  }
});

test('daemon: stop --force kills a watcher that ignores SIGTERM; a stale pidfile is cleaned up', async () => {
  const { dir, cleanup } = await tempDir('ocm-daemon-');
  const stubborn = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);", 'watch'], {
    stdio: 'ignore',
  });
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, '.ocm'), { recursive: true });
    await sleep(300);
    const pidfile = join(home, '.ocm', 'watch.pid');
    const processStart = await processStartTime(stubborn.pid!);
    assert.ok(processStart, 'the OS tells when the process started');
    await writeFile(
      pidfile,
      JSON.stringify({ pid: stubborn.pid, startedAt: new Date().toISOString(), home, mode: 'daemon', processStart }),
    );

    const polite = await runCli(['stop', '--timeout', '1', '--home', home]);
    assert.equal(polite.code, 1);
    assert.match(polite.stderr, /did not stop within 1 s/);
    assert.match(polite.stderr, /--force/);
    assert.ok(isAlive(stubborn.pid!));

    const forced = await runCli(['stop', '--force', '--timeout', '1', '--home', home]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /Killed ocm-run watch/);
    await until('the stubborn process to die', async () => (isAlive(stubborn.pid!) ? undefined : true), 5000);

    // A pidfile left by a process that is gone.
    await writeFile(pidfile, JSON.stringify({ pid: 2 ** 22 - 7, startedAt: new Date().toISOString(), home, mode: 'daemon' }));
    const st = JSON.parse((await runCli(['status', '--json', '--home', home])).stdout).daemon;
    assert.equal(st.running, false);
    assert.equal(st.stale, true);
    await assert.rejects(stat(pidfile));
  } finally {
    if (stubborn.pid && isAlive(stubborn.pid)) stubborn.kill('SIGKILL');
    await cleanup();
  }
});

test("daemon: stop never signals a process that merely reuses the pidfile's PID (an `npm start`, another watch)", async () => {
  const { dir, cleanup } = await tempDir('ocm-daemon-');
  // Looks like a watcher to any argv test: "start" and "watch" among its words.
  const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000);', 'start', 'watch'], { stdio: 'ignore' });
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, '.ocm'), { recursive: true });
    const pidfile = join(home, '.ocm', 'watch.pid');
    const real = await until('the bystander to start', async () => processStartTime(bystander.pid!));
    const records = [
      // The watcher that wrote it started at another time: the PID was reused.
      { pid: bystander.pid, startedAt: new Date().toISOString(), home, mode: 'daemon', processStart: `${real}0` },
      // An older pidfile with no start time: not certain enough to signal.
      { pid: bystander.pid, startedAt: new Date().toISOString(), home, mode: 'daemon' },
    ];
    for (const record of records) {
      await writeFile(pidfile, JSON.stringify(record));
      const stop = await runCli(['stop', '--force', '--timeout', '1', '--home', home]);
      assert.equal(stop.code, 3, stop.stdout + stop.stderr);
      assert.match(stop.stderr, /not running/);
      assert.ok(isAlive(bystander.pid!), 'the bystander still runs');
      await assert.rejects(stat(pidfile), 'the stale pidfile is removed');
    }
  } finally {
    if (bystander.pid && isAlive(bystander.pid)) bystander.kill('SIGKILL');
    await cleanup();
  }
});
