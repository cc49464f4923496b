/**
 * A hook event in and a hook's answer out, in Claude Code's hook protocol
 * (Codex's hooks.json uses the same one): the command gets the event as JSON
 * on stdin and may print `{"hookSpecificOutput":{"hookEventName":…,
 * "additionalContext":…}}`, whose text reaches the model
 * (docs/running.md, "Claude Code").
 *
 * CommonJS, like the rest of the per-prompt hook's fast path
 * (scripts/prompt-hook.cts): a fresh hook process that loads only CommonJS
 * never starts Node's ESM loader (docs/performance.md, "Per-prompt hook").
 * Node built-ins only.
 */
import type { HookEventName, HookInput } from '../core/hook-protocol.js';

const EVENT_FIELDS = ['hook_event_name', 'session_id', 'transcript_path', 'cwd', 'prompt', 'source'] as const;

/** The event from a hook's stdin; {} for empty or unreadable input (a hook never fails on it). */
function parseHookInput(text: string): HookInput {
  if (!text.trim()) return {};
  try {
    const data = JSON.parse(text) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
    const d = data as Record<string, unknown>;
    const out: HookInput = {};
    for (const key of EVENT_FIELDS) if (typeof d[key] === 'string') out[key] = d[key];
    return out;
  } catch {
    return {};
  }
}

/** The JSON a hook prints to add `context` to the conversation. */
function additionalContextOutput(event: HookEventName, context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: context } });
}

export = { parseHookInput, additionalContextOutput };
