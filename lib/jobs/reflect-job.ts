/**
 * The reflect job (docs/architecture.md, "A tick"). For each agent: the hot observations no
 * reflection stands in for yet ("unreflected"); when they exceed
 * `reflector.threshold_tokens`, when the agent's active memory overflowed its
 * budget, or on demand (`reflect --force`), the older ones — everything
 * before the recent window that active memory shows raw — are compressed
 * period by period (a calendar month, split when larger than the threshold)
 * into reflection files. The originals stay in the day files.
 *
 * Every reflection records its compression ratio and keyword-preservation
 * score; under 70 % a warning is logged and an alert raised. An LLM
 * Reflector that fails after its retries makes the job fail (exit 5, alert);
 * reflections already written stay, the rest is tried on the next run.
 */
import { exists, type HomePaths } from '../platform/home.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import { listHotAgents, listHotDayFiles, misnamedDayFiles, readObservations } from '../memory/memory-files.js';
import { stopRequested } from '../platform/stop-request.js';
import { readState, writeState } from '../platform/state.js';
import { localDateTime } from '../platform/time-zone.js';
import { countTokens, estimateTokens } from '../core/tokens.js';
import type { LlmUsage, Observation } from '../core/types.js';
import { LlmError } from '../core/llm-error.js';
import { writeFileAtomic } from '../platform/atomic-file.js';
import {
  formatReflectionFile,
  listReflections,
  reflectionFileName,
  reflectionsDir,
  type ReflectionMeta,
} from '../memory/reflection-file.js';
import { keyTerms, missingTerms, preservation } from '../reflector/keywords.js';
import { renderObservations, renderReflectionLines, sortObservations } from '../memory/reflection-text.js';
import type { ReflectionLine, Reflector } from '../reflector/types.js';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Under this keyword preservation a reflection is reported (warning + alert). */
export const MIN_KEYWORD_PRESERVATION = 0.7;

export interface ReflectJobOptions {
  paths: HomePaths;
  config: Config;
  env: Record<string, string | undefined>;
  logger: Logger;
  timeZone: string;
  now?: () => Date;
  /** Reflect now, whatever the thresholds (`reflect --force`). */
  force?: boolean;
  /** Agents whose active memory did not fit its budget. */
  overBudget?: string[];
  /** Also reflect the recent window (benchmarks). */
  includeRecent?: boolean;
  /** Only these agents (default: every agent with hot memory). */
  agents?: string[];
  /** Use this Reflector instead of the configured one (tests, benchmarks). */
  reflector?: Reflector;
  /** For tests: fetch used by the LLM client and alerts. */
  fetch?: typeof fetch;
  /** Called at every named step (test hook: OCM_TEST_SIGNAL_AT / OCM_TEST_CRASH_AT). */
  onStep?: (step: 'reflect-period') => void;
  /** Before each period is reflected: the agent, how many of its periods are done and how many there are (a progress line with an ETA). */
  onProgress?: (progress: { agent: string; done: number; total: number }) => void;
}

export interface ReflectionSummary {
  agent: string;
  path: string;
  periodStart: string;
  periodEnd: string;
  observations: number;
  tokensBefore: number;
  tokensAfter: number;
  compressionRatio: number;
  keywordPreservation: number;
  reflector: string;
}

export interface AgentCheck {
  agent: string;
  unreflectedTokens: number;
  threshold: number;
  due: boolean;
  reason: string;
}

export interface ReflectJobResult {
  reflections: ReflectionSummary[];
  checked: AgentCheck[];
  usage: LlmUsage[];
  /** A signal asked the job to stop: it returned after the reflection it was writing; the rest waits for the next run. */
  stopped?: NodeJS.Signals;
  /** Hot files named for no real day (`2026-13-45.md`): not read. */
  misnamed?: string[];
}

