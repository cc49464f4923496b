import { defineCommand } from '../cli-context.js';
import type { AgeRequest } from '../../lib/api/memory.js';
import type { Flags, FlagValues } from '../flags.js';
import { crashHook } from '../tier-context.js';

const TIER_FLAGS = {
  dryRun: { description: 'Show what would move (counts, size, dates, tokens freed from hot); change nothing' },
  rollback: { value: '<op>', description: 'Restore every file of a finished move exactly (op id from the output or --history)' },
  history: { description: 'List the recent moves, approvals and rollbacks from .ocm/audit.log' },
} as const satisfies Flags;

/** What `tier` does: list the history, roll one move back, or age the memory (the handle's `age`). */
type TierRequest =
  | { kind: 'history' }
  | { kind: 'rollback'; op: string; onStep: AgeRequest['onStep'] }
  | { kind: 'age'; options: AgeRequest };

/** The command line as the tier request (--history first, then --rollback); OCM_TEST_CRASH_AT stops a move at a step. */
function tierOptions(flags: FlagValues<typeof TIER_FLAGS>, env: NodeJS.ProcessEnv): TierRequest {
  if (flags.history) return { kind: 'history' };
  const onStep = crashHook(env);
  if (flags.rollback !== undefined) return { kind: 'rollback', op: flags.rollback, onStep };
  return { kind: 'age', options: { dryRun: flags.dryRun, onStep } };
}

export const command = defineCommand({
  name: 'tier',
  description:
    'Age the memory: hot days past tiers.hot_ttl_days move to warm, warm days past tiers.warm_ttl_days are proposed for the cold tier (runs daily from `run`)',
  flags: TIER_FLAGS,
  examples: ['ocm-run tier --dry-run', 'ocm-run tier', 'ocm-run tier --history', 'ocm-run tier --rollback op-20260212-101500-3fa9c1'],
  async run(ctx, _args, flags) {
    const request = tierOptions(flags, ctx.env);
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const memory = memoryOf(ctx.paths.root, config, { logger: ctx.logger('tier'), now: () => ctx.now() });
    if (request.kind === 'history') {
      const entries = (await memory.audit()).slice(-30);
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
      const r = await memory.rollback(request.op, { onStep: request.onStep });
      if (ctx.json) ctx.out(JSON.stringify(r));
      else {
        ctx.out(`Rolled back ${r.target}: ${r.files} files restored byte for byte (${r.observations} observations) as op ${r.id}.`);
        ctx.out(
          'Days that are still due are moved (or proposed) again by the daily tier job; raise tiers.hot_ttl_days, reject the proposal, or pin (#pin) what should stay.',
        );
      }
      return;
    }
    const { formatTierResult } = await import('../../lib/api/tier-report.js');
    const result = await memory.age(request.options);
    if (ctx.json) ctx.out(JSON.stringify(result));
    else ctx.out(formatTierResult(result).join('\n'));
  },
});
