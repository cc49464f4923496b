/**
 * A memory home as a job run for a front end sees it: what every job runs
 * on (api/jobs.ts JobContext: the home, its config and the environment with
 * the home's .env, where the job logs), and its clock. The calls of
 * api/transfer.ts, sync.ts, maintenance.ts, stats.ts, one-off-search.ts,
 * demo.ts and watch.ts take it first; a CLI command builds it from its
 * context (scripts/memory-home.ts).
 */
import type { Logger } from '../platform/log.js';
import type { JobContext } from './jobs.js';

export interface MemoryHome extends JobContext {
  now: () => Date;
}

/** A job that logs nothing (a command that only reads, such as `export`, writes no log). */
export const NO_LOG: Logger = { log: () => undefined, flush: async () => undefined };

/**
 * Run `fn` holding the home lock: a tier move is never half seen, and two jobs never write at once. `waitMs`:
 * how long it waits for another job (default HOME_LOCK_WAIT_MS, lib/platform/lock.ts).
 */
export async function underHomeLock<T>(home: Pick<MemoryHome, 'paths'>, fn: () => Promise<T>, waitMs?: number): Promise<T> {
  const { withHomeLock, HOME_LOCK_WAIT_MS } = await import('../platform/lock.js');
  return withHomeLock(home.paths.lock, fn, { waitMs: waitMs ?? HOME_LOCK_WAIT_MS });
}

/** Refused with the agents there are (and a near name) unless the home knows each of `agents` (a source names it, or it has memory here). */
export async function assertKnownAgents(
  home: Pick<MemoryHome, 'paths' | 'config'>,
  agents: readonly string[],
  option = '--agent',
): Promise<void> {
  const { assertKnownAgent, knownAgents } = await import('../features/known-agents.js');
  const known = await knownAgents(home.paths, home.config);
  for (const agent of agents) assertKnownAgent(agent, known, option);
}
