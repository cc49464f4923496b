/**
 * A memory home as a job run for a front end sees it: where it is, its
 * config and the environment that config was read with, where the job logs,
 * and its clock. The calls of api/transfer.ts and api/maintenance.ts take it
 * as their first argument; a CLI command builds it from its context.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';

export interface MemoryHome {
  paths: HomePaths;
  config: Config;
  /** The environment with the home's .env (secrets such as OCM_SYNC_PASSPHRASE are read from it). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  now: () => Date;
}

/** A job that logs nothing (a command that only reads, such as `export`, writes no log). */
export const NO_LOG: Logger = { log: () => undefined, flush: async () => undefined };

/** How long a change waits for another job holding the home lock, unless the call says otherwise (ms). */
export const HOME_LOCK_WAIT_MS = 30_000;

/** Run `fn` holding the home lock: a tier move is never half seen, and two jobs never write at once. */
export async function underHomeLock<T>(home: Pick<MemoryHome, 'paths'>, fn: () => Promise<T>, waitMs = HOME_LOCK_WAIT_MS): Promise<T> {
  const { withHomeLock } = await import('../platform/lock.js');
  return withHomeLock(home.paths.lock, fn, { waitMs });
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
