/**
 * One scheduled tick (docs/architecture.md, "A tick"): every job that is due, in order, under one
 * lock per home. Also `observe` alone. Each step records its last run, success
 * and error in state.json for `status`.
 */
import type { Config } from '../config/config-schema.js';
import { describeError, errorCode } from '../core/errors.js';
import { LlmError } from '../core/llm-error.js';
import { stopRequested } from '../platform/stop-request.js';
import type { HomePaths } from '../platform/home.js';
import { withHomeLock } from '../platform/lock.js';
import type { Logger } from '../platform/log.js';
import { readState, writeState } from '../platform/state.js';
import { fixedZoneOffsetMs, resolveTimeZone } from '../platform/time-zone.js';
import type { Observer, TranscriptSource } from '../core/types.js';
import type { ObserveJobOptions, ObserveJobResult, ObserveProgress } from '../observe/job.js';
import type { IndexResult } from '../search/indexer.js';
import { exists } from '../platform/home.js';

/** How long a tick waits before it tries a missing or broken local embedding model again. */
const MODEL_RETRY_MS = 60 * 60 * 1000;

/**
 * How long a tick waits for the job before it (a manual `run`, the tick before on a busy machine)
 * to finish: two minutes, so that a slow tick beside other work (measured: a 1,200-message run took
 * over 30 s beside two CPU hogs) does not make the next one fail; ticks come every few minutes.
 */
const RUN_LOCK_WAIT_MS = 120_000;

export type TickStep = 'observe' | 'reflect' | 'active_memory' | 'index' | 'tier';

export interface TickOptions {
  paths: HomePaths;
  config: Config;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  now?: () => Date;
  /** Override the configured sources (demo, tests). */
  sources?: TranscriptSource[];
  observer?: Observer;
  onProgress?: (p: ObserveProgress) => void;
  /** Named points of the observe step's saves (test hook; lib/observe/job.ts). */
  onObserveStep?: ObserveJobOptions['onStep'];
  /** Wait this long for another job's lock (ms). */
  /** How long a tick waits for another job on the home (default RUN_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** LLM Observer: observe what waits for a batch now (observe --flush). */
  flush?: boolean;
  /**
   * The configured time zone, resolved (runTick passes one that resolves once
   * per tick through .ocm/time-zone.json); default: resolveTimeZone.
   */
  timeZone?: () => Promise<string>;
  /** Steps to run; default: all that are due. */
  steps?: TickStep[];
  /** The index step's embedder, kept by a process that ticks again and again (`watch`); default: one per tick. */
  embedder?: import('../search/embedder.js').Embedder;
}

export interface TickResult {
  observe?: ObserveJobResult;
  activeMemory: Array<{ agent: string; path: string; tokens: number; included: number; dropped: number }>;
  index?: unknown;
  /** Reflections written this tick (lib/jobs/reflect-job.ts). */
  reflect?: import('./reflect-job.js').ReflectJobResult;
  /** The reflect step failed (recorded and alerted; the tick went on). */
  reflectError?: { message: string; code: string; hint?: string; errorClass?: string };
  /** Interrupted moves finished, the daily tier job, sync (lib/jobs/tier-step.ts). */
  tier?: import('./tier-step.js').TierTickResult;
  durationMs: number;
}

/** The tick's time zone: options.timeZone, or the configured zone resolved now. */
async function tickZone(options: TickOptions): Promise<string> {
  return options.timeZone ? options.timeZone() : resolveTimeZone(options.config.timezone);
}

/** A per-tick resolver: the cached zone, looked up once, only when a step needs local time. */
function tickZoneResolver(options: TickOptions): () => Promise<string> {
  let zone: Promise<string> | undefined;
  return () => {
    zone ??= (async () => {
      if (options.config.timezone && fixedZoneOffsetMs(options.config.timezone) !== undefined)
        return resolveTimeZone(options.config.timezone);
      const { resolveTimeZoneCached, zoneCacheFile } = await import('../platform/time-zone-cache.js');
      return resolveTimeZoneCached(zoneCacheFile(options.paths.machine), options.config.timezone);
    })();
    return zone;
  };
}

/** What a step's failure leaves in state.json: its message and code. */
interface JobFailure {
  message: string;
  code: string;
}

/** A thrown error as a recorded failure: a system error keeps its own code ("ENOSPC"), else the OcmError code. */
function failureOf(error: unknown): JobFailure {
  const d = describeError(error);
  return { message: d.message, code: errorCode(error) ?? d.code };
}

