/**
 * Memory an agent's hook left out for lack of time (logs/hooks.log): a prompt lookup that ran past its
 * budget (`hook.prompt_late`), a session start that would have outlived the agent's hook timeout
 * (`hook.session_start_late`), an MCP server that answered `initialize` after the agent stopped waiting for
 * it, so the session began without the memory tools (`mcp.start_late`), a prompt that came while the turn
 * before it was still being observed (`hook.last_turn_late`, the OpenClaw plugin). `status` says how often, since when,
 * and what happened last, so that memory skipped on a busy machine is never skipped silently.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';

/** The hooks.log events that mean memory was skipped for time. */
export const SKIPPED_FOR_TIME = ['hook.prompt_late', 'hook.session_start_late', 'hook.last_turn_late', 'mcp.start_late'] as const;

export interface HookTimeStatus {
  /** How many times in the last 24 hours. */
  skippedForTime: number;
  /** When the first of those was. */
  since?: string;
  /** The latest: when, which event, for which agent, after how long a budget (ms), and how long it took (ms, when known). */
  last?: { at: string; event: string; agent: string; via?: string; timeoutMs?: number; ms?: number };
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
    let record: { time?: unknown; event?: unknown; agent?: unknown; via?: unknown; timeoutMs?: unknown; ms?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const at = typeof record.time === 'string' ? Date.parse(record.time) : NaN;
    if (!(at >= since) || !SKIPPED_FOR_TIME.includes(record.event as (typeof SKIPPED_FOR_TIME)[number])) continue;
    status.skippedForTime++;
    status.since ??= record.time as string;
    status.last = {
      at: record.time as string,
      event: record.event as string,
      agent: typeof record.agent === 'string' ? record.agent : '',
      ...(typeof record.via === 'string' ? { via: record.via } : {}),
      ...(typeof record.timeoutMs === 'number' ? { timeoutMs: record.timeoutMs } : {}),
      ...(typeof record.ms === 'number' ? { ms: record.ms } : {}),
    };
  }
  return status;
}

/** `status`'s line: how often memory was skipped for time, since when, and what the last time was. */
export function formatSkippedForTime(status: HookTimeStatus): string {
  const l = status.last;
  const n = status.skippedForTime;
  const head = `Memory skipped for time: ${n} time${n === 1 ? '' : 's'} since ${status.since ?? l?.at ?? '?'} (last 24 h)`;
  if (!l) return `${head}.`;
  const who = l.agent || 'an agent';
  const what =
    l.event === 'mcp.start_late'
      ? `a session of ${who} began without the memory tools: the MCP server answered after ${l.ms ?? '?'} ms, the agent waits ${l.timeoutMs ?? '?'} ms`
      : l.event === 'hook.last_turn_late'
        ? `a prompt of ${who} went without what the turn before it said: that turn was still being observed after ${l.timeoutMs ?? '?'} ms`
        : `${l.event === 'hook.session_start_late' ? 'a session start' : 'a prompt'} of ${who} had no memory${l.timeoutMs ? ` after ${l.timeoutMs} ms` : ''}`;
  const longer = l.via === 'openclaw' ? "the plugin's timeoutMs (openclaw.json, plugins.entries.oc-memory.config)" : 'OCM_HOOK_TIMEOUT_MS';
  return `${head}; last ${l.at}: ${what}. The machine was busy — logs/hooks.log; ${longer} gives the prompt lookup longer.`;
}
