/**
 * `.ocm/state.json`: transcript cursors and job bookkeeping. Read at the start
 * of a job, written atomically; the cursor is always advanced last.
 */
import { readFile, rename } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.js';
import type { Cursor, Observation } from '../core/types.js';
import { isNotFound } from '../core/errors.js';

export interface JobRecord {
  lastRun?: string;
  lastSuccess?: string;
  lastError?: { at: string; message: string; code: string };
  lastDurationMs?: number;
}

export interface StreamState {
  cursor: Cursor;
  kind: string;
  agent: string;
  session: string;
  path: string;
  updatedAt: string;
  /** Messages observed from this stream so far. */
  messages: number;
  /** Transcript tokens read from this stream (tiktoken). */
  tokens: number;
  /** Malformed lines/rows skipped. */
  malformed: number;
}

export interface State {
  version: 1;
  streams: Record<string, StreamState>;
  jobs: Record<string, JobRecord>;
  totals: { transcriptTokens: number; messages: number; observations: number; malformed: number };
  /** Per-module data, one section each (see StateSections). */
  extra: StateSections;
}

/** An agent's current-task note: the observe job writes it, active memory shows it, forget removes it. */
export interface CurrentTask {
  text: string;
  at: string;
}

/** A stream's chunk in progress, journalled by the observe job before its cursor moves (lib/observe/llm-batches.ts). */
export interface ObserveJournal {
  /** The stream cursor the pending chunk starts at (null: the start). */
  from: Cursor | null;
  /** Entries of that chunk already observed. */
  entryIds: string[];
  /** Observations of the last batch, until they are known to be on disk. */
  unwritten: Observation[];
}

/** A stream's messages read but waiting for their session's LLM batch. */
export interface WaitingMessages {
  messages: number;
  tokens: number;
  since: string;
}

/**
 * What modules keep in state.json's `extra`. The sections several modules share are typed here,
 * each with its reader below; a section one module owns is read by that module's own reader:
 * `llm` (lib/llm/usage.ts), `reflector` (lib/jobs/reflect-job.ts), `alerts` (lib/jobs/alerts.ts),
 * `sync` (lib/jobs/sync/index.ts), `indexFingerprint` (lib/jobs/run-job.ts), `tierDue` (lib/jobs/tier-step.ts).
 */
export interface StateSections {
  /** Per agent. */
  currentTask?: Record<string, CurrentTask>;
  /** Per stream key. */
  observeJournal?: Record<string, ObserveJournal>;
  /** Per stream key. */
  observeWaiting?: Record<string, WaitingMessages>;
  /**
   * Per agent: ids of observations written whose lifecycle (lib/memory/lifecycle.ts) is not applied yet.
   * Saved with the cursor that covers them, so a killed run's new observations still mark on the next.
   */
  lifecyclePending?: Record<string, string[]>;
  [section: string]: unknown;
}

/** The current-task notes by agent (the section is created when missing). */
export function currentTasks(state: State): Record<string, CurrentTask> {
  return (state.extra.currentTask ??= {});
}

/** The observations waiting for their lifecycle, by agent (the section is created when missing). */
export function lifecyclePending(state: State): Record<string, string[]> {
  return (state.extra.lifecyclePending ??= {});
}

/** The observe journals by stream key (the section is created when missing). */
export function observeJournals(state: State): Record<string, ObserveJournal> {
  return (state.extra.observeJournal ??= {});
}

/** The streams waiting for an LLM batch, by stream key (the section is created when missing). */
export function waitingStreams(state: State): Record<string, WaitingMessages> {
  return (state.extra.observeWaiting ??= {});
}

export function emptyState(): State {
  return { version: 1, streams: {}, jobs: {}, totals: { transcriptTokens: 0, messages: 0, observations: 0, malformed: 0 }, extra: {} };
}

/** Read state.json; a missing file is empty state; a corrupt one is set aside and reported. */
export async function readState(path: string): Promise<{ state: State; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return { state: emptyState() };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<State>;
    const base = emptyState();
    return {
      state: {
        version: 1,
        streams: parsed.streams ?? base.streams,
        jobs: parsed.jobs ?? base.jobs,
        totals: { ...base.totals, ...(parsed.totals ?? {}) },
        extra: parsed.extra ?? base.extra,
      },
    };
  } catch {
    const aside = `${path}.corrupt-${Date.now()}`;
    await rename(path, aside).catch(() => undefined);
    return {
      state: emptyState(),
      warning: `state.json was unreadable; moved aside to ${aside} and started fresh (transcripts are re-read; observation ids dedupe).`,
    };
  }
}

export async function writeState(path: string, state: State): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}
