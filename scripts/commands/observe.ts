import type { CommandSpec } from '../cli-context.js';
import { createProgress } from '../progress.js';

export const command: CommandSpec = {
  name: 'observe',
  description: 'Read new transcript lines, write observations to the day files, refresh active memory and the search index',
  examples: ['ocm-run observe', 'ocm-run observe --json', 'ocm-run observe --flush'],
  options: [['--flush', 'LLM Observer: observe messages still waiting for a full batch now']],
  async run(ctx, _args, options) {
    const { config, env } = await ctx.config();
    const { runTick } = await import('../../lib/jobs/run-job.js');
    const progress = createProgress(ctx.isTTY && !ctx.json);
    const { crashHook } = await import('../tier-context.js');
    const crash = crashHook(ctx.env);
    let messages = 0;
    let observations = 0;
    const result = await runTick({
      paths: ctx.paths,
      config,
      env,
      logger: ctx.logger('observer'),
      // 'index': what was just observed is searchable at once (the next turn's memory lookup finds it).
      steps: ['observe', 'active_memory', 'index'],
      flush: Boolean(options.flush),
      onObserveStep: crash,
      onProgress: (p) => {
        if (p.messages > 0) crash?.('observe-chunk');
        messages += p.messages;
        observations += p.observations;
        progress.update(`observing ${p.stream.agent}/${p.stream.session.slice(0, 8)} · ${messages} messages · ${observations} observations`);
      },
    });
    progress.done();
    const o = result.observe!;
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...o, activeMemory: result.activeMemory, durationMs: result.durationMs }));
    } else if (ctx.isTTY || ctx.verbose) {
      ctx.out(`Observed ${o.messages} new messages from ${o.streams} transcript streams → ${o.observations} new observations (${result.durationMs} ms).`);
      if (o.malformed) ctx.out(`Skipped ${o.malformed} malformed lines (details in ${ctx.paths.logs}/observer.log).`);
      for (const a of result.activeMemory) ctx.out(`Active memory (${a.agent}): ${a.path} · ${a.tokens} tokens`);
    }
    for (const f of o.failures) ctx.err(`ocm-run: could not observe ${f.stream}: ${f.message}${f.hint ? `\n  → ${f.hint}` : ''}`);
    const { observeExitCode } = await import('../../lib/observe/job.js');
    return observeExitCode(o);
  },
};
