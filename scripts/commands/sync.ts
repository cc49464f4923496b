import type { CommandSpec } from '../cli-context.js';
import { underLock } from '../tier-context.js';

export const command: CommandSpec = {
  name: 'sync',
  description: 'Sync the memory now: Git (commit the Markdown, pull --rebase, push) and/or sync.command (e.g. rclone); a failure is queued and retried by `run`',
  examples: ['ocm-run sync', 'ocm-run config set sync.git.enabled true', 'ocm-run config set sync.command "rclone sync {cold} dropbox:OC-Memory"'],
  async run(ctx) {
    const { config, env } = await ctx.config();
    const { runSync } = await import('../../lib/jobs/sync/index.js');
    const r = await underLock(ctx, () => runSync({ paths: ctx.paths, config, env, logger: ctx.logger('sync'), now: () => ctx.now() }, 'manual'));
    if (ctx.json) {
      ctx.out(JSON.stringify(r));
      return r.errors.length > 0 ? 1 : 0;
    }
    if (r.git) {
      const g = r.git;
      const parts = [g.initialised ? 'initialised the repository' : '', g.committed ? `committed ${g.committed} file(s)` : 'nothing new to commit'];
      if (g.remote) parts.push(g.pulled ? `pulled from ${g.remote}` : `${g.remote} had no ${config.sync.git.branch} branch yet`, g.pushed ? 'pushed' : '');
      else parts.push('no remote set (sync.git.remote): local commits only');
      if (g.repaired.length) parts.push(`recounted ${g.repaired.length} merged day file(s)`);
      if (g.forgotten.length) parts.push(`forgot ${g.forgotten.length} observation(s) forgotten on another device`);
      ctx.out(`Git: ${parts.filter(Boolean).join(', ')}.`);
    }
    if (r.command) ctx.out(`Command: ${r.command.command} — done in ${r.command.durationMs} ms.`);
    for (const e of r.errors) {
      ctx.err(`ocm-run: ${e.part === 'git' ? 'Git sync' : 'sync command'} failed: ${e.message}`);
      if (e.hint) ctx.err(`  → ${e.hint}`);
    }
    if (r.queued) ctx.err(`Queued: attempt ${r.queued.attempts}, next retry by \`ocm-run run\` after ${r.queued.nextAttemptAt}.`);
    return r.errors.length > 0 ? 1 : 0;
  },
};
