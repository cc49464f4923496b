/**
 * `ocm-run reflect`: one reflect run under the home lock, then the active
 * memory of every agent that got a new reflection is rebuilt, so the agent
 * sees the compressed form at once (docs/architecture.md, "Add a command":
 * the command maps its flags onto these options and prints the result).
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { ActiveMemoryResult } from '../memory/active-memory.js';
import type { ReflectJobOptions, ReflectJobResult } from './reflect-job.js';

export interface ReflectNowOptions {
  paths: HomePaths;
  config: Config;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** The active memory's clock, read when the reflections are written. */
  now: () => Date;
  /** Reflect now, whatever the thresholds (`--force`). */
  force: boolean;
  /** Also reflect the recent days that active memory shows raw (`--all`). */
  includeRecent: boolean;
  /** Only these agents (`--agent`; default: every agent with hot memory). */
  agents?: string[];
  /** Test hook, passed to the reflect job. */
  onStep?: ReflectJobOptions['onStep'];
  onProgress?: ReflectJobOptions['onProgress'];
}

/** One agent's rebuilt active memory (`lib/memory/active-memory-file.ts`). */
export type RebuiltActiveMemory = ActiveMemoryResult & { agent: string; path: string };

export interface ReflectNowResult {
  result: ReflectJobResult;
  /** Active memory rebuilt for each agent that got a reflection. */
  rebuilt: RebuiltActiveMemory[];
}

export async function reflectNow(options: ReflectNowOptions): Promise<ReflectNowResult> {
  const [{ runReflectJob }, { withHomeLock, HOME_LOCK_WAIT_MS }, { rebuildActiveMemory }, { resolveTimeZone }] = await Promise.all([
    import('./reflect-job.js'),
    import('../platform/lock.js'),
    import('../memory/active-memory-file.js'),
    import('../platform/time-zone.js'),
  ]);
  const { paths, config } = options;
  const timeZone = resolveTimeZone(config.timezone);
  return withHomeLock(
    paths.lock,
    async () => {
      const result = await runReflectJob({
        paths,
        config,
        env: options.env,
        logger: options.logger,
        timeZone,
        force: options.force,
        includeRecent: options.includeRecent,
        agents: options.agents,
        onStep: options.onStep,
        onProgress: options.onProgress,
      });
      const rebuilt: RebuiltActiveMemory[] = [];
      for (const agent of [...new Set(result.reflections.map((r) => r.agent))]) {
        rebuilt.push({ agent, ...(await rebuildActiveMemory({ paths, config, agent, timeZone, now: options.now() })) });
      }
      return { result, rebuilt };
    },
    { waitMs: HOME_LOCK_WAIT_MS },
  );
}
