import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'stop',
  description: 'Stop the background watcher (SIGTERM; --force kills it if it does not end in time). Exit 3 when none runs',
  flags: {
    force: { description: 'SIGKILL when SIGTERM did not stop it in time' },
    timeout: { value: '<seconds>', description: 'How long to wait after SIGTERM (default 10)' },
  },
  examples: ['ocm-run stop', 'ocm-run stop --force'],
  async run(ctx, _args, options) {
    const { stopDaemon } = await import('../../lib/jobs/daemon.js');
    const timeoutMs = options.timeout !== undefined ? Number(options.timeout) * 1000 : undefined;
    const r = await stopDaemon(ctx.paths, {
      force: options.force,
      timeoutMs: timeoutMs !== undefined && Number.isFinite(timeoutMs) ? timeoutMs : undefined,
    });
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, ...r }));
    else ctx.out(r.killed ? `Killed ocm-run watch (PID ${r.pid}) after it ignored SIGTERM.` : `Stopped ocm-run watch (PID ${r.pid}).`);
    return 0;
  },
});
