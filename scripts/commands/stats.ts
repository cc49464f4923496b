import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';

export const command = defineCommand({
  name: 'stats',
  description:
    'Statistics: storage per tier, priority/category distribution, observations per day, token efficiency, compression, LLM usage and cost, search times',
  homeMustExist: true,
  flags: {
    detailed: { description: 'Every day, every model, every reflection' },
    export: { value: '<file>', description: 'Also write the figures to FILE.json or FILE.csv' },
  },
  examples: ['ocm-run stats', 'ocm-run stats --detailed', 'ocm-run stats --export stats.csv'],
  async run(ctx, _args, options) {
    const exportTo = options.export;
    if (exportTo !== undefined && !/\.(json|csv)$/i.test(exportTo)) {
      throw new OcmError('BAD_INPUT', `--export needs a .json or .csv file name (got ${exportTo}).`, {
        hint: 'Example: ocm-run stats --export stats.csv',
      });
    }
    const { config } = await ctx.config();
    const { collectStats, formatStats, writeStatsExport } = await import('../../lib/features/stats.js');
    const stats = await collectStats(ctx.paths, config, { now: ctx.now() });
    if (exportTo) await writeStatsExport(stats, exportTo);
    if (ctx.json) ctx.out(JSON.stringify(stats, null, 2));
    else {
      ctx.out(formatStats(stats, options.detailed));
      if (exportTo) ctx.out(`\nWrote ${exportTo}.`);
    }
  },
});
