/**
 * LLM usage bookkeeping in `.ocm/state.json` (`extra.llm`): tokens in/out,
 * calls and estimated cost per role and model, the last run's figures, a
 * per-day history, and the last error — what `status` and `stats` show.
 * Pure functions on the State object; the caller writes it.
 */
import type { State } from '../platform/state.js';
import type { LlmUsage } from '../core/types.js';
import { estimateCost } from './pricing.js';
import type { LlmErrorClass } from './errors.js';

export type LlmRole = 'observer' | 'reflector';

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  calls: number;
  /** Estimated USD; null when some model's price is unknown. */
  costUsd: number | null;
}

export interface LlmState {
  /** role → "provider/model" → totals */
  totals: Partial<Record<LlmRole, Record<string, UsageTotals>>>;
  /** YYYY-MM-DD → totals over every role and model (last 120 days). */
  byDay: Record<string, UsageTotals>;
  lastRun?: { at: string; role: LlmRole; usage: Array<LlmUsage & { costUsd: number | null }> };
  lastError?: { at: string; role: LlmRole; errorClass: LlmErrorClass; message: string; endpoint?: string };
  lastSuccess?: { at: string; role: LlmRole };
}

const KEEP_DAYS = 120;

export function llmState(state: State): LlmState {
  const raw = state.extra.llm as Partial<LlmState> | undefined;
  const s: LlmState = {
    totals: raw?.totals ?? {},
    byDay: raw?.byDay ?? {},
    lastRun: raw?.lastRun,
    lastError: raw?.lastError,
    lastSuccess: raw?.lastSuccess,
  };
  state.extra.llm = s;
  return s;
}

function add(t: UsageTotals, u: LlmUsage, cost: number | null): void {
  t.inputTokens += u.inputTokens;
  t.outputTokens += u.outputTokens;
  t.calls += u.calls;
  t.costUsd = t.costUsd === null || cost === null ? null : t.costUsd + cost;
}

const empty = (): UsageTotals => ({ inputTokens: 0, outputTokens: 0, calls: 0, costUsd: 0 });

/** `model` in LlmUsage is "provider/model". */
function costOf(u: LlmUsage): number | null {
  const slash = u.model.indexOf('/');
  const provider = slash > 0 ? u.model.slice(0, slash) : '';
  const model = slash > 0 ? u.model.slice(slash + 1) : u.model;
  return estimateCost(provider, model, u.inputTokens, u.outputTokens);
}

/** Merge usage lists by model. */
export function mergeUsage(...lists: Array<LlmUsage[] | undefined>): LlmUsage[] {
  const by = new Map<string, LlmUsage>();
  for (const list of lists) {
    for (const u of list ?? []) {
      const t = by.get(u.model) ?? { model: u.model, inputTokens: 0, outputTokens: 0, calls: 0 };
      t.inputTokens += u.inputTokens;
      t.outputTokens += u.outputTokens;
      t.calls += u.calls;
      by.set(u.model, t);
    }
  }
  return [...by.values()];
}

/** Add one run's usage to the totals and the day history; remember it as the last run. */
export function recordUsage(state: State, role: LlmRole, usage: LlmUsage[], at: Date, localDate: string): void {
  if (usage.length === 0) return;
  const s = llmState(state);
  const perModel = (s.totals[role] ??= {});
  const day = (s.byDay[localDate] ??= empty());
  for (const u of usage) {
    const cost = costOf(u);
    add((perModel[u.model] ??= empty()), u, cost);
    add(day, u, cost);
  }
  const days = Object.keys(s.byDay).sort();
  for (const d of days.slice(0, Math.max(0, days.length - KEEP_DAYS))) delete s.byDay[d];
  s.lastRun = { at: at.toISOString(), role, usage: usage.map((u) => ({ ...u, costUsd: costOf(u) })) };
}

export function recordLlmError(
  state: State,
  role: LlmRole,
  at: Date,
  error: { errorClass: LlmErrorClass; message: string; endpoint?: string },
): void {
  llmState(state).lastError = { at: at.toISOString(), role, ...error };
}

export function recordLlmSuccess(state: State, role: LlmRole, at: Date): void {
  llmState(state).lastSuccess = { at: at.toISOString(), role };
}

/** Sum of all totals (for a one-line summary). */
export function grandTotal(s: LlmState): UsageTotals {
  const t = empty();
  for (const role of Object.values(s.totals)) for (const m of Object.values(role ?? {})) add(t, { model: '', ...m }, m.costUsd);
  return t;
}
