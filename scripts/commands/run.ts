import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'run',
  description: 'One scheduled tick: every job that is due, in order, under one lock (what cron calls)',
  examples: ['ocm-run run', '* * * * * ocm-run run --home ~/.openclaw/oc-memory'],
  stopsBetweenSteps: true,
  async run(ctx) {
    const { config, env } = await ctx.config();
    // cron appends this command's output to schedule.log (lib/schedule): keep that file bounded too.
    const { rotateLogIfLarge } = await import('../../lib/platform/log.js');
    const { join } = await import('node:path');
    await rotateLogIfLarge(join(ctx.paths.logs, 'schedule.log'));
    const { runTick } = await import('../../lib/jobs/run-job.js');
    const result = await runTick({ paths: ctx.paths, config, env, logger: ctx.logger('run') });
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
    const { observeExitCode } = await import('../../lib/observe/job.js');
    return observeExitCode({ failures: [...(o?.failures ?? []), ...(result.reflectError ? [result.reflectError] : [])] });
  },
});
