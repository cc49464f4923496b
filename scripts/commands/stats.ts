import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { StatsOptions } from '../../lib/api/stats.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

const STATS_FLAGS = {
  detailed: { description: 'Every day, every model, every reflection' },
  export: { value: '<file>', description: 'Also write the figures to FILE.json or FILE.csv' },
} as const satisfies Flags;

/** The command line as the figures' options (checked: --export names a .json or .csv file). */
function statsOptions(flags: FlagValues<typeof STATS_FLAGS>): StatsOptions {
  const exportTo = flags.export;
  if (exportTo !== undefined && !/\.(json|csv)$/i.test(exportTo)) {
    throw new OcmError('BAD_INPUT', `--export needs a .json or .csv file name (got ${exportTo}).`, {
      hint: 'Example: ocm-run stats --export stats.csv',
    });
  }
  return { exportTo };
}

export const command = defineCommand({
  name: 'stats',
  description:
    'Statistics: storage per tier, priority/category distribution, observations per day, token efficiency, compression, LLM usage and cost, search times',
  homeMustExist: true,
  flags: STATS_FLAGS,
  examples: ['ocm-run stats', 'ocm-run stats --detailed', 'ocm-run stats --export stats.csv'],
  async run(ctx, _args, flags) {
    const options = statsOptions(flags);
    const { formatMemoryStats, memoryStats } = await import('../../lib/api/stats.js');
    const stats = await memoryStats(await memoryHome(ctx), options);
    if (ctx.json) ctx.out(JSON.stringify(stats, null, 2));
    else {
      ctx.out(await formatMemoryStats(stats, flags.detailed));
      if (options.exportTo) ctx.out(`\nWrote ${options.exportTo}.`);
    }
  },
});
