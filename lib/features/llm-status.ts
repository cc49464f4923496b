/**
 * The LLM part of `status` (and `stats`): which Observer/Reflector runs,
 * tokens in/out, calls and estimated cost per role and model (all time and
 * today), the last LLM error, messages waiting for a batch, and the last
 * reflection with its scores. Read from state.json; reflections counted on disk.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import { observerKind, observerLabel } from '../observer/factory.js';
import type { State } from '../platform/state.js';
import { reflectorKind, reflectorLabel } from '../reflector/factory.js';
import type { ReflectorState } from '../jobs/reflect-job.js';
import { grandTotal, llmState, type LlmState, type UsageTotals } from '../llm/usage.js';

export interface LlmStatus {
  observer: { kind: 'heuristic' | 'llm'; label: string };
  reflector: { kind: 'heuristic' | 'llm'; label: string };
  usage: { total: UsageTotals; today?: UsageTotals; byRole: LlmState['totals']; lastRun?: LlmState['lastRun'] };
  lastError?: LlmState['lastError'];
  lastSuccess?: LlmState['lastSuccess'];
  /** Messages read but waiting for their session's batch (LLM Observer). */
  waiting: { streams: number; messages: number; tokens: number };
  reflections: { count: number; last?: ReflectorState['lastReflection']; lastError?: ReflectorState['lastError'] };
}

export async function collectLlmStatus(paths: HomePaths, config: Config, state: State, today: string): Promise<LlmStatus> {
  const s = llmState(structuredClone(state));
  const waiting = { streams: 0, messages: 0, tokens: 0 };
  for (const w of Object.values(state.extra.observeWaiting ?? {})) {
    waiting.streams++;
    waiting.messages += w.messages;
    waiting.tokens += w.tokens;
  }
  const r = (state.extra.reflector ?? {}) as ReflectorState;
  let count = 0;
  try {
    const { readdir } = await import('node:fs/promises');
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        if (e.isDirectory()) await walk(`${dir}/${e.name}`);
        else if (e.name.endsWith('.md')) count++;
      }
    };
    await walk(paths.reflections);
  } catch {
    /* no reflections yet */
  }
  const lastErrorIsCurrent =
    s.lastError && (!s.lastSuccess || s.lastError.at > s.lastSuccess.at || s.lastError.role !== s.lastSuccess.role);
  return {
    observer: { kind: observerKind(config), label: observerLabel(config) },
    reflector: { kind: reflectorKind(config), label: reflectorLabel(config) },
    usage: { total: grandTotal(s), today: s.byDay[today], byRole: s.totals, lastRun: s.lastRun },
    lastError: lastErrorIsCurrent ? s.lastError : undefined,
    lastSuccess: s.lastSuccess,
    waiting,
    reflections: { count, last: r.lastReflection, lastError: r.lastError },
  };
}

function cost(c: number | null): string {
  return c === null ? 'cost unknown' : `est. $${c < 0.01 && c > 0 ? c.toFixed(4) : c.toFixed(2)}`;
}

function totals(t: UsageTotals): string {
  return `${t.inputTokens.toLocaleString('en-US')} in / ${t.outputTokens.toLocaleString('en-US')} out tokens, ${t.calls} calls, ${cost(t.costUsd)}`;
}

/** Lines for the text form of `status`. */
export function formatLlmStatus(s: LlmStatus): string[] {
  const lines: string[] = [`Reflector: ${s.reflector.label}`];
  if (s.usage.total.calls > 0) {
    lines.push(`LLM usage: ${totals(s.usage.total)}${s.usage.today ? ` (today ${totals(s.usage.today)})` : ''}`);
    for (const [role, models] of Object.entries(s.usage.byRole)) {
      for (const [model, t] of Object.entries(models ?? {})) lines.push(`  ${role.padEnd(9)} ${model}: ${totals(t)}`);
    }
  } else if (s.observer.kind === 'llm' || s.reflector.kind === 'llm') {
    lines.push('LLM usage: no calls yet');
  }
  if (s.lastError)
    lines.push(
      `Last LLM error: ${s.lastError.role} ${s.lastError.errorClass.replace('_', ' ')} at ` +
        `${s.lastError.at.slice(0, 19).replace('T', ' ')} — ${s.lastError.message}`,
    );
  if (s.waiting.messages > 0)
    lines.push(`Waiting for a batch: ${s.waiting.messages} messages in ${s.waiting.streams} sessions (~${s.waiting.tokens} tokens)`);
  const last = s.reflections.last;
  lines.push(
    `Reflections: ${s.reflections.count}${last ? ` · last ${last.periodStart} → ${last.periodEnd} (${last.agent}): ${last.compressionRatio}:1, key terms kept ${Math.round(last.keywordPreservation * 100)} %` : ''}`,
  );
  if (s.reflections.lastError && (!last || s.reflections.lastError.at > last.at))
    lines.push(`Last reflect error at ${s.reflections.lastError.at.slice(0, 19).replace('T', ' ')}: ${s.reflections.lastError.message}`);
  return lines;
}
