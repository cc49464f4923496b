import { defineCommand, type CommandContext } from '../cli-context.js';
import { createProgress, etaText } from '../progress.js';
import type { Flags, FlagValues } from '../flags.js';
import type { ObserveOptions } from '../../lib/api/jobs.js';

const OBSERVE_FLAGS = {
  flush: { description: 'LLM Observer: observe messages still waiting for a full batch now' },
} as const satisfies Flags;

/** The command line as the observe call: the home, its config, the log, and --flush. */
async function observeOptions(ctx: CommandContext, flags: FlagValues<typeof OBSERVE_FLAGS>): Promise<ObserveOptions> {
  const { config, env } = await ctx.config();
  return { paths: ctx.paths, config, env, logger: ctx.logger('observer'), flush: flags.flush };
}

export const command = defineCommand({
  name: 'observe',
  description: 'Read new transcript lines, write observations to the day files, refresh active memory and the search index',
  examples: ['ocm-run observe', 'ocm-run observe --json', 'ocm-run observe --flush'],
  flags: OBSERVE_FLAGS,
  // Ctrl-C (SIGINT) or SIGTERM: the stream being read is finished and saved, the rest waits for the next run.
  stopsBetweenSteps: true,
  async run(ctx, _args, options) {
    const request = await observeOptions(ctx, options);
    const { observe } = await import('../../lib/api/jobs.js');
    const progress = createProgress(ctx.isTTY && !ctx.json);
    const { crashHook, signalHook } = await import('../tier-context.js');
    const crash = crashHook(ctx.env);
    const interrupt = signalHook(ctx.env, 'SIGINT');
    let messages = 0;
    let observations = 0;
    const started = Date.now();
    const { result, exitCode } = await observe({
      ...request,
      ...(crash ? { onObserveStep: crash } : {}),
      onProgress: (p) => {
        if (p.messages > 0) {
          crash?.('observe-chunk');
          interrupt?.('observe-chunk');
        }
        messages += p.messages;
        observations += p.observations;
        // The total: every stream the run found; done: the ones finished, weighed by their size when files have one.
        progress.update(() => {
          const total = p.streamsTotal ?? 0;
          const fraction = p.bytesTotal ? (p.bytesDone ?? 0) / p.bytesTotal : total ? (p.streamsDone ?? 0) / total : 0;
          const of = total ? `stream ${Math.min((p.streamsDone ?? 0) + 1, total)}/${total} · ` : '';
          return `observing ${of}${p.stream.agent}/${p.stream.session.slice(0, 8)} · ${messages.toLocaleString('en-US')} messages · ${observations.toLocaleString('en-US')} observations${etaText(fraction, started, Date.now())}`;
        });
      },
    });
    progress.done();
    const o = result.observe;
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...o, activeMemory: result.activeMemory, durationMs: result.durationMs }));
    } else {
      // One summary line, on a terminal or not (cron, a pipe): what a run did is never silent.
      ctx.out(
        `Observed ${o.messages} new messages from ${o.streams} transcript streams → ${o.observations} new observations (${result.durationMs} ms).`,
      );
      if (o.malformed) ctx.out(`Skipped ${o.malformed} malformed lines (details in ${ctx.paths.logs}/observer.log).`);
      if (ctx.isTTY || ctx.verbose)
        for (const a of result.activeMemory) ctx.out(`Active memory (${a.agent}): ${a.path} · ${a.tokens} tokens`);
    }
    if (o.stopped) {
      const { signal, remaining } = o.stopped;
      ctx.err(
        `Stopped (${signal === 'SIGINT' ? 'Ctrl-C' : signal}): kept ${o.observations} new observations from ${o.messages} messages, saved with their place in each transcript. ` +
          `${remaining} stream(s) not read yet${result.activeMemory.length === 0 ? '; active memory and the index not refreshed' : ''} — the next \`ocm-run observe\` (or tick) resumes there.`,
      );
    }
    for (const f of o.failures) ctx.err(`ocm-run: could not observe ${f.stream}: ${f.message}${f.hint ? `\n  → ${f.hint}` : ''}`);
    return exitCode;
  },
});
