/**
 * `ocm-run forget`: under the home lock, finish what killed runs left (tier
 * moves, forgets), plan what the selector matches, and — unless it is a dry
 * run, nothing matched, or the confirmation says no — erase it everywhere
 * (lib/tiers/forget.ts). The command maps its flags onto these options, shows
 * the plan, asks, and prints the result (docs/architecture.md, "Add a command").
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { ForgetPlan, ForgetResult, ForgetSelector } from '../tiers/forget.js';

export interface ForgetNowOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  selector: ForgetSelector;
  /** Plan only (`--dry-run`): nothing is erased and no confirmation is asked. */
  dryRun: boolean;
  /** Told of each forget a killed run left half done, completed before this one. */
  onRecovered?: ((done: ForgetResult) => void) | undefined;
  /** Shown the plan as soon as it is made (also on a dry run, and before a too-broad query is refused). */
  onPlan?: ((plan: ForgetPlan) => void) | undefined;
  /** Asked before anything is erased; false erases nothing. */
  confirm: (plan: ForgetPlan) => Promise<boolean>;
  /** Test hook (scripts/tier-context.ts crashHook): called at every tier-op and forget step. */
  onStep?: ((step: string, id: string) => void) | undefined;
  /** How long to wait for a job holding the home lock (ms, default 30 000). */
  lockWaitMs?: number | undefined;
}

export type ForgetNowResult =
  /** A dry run, or nothing matched. */
  | { kind: 'planned'; plan: ForgetPlan }
  /** The confirmation said no: nothing was erased. */
  | { kind: 'declined'; plan: ForgetPlan }
  | { kind: 'forgotten'; plan: ForgetPlan; result: ForgetResult };

export async function forgetNow(options: ForgetNowOptions): Promise<ForgetNowResult> {
  const [
    { assertNarrowEnough, forgetOptionsFor, planForget, applyForget, recoverForgets },
    { recoverTierOps },
    { searchIndexUpdater },
    { resolveTimeZone },
    { withHomeLock, HOME_LOCK_WAIT_MS },
  ] = await Promise.all([
    import('../tiers/forget.js'),
    import('../tiers/tier-job.js'),
    import('../tiers/search-index.js'),
    import('../platform/time-zone.js'),
    import('../platform/lock.js'),
  ]);
  const { paths, config, logger, now, selector, onStep } = options;
  const forgetOptions = await forgetOptionsFor({
    paths,
    config,
    logger,
    now,
    timeZone: async () => resolveTimeZone(config.timezone),
    onStep,
  });
  return withHomeLock(
    paths.lock,
    async (): Promise<ForgetNowResult> => {
      await recoverTierOps({ paths, config, logger, now, updateIndex: searchIndexUpdater({ paths, config, logger, now }), onStep });
      // A forget a killed run left half done is completed first (lib/tiers/forget-journal.ts).
      for (const done of await recoverForgets(forgetOptions)) options.onRecovered?.(done);
      const plan = await planForget(paths, config, selector);
      options.onPlan?.(plan);
      if (!options.dryRun) assertNarrowEnough(plan, selector);
      if (options.dryRun || plan.targets.length === 0) return { kind: 'planned', plan };
      if (!(await options.confirm(plan))) return { kind: 'declined', plan };
      return { kind: 'forgotten', plan, result: await applyForget(forgetOptions, plan, selector) };
    },
    { waitMs: options.lockWaitMs ?? HOME_LOCK_WAIT_MS },
  );
}
