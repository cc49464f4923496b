/**
 * The tier step of a scheduled tick (`run`): every tick finishes any move a
 * killed run left half done (cheap when there is none); once a day (local
 * date) the tier job itself runs; then, with `sync.after_tier`, a sync — and
 * on any tick, a sync that failed earlier is retried when its backoff is up.
 * Callers hold the home lock. A tick with nothing due loads no Markdown
 * parser: the tier job itself is imported only when it runs, the move
 * journal's code only when the journal has an op to finish (op-scan.ts).
 */
import type { Config } from '../config/config-schema.js';
import { describeError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { readState, writeState } from '../platform/state.js';
import { nextLocalDateChange, resolveTimeZone } from '../platform/time-zone.js';
import { localToday } from '../tiers/age.js';
import { searchIndexUpdater } from '../tiers/search-index.js';
import type { TierJobOptions, TierRunResult } from '../tiers/tier-job.js';
import type { RecoveryResult } from '../tiers/ops.js';
import { hasPendingOps } from '../tiers/op-scan.js';

export interface TierTickOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  onStep?: TierJobOptions['onStep'];
  /** The configured time zone, resolved (run-job passes its per-tick cached resolver); default: resolveTimeZone. */
  timeZone?: () => Promise<string>;
}

export interface TierTickResult {
  recovered: RecoveryResult;
  /** The daily job ran in this tick. */
  ran: boolean;
  tier?: TierRunResult;
  sync?: unknown;
  error?: { message: string; code: string };
}

/** After a failed tier run, wait this long before the next attempt. */
const RETRY_AFTER_FAILURE_MS = 60 * 60 * 1000;

/**
 * What tierDue keeps in state.extra.tierDue: for the last success `after` in
 * `zone`, the first instant whose local date differs (nextLocalDateChange).
 * Before it, the job already ran "today", which an idle tick then knows by
 * comparing numbers — no Intl, whose start-up costs ≈ 30 ms. Any other
 * success (the `tier` command, a run), zone or time-zone data misses.
 */
interface TierDueCache {
  zone: string;
  after: string;
  tzdata: string;
  notBefore: number;
}

/** Is the daily tier job due? Not when it succeeded today, nor within an hour of a failure. */
export async function tierDue(paths: HomePaths, config: Config, now: Date, timeZone?: () => Promise<string>): Promise<boolean> {
  const { state } = await readState(paths.state);
  const rec = state.jobs.tier;
  if (rec?.lastSuccess) {
    const zone = timeZone ? await timeZone() : resolveTimeZone(config.timezone);
    const success = Date.parse(rec.lastSuccess);
    const tzdata = process.versions.tz ?? '';
    const cached = state.extra.tierDue as Partial<TierDueCache> | undefined;
    const hit =
      cached?.zone === zone && cached.after === rec.lastSuccess && cached.tzdata === tzdata && typeof cached.notBefore === 'number';
    let notBefore = hit ? cached.notBefore! : undefined;
    if (notBefore === undefined && Number.isFinite(success)) {
      notBefore = nextLocalDateChange(success, zone);
      // (The caller holds the home lock: the state read above is still current.)
      state.extra.tierDue = { zone, after: rec.lastSuccess, tzdata, notBefore } satisfies TierDueCache;
      await writeState(paths.state, state);
    }
    const t = now.getTime();
    // Within [success, notBefore) the local date is the success's own: ran today. Otherwise compare the dates themselves.
    const today =
      notBefore !== undefined && t >= success && t < notBefore
        ? true
        : localToday(new Date(rec.lastSuccess), zone) === localToday(now, zone);
    if (today) return false;
  }
  if (
    rec?.lastError &&
    (!rec.lastSuccess || rec.lastError.at > rec.lastSuccess) &&
    now.getTime() - Date.parse(rec.lastError.at) < RETRY_AFTER_FAILURE_MS
  )
    return false;
  return true;
}

/** Record a run of the tier job (the `tier` command records its runs too, so `run` does not repeat them the same day). */
export async function recordTierRun(paths: HomePaths, at: Date, error?: unknown, startedAt: Date = at): Promise<void> {
  const { state } = await readState(paths.state);
  const rec = (state.jobs.tier ??= {});
  rec.lastRun = startedAt.toISOString();
  rec.lastDurationMs = at.getTime() - startedAt.getTime();
  if (error === undefined) rec.lastSuccess = at.toISOString();
  else {
    const d = describeError(error);
    rec.lastError = { at: at.toISOString(), message: d.message, code: d.code };
  }
  await writeState(paths.state, state);
}

/** Recovery needs only the journal (no Markdown parsing); ops.ts is loaded only when the journal has work. */
async function recoverTierOps(job: TierJobOptions): Promise<RecoveryResult> {
  if (!(await hasPendingOps(job.paths))) return { completed: [], aborted: [], discarded: [] };
  const { recoverOps } = await import('../tiers/ops.js');
  const update = job.updateIndex;
  return recoverOps({ paths: job.paths, now: job.now, logger: job.logger, onChanged: update && ((changed: string[]) => update(changed)) });
}

function jobOptions(options: TierTickOptions): TierJobOptions {
  return {
    paths: options.paths,
    config: options.config,
    logger: options.logger,
    now: options.now,
    updateIndex: searchIndexUpdater(options),
    onStep: options.onStep,
  };
}

/** Finish moves a killed run left (the start of every tick; cheap when there are none). */
export async function recoverInterruptedMoves(options: TierTickOptions): Promise<RecoveryResult> {
  try {
    const recovered = await recoverTierOps(jobOptions(options));
    if (recovered.completed.length + recovered.aborted.length > 0) options.logger.log('warn', 'tier.recovered', { ...recovered });
    return recovered;
  } catch (error) {
    // Never block observing: the tier step reports it (status shows the error).
    options.logger.log('error', 'tier.recover_failed', { error: describeError(error).message });
    return { completed: [], aborted: [], discarded: [] };
  }
}

export async function tierTickStep(options: TierTickOptions): Promise<TierTickResult> {
  const job = jobOptions(options);
  let recovered: RecoveryResult = { completed: [], aborted: [], discarded: [] };
  let recoverError: unknown;
  try {
    recovered = await recoverTierOps(job);
  } catch (error) {
    recoverError = error;
  }
  const result: TierTickResult = { recovered, ran: false };
  if (recoverError !== undefined) {
    const d = describeError(recoverError);
    result.error = { message: d.message, code: d.code };
    await recordTierRun(options.paths, options.now(), recoverError);
    options.logger.log('error', 'tier.failed', { error: d.message, code: d.code });
  } else if (await tierDue(options.paths, options.config, options.now(), options.timeZone)) {
    const started = options.now();
    try {
      const { runTierJob } = await import('../tiers/tier-job.js');
      result.tier = await runTierJob(job);
      result.ran = true;
      await recordTierRun(options.paths, options.now(), undefined, started);
    } catch (error) {
      await recordTierRun(options.paths, options.now(), error, started);
      const d = describeError(error);
      result.error = { message: d.message, code: d.code };
      options.logger.log('error', 'tier.failed', { error: d.message, code: d.code });
    }
  }
  if (!options.config.sync.git.enabled && !options.config.sync.command.trim()) return result;
  const { syncStep } = await import('./sync/index.js');
  result.sync = await syncStep(
    { paths: options.paths, config: options.config, logger: options.logger, env: options.env, now: options.now },
    { afterTier: result.ran },
  );
  return result;
}
