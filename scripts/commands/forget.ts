import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import { crashHook } from '../tier-context.js';
import type { ForgetPlan, ForgetSelector } from '../../lib/api/index.js';
import type { Flags, FlagValues } from '../flags.js';

/** How many day files the plan touches. */
function dayFiles(plan: ForgetPlan): number {
  return new Set(plan.targets.map((t) => t.path)).size;
}

async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim().toLowerCase() === 'forget';
  } finally {
    rl.close();
  }
}

const FORGET_FLAGS = {
  query: { value: '<text>', description: 'Forget every observation whose text (or #tag) contains this' },
  since: { value: '<date>', description: 'Only days on or after YYYY-MM-DD' },
  until: { value: '<date>', description: 'Only days on or before YYYY-MM-DD' },
  all: {
    description: 'Forget all observations and reflections; with --query: forget what it matches even when that is most of the memory',
  },
  dryRun: { description: 'Show what would be forgotten; change nothing' },
  yes: { description: 'Do not ask for confirmation (for scripts)' },
} as const satisfies Flags;

function dateFlag(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new OcmError('BAD_INPUT', `${flag} must be a date like 2026-02-12.`, { hint: `For example: ${flag} 2026-01-01` });
  return value;
}

/** The command line as what to forget (checked: the dates). */
function forgetSelector(ids: string[], flags: FlagValues<typeof FORGET_FLAGS>): ForgetSelector {
  const { query } = flags;
  return {
    ids,
    query,
    since: dateFlag(flags.since, '--since'),
    until: dateFlag(flags.until, '--until'),
    all: flags.all && query === undefined,
    // --all with --query: the user knows the query matches most of the memory (lib/tiers/forget.ts assertNarrowEnough).
    broad: flags.all && query !== undefined,
  };
}

export const command = defineCommand({
  name: 'forget [...ids]',
  description:
    'Erase observations everywhere (day files of every tier, rollback copies, reflections, index, vectors, active memory): by id, by --query, or --all',
  flags: FORGET_FLAGS,
  examples: ['ocm-run forget o-7f3a9c21e0', 'ocm-run forget --query "home address" --since 2026-01-01', 'ocm-run forget --all --yes'],
  async run(ctx, args, options) {
    const selector = forgetSelector(args.ids, options);
    const { dryRun } = options;
    const { config } = await ctx.config();
    const { memoryOf } = await import('../../lib/api/memory.js');
    const outcome = await memoryOf(ctx.paths.root, config, { logger: ctx.logger('forget'), now: () => ctx.now() }).forget({
      selector,
      dryRun,
      onStep: crashHook(ctx.env),
      onRecovered: (done) =>
        ctx.err(
          `Completed an interrupted forget: ${done.observations} more observation(s) removed; reflections, logs, index, caches and active memory scrubbed; audit entry written.`,
        ),
      onPlan: (plan) => {
        if (ctx.json) return;
        const n = plan.targets.length;
        if (n === 0) ctx.out('Nothing matches; nothing to forget.');
        else {
          ctx.out(
            `${dryRun ? 'Would forget' : 'About to forget'} ${n} observation(s) in ${dayFiles(plan)} day file(s): hot ${plan.byTier.hot}, warm ${plan.byTier.warm}, cold ${plan.byTier.cold}.`,
          );
          for (const t of plan.targets.slice(0, 15))
            ctx.out(`  ${t.date} ${t.tier.padEnd(4)} ${t.id}  ${t.text.length > 80 ? `${t.text.slice(0, 79)}…` : t.text}`);
          if (n > 15) ctx.out(`  … and ${n - 15} more`);
        }
        if (plan.notFound.length) ctx.err(`Not found: ${plan.notFound.join(', ')}`);
      },
      confirm: async (plan) => {
        if (options.yes) return true;
        const n = plan.targets.length;
        if (!process.stdin.isTTY) {
          throw new OcmError('BAD_INPUT', `Forgetting ${n} observation(s) needs a confirmation.`, {
            hint: 'Run it in a terminal to confirm, or pass --yes (scripts). --dry-run shows what would go.',
          });
        }
        return confirm(`This cannot be undone. Type "forget" to erase these ${n} observation(s): `);
      },
    });
    const { plan } = outcome;
    const n = plan.targets.length;
    if (outcome.kind === 'planned') {
      if (ctx.json)
        ctx.out(
          JSON.stringify({
            dryRun,
            observations: n,
            files: dayFiles(plan),
            byTier: plan.byTier,
            notFound: plan.notFound,
            targets: plan.targets,
          }),
        );
      return n === 0 && plan.notFound.length > 0 ? 1 : 0;
    }
    if (outcome.kind === 'declined') {
      ctx.err('Nothing was forgotten.');
      return 1;
    }
    const { result } = outcome;
    if (ctx.json) {
      ctx.out(JSON.stringify(result));
      return 0;
    }
    ctx.out(
      `Forgot ${result.observations} observation(s) from ${result.files} day file(s)${result.filesRemoved ? ` (${result.filesRemoved} left empty and removed)` : ''}; ` +
        `scrubbed ${result.copiesScrubbed} rollback cop${result.copiesScrubbed === 1 ? 'y' : 'ies'}, ${result.reflectionsEdited} reflection(s), ${result.logsEdited} log file(s); index, vectors and active memory updated.`,
    );
    ctx.out('The agent transcripts themselves are not touched (OC-Memory only reads them).');
    if (config.sync.git.enabled)
      ctx.out('Git history (and any remote) still holds the old text: rewrite it with `git filter-repo` if it must go there too.');
    return 0;
  },
});
