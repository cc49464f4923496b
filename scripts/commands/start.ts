import { defineCommand } from '../cli-context.js';
import { watchForeground } from './watch.js';

export const command = defineCommand({
  name: 'start',
  description: 'Start watching: in the foreground, or detached with --daemon (pidfile and log under the home)',
  flags: { daemon: { description: 'Detach and run in the background' } },
  examples: ['ocm-run start --daemon', 'ocm-run status', 'ocm-run stop'],
  async run(ctx, _args, options) {
    if (!options.daemon) return watchForeground(ctx, 'foreground');
    await ctx.config(); // fail here, visibly, on a broken config
    const { startDaemon, formatUptime } = await import('../../lib/jobs/daemon.js');
    const { cliEntry } = await import('../../lib/jobs/schedule/index.js');
    const args = ctx.configFile !== ctx.paths.config ? ['--config', ctx.configFile] : [];
    const r = await startDaemon({ paths: ctx.paths, node: process.execPath, cli: cliEntry(), args, env: ctx.env });
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, alreadyRunning: r.alreadyRunning, ...r.status }));
    else if (r.alreadyRunning)
      ctx.out(`Already running (PID ${r.status.pid}, up ${formatUptime(r.status.uptimeSeconds ?? 0)}). Log: ${r.status.log}`);
    else ctx.out(`Started ocm-run watch in the background (PID ${r.status.pid}). Log: ${r.status.log}\nStop it with: ocm-run stop`);
    return 0;
  },
});
