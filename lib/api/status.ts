/**
 * `ocm-run status`: the handle's status report (lib/features/status.ts) with
 * the scheduler's entry looked up beside it, and the text of the report's
 * parts as people read them (the watcher's uptime, the LLM's usage, the
 * tiers, the prompts the hooks skipped for time).
 */
import type { Config } from '../config/config-schema.js';
import type { StatusReport } from '../features/status.js';
import type { HomePaths } from '../platform/home.js';

export { formatUptime } from '../jobs/daemon.js';
export { formatLlmStatus } from '../features/llm-status.js';
export { formatTierStatus } from '../features/tier-status.js';
export { formatSkippedForTime } from '../features/hook-status.js';
export type { StatusReport } from '../features/status.js';

export interface HomeStatusOptions {
  paths: HomePaths;
  config: Config;
  /** XDG_CONFIG_HOME (systemd's user units) is read from it. */
  env: NodeJS.ProcessEnv;
  now: Date;
}

/** The home's status, and its schedule when the scheduler could be asked (left out when it could not). */
export async function homeStatus(options: HomeStatusOptions): Promise<StatusReport> {
  const { memoryOf } = await import('./memory.js');
  const status = await memoryOf(options.paths.root, options.config).status();
  const { collectScheduleInfo } = await import('../jobs/schedule/index.js');
  status.schedule = await collectScheduleInfo(options.paths, options.config.schedule.every_minutes, {
    xdgConfigHome: options.env.XDG_CONFIG_HOME,
    now: options.now,
  }).catch(() => undefined);
  return status;
}
