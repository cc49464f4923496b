import { defineCommand, type CommandContext } from '../cli-context.js';

/**
 * Watch in this process until SIGTERM/SIGINT: claim the pidfile, tick on
 * file-system events (and periodically), release everything on the way out.
 * Shared by `watch` and `start` (foreground).
 */
export async function watchForeground(ctx: CommandContext, mode: 'foreground' | 'daemon'): Promise<number> {
  const { config, env } = await ctx.config();
  const { homedir } = await import('node:os');
  const [{ runTick }, { startWatch, watchTargetsFromConfig }, { claimPidfile }] = await Promise.all([
    import('../../lib/jobs/run-job.js'),
    import('../../lib/jobs/watch.js'),
    import('../../lib/jobs/daemon.js'),
  ]);
  const release = await claimPidfile(ctx.paths, mode, ctx.now());
  const logger = ctx.logger('watch');
  const targets = await watchTargetsFromConfig(config, env, homedir());
  const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  const say = (text: string) => ctx.out(mode === 'daemon' ? `${stamp()} ${text}` : text);
  // One embedding worker for every tick, its model kept loaded for five minutes after the last batch.
  const { embeddingSettings } = await import('../../lib/search/embeddings.js');
  const { createEmbedder } = await import('../../lib/search/embedder.js');
  const embedding = embeddingSettings(config);
  const embedder = embedding && createEmbedder(embedding, { thread: true, idleMs: 5 * 60_000 });
  const watcher = startWatch({
    targets,
    ignore: [ctx.paths.root],
    logger,
    periodicMs: config.schedule.every_minutes * 60_000,
    tick: () => runTick({ paths: ctx.paths, config, env, logger, lockWaitMs: 60_000, ...(embedder ? { embedder } : {}) }),
    onTick: (t) => {
      if (t.error) {
        say(`tick (${t.reason}) failed: ${t.error.message}`);
        return;
      }
      const o = (t.result as { observe?: { messages: number; observations: number } } | undefined)?.observe;
      if (o && (o.messages > 0 || ctx.verbose))
        say(`tick (${t.reason}): ${o.messages} new messages → ${o.observations} observations in ${t.endedAt - t.startedAt} ms`);
    },
  });
  await watcher.ready;
  say(`Watching ${targets.map((t) => t.dir).join(', ')} for ${ctx.paths.root} (PID ${process.pid}). Stop with Ctrl-C or \`ocm-run stop\`.`);
  const missing = targets.filter((t) => !watcher.watching().includes(t.dir));
  if (missing.length > 0) say(`Not there yet (picked up when created): ${missing.map((t) => t.dir).join(', ')}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.log('info', 'watch.stopping', { signal });
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGHUP', () => stop('SIGHUP'));
  });
  await watcher.close();
  await release();
  say('Stopped watching.');
  return 0;
}

export const command = defineCommand({
  name: 'watch',
  description: 'Long-running: run the jobs on file-system events (sub-second), under the same lock as run',
  flags: { daemonChild: { description: '(internal) started by `start --daemon`' } },
  examples: ['ocm-run watch', 'ocm-run start --daemon   # the same, in the background'],
  async run(ctx, _args, options) {
    return watchForeground(ctx, options.daemonChild ? 'daemon' : 'foreground');
  },
});
