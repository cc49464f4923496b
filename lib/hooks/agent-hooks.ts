/**
 * What OC-Memory's agent hooks say, for any agent whose hooks speak Claude
 * Code's protocol (Claude Code; Codex's hooks.json uses the same one): a
 * command gets the event as JSON on stdin (`session_id`, `transcript_path`,
 * `cwd`, `prompt` for UserPromptSubmit…) and may print
 * `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`, whose
 * text reaches the model. Every block injected is wrapped in the marker of
 * lib/core/injected-context.ts, so the transcript readers never observe it again.
 * (docs/running.md, "Claude Code".)
 */
import type { Logger } from '../platform/log.js';
import type { MemoryHandle } from '../api/memory.js';
import { wrapInjectedContext } from '../core/injected-context.js';
import { additionalContextOutput, parseHookInput } from '../integrations/hook-event.cjs';
import type { SearchResult } from '../search/types.js';
import type { PromptRequest } from '../core/hook-protocol.js';

/*
 * A hook is a fresh process per event: what only one path needs is imported
 * on that path. Reading the event and printing the answer live in
 * hook-event.cts (CommonJS, loaded by the prompt hook's fast path too).
 */
export { additionalContextOutput, parseHookInput };

export type { HookEventName, HookInput } from '../core/hook-protocol.js';

export { injectedMemoryIds, logPromptInjection, type InjectedMemory } from '../api/injections.js';
import { logPromptInjection } from '../api/injections.js';

/**
 * Session start: the agent's active memory (main's when it has none yet),
 * within `budgetTokens`, in the marker. Undefined when there is none.
 */
export async function sessionStartContext(options: {
  memory: MemoryHandle;
  agent: string;
  fallbacks?: string[];
  budgetTokens?: number;
}): Promise<string | undefined> {
  const active = await options.memory.activeMemory([options.agent, ...(options.fallbacks ?? [])], options.budgetTokens);
  if (!active) return undefined;
  const intro =
    "Long-term memory from earlier conversations (OC-Memory). Use it when relevant. OC-Memory's tools look up more and save what the user asks to remember (search_memory and remember; in pi oc_memory_search and oc_memory_remember).";
  return wrapInjectedContext(intro, `\n${active.text}`);
}

export interface PromptContextOptions {
  /** The home's handle (a long-lived one, `keepOpen`, in the MCP server answering over the prompt socket). */
  memory: MemoryHandle;
  prompt: string;
  /** Only these agents' memory (default: every agent). */
  agents?: string[];
  /** Memories at most. */
  limit?: number;
  /** Characters of context at most. */
  maxChars?: number;
  /** Results below this absolute relevance (search/relevance.ts) are left out (default DEFAULT_MIN_RELEVANCE). */
  minRelevance?: number;
  /**
   * The caller stays up (the MCP server answering over the prompt socket): the local embedding model is loaded in
   * it once, in the background on the first prompt, and the prompts after that rank by meaning too. Otherwise (a
   * hook with no server) the local model is never loaded for a prompt: text ranking, within the hook's time.
   */
  keepsModel?: boolean;
}

/** Prompts too short or too mechanical to look anything up for. */
function worthLookingUp(prompt: string): boolean {
  const p = prompt.trim();
  return p.length >= 8 && !p.startsWith('/');
}

export interface PromptContext {
  text: string;
  results: SearchResult[];
}

/** Hybrid only where the query's vector comes without loading a model in the prompt's time (embedder.ts). */
async function promptSearchMode(options: PromptContextOptions): Promise<'text' | 'hybrid'> {
  const { embeddingSettings } = await import('../search/embeddings.js');
  const settings = embeddingSettings(options.memory.config);
  if (settings?.provider !== 'local') return 'hybrid';
  if (!options.keepsModel) return 'text';
  const { processEmbedder } = await import('../search/embedder.js');
  const embedder = processEmbedder(settings);
  if (embedder.ready()) return 'hybrid';
  embedder.warm();
  return 'text';
}

/**
 * Memories related to the prompt: a search on its words, kept only above the
 * absolute relevance floor, in the marker. Undefined when nothing is relevant.
 */
