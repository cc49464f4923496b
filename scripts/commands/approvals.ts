import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import { crashHook } from '../tier-context.js';

export const command = defineCommand({
  name: 'approvals [action] [...ids]',
  description: 'Moves waiting for your yes (warm → cold): list them with their contents summarised, approve or reject by id (or all)',
  // The list only reads: a mistyped --home is an error, not a new home.
  homeMustExist: (args) => (args.action ?? 'list') === 'list',
  examples: [
    'ocm-run approvals',
    'ocm-run approvals approve p-1a2b3c4d',
    'ocm-run approvals approve all',
    'ocm-run approvals reject p-1a2b3c4d',
  ],
  async run(ctx, args) {
    const action = args.action ?? 'list';
    const ids = args.ids;
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const memory = memoryOf(ctx.paths.root, config, { logger: ctx.logger('tier'), now: () => ctx.now() });
    if (action === 'list') {
      const { formatProposals } = await import('../../lib/api/tier-report.js');
      const details = await memory.approvals();
      if (ctx.json) ctx.out(JSON.stringify({ pending: details }));
      else ctx.out(formatProposals(details).join('\n'));
      return;
    }
    if (action !== 'approve' && action !== 'reject') {
      throw new OcmError('BAD_INPUT', `Unknown approvals action "${action}".`, {
        hint: 'Use: ocm-run approvals [list | approve ID… | reject ID…] (ID may be "all").',
      });
    }
    if (ids.length === 0)
      throw new OcmError('BAD_INPUT', `approvals ${action} needs at least one proposal id (or "all").`, {
        hint: 'Run `ocm-run approvals` to see the pending ids.',
      });
    if (action === 'reject') {
      const { rejected } = await memory.reject(ids, { onStep: crashHook(ctx.env) });
      if (ctx.json) ctx.out(JSON.stringify({ rejected }));
      else
        ctx.out(
          `Rejected ${rejected.length} proposal(s); those days stay where they are and are not proposed again (\`ocm-run archive --to cold\` proposes them again).`,
        );
      return;
    }
    const r = await memory.approve(ids, { onStep: crashHook(ctx.env) });
    if (ctx.json) {
      ctx.out(JSON.stringify(r));
      return;
    }
    const { formatBytes } = await import('../../lib/api/tier-report.js');
    for (const op of r.ops)
      ctx.out(
        `Moved ${op.kind.replace(/-to-/, ' → ')}: ${op.files} files changed, ${op.observations} observations, ${formatBytes(op.bytes)} (op ${op.id}; undo: ocm-run tier --rollback ${op.id})`,
      );
    if (r.vault?.created)
      ctx.out(`Created ${r.vault.created === 'vault' ? 'the Obsidian vault' : 'the OC-Memory folder'} at ${r.vault.root}.`);
    ctx.out(`Approved ${r.approved.length} proposal(s).`);
    if (r.stale.length) ctx.out(`Dropped ${r.stale.length} proposal(s) whose file is gone.`);
    for (const s of r.skipped) ctx.out(`Skipped ${s.path}: ${s.reason}`);
  },
});
