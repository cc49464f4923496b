import { defineCommand, type CommandContext } from '../cli-context.js';
import { memoryHome } from '../memory-home.js';

/**
 * Watch in this process until SIGTERM/SIGINT: claim the pidfile, tick on
 * file-system events (and periodically), release everything on the way out.
 * Shared by `watch` and `start` (foreground).
 */
export async function watchForeground(ctx: CommandContext, mode: 'foreground' | 'daemon'): Promise<number> {
  const { watchHome } = await import('../../lib/api/watch.js');
  const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  const say = (text: string) => ctx.out(mode === 'daemon' ? `${stamp()} ${text}` : text);
  const watching = await watchHome(await memoryHome(ctx, 'watch'), {
    mode,
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
  say(`Watching ${watching.targets.join(', ')} for ${ctx.paths.root} (PID ${process.pid}). Stop with Ctrl-C or \`ocm-run stop\`.`);
  if (watching.missing.length > 0) say(`Not there yet (picked up when created): ${watching.missing.join(', ')}`);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGHUP', () => resolve('SIGHUP'));
  });
  await watching.stop(signal);
  say('Stopped watching.');
  return 0;
}

/** The command line as how the watcher runs: in this terminal, or as the child `start --daemon` started. */
function watchMode(flags: { daemonChild: boolean }): 'foreground' | 'daemon' {
  return flags.daemonChild ? 'daemon' : 'foreground';
}

export const command = defineCommand({
  name: 'watch',
  description: 'Long-running: run the jobs on file-system events (sub-second), under the same lock as run',
  flags: { daemonChild: { description: '(internal) started by `start --daemon`' } },
  examples: ['ocm-run watch', 'ocm-run start --daemon   # the same, in the background'],
  async run(ctx, _args, flags) {
    return watchForeground(ctx, watchMode(flags));
  },
});
