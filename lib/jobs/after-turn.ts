/**
 * Observe + index after an agent's turn, in the background, coalesced: the
 * agent's hook starts one background job and returns at once; a hook that
 * fires while that job is still pending only asks it to go round once more
 * (it may have read the transcript before the newest turn was written).
 * The job itself runs under the home lock (runTick), so it never writes at
 * the same time as a scheduled tick. State: <home>/.ocm/after-turn.json.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';
import { isAlive } from '../platform/lock.js';
import type { Logger } from '../platform/log.js';
import type { Config } from '../config/config-schema.js';

interface Pending {
  pid: number;
  /** A turn ended after the job started: go round once more. */
  again: boolean;
}

export function afterTurnFile(paths: HomePaths): string {
  return join(paths.machine, 'after-turn.json');
}

async function readPending(paths: HomePaths): Promise<Pending | undefined> {
  try {
    const p = JSON.parse(await readFile(afterTurnFile(paths), 'utf8')) as Pending;
    return typeof p.pid === 'number' ? p : undefined;
  } catch {
    return undefined;
  }
}

async function writePending(paths: HomePaths, pending: Pending): Promise<void> {
  await writeFile(afterTurnFile(paths), JSON.stringify(pending), { mode: 0o600 });
}

/**
 * A turn ended. True when a background job must be started (then call
 * `startedAfterTurnJob` with its pid); false when a live one was asked to go
 * round again.
 */
export async function afterTurnNeedsJob(paths: HomePaths): Promise<boolean> {
  const pending = await readPending(paths);
  if (pending && pending.pid !== process.pid && isAlive(pending.pid)) {
    await writePending(paths, { pid: pending.pid, again: true });
    return false;
  }
  return true;
}

export async function startedAfterTurnJob(paths: HomePaths, pid: number): Promise<void> {
  await writePending(paths, { pid, again: false });
}

/**
 * Run `job` (observe + index) until no turn ended meanwhile, at most
 * `maxRounds` times; then clear the pending record (if it is still this
 * process's).
 */
export async function runAfterTurnJob(paths: HomePaths, job: () => Promise<void>, maxRounds = 3): Promise<number> {
  let rounds = 0;
  try {
    for (;;) {
      await writePending(paths, { pid: process.pid, again: false });
      await job();
      rounds++;
      const pending = await readPending(paths);
      if (!pending?.again || pending.pid !== process.pid || rounds >= maxRounds) break;
    }
  } finally {
    const pending = await readPending(paths);
    if (pending?.pid === process.pid) await rm(afterTurnFile(paths), { force: true });
  }
  return rounds;
}

export interface AfterTurnTickOptions {
  paths: HomePaths;
  config: Config;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** The agent whose hook started the job (for the log). */
  agent: string;
}

/**
 * `ocm-run hook after-turn --background`: observe + active memory + index,
 * again while turns keep ending (runAfterTurnJob). Never throws: a failure is
 * logged, because no one is waiting for this process.
 */
export async function runAfterTurnTicks(options: AfterTurnTickOptions): Promise<void> {
  const { paths, config, env, logger, agent } = options;
  // Loaded here, not at the top: the hook's fast path imports this module for afterTurnNeedsJob.
  const { runTick } = await import('./run-job.js');
  const started = performance.now();
  try {
    const rounds = await runAfterTurnJob(paths, async () => {
      const r = await runTick({ paths, config, env, logger, steps: ['observe', 'active_memory', 'index'], lockWaitMs: 120_000 });
      logger.log('info', 'hook.after_turn_job', {
        agent,
        observations: r.observe?.observations ?? 0,
        failures: r.observe?.failures.length ?? 0,
      });
    });
    logger.log('info', 'hook.after_turn_done', { agent, rounds, ms: Math.round(performance.now() - started) });
  } catch (error) {
    logger.log('warn', 'hook.after_turn_failed', { agent, error: (error as Error).message });
  }
}

export interface StartAfterTurnJobOptions {
  paths: HomePaths;
  /** The agent whose hook starts the job. */
  agent: string;
  /** The config file the job reads when it is not the home's config.yaml (--config). */
  configFile?: string;
  /** The Node and the CLI entry that run `hook after-turn --background`. */
  node: string;
  cli: string;
  env: NodeJS.ProcessEnv;
}

/**
 * `ocm-run hook after-turn`: start the observe + index job detached, below
 * normal priority (or only ask the running one to go round again), and
 * return at once — the agent's turn does not wait for it.
 */
export async function startAfterTurnJob(options: StartAfterTurnJobOptions): Promise<void> {
  const { paths, agent } = options;
  const { mkdir } = await import('node:fs/promises');
  await mkdir(paths.machine, { recursive: true, mode: 0o700 });
  if (!(await afterTurnNeedsJob(paths))) return;
  const { spawn } = await import('node:child_process');
  const args = [options.cli, 'hook', 'after-turn', '--background', '--home', paths.root, '--agent', agent];
  if (options.configFile !== undefined) args.push('--config', options.configFile);
  const child = spawn(options.node, args, { detached: true, stdio: 'ignore', windowsHide: true, env: { ...options.env, CI: '1' } });
  child.on('error', () => undefined);
  const { runBelowNormalPriority } = await import('../platform/process.js');
  runBelowNormalPriority(child.pid);
  if (child.pid) await startedAfterTurnJob(paths, child.pid);
  child.unref();
}
