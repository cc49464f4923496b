import { defineCommand } from '../cli-context.js';
import { signalHook } from '../tier-context.js';

/**
 * Test hook: with OCM_TEST=1 (the test runner only) and
 * OCM_TEST_SIGNAL_AT=reflect-period, the job sends itself SIGTERM as it
 * starts its first period, so a test stops it mid-job at a named step.
 */
function testSignalHook(env: NodeJS.ProcessEnv): { onStep?: (step: string) => void } {
  const onStep = signalHook(env, 'SIGTERM');
  return onStep ? { onStep } : {};
}

export const command = defineCommand({
  name: 'reflect',
  description: 'Compress older observations into reflections (when over the thresholds, or now with --force)',
  flags: {
    force: { description: 'Reflect now, whatever the thresholds' },
    agent: { value: '<id>', description: 'Only this agent' },
    all: { description: 'Also reflect the recent days that active memory shows raw' },
  },
  examples: ['ocm-run reflect', 'ocm-run reflect --force', 'ocm-run reflect --force --agent work --json'],
  stopsBetweenSteps: true,
  async run(ctx, _args, options) {
    const { config, env } = await ctx.config();
    if (typeof options.agent === 'string') {
      const { assertKnownAgent, knownAgents } = await import('../../lib/features/known-agents.js');
      assertKnownAgent(options.agent, await knownAgents(ctx.paths, config));
    }
    const { reflectNow } = await import('../../lib/jobs/reflect.js');
    const { relative } = await import('node:path');
    const { createProgress, etaText } = await import('../progress.js');
    const progress = createProgress(ctx.isTTY && !ctx.json);
    const started = Date.now();
    const { result, rebuilt } = await reflectNow({
      onProgress: ({ agent, done, total }) =>
        progress.update(`reflecting ${agent}: period ${done + 1}/${total}${etaText(done / total, started, Date.now())}`),
      paths: ctx.paths,
      config,
      env,
      logger: ctx.logger('reflector'),
      now: () => ctx.now(),
      force: options.force,
      includeRecent: options.all,
      agents: typeof options.agent === 'string' ? [options.agent] : undefined,
      ...testSignalHook(ctx.env),
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
