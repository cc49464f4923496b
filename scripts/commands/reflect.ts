import { defineCommand } from '../cli-context.js';
import type { ReflectOptions } from '../../lib/api/maintenance.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';
import { signalHook } from '../tier-context.js';

const REFLECT_FLAGS = {
  force: { description: 'Reflect now, whatever the thresholds' },
  agent: { value: '<id>', description: 'Only this agent' },
  all: { description: 'Also reflect the recent days that active memory shows raw' },
} as const satisfies Flags;

/**
 * The command line as the reflection's options. Test hook: with OCM_TEST=1 (the test runner only) and
 * OCM_TEST_SIGNAL_AT=reflect-period, the job sends itself SIGTERM as it starts its first period, so a
 * test stops it mid-job at a named step.
 */
function reflectOptions(flags: FlagValues<typeof REFLECT_FLAGS>, env: NodeJS.ProcessEnv): ReflectOptions {
  return { force: flags.force, includeRecent: flags.all, agent: flags.agent, onStep: signalHook(env, 'SIGTERM') };
}

export const command = defineCommand({
  name: 'reflect',
  description: 'Compress older observations into reflections (when over the thresholds, or now with --force)',
  flags: REFLECT_FLAGS,
  examples: ['ocm-run reflect', 'ocm-run reflect --force', 'ocm-run reflect --force --agent work --json'],
  stopsBetweenSteps: true,
  async run(ctx, _args, flags) {
    const options = reflectOptions(flags, ctx.env);
    const home = await memoryHome(ctx, 'reflector');
    const { reflectMemory } = await import('../../lib/api/maintenance.js');
    const { relative } = await import('node:path');
    const { createProgress, etaText } = await import('../progress.js');
    const progress = createProgress(ctx.isTTY && !ctx.json);
    const started = Date.now();
    const { result, rebuilt } = await reflectMemory(home, {
      ...options,
      onProgress: ({ agent, done, total }) =>
        progress.update(() => `reflecting ${agent}: period ${done + 1}/${total}${etaText(done / total, started, Date.now())}`),
    });
    progress.done();
    for (const file of result.misnamed ?? []) {
      ctx.err(
        `⚠ ${relative(ctx.paths.root, file)} is not named for a real day (YYYY-MM-DD.md); it was not read. Rename it to the day its observations belong to.`,
      );
    }
    if (result.stopped)
      ctx.err(`Stopped (${result.stopped}) after ${result.reflections.length} reflection(s); the rest is reflected on the next run.`);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...result, activeMemory: rebuilt.map((a) => ({ agent: a.agent, path: a.path, tokens: a.tokens })) }));
      return;
    }
    if (result.reflections.length === 0) {
      const why = result.checked.map(
        (c) => `${c.agent}: ${c.unreflectedTokens} unreflected tokens (threshold ${c.threshold}) — ${c.reason}`,
      );
      ctx.out(
        `Nothing to reflect.${why.length ? `\n  ${why.join('\n  ')}` : ' There are no observations in the hot tier (memory/).'}${options.force ? '' : '\n  Use --force to reflect now.'}`,
      );
      return;
    }
    for (const r of result.reflections) {
      ctx.out(
        `${relative(ctx.paths.root, r.path)}: ${r.periodStart} → ${r.periodEnd}, ${r.observations} observations, ${r.tokensBefore} → ${r.tokensAfter} tokens (${r.compressionRatio}:1), key terms kept ${Math.round(r.keywordPreservation * 100)} %${r.keywordPreservation < 0.7 ? ' ⚠ under 70 %' : ''}`,
      );
    }
    for (const a of rebuilt) ctx.out(`Active memory (${a.agent}): ${a.tokens} tokens`);
  },
});