async function recordJob(paths: HomePaths, job: string, startedAt: Date, endedAt: Date, failure?: JobFailure): Promise<void> {
  const { state } = await readState(paths.state);
  const rec = (state.jobs[job] ??= {});
  rec.lastRun = startedAt.toISOString();
  rec.lastDurationMs = endedAt.getTime() - startedAt.getTime();
  if (failure === undefined) rec.lastSuccess = endedAt.toISOString();
  else rec.lastError = { at: endedAt.toISOString(), message: failure.message, code: failure.code };
  await writeState(paths.state, state);
}

/** Run the observe step alone (no lock: the caller holds it). */
export async function observeStep(options: TickOptions): Promise<ObserveJobResult> {
  const now = options.now ?? (() => new Date());
  const [{ runObserveJob }, { createSources }, { createLazyObserver }] = await Promise.all([
    import('../observe/job.js'),
    import('../sources/registry.js'),
    import('../observer/factory.js'),
  ]);
  const sources = options.sources ?? (await createSources({ config: options.config, env: options.env, logger: options.logger }));
  const observer =
    options.observer ?? createLazyObserver(options.config, { env: options.env, homeRoot: options.paths.root, logger: options.logger });
  const timeZone = await tickZone(options);
  return runObserveJob({
    paths: options.paths,
    sources,
    observer,
    logger: options.logger,
    timeZone,
    now,
    onProgress: options.onProgress,
    onStep: options.onObserveStep,
    batching: {
      batchTokens: options.config.observer.batch_tokens,
      idleMinutes: options.config.observer.idle_minutes,
      flushAll: options.flush,
    },
    speakerNames: [options.config.observer.user_name, options.config.observer.assistant_name].filter((n): n is string => Boolean(n)),
  });
}

/** Rebuild active memory for the given agents (and for main when its file is missing). */
export async function activeMemoryStep(options: TickOptions, agents: string[]): Promise<TickResult['activeMemory']> {
  const now = options.now ?? (() => new Date());
  const out: TickResult['activeMemory'] = [];
  const want = new Set(agents);
  if (!(await exists(options.paths.activeMemory))) want.add('main');
  const { staleActiveMemories } = await import('../memory/active-memory-staleness.js');
  // Also what is out of step: a hand edit, `remember` by another program, a changed budget or template, a new day.
  const zone = await tickZone(options);
  const { state } = await readState(options.paths.state);
  const kept = state.extra.activeMemoryDay;
  const day = await localDay(now().getTime(), zone, isLocalDay(kept) ? kept : undefined);
  const key = JSON.stringify({ settings: options.config.active_memory, today: day.date });
  const lastKey = state.extra.activeMemoryKey;
  for (const agent of await staleActiveMemories(options.paths, key, typeof lastKey === 'string' ? lastKey : undefined)) want.add(agent);
  if (want.size === 0) {
    if (day !== state.extra.activeMemoryDay) {
      const fresh = await readState(options.paths.state);
      fresh.state.extra.activeMemoryDay = day;
      await writeState(options.paths.state, fresh.state);
    }
    return out;
  }
  const { rebuildActiveMemory } = await import('../memory/active-memory-file.js');
  for (const agent of [...want].sort()) {
    const r = await rebuildActiveMemory({ paths: options.paths, config: options.config, agent, timeZone: zone, now: now() });
    options.logger.log('info', 'active_memory.rebuilt', { agent, tokens: r.tokens, included: r.included, dropped: r.dropped });
    out.push({ agent, path: r.path, tokens: r.tokens, included: r.included, dropped: r.dropped });
  }
  if (state.extra.activeMemoryKey !== key || day !== state.extra.activeMemoryDay) {
    const fresh = await readState(options.paths.state);
    fresh.state.extra.activeMemoryKey = key;
    fresh.state.extra.activeMemoryDay = day;
    await writeState(options.paths.state, fresh.state);
  }
  return out;
}

/** The local date of the last tick, and the instants [from, until) it lasts in `zone`. */
interface LocalDay {
  zone: string;
  date: string;
  from: number;
  until: number;
}

