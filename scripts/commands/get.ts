import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'get <target>',
  description: 'Show one observation by id, or lines of a memory file (path[:from[:lines]])',
  homeMustExist: true,
  shortLived: true,
  examples: ['ocm-run get o-7f3a9c21e0', 'ocm-run get memory/2026-02-12.md:10:5', 'ocm-run get memory/2026-02-12.md --json'],
  async run(ctx, args) {
    const target = args.target;
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const result = await memoryOf(ctx.paths.root, config, { logger: ctx.logger('search'), now: () => ctx.now() }).get(target);
    const { getHuman, getJson } = await import('../../lib/api/search-text.js');
    ctx.out(ctx.json ? getJson(result) : getHuman(result));
  },
});