export async function promptContext(options: PromptContextOptions): Promise<PromptContext | undefined> {
  const prompt = options.prompt.replace(/\s+/g, ' ').trim().slice(0, 1000);
  if (!worthLookingUp(prompt)) return undefined;
  // A missing or broken index is rebuilt by a search, under the home lock: far too slow for a prompt. Nothing this turn; the after-turn job builds it.
  if (!(await options.memory.indexReadable())) return undefined;
  const limit = options.limit ?? 5;
  const mode = await promptSearchMode(options);
  const { DEFAULT_MIN_RELEVANCE } = await import('../search/relevance.js');
  const floor = options.minRelevance ?? DEFAULT_MIN_RELEVANCE;
  const response = await options.memory.search(
    {
      query: prompt,
      limit: limit * 3,
      // Only what is true today goes in unasked (search/current.ts): history is one search_memory away.
      filters: { ...(options.agents?.length ? { agents: options.agents } : {}), current: true },
      cache: false,
      mode,
      // Relevance judged at this gate's floor: what rides with a clear answer is raised to it.
      injectionFloor: floor,
    },
    // Never wait for the home lock on a prompt: an index behind the files (an after-turn job running) answers as it is.
    { lockWaitMs: 0 },
  );
  const { PRIORITY_EMOJI } = await import('../memory/observation-line.js');
  const { isSuspicious } = await import('../memory/suspicious.js');
  // What is held for review (memory/suspicious.ts) is never injected; `status` lists it.
  const relevant = response.results.filter((r) => (r.relevance ?? 0) >= floor && !isSuspicious(r.text)).slice(0, limit);
  if (relevant.length === 0) return undefined;
  const maxChars = options.maxChars ?? 3200;
  const lines: string[] = [];
  let used = 0;
  const kept: SearchResult[] = [];
  for (const r of relevant) {
    const text = r.text.length > 400 ? `${r.text.slice(0, 399)}…` : r.text;
    const line = `- ${PRIORITY_EMOJI[r.priority]} ${r.date}${r.date ? ' ' : ''}[${r.category}] ${text} (${r.id})`;
    if (used + line.length > maxChars && kept.length > 0) break;
    lines.push(line);
    used += line.length + 1;
    kept.push(r);
  }
  const text = wrapInjectedContext(
    'Memories related to this prompt, from earlier conversations (OC-Memory; its get tool — get_memory, in pi oc_memory_get — shows where one came from).',
    lines.join('\n'),
  );
  return { text, results: kept };
}

/**
 * A running `ocm-run mcp`'s answer to a prompt hook over its socket
 * (lib/hooks/prompt-socket.ts): the request's scope (per-project: the
 * project of its cwd, and main), the lookup on the server's open index, and
 * the hooks.log line of what went in — written here, so the hook's own
 * process loads no logger. Undefined when nothing is relevant.
 */
export async function servePromptRequest(options: {
  memory: MemoryHandle;
  logger: Logger;
  request: PromptRequest;
  now?: () => number;
}): Promise<string | undefined> {
  const { request } = options;
  const now = options.now ?? Date.now;
  const received = now();
  const agent = request.agent ?? 'main';
  const { memoryScope } = await import('../sources/claude-code-project.js');
  // A request with a cwd is per-project (hooks before perProject sent only the cwd); without one, main's memory only.
  const agents = memoryScope(agent, request.perProject === true || request.projectCwd !== undefined, request.projectCwd)?.searchAgents;
  const result = await promptContext({ memory: options.memory, prompt: request.prompt, ...(agents ? { agents } : {}), keepsModel: true });
  // From the hook process's start when it says when that was (within a minute: a clock it cannot trust otherwise).
  const since =
    request.hookStartedAt !== undefined && received - request.hookStartedAt >= 0 && received - request.hookStartedAt < 60_000
      ? request.hookStartedAt
      : received;
  logPromptInjection(options.logger, {
    agent,
    via: 'mcp',
    injected: result?.results.map((r) => ({ id: r.id, relevance: r.relevance ?? 0 })) ?? [],
    ms: now() - since,
  });
  return result?.text;
}