/** What the user should see about the last reflect run (state.extra.reflector). */
export interface ReflectorState {
  lastRun?: string;
  lastReflection?: ReflectionSummary & { at: string };
  lastError?: { at: string; message: string; errorClass?: string };
  reflections?: number;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Observations to reflect: the unreflected ones before the recent window
 * (active memory shows that window raw). When there are none and `orRecent`
 * (a threshold crossed within the window, or --force), all but the newest day.
 */
export function selectForReflection(
  unreflected: Observation[],
  newestDate: string,
  recentDays: number,
  options: { includeRecent?: boolean; orRecent?: boolean } = {},
): Observation[] {
  if (options.includeRecent) return unreflected;
  const windowStart = addDays(newestDate, -(recentDays - 1));
  const old = unreflected.filter((o) => o.date < windowStart);
  if (old.length > 0 || !options.orRecent) return old;
  return unreflected.filter((o) => o.date < newestDate);
}

/** Periods: calendar months, split by whole days when larger than `maxTokens` (estimate). */
export function splitIntoPeriods(observations: Observation[], maxTokens: number): Observation[][] {
  const periods: Observation[][] = [];
  const sorted = sortObservations(observations);
  let current: Observation[] = [];
  let tokens = 0;
  for (let i = 0; i < sorted.length; ) {
    const date = sorted[i]!.date;
    const day: Observation[] = [];
    while (i < sorted.length && sorted[i]!.date === date) day.push(sorted[i++]!);
    const dayTokens = estimateTokens(renderObservations(day));
    const monthChanged = current.length > 0 && current[0]!.date.slice(0, 7) !== date.slice(0, 7);
    if (current.length > 0 && (monthChanged || tokens + dayTokens > maxTokens)) {
      periods.push(current);
      current = [];
      tokens = 0;
    }
    current.push(...day);
    tokens += dayTokens;
  }
  if (current.length > 0) periods.push(current);
  return periods;
}

/** Compression and keyword preservation of a reflection against its sources. */
export function measureReflection(
  sources: Observation[],
  lines: ReflectionLine[],
): { tokensBefore: number; tokensAfter: number; compressionRatio: number; keywordPreservation: number; missing: string[] } {
  const tokensBefore = countTokens(renderObservations(sources));
  const tokensAfter = Math.max(1, countTokens(renderReflectionLines(lines)));
  const withTags = (text: string, tags: string[]) => `${text}${tags.map((t) => ` #${t}`).join('')}`;
  const sourceTerms = keyTerms(sources.map((o) => withTags(o.text, o.tags)).join('\n'));
  const kept = keyTerms(lines.map((l) => withTags(l.text, l.tags)).join('\n'), { expand: true });
  return {
    tokensBefore,
    tokensAfter,
    compressionRatio: Math.round((tokensBefore / tokensAfter) * 100) / 100,
    keywordPreservation: Math.round(preservation(sourceTerms, kept) * 1000) / 1000,
    missing: missingTerms(sourceTerms, kept, 15),
  };
}

export async function runReflectJob(options: ReflectJobOptions): Promise<ReflectJobResult> {
  const { paths, config, logger, onStep } = options;
  const now = options.now ?? (() => new Date());
  const result: ReflectJobResult = { reflections: [], checked: [], usage: [] };
  const threshold = config.reflector.threshold_tokens;
  const overBudget = new Set(options.overBudget ?? []);
  const agents = options.agents ?? (await listHotAgents(paths));
  let reflector = options.reflector;
  const { recordUsage, recordLlmError, recordLlmSuccess, mergeUsage } = await import('../llm/usage.js');

  const saveState = async (mutate: (extra: { reflector: ReflectorState }, state: import('../platform/state.js').State) => void) => {
    const { state } = await readState(paths.state);
    const extra = state.extra as { reflector?: ReflectorState };
    extra.reflector ??= {};
    mutate(extra as { reflector: ReflectorState }, state);
    await writeState(paths.state, state);
  };

  const misnamed = await misnamedDayFiles(paths);
  if (misnamed.length > 0) {
    result.misnamed = misnamed;
    logger.log('warn', 'reflect.misnamed_day_files', { files: misnamed });
  }
  try {
    for (const agent of agents) {
      if ((result.stopped = stopRequested())) break;
      const files = await listHotDayFiles(paths, agent);
      if (!options.force && !overBudget.has(agent)) {
        // Cheap upper bound first (a tick must stay fast): the files cannot hold more tokens than bytes / 3.
        let bytes = 0;
        for (const f of files)
          bytes += await stat(f.path).then(
            (st) => st.size,
            () => 0,
          );
        if (bytes / 3 <= threshold) {
          result.checked.push({ agent, unreflectedTokens: Math.round(bytes / 4), threshold, due: false, reason: 'below threshold' });
          continue;
        }
      }
      const observations = (await readObservations(files)).filter((o) => !o.id.startsWith('line-'));
      if (observations.length === 0) continue;
      const reflected = new Set<string>();
      for (const r of await listReflections(paths, agent)) for (const id of r.meta.sourceObservations) reflected.add(id);
      const unreflected = observations.filter((o) => !reflected.has(o.id));
      const unreflectedTokens = estimateTokens(renderObservations(unreflected));
      const reason = options.force
        ? 'forced'
        : unreflectedTokens > threshold
          ? 'threshold'
          : overBudget.has(agent)
            ? 'active memory over budget'
            : '';
      result.checked.push({ agent, unreflectedTokens, threshold, due: reason !== '', reason: reason || 'below threshold' });
      if (!reason || unreflected.length === 0) continue;
      // ISO dates compare as text: the newest is the greatest.
      let newest = '';
      for (const o of observations) if (o.date > newest) newest = o.date;
      const chosen = selectForReflection(unreflected, newest, config.active_memory.recent_days, {
        includeRecent: options.includeRecent === true,
        orRecent: reason === 'forced' || reason === 'threshold',
      });
      if (chosen.length === 0) {
        logger.log('info', 'reflect.nothing_old_enough', { agent, unreflected: unreflected.length });
        continue;
      }
      if (!reflector) {
        const { createReflector } = await import('../reflector/factory.js');
        reflector = await createReflector(config, { env: options.env, homeRoot: paths.root, logger, fetch: options.fetch });
      }
      const periods = splitIntoPeriods(chosen, threshold);
      for (const [done, period] of periods.entries()) {
        // Between periods: every reflection so far is written whole and recorded.
        if ((result.stopped = stopRequested())) break;
        onStep?.('reflect-period');
        options.onProgress?.({ agent, done, total: periods.length });
        const periodStart = period[0]!.date;
        const periodEnd = period[period.length - 1]!.date;
        const draft = await reflector.reflect({ agent, periodStart, periodEnd, observations: period });
        if (draft.usage?.length) result.usage = mergeUsage(result.usage, draft.usage);
        const m = measureReflection(period, draft.lines);
        const at = now();
        const meta: ReflectionMeta = {
          periodStart,
          periodEnd,
          agent,
          reflector: reflector.label,
          created: at.toISOString(),
          tokensBefore: m.tokensBefore,
          tokensAfter: m.tokensAfter,
          compressionRatio: m.compressionRatio,
          keywordPreservation: m.keywordPreservation,
          sourceObservations: period.map((o) => o.id),
        };
        const dir = reflectionsDir(paths, agent);
        let n = 1;
        while (await exists(join(dir, reflectionFileName(periodStart, periodEnd, n)))) n++;
        const path = join(dir, reflectionFileName(periodStart, periodEnd, n));
        await writeFileAtomic(path, formatReflectionFile(meta, draft.lines), { mode: 0o600 });
        const summary: ReflectionSummary = {
          agent,
          path,
          periodStart,
          periodEnd,
          observations: period.length,
          tokensBefore: m.tokensBefore,
          tokensAfter: m.tokensAfter,
          compressionRatio: m.compressionRatio,
          keywordPreservation: m.keywordPreservation,
          reflector: reflector.label,
        };
        result.reflections.push(summary);
        logger.log('info', 'reflection.written', { ...summary, reason });
        await saveState((extra, state) => {
          extra.reflector.lastReflection = { ...summary, at: at.toISOString() };
          extra.reflector.reflections = (extra.reflector.reflections ?? 0) + 1;
          if (draft.usage?.length) {
            recordUsage(state, 'reflector', draft.usage, at, localDateTime(at, options.timeZone).date);
            recordLlmSuccess(state, 'reflector', at);
          }
        });
        if (m.keywordPreservation < MIN_KEYWORD_PRESERVATION) {
          logger.log('warn', 'reflection.keywords_lost', { path, keywordPreservation: m.keywordPreservation, missing: m.missing });
          const { sendAlert } = await import('./alerts.js');
          await sendAlert(
            { config, paths, env: options.env, logger, now, fetch: options.fetch },
            {
              event: 'keyword_preservation_low',
              errorClass: 'keyword_preservation',
              severity: 'warning',
              summary: `A reflection of ${periodStart} → ${periodEnd} kept only ${Math.round(m.keywordPreservation * 100)} % of its key terms (names, numbers, technologies).`,
              cause: `Missing, for example: ${m.missing.slice(0, 8).join(', ')}.`,
              action: `The original observations are still in the day files. Check ${path}; a stronger reflector model (reflector.model) keeps more.`,
              details: { path, keywordPreservation: m.keywordPreservation },
            },
          ).catch((error: unknown) => logger.log('warn', 'alert.failed', { error: String(error) }));
        }
      }
    }
    await saveState((extra) => {
      extra.reflector.lastRun = now().toISOString();
    });
    return result;
  } catch (error) {
    const llm = error instanceof LlmError ? error : undefined;
    const message = String((error as { message?: unknown } | undefined)?.message ?? error);
    const at = now();
    await saveState((extra, state) => {
      extra.reflector.lastRun = at.toISOString();
      extra.reflector.lastError = { at: at.toISOString(), message, errorClass: llm?.errorClass };
      if (llm) {
        if (llm.usage.length) recordUsage(state, 'reflector', llm.usage, at, localDateTime(at, options.timeZone).date);
        recordLlmError(state, 'reflector', at, { errorClass: llm.errorClass, message: llm.message });
      }
    }).catch(() => undefined);
    if (llm) {
      const { alertLlmFailures } = await import('./alerts.js');
      await alertLlmFailures({ config, paths, env: options.env, logger, now, fetch: options.fetch }, 'reflector', [
        { code: 'LLM_ERROR', message: llm.message, errorClass: llm.errorClass, hint: llm.hint },
      ]);
    }
    throw error;
  }
}
