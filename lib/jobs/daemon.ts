/**
 * The watch process as a daemon: a pidfile under the home (written by the
 * watch process itself, so a foreground `watch` counts too), `start --daemon`
 * detaching it with its output in a log file, `stop` ending it (SIGTERM, then
 * SIGKILL with --force), and its status (running, PID, uptime).
 */
import { spawn } from 'node:child_process';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { OcmError, errorCode } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import { isAlive, processStartTime } from '../platform/lock.js';
import { rotateLogIfLarge } from '../platform/log.js';

export interface DaemonRecord {
  pid: number;
  startedAt: string;
  home: string;
  /** How it was started: foreground `watch`/`start`, or `start --daemon`. */
  mode: 'foreground' | 'daemon';
  log?: string;
  /**
   * When the OS says this process started (processStartTime): a PID and its
   * start time name one process for certain, even after the PID is reused.
   */
  processStart?: string;
}

export interface DaemonStatus {
  running: boolean;
  pid?: number;
  startedAt?: string;
  uptimeSeconds?: number;
  mode?: DaemonRecord['mode'];
  log: string;
  pidfile: string;
  /** A pidfile was left by a process that is gone, or whose PID now names another process (removed when seen). */
  stale?: boolean;
}

export function daemonPaths(paths: HomePaths): { pidfile: string; log: string } {
  return { pidfile: join(paths.machine, 'watch.pid'), log: join(paths.logs, 'daemon.log') };
}

export { isAlive, processStartTime };

/**
 * The pidfile's process is the watcher that wrote it: alive, and started at
 * the recorded time. A PID reused by any other process (`npm start`, another
 * `watch`) has another start time; a pidfile without one (an older version, or
 * an OS that cannot tell) is never trusted enough to signal.
 */
async function isRecordedProcess(record: DaemonRecord): Promise<boolean> {
  if (!isAlive(record.pid) || record.processStart === undefined) return false;
  return (await processStartTime(record.pid)) === record.processStart;
}

async function readRecord(pidfile: string): Promise<DaemonRecord | undefined> {
  try {
    const r = JSON.parse(await readFile(pidfile, 'utf8')) as DaemonRecord;
    return Number.isInteger(r.pid) && r.pid > 0 ? r : undefined;
  } catch {
    return undefined;
  }
}

export async function daemonStatus(paths: HomePaths, now: Date = new Date()): Promise<DaemonStatus> {
  const { pidfile, log } = daemonPaths(paths);
  const record = await readRecord(pidfile);
  if (!record) return { running: false, log, pidfile };
  if (!(await isRecordedProcess(record))) {
    await rm(pidfile, { force: true });
    return { running: false, log, pidfile, stale: true };
  }
  return {
    running: true,
    pid: record.pid,
    startedAt: record.startedAt,
    uptimeSeconds: Math.max(0, Math.round((now.getTime() - Date.parse(record.startedAt)) / 1000)),
    mode: record.mode,
    log: record.log ?? log,
    pidfile,
  };
}

/**
 * Register this process as the home's watcher. Refuses when another live
 * watcher holds the pidfile. Returns a function that removes it again.
 */
