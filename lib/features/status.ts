/**
 * What `status` reports: sources seen, observations per agent and day, last
 * runs and errors, the observer in use, and token figures.
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '../config/config-schema.js';
import { activeMemoryPath, type HomePaths } from '../platform/home.js';
import { listHotDayFiles, readObservations } from '../memory/memory-files.js';
import { observerLabel, observerKind } from '../observer/factory.js';
import { readState, type JobRecord, type State } from '../platform/state.js';
import { localDateTime, resolveTimeZone } from '../platform/time-zone.js';
import { daemonStatus, type DaemonStatus } from '../jobs/daemon.js';
import { SUSPICION_LABEL, suspicionOf, type SuspicionReason } from '../memory/suspicious.js';
import type { Observation } from '../core/types.js';

export interface StatusReport {
  home: string;
  observer: { kind: 'heuristic' | 'llm'; label: string };
  sources: Array<{ kind: string; agent: string; streams: number; messages: number; malformed: number; lastRead: string }>;
  observations: { total: number; byAgent: Record<string, { total: number; byDay: Record<string, number> }> };
  jobs: Record<string, JobRecord>;
  lastError?: { job: string; at: string; message: string; code: string };
  tokens: { transcriptRead: number; activeMemory: Record<string, number>; activeMemoryBudget: number };
  /** The background watcher (`start --daemon` / `watch`). */
  daemon: DaemonStatus;
  /** The scheduler entry, when the caller looked it up (see lib/schedule collectScheduleInfo). */
  schedule?: import('../jobs/schedule/index.js').ScheduleInfo;
  /** Day files per tier, pending approvals, interrupted moves, the sync queue (lib/features/tier-status.ts). */
  tiers: import('./tier-status.js').TierStatus;
  /** Observer/Reflector in use, LLM usage and cost, last LLM error, waiting batches, reflections (lib/features/llm-status.ts). */
  llm: import('./llm-status.js').LlmStatus;
  /** Which embeddings search uses (lib/features/embedding-status.ts). */
  embeddings: import('./embedding-status.js').EmbeddingStatus;
  /** Hot observations held out of injection and active memory for the user's review (memory/suspicious.ts), newest first. */
  held: HeldObservation[];
  /** Memory the agents' hooks left out for lack of time in the last 24 hours (logs/hooks.log). */
  hooks: import('./hook-status.js').HookTimeStatus;
}

/** An observation whose text tries to act on the agent: kept in its day file, never injected, shown for review. */
export interface HeldObservation {
  id: string;
  date: string;
  agent: string;
  category: string;
  reason: SuspicionReason;
  /** What the reason means, in English. */
  why: string;
  text: string;
}

/** The observations held for review among `observations`, newest first. */
export function heldForReview(observations: readonly Observation[]): HeldObservation[] {
  const held: HeldObservation[] = [];
  for (const o of observations) {
    const reason = suspicionOf(o.text);
    if (reason)
      held.push({ id: o.id, date: o.date, agent: o.agent, category: o.category, reason, why: SUSPICION_LABEL[reason], text: o.text });
  }
  return held.sort((a, b) => b.date.localeCompare(a.date));
}

/** The token count in active_memory.md's header line ("· 1491 / 4000 tokens"). */
export function headerTokens(text: string): number | undefined {
  const m = /·\s*(\d+)\s*\/\s*\d+\s*tokens/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** What state.json alone tells: the sources with their streams, the jobs, and the last error not followed by a success. */
export function statusOfState(state: State): Pick<StatusReport, 'sources' | 'jobs' | 'lastError'> {
  const sources = new Map<string, StatusReport['sources'][number]>();
  for (const s of Object.values(state.streams)) {
    const key = `${s.kind}\u0000${s.agent}`;
    const entry = sources.get(key) ?? { kind: s.kind, agent: s.agent, streams: 0, messages: 0, malformed: 0, lastRead: '' };
    entry.streams++;
    entry.messages += s.messages;
    entry.malformed += s.malformed;
    if (s.updatedAt > entry.lastRead) entry.lastRead = s.updatedAt;
    sources.set(key, entry);
  }
  let lastError: StatusReport['lastError'];
  for (const [job, rec] of Object.entries(state.jobs)) {
    if (rec.lastError && (!rec.lastSuccess || rec.lastError.at > rec.lastSuccess) && (!lastError || rec.lastError.at > lastError.at)) {
      lastError = { job, ...rec.lastError };
    }
  }
  return {
    sources: [...sources.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.agent.localeCompare(b.agent)),
    jobs: state.jobs,
    lastError,
  };
}

export async function collectStatus(paths: HomePaths, config: Config): Promise<StatusReport> {
  const { state } = await readState(paths.state);
  const fromState = statusOfState(state);
  const observations = await readObservations(await listHotDayFiles(paths));
  const byAgent: StatusReport['observations']['byAgent'] = {};
  for (const o of observations) {
    const a = (byAgent[o.agent] ??= { total: 0, byDay: {} });
    a.total++;
    a.byDay[o.date] = (a.byDay[o.date] ?? 0) + 1;
  }
  const activeMemory: Record<string, number> = {};
  for (const agent of new Set(['main', ...Object.keys(byAgent)])) {
    try {
      const t = headerTokens(await readFile(activeMemoryPath(paths, agent), 'utf8'));
      if (t !== undefined) activeMemory[agent] = t;
    } catch {
      /* not built yet */
    }
  }
  return {
    home: paths.root,
    observer: { kind: observerKind(config), label: observerLabel(config) },
    sources: fromState.sources,
    observations: { total: observations.length, byAgent },
    jobs: fromState.jobs,
    lastError: fromState.lastError,
    tokens: { transcriptRead: state.totals.transcriptTokens, activeMemory, activeMemoryBudget: config.active_memory.budget_tokens },
    daemon: await daemonStatus(paths),
    tiers: await (await import('./tier-status.js')).collectTierStatus(paths, config),
    embeddings: await (await import('./embedding-status.js')).collectEmbeddingStatus(config),
    llm: await (await import('./llm-status.js')).collectLlmStatus(
      paths,
      config,
      state,
      localDateTime(new Date(), resolveTimeZone(config.timezone)).date,
    ),
    held: heldForReview(observations),
    hooks: await (await import('./hook-status.js')).collectHookTimeStatus(paths, new Date()),
  };
}
