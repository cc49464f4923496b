/**
 * The memory home a command's lib/api call runs on (lib/api/home.ts), from the command's context:
 * its config and environment as loaded, its clock, and the log it writes (none: logs/ is not touched).
 * CLI plumbing only.
 */
import type { CommandContext } from './cli-context.js';
import { NO_LOG, type MemoryHome } from '../lib/api/home.js';

export async function memoryHome(ctx: CommandContext, logName?: string): Promise<MemoryHome> {
  const { config, env } = await ctx.config();
  return { paths: ctx.paths, config, env, logger: logName ? ctx.logger(logName) : NO_LOG, now: () => ctx.now() };
}
