/**
 * Memory an agent's hook left out for lack of time (logs/hooks.log): a prompt lookup that ran past its
 * budget (`hook.prompt_late`), a session start that would have outlived the agent's hook timeout
 * (`hook.session_start_late`). `status` says how often, and when last, so that memory skipped on a busy
 * machine is never skipped silently.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';

/** The hooks.log events that mean memory was skipped for time. */
export const SKIPPED_FOR_TIME = ['hook.prompt_late', 'hook.session_start_late'] as const;

export interface HookTimeStatus {
  /** How many times in the last 24 hours. */
  skippedForTime: number;
  /** The latest: when, which event, for which agent, after how long a budget (ms). */
  last?: { at: string; event: string; agent: string; timeoutMs?: number };
}

/** The last `maxBytes` of hooks.log read (a long log is not read whole). */
const MAX_BYTES = 1024 * 1024;

export async function collectHookTimeStatus(paths: HomePaths, now: Date): Promise<HookTimeStatus> {
  let text: string;
  try {
    const bytes = await readFile(join(paths.logs, 'hooks.log'));
    text = bytes.subarray(Math.max(0, bytes.length - MAX_BYTES)).toString('utf8');
  } catch {
    return { skippedForTime: 0 };
  }
  const since = now.getTime() - 24 * 3_600_000;
  const status: HookTimeStatus = { skippedForTime: 0 };
  for (const line of text.split('\n')) {
    if (!SKIPPED_FOR_TIME.some((event) => line.includes(`"${event}"`))) continue;
    let record: { time?: unknown; event?: unknown; agent?: unknown; timeoutMs?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const at = typeof record.time === 'string' ? Date.parse(record.time) : NaN;
    if (!(at >= since) || !SKIPPED_FOR_TIME.includes(record.event as (typeof SKIPPED_FOR_TIME)[number])) continue;
    status.skippedForTime++;
    status.last = { at: record.time as string, event: record.event as string, agent: typeof record.agent === 'string' ? record.agent : '', ...(typeof record.timeoutMs === 'number' ? { timeoutMs: record.timeoutMs } : {}) };
  }
  return status;
}
