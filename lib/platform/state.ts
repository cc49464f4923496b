/**
 * `.ocm/state.json`: transcript cursors and job bookkeeping. Read at the start
 * of a job, written atomically; the cursor is always advanced last.
 */
import { readFile, rename } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.js';
import type { Cursor } from '../core/types.js';
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
  /** Free-form per-module data (e.g. llm usage, alert rate limits). */
  extra: Record<string, unknown>;
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
    return { state: emptyState(), warning: `state.json was unreadable; moved aside to ${aside} and started fresh (transcripts are re-read; observation ids dedupe).` };
  }
}

export async function writeState(path: string, state: State): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}