/** A section of state.json's `extra` that is an object (its fields still unknown). */
function isSection(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Is the section kept in state.json a local day? (Kept as it is: a reused day is the same object, and state.json is not rewritten.) */
function isLocalDay(section: unknown): section is LocalDay {
  if (!isSection(section)) return false;
  const { zone, date, from, until } = section;
  return typeof zone === 'string' && typeof date === 'string' && typeof from === 'number' && typeof until === 'number';
}

/**
 * Today's local date: the one kept in state.json while `nowMs` is still in its
 * span (an idle tick then creates no Intl.DateTimeFormat, whose ICU start-up
 * costs about 30 ms), computed otherwise. The same object when it is reused.
 */
async function localDay(nowMs: number, zone: string, kept: LocalDay | undefined): Promise<LocalDay> {
  if (kept && kept.zone === zone && kept.from <= nowMs && nowMs < kept.until) return kept;
  const { localDateTime, nextLocalDateChange } = await import('../platform/time-zone.js');
  return { zone, date: localDateTime(new Date(nowMs), zone).date, from: nowMs, until: nextLocalDateChange(nowMs, zone) };
}

/**
 * The reflect step of a tick, for the given agents: reflects when due (see
 * lib/jobs/reflect-job.ts). A failure is recorded and alerted there, and kept in
 * the result (`run` exits 5 for an LLM error) without stopping the tick.
 * Returns the agents that got a new reflection.
 */
async function reflectStep(options: TickOptions, result: TickResult, agents: string[], overBudget: string[]): Promise<string[]> {
  const now = options.now ?? (() => new Date());
  const t0 = now();
  const { runReflectJob } = await import('./reflect-job.js');
  try {
    const r = await runReflectJob({
      paths: options.paths,
      config: options.config,
      env: options.env,
      logger: options.logger,
      timeZone: await tickZone(options),
      now,
      agents,
      overBudget,
    });
    result.reflect = result.reflect
      ? { ...r, reflections: [...result.reflect.reflections, ...r.reflections], checked: [...result.reflect.checked, ...r.checked] }
      : r;
    if (r.reflections.length > 0) await recordJob(options.paths, 'reflect', t0, now());
    return [...new Set(r.reflections.map((x) => x.agent))];
  } catch (error) {
    await recordJob(options.paths, 'reflect', t0, now(), failureOf(error));
    const d = describeError(error);
    const errorClass = error instanceof LlmError ? error.errorClass : undefined;
    result.reflectError = { message: d.message, code: d.code, hint: d.hint, errorClass };
    options.logger.log('error', 'reflect.failed', { error: d.message, code: d.code, errorClass });
    return [];
  }
}

/** What the index step keeps in state.json (`extra.indexFingerprint`): the memory it last indexed completely. */
interface IndexFingerprint {
  hash: string;
  /** When it was taken (epoch ms). */
  at: number;
  /** The embedding space it was indexed in. */
  salt: string;
  /** A broken local model is tried again only after this (epoch ms). */
  retryAt?: number;
}

/** The index step's section of state.json, if it is one (a hand-edited or older file: none, and the index is updated). */
function readIndexFingerprint(section: unknown): IndexFingerprint | undefined {
  if (!isSection(section)) return undefined;
  const { hash, at, salt, retryAt } = section;
  if (typeof hash !== 'string' || typeof at !== 'number' || typeof salt !== 'string') return undefined;
  return typeof retryAt === 'number' ? { hash, at, salt, retryAt } : { hash, at, salt };
}

/**
 * Update the search index unless nothing changed since a complete update (then without loading the
 * indexer). Returns the update, or undefined when it was skipped.
 */
async function indexStep(options: TickOptions, now: () => Date): Promise<IndexResult | undefined> {
  const { memoryFingerprint } = await import('../search/fingerprint.js');
  // What the index depends on besides the files: the embedding space.
  const { api_key: _key, ...embeddingSpace } = options.config.embeddings;
  const { embeddingProvider } = await import('../search/embeddings.js');
  const salt = JSON.stringify({ ...embeddingSpace, provider: embeddingProvider(options.config) });
  const before = await memoryFingerprint(options.paths, options.config.tiers.vault_path);
  const { state } = await readState(options.paths.state);
  const last = readIndexFingerprint(state.extra.indexFingerprint);
  const settled = last !== undefined && last.at - before.newestMtimeMs > 2000;
  const retryDue = last?.retryAt !== undefined && now().getTime() >= last.retryAt;
  if (last?.hash === before.hash && last.salt === salt && settled && !retryDue) return undefined;
  const { updateIndex } = await import('../search/indexer.js');
  const updated = await updateIndex(options.paths, options.config, {
    logger: options.logger,
    now,
    ...(options.embedder ? { embedder: options.embedder } : {}),
  });
  const after = await memoryFingerprint(options.paths, options.config.tiers.vault_path);
  const fresh = await readState(options.paths.state);
  // Only a complete update (no warnings: every file read, every vector computed) may be skipped next time;
  // a broken local model is not tried again on every tick, only after MODEL_RETRY_MS (or once a file changes).
  const onlyModel = updated.embeddingFailure === 'model' && updated.warnings.length === 1;
  if (updated.warnings.length === 0 || onlyModel) {
    const fingerprint: IndexFingerprint = {
      hash: after.hash,
      at: now().getTime(),
      salt,
      ...(onlyModel ? { retryAt: now().getTime() + MODEL_RETRY_MS } : {}),
    };
    fresh.state.extra.indexFingerprint = fingerprint;
  } else delete fresh.state.extra.indexFingerprint;
  await writeState(options.paths.state, fresh.state);
  return updated;
}

/** Temp files of writers killed mid-write (their targets are intact). */
async function removeLeftoverTempFiles(paths: HomePaths): Promise<void> {
  const { readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { removeStaleTempFiles } = await import('../platform/atomic-file.js');
  const dirs = [paths.root, paths.machine, paths.memory];
  try {
    for (const e of await readdir(paths.memory, { withFileTypes: true })) if (e.isDirectory()) dirs.push(join(paths.memory, e.name));
  } catch {
    /* no memory yet */
  }
  for (const dir of dirs) await removeStaleTempFiles(dir);
}

/** What the steps of one tick share: the options, the clock, the result so far, and what observe changed. */
interface Tick {
  options: TickOptions;
  now: () => Date;
  result: TickResult;
  /** Is the step asked for (and no stop requested)? Asked when each step begins. */
  wants(step: TickStep): boolean;
  /** The tick's time zone, resolved once, when a step first needs it. */
  timeZone: () => Promise<string>;
  /** Agents whose memory the observe step changed. */
  changedAgents: string[];
}

/**
 * One step of a tick: its name (its record in state.json), what it needs besides being asked for,
 * what it does, and how its run is recorded — `outcome`: by the table, from what `run` returns
 * (success, nothing worth recording, or a failure it reports without throwing) or the error it
 * throws, which is recorded and ends the tick; `self`: the step records its own runs (reflect only
 * when it wrote, and keeps its error in the result; tier per job).
 */
interface TickStepEntry {
  name: TickStep;
  needs?: (tick: Tick) => boolean;
  run: (tick: Tick) => Promise<StepRun>;
  records: 'outcome' | 'self';
}

/** What a run tells its record: done (success), nothing to record, or a failure reported without a throw. */
type StepRun = { recorded: 'success' } | { recorded: 'nothing' } | { recorded: 'failure'; failure: JobFailure };

const SUCCESS: StepRun = { recorded: 'success' };
const NOTHING: StepRun = { recorded: 'nothing' };

/** The steps of a tick, in order. */
const TICK_STEPS: readonly TickStepEntry[] = [
  {
    name: 'observe',
    records: 'outcome',
    run: async (tick) => {
      const { options, now } = tick;
      const observed = await observeStep(options);
      tick.result.observe = observed;
      tick.changedAgents = observed.changedAgents;
      if (observed.failures.some((f) => f.code === 'LLM_ERROR')) {
        const { alertLlmFailures } = await import('./alerts.js');
        await alertLlmFailures(
          { config: options.config, paths: options.paths, env: options.env, logger: options.logger, now },
          'observer',
          observed.failures,
        );
      }
      const failure = observed.failures[0];
      return failure ? { recorded: 'failure', failure: { message: failure.message, code: failure.code } } : SUCCESS;
    },
  },
  {
    // Reflect when new observations pushed an agent over reflector.threshold_tokens.
    name: 'reflect',
    records: 'self',
    needs: (tick) => tick.changedAgents.length > 0,
    run: async (tick) => {
      await reflectStep(tick.options, tick.result, tick.changedAgents, []);
      return NOTHING;
    },
  },
  {
    name: 'active_memory',
    records: 'outcome',
    run: async (tick) => {
      const { options, result } = tick;
      result.activeMemory = await activeMemoryStep(options, tick.changedAgents);
      // …or when active memory could not hold everything: reflect, then rebuild.
      const over = result.activeMemory.filter((a) => a.dropped > 0).map((a) => a.agent);
      if (tick.wants('reflect') && over.length > 0 && !result.reflectError) {
        const written = await reflectStep(options, result, over, over);
        if (written.length > 0) {
          const rebuilt = await activeMemoryStep(options, written);
          result.activeMemory = [...result.activeMemory.filter((a) => !written.includes(a.agent)), ...rebuilt];
        }
      }
      return result.activeMemory.length > 0 ? SUCCESS : NOTHING;
    },
  },
  {
    name: 'index',
    records: 'outcome',
    run: async (tick) => {
      const updated = await indexStep(tick.options, tick.now);
      if (updated !== undefined) tick.result.index = updated;
      return SUCCESS;
    },
  },
  {
    // Finishes interrupted moves every tick; the tier job once a day; then sync if due. Records its own runs.
    name: 'tier',
    records: 'self',
    run: async (tick) => {
      const { options, now } = tick;
      const { tierTickStep } = await import('./tier-step.js');
      tick.result.tier = await tierTickStep({
        paths: options.paths,
        config: options.config,
        logger: options.logger,
        env: options.env,
        now,
        timeZone: tick.timeZone,
      });
      return NOTHING;
    },
  },
];

/** Run one step of the table and record it as it says. */
async function runStep(step: TickStepEntry, tick: Tick): Promise<void> {
  const { paths } = tick.options;
  const t0 = tick.now();
  let run: StepRun;
  try {
    run = await step.run(tick);
  } catch (error) {
    if (step.records === 'outcome') await recordJob(paths, step.name, t0, tick.now(), failureOf(error));
    throw error;
  }
  if (step.records === 'self' || run.recorded === 'nothing') return;
  await recordJob(paths, step.name, t0, tick.now(), run.recorded === 'failure' ? run.failure : undefined);
}

/** One tick under the home lock. */
export async function runTick(tickOptions: TickOptions): Promise<TickResult> {
  const timeZone = tickOptions.timeZone ?? tickZoneResolver(tickOptions);
  const options: TickOptions = { ...tickOptions, timeZone };
  const now = options.now ?? (() => new Date());
  const started = now();
  const wanted = new Set(options.steps ?? ['observe', 'reflect', 'active_memory', 'index', 'tier']);
  // A step not yet begun when a signal asks the tick to stop (lib/platform/stop-request.ts) is left to the next tick.
  const wants = (step: TickStep) => wanted.has(step) && !stopRequested();
  return withHomeLock(
    options.paths.lock,
    async () => {
      const tick: Tick = { options, now, result: { activeMemory: [], durationMs: 0 }, wants, timeZone, changedAgents: [] };
      await recoverInterrupted(tick);
      for (const step of TICK_STEPS) if (wants(step.name) && (step.needs?.(tick) ?? true)) await runStep(step, tick);
      tick.result.durationMs = now().getTime() - started.getTime();
      await recordJob(options.paths, 'run', started, now());
      return tick.result;
    },
    { waitMs: options.lockWaitMs ?? RUN_LOCK_WAIT_MS },
  );
}

/** Before any step reads the memory: temp files, tier moves and forgets a killed run left half done. */
async function recoverInterrupted(tick: Tick): Promise<void> {
  const { options, now } = tick;
  await removeLeftoverTempFiles(options.paths);
  if (tick.wants('tier')) {
    // A tier move a killed run left half done is finished first, so every step sees whole files.
    const { recoverInterruptedMoves } = await import('./tier-step.js');
    await recoverInterruptedMoves({ paths: options.paths, config: options.config, logger: options.logger, env: options.env, now });
  }
  // A forget a killed run left half done is completed before any step reads the memory (lib/tiers/forget-journal.ts).
  const { hasPendingForgets } = await import('../tiers/forget-journal.js');
  if (await hasPendingForgets(options.paths)) {
    const { forgetOptionsFor, recoverForgets } = await import('../tiers/forget.js');
    try {
      await recoverForgets(
        await forgetOptionsFor({ paths: options.paths, config: options.config, logger: options.logger, now, timeZone: tick.timeZone }),
      );
    } catch (error) {
      // Never block observing; the next tick (or forget) tries again, the journal stays.
      options.logger.log('error', 'forget.recover_failed', { error: describeError(error).message });
    }
  }
}
