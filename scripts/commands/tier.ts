import { defineCommand } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';
import { tierOptions, underLock } from '../tier-context.js';

const TIER_FLAGS = {
  dryRun: { description: 'Show what would move (counts, size, dates, tokens freed from hot); change nothing' },
  rollback: { value: '<op>', description: 'Restore every file of a finished move exactly (op id from the output or --history)' },
  history: { description: 'List the recent moves, approvals and rollbacks from .ocm/audit.log' },
} as const satisfies Flags;

/** What `tier` does: list the history, roll one move back, or run the tier job. */
type TierRequest = { kind: 'history' } | { kind: 'rollback'; op: string } | { kind: 'run'; dryRun: boolean };

/** The command line as the tier request (--history first, then --rollback). */
function tierRequest(flags: FlagValues<typeof TIER_FLAGS>): TierRequest {
  if (flags.history) return { kind: 'history' };
  if (flags.rollback !== undefined) return { kind: 'rollback', op: flags.rollback };
  return { kind: 'run', dryRun: flags.dryRun };
}

export const command = defineCommand({
  name: 'tier',
  description:
    'Age the memory: hot days past tiers.hot_ttl_days move to warm, warm days past tiers.warm_ttl_days are proposed for the cold tier (runs daily from `run`)',
  flags: TIER_FLAGS,
  examples: ['ocm-run tier --dry-run', 'ocm-run tier', 'ocm-run tier --history', 'ocm-run tier --rollback op-20260212-101500-3fa9c1'],
  async run(ctx, _args, options) {
    const request = tierRequest(options);
    const opts = await tierOptions(ctx);
    if (request.kind === 'history') {
      const { readAudit } = await import('../../lib/tiers/audit.js');
      const entries = (await readAudit(ctx.paths.audit)).slice(-30);
      if (ctx.json) {
        ctx.out(JSON.stringify({ entries: entries.map(({ files: _f, ...e }) => e) }));
        return;
      }
      if (entries.length === 0) ctx.out('No tier history yet.');
      for (const e of entries) {
        const counts = e.counts as { files?: number; observations?: number } | undefined;
        const what = [
          e.from && e.to ? `${String(e.from)} → ${String(e.to)}` : '',
          e.target ? `of ${String(e.target)}` : '',
          counts ? `${counts.files ?? 0} files, ${counts.observations ?? 0} observations` : '',
        ]
          .filter(Boolean)
          .join(' · ');
        ctx.out(`${e.time.slice(0, 19).replace('T', ' ')}  ${e.action.padEnd(8)} ${e.op ?? ''.padEnd(26)}  ${what}`);
      }
      return;
    }
    if (request.kind === 'rollback') {
      const { rollbackTierOp } = await import('../../lib/tiers/tier-job.js');
      const r = await underLock(ctx, () => rollbackTierOp(opts, request.op));
      if (ctx.json) ctx.out(JSON.stringify(r));
      else {
        ctx.out(`Rolled back ${r.target}: ${r.files} files restored byte for byte (${r.observations} observations) as op ${r.id}.`);
        ctx.out(
          'Days that are still due are moved (or proposed) again by the daily tier job; raise tiers.hot_ttl_days, reject the proposal, or pin (#pin) what should stay.',
        );
      }
      return;
    }
    const { runTierJob } = await import('../../lib/tiers/tier-job.js');
    const { formatTierResult } = await import('../../lib/tiers/report.js');
    const result = await underLock(ctx, () => runTierJob({ ...opts, dryRun: request.dryRun }));
    if (!result.dryRun) {
      const { recordTierRun } = await import('../../lib/jobs/tier-step.js');
      await recordTierRun(ctx.paths, opts.now());
    }
    if (ctx.json) ctx.out(JSON.stringify(result));
    else ctx.out(formatTierResult(result).join('\n'));
  },
});
