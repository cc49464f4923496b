import { defineCommand } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';
import type { StopWatcherOptions } from '../../lib/api/jobs.js';

const STOP_FLAGS = {
  force: { description: 'SIGKILL when SIGTERM did not stop it in time' },
  timeout: { value: '<seconds>', description: 'How long to wait after SIGTERM (default 10)' },
} as const satisfies Flags;

/** --force, and --timeout in seconds as milliseconds (a value that is no number: the default wait). */
function stopOptions(flags: FlagValues<typeof STOP_FLAGS>): StopWatcherOptions {
  const timeoutMs = flags.timeout !== undefined ? Number(flags.timeout) * 1000 : undefined;
  return { force: flags.force, ...(timeoutMs !== undefined && Number.isFinite(timeoutMs) ? { timeoutMs } : {}) };
}

export const command = defineCommand({
  name: 'stop',
  description: 'Stop the background watcher (SIGTERM; --force kills it if it does not end in time). Exit 3 when none runs',
  flags: STOP_FLAGS,
  examples: ['ocm-run stop', 'ocm-run stop --force'],
  async run(ctx, _args, options) {
    const { stopWatcher } = await import('../../lib/api/jobs.js');
    const r = await stopWatcher(ctx.paths, stopOptions(options));
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, ...r }));
    else ctx.out(r.killed ? `Killed ocm-run watch (PID ${r.pid}) after it ignored SIGTERM.` : `Stopped ocm-run watch (PID ${r.pid}).`);
    return 0;
  },
});
