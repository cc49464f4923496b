import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { MarkRequest } from '../../lib/api/index.js';

const USAGE = 'ocm-run mark <id> done | superseded-by <id> | clear';

/** The words after the id as the mark to set: `done`, `superseded-by <id>` or `clear`. */
function markRequest(word: string, by: string | undefined): MarkRequest {
  const what = word.toLowerCase();
  if (what === 'done' && by === undefined) return { kind: 'done' };
  if (what === 'clear' && by === undefined) return { kind: 'clear' };
  if ((what === 'superseded-by' || what === 'superseded') && by) return { kind: 'superseded', by };
  throw new OcmError('BAD_INPUT', `"${[what, by].filter(Boolean).join(' ')}" is not a mark.`, { hint: `Use: ${USAGE}` });
}

export const command = defineCommand({
  name: 'mark <id> <what> [by]',
  description:
    'Mark an observation done or superseded by a newer one, or clear its mark (the line keeps its place; active memory and search follow)',
  examples: ['ocm-run mark o-28b68f1c88 done', 'ocm-run mark o-f877b89acb superseded-by o-2ba8f29992', 'ocm-run mark o-f877b89acb clear'],
  async run(ctx, args) {
    const request = markRequest(args.what, args.by);
    const { id } = args;
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const r = await memoryOf(ctx.paths.root, config, { logger: ctx.logger('mark'), now: () => ctx.now() }).mark(id, request);
    if (ctx.json) ctx.out(JSON.stringify({ id: r.id, path: r.path, mark: r.mark ?? null }));
    else
      ctx.out(
        r.mark
          ? `${r.id} in ${r.path}: (${r.mark.kind}${r.mark.date ? ` ${r.mark.date}` : ''}${r.mark.by ? ` by ${r.mark.by}` : ''})`
          : `${r.id} in ${r.path}: mark cleared`,
      );
  },
});
