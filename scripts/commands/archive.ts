import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';
import { tierOptions, underLock } from '../tier-context.js';

export const command = defineCommand({
  name: 'archive',
  description: 'Archive by age now: hot days older than DAYS to warm, or hot and warm days to the cold tier (proposed for approval unless --approve-all)',
  flags: {
    olderThan: { value: '<days>', description: 'Days older than this many days (required)' },
    to: { value: '<tier>', description: 'warm or cold (required)' },
    dryRun: { description: 'Show what would move (counts per tier, size, date range, tokens freed from hot); change nothing' },
    approveAll: { description: 'Move to the cold tier now instead of proposing (for scripts)' },
  },
  examples: ['ocm-run archive --older-than 30 --to warm --dry-run', 'ocm-run archive --older-than 400 --to cold', 'ocm-run archive --older-than 400 --to cold --approve-all'],
  async run(ctx, _args, options) {
    const days = Number(options.olderThan);
    if (options.olderThan === undefined || !Number.isInteger(days) || days < 0) {
      throw new OcmError('BAD_INPUT', '--older-than needs a whole number of days (0 or more).', { hint: 'For example: ocm-run archive --older-than 90 --to warm --dry-run' });
    }
    const to = String(options.to ?? '');
    if (to !== 'warm' && to !== 'cold') throw new OcmError('BAD_INPUT', '--to must be warm or cold.', { hint: 'For example: ocm-run archive --older-than 400 --to cold' });
    const opts = await tierOptions(ctx);
    const { runArchive } = await import('../../lib/tiers/tier-job.js');
    const { formatTierResult } = await import('../../lib/tiers/report.js');
    const result = await underLock(ctx, () => runArchive({ ...opts, olderThanDays: days, to, dryRun: Boolean(options.dryRun), approveAll: Boolean(options.approveAll) }));
    if (ctx.json) ctx.out(JSON.stringify(result));
    else ctx.out(formatTierResult(result).join('\n'));
  },
});
