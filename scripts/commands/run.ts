import { defineCommand, type CommandContext } from '../cli-context.js';
import type { JobContext } from '../../lib/api/jobs.js';

/** The tick's context: the home, its config and environment, and run.log. */
async function tickOptions(ctx: CommandContext): Promise<JobContext> {
  const { config, env } = await ctx.config();
  return { paths: ctx.paths, config, env, logger: ctx.logger('run') };
}

export const command = defineCommand({
  name: 'run',
  description: 'One scheduled tick: every job that is due, in order, under one lock (what cron calls)',
  examples: ['ocm-run run', '* * * * * ocm-run run --home ~/.openclaw/oc-memory'],
  stopsBetweenSteps: true,
  async run(ctx) {
    const request = await tickOptions(ctx);
    const { tick } = await import('../../lib/api/jobs.js');
    const { result, exitCode } = await tick(request);
    const o = result.observe;
    if (ctx.json) ctx.out(JSON.stringify(result));
    else if (ctx.isTTY || ctx.verbose) {
      ctx.out(`Tick done in ${result.durationMs} ms: ${o?.messages ?? 0} new messages, ${o?.observations ?? 0} new observations.`);
    }
    for (const f of o?.failures ?? []) ctx.err(`ocm-run: could not observe ${f.stream}: ${f.message}${f.hint ? `\n  → ${f.hint}` : ''}`);
    if (result.reflectError)
      ctx.err(
        `ocm-run: could not reflect: ${result.reflectError.message}${result.reflectError.hint ? `\n  → ${result.reflectError.hint}` : ''}`,
      );
    return exitCode;
  },
});
