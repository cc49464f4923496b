/**
 * What went into an agent's prompt, logged as one `hook.prompt` line of
 * logs/hooks.log (ids and relevance, never text): every front end that
 * injects memory (the prompt hooks, the OpenClaw plugin's recall) writes it
 * the same way, and the dashboard's Active memory page lists it
 * (docs/dashboard.md).
 */
import type { Logger } from '../platform/log.js';

/**
 * The ids of the memories in a prompt context promptContext wrote (each line
 * ends with its id): what the hooks log as injected, for the dashboard's
 * Active memory page (docs/dashboard.md). Ids only, never text.
 */
export function injectedMemoryIds(context: string | null | undefined): string[] {
  return [...(context ?? '').matchAll(/\((o-[0-9a-f]+)\)$/gm)].map((m) => m[1]!);
}

/** One memory that went into a prompt: its id and, when the lookup knows it, how relevant it was to the prompt (0..1). */
export interface InjectedMemory {
  id: string;
  relevance?: number;
}

/**
 * Log which memories went into an agent's prompt (ids and relevance, never
 * text) as one `hook.prompt` line of logs/hooks.log — what the dashboard's
 * Active memory page lists (docs/dashboard.md). `via` says who injected them:
 * 'mcp' or 'self' for `hook prompt`, 'openclaw' for the OpenClaw plugin.
 */
export function logPromptInjection(logger: Logger, entry: { agent: string; via: string; injected: InjectedMemory[]; ms: number }): void {
  const injected = entry.injected.map((m) =>
    m.relevance === undefined ? { id: m.id } : { id: m.id, relevance: Math.round(m.relevance * 100) / 100 },
  );
  logger.log('info', 'hook.prompt', { agent: entry.agent, via: entry.via, results: injected.length, injected, ms: Math.round(entry.ms) });
}

/**
 * Memory a front end left out for time (a busy machine): the whole prompt lookup (`hook.prompt_late`)
 * or what the last turn said, still being observed when the next prompt came (`hook.last_turn_late`).
 * Logged to logs/hooks.log; `ocm-run status` counts both under "Memory skipped for time".
 */
export interface SkippedForTime {
  agent: string;
  /** The front end: `openclaw`, `mcp`, … */
  via: string;
  what: 'prompt' | 'last-turn';
  /** The bound that ran out (ms). */
  timeoutMs: number;
}
