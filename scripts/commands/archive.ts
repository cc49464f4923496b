import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import { crashHook } from '../tier-context.js';
import type { Flags, FlagValues } from '../flags.js';
import type { ArchiveRequest } from '../../lib/api/index.js';

const ARCHIVE_FLAGS = {
  olderThan: { value: '<days>', description: 'Days older than this many days (required)' },
  to: { value: '<tier>', description: 'warm or cold (required)' },
  dryRun: { description: 'Show what would move (counts per tier, size, date range, tokens freed from hot); change nothing' },
  approveAll: { description: 'Move to the cold tier now instead of proposing (for scripts)' },
} as const satisfies Flags;

/** The command line as the archive request (checked: a whole number of days, a tier). */
function archiveRequest(flags: FlagValues<typeof ARCHIVE_FLAGS>): ArchiveRequest {
  const days = Number(flags.olderThan);
  if (flags.olderThan === undefined || !Number.isInteger(days) || days < 0) {
    throw new OcmError('BAD_INPUT', '--older-than needs a whole number of days (0 or more).', {
      hint: 'For example: ocm-run archive --older-than 90 --to warm --dry-run',
    });
  }
  const to = flags.to ?? '';
  if (to !== 'warm' && to !== 'cold')
    throw new OcmError('BAD_INPUT', '--to must be warm or cold.', { hint: 'For example: ocm-run archive --older-than 400 --to cold' });
  return { olderThanDays: days, to, dryRun: flags.dryRun, approveAll: flags.approveAll };
}

export const command = defineCommand({
  name: 'archive',
  description:
    'Archive by age now: hot days older than DAYS to warm, or hot and warm days to the cold tier (proposed for approval unless --approve-all)',
  flags: ARCHIVE_FLAGS,
  examples: [
    'ocm-run archive --older-than 30 --to warm --dry-run',
    'ocm-run archive --older-than 400 --to cold',
    'ocm-run archive --older-than 400 --to cold --approve-all',
  ],
  async run(ctx, _args, options) {
    const request = archiveRequest(options);
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const { formatTierResult } = await import('../../lib/api/tier-report.js');
    const memory = memoryOf(ctx.paths.root, config, { logger: ctx.logger('tier'), now: () => ctx.now() });
    const result = await memory.archive({ ...request, onStep: crashHook(ctx.env) });
    if (ctx.json) ctx.out(JSON.stringify(result));
    else ctx.out(formatTierResult(result).join('\n'));
  },
});
