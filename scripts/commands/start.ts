import { defineCommand, type CommandContext } from '../cli-context.js';
import { watchForeground } from './watch.js';
import type { StartWatcherOptions } from '../../lib/api/jobs.js';

/** The detached watcher's options: the home, and --config when it is not the home's config.yaml. */
function startOptions(ctx: CommandContext): StartWatcherOptions {
  return { paths: ctx.paths, env: ctx.env, ...(ctx.configFile !== ctx.paths.config ? { configFile: ctx.configFile } : {}) };
}

export const command = defineCommand({
  name: 'start',
  description: 'Start watching: in the foreground, or detached with --daemon (pidfile and log under the home)',
  flags: { daemon: { description: 'Detach and run in the background' } },
  examples: ['ocm-run start --daemon', 'ocm-run status', 'ocm-run stop'],
  async run(ctx, _args, options) {
    if (!options.daemon) return watchForeground(ctx, 'foreground');
    await ctx.config(); // fail here, visibly, on a broken config
    const { startWatcher, uptimeText } = await import('../../lib/api/jobs.js');
    const r = await startWatcher(startOptions(ctx));
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, alreadyRunning: r.alreadyRunning, ...r.status }));
    else if (r.alreadyRunning)
      ctx.out(`Already running (PID ${r.status.pid}, up ${await uptimeText(r.status.uptimeSeconds ?? 0)}). Log: ${r.status.log}`);
    else ctx.out(`Started ocm-run watch in the background (PID ${r.status.pid}). Log: ${r.status.log}\nStop it with: ocm-run stop`);
    return 0;
  },
});