export async function claimPidfile(paths: HomePaths, mode: DaemonRecord['mode'], now: Date = new Date()): Promise<() => Promise<void>> {
  const status = await daemonStatus(paths, now);
  if (status.running && status.pid !== process.pid) {
    throw new OcmError('BAD_INPUT', `ocm-run watch is already running for ${paths.root} (PID ${status.pid}).`, {
      hint: 'Stop it first with `ocm-run stop`, or leave it running: one watcher per memory home is enough.',
    });
  }
  const { pidfile, log } = daemonPaths(paths);
  const processStart = await processStartTime(process.pid);
  const record: DaemonRecord = {
    pid: process.pid,
    startedAt: now.toISOString(),
    home: paths.root,
    mode,
    log: mode === 'daemon' ? log : undefined,
    processStart,
  };
  await writeFileAtomic(pidfile, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  return async () => {
    const current = await readRecord(pidfile);
    if (current?.pid === process.pid) await rm(pidfile, { force: true });
  };
}

export interface StartResult {
  alreadyRunning: boolean;
  status: DaemonStatus;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Start `<node> <cli> watch --home <home>` detached, output appended to the
 * daemon log, and wait until it has written its pidfile.
 */
export async function startDaemon(options: {
  paths: HomePaths;
  node: string;
  cli: string;
  /** Extra arguments for watch (e.g. --config). */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  waitMs?: number;
}): Promise<StartResult> {
  const { paths } = options;
  const current = await daemonStatus(paths);
  if (current.running) return { alreadyRunning: true, status: current };
  const { log } = daemonPaths(paths);
  await rotateLogIfLarge(log);
  const handle = await open(log, 'a', 0o600);
  const startOffset = (await handle.stat()).size;
  let exited: number | null | undefined;
  try {
    const child = spawn(options.node, [options.cli, 'watch', '--home', paths.root, '--daemon-child', ...(options.args ?? [])], {
      detached: true,
      stdio: ['ignore', handle.fd, handle.fd],
      env: options.env ?? process.env,
      windowsHide: true,
    });
    child.on('exit', (code) => {
      exited = code;
    });
    child.unref();
    const deadline = Date.now() + (options.waitMs ?? 15000);
    while (Date.now() < deadline) {
      const s = await daemonStatus(paths);
      if (s.running && s.pid === child.pid) return { alreadyRunning: false, status: s };
      if (exited !== undefined) break;
      await sleep(50);
    }
    const tail = (await readFile(log, 'utf8').catch(() => '')).slice(startOffset).trim().split('\n').slice(-5).join('\n');
    if (exited === undefined && child.pid) {
      try {
        process.kill(child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    throw new OcmError(
      'IO_ERROR',
      `The watch daemon did not start${exited !== undefined ? ` (it exited with code ${exited})` : ' in time'}.${tail ? `\n${tail}` : ''}`,
      {
        hint: `See ${log}; run \`ocm-run watch\` in the foreground to see the error directly.`,
      },
    );
  } finally {
    await handle.close();
  }
}

export interface StopResult {
  pid: number;
  /** It had to be killed (SIGKILL). */
  killed: boolean;
  waitedMs: number;
}

/** Stop the watcher: SIGTERM, wait; with force, SIGKILL when it does not end in time. */
export async function stopDaemon(paths: HomePaths, options: { force?: boolean; timeoutMs?: number } = {}): Promise<StopResult> {
  const status = await daemonStatus(paths);
  if (!status.running || !status.pid) {
    throw new OcmError('DAEMON_NOT_RUNNING', `ocm-run watch is not running for ${paths.root}.`, {
      hint: 'Start it with `ocm-run start --daemon` (or rely on the schedule: `ocm-run schedule status`).',
    });
  }
  const pid = status.pid;
  const record = await readRecord(daemonPaths(paths).pidfile);
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 10000;
  // Checked again right before each signal: the watcher may have ended and its PID been reused meanwhile.
  const signal = async (sig: NodeJS.Signals) => {
    if (!record || record.pid !== pid || !(await isRecordedProcess(record))) return;
    try {
      process.kill(pid, sig);
    } catch (error) {
      if (errorCode(error) === 'EPERM') {
        throw new OcmError('PERMISSION_DENIED', `Not allowed to signal PID ${pid} (another user's process?).`, {
          hint: 'Stop it as the user that started it.',
        });
      }
    }
  };
  const waitGone = async (ms: number) => {
    const deadline = Date.now() + ms;
    const gone = async () => !record || !(await isRecordedProcess(record));
    while (Date.now() < deadline) {
      if (await gone()) return true;
      await sleep(50);
    }
    return gone();
  };
  await signal('SIGTERM');
  if (await waitGone(timeoutMs)) {
    await rm(daemonPaths(paths).pidfile, { force: true }).catch(() => undefined);
    return { pid, killed: false, waitedMs: Date.now() - started };
  }
  if (!options.force) {
    throw new OcmError('IO_ERROR', `ocm-run watch (PID ${pid}) did not stop within ${Math.round(timeoutMs / 1000)} s of SIGTERM.`, {
      hint: 'It may be finishing a long tick; wait, or run `ocm-run stop --force` to kill it (nothing is lost: the cursor advances last).',
    });
  }
  await signal('SIGKILL');
  await waitGone(5000);
  await rm(daemonPaths(paths).pidfile, { force: true });
  return { pid, killed: true, waitedMs: Date.now() - started };
}

export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
