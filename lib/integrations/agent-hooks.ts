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
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { wrapInjectedContext } from '../core/injected-context.js';
import { additionalContextOutput, parseHookInput } from './hook-event.cjs';
import type { IndexReader } from '../search/engine.js';
import type { SearchResult } from '../search/types.js';
import type { PromptRequest } from './prompt-socket.js';

/*
 * A hook is a fresh process per event: what only one path needs is imported
 * on that path. Reading the event and printing the answer live in
 * hook-event.cts (CommonJS, loaded by the prompt hook's fast path too).
 */
export { additionalContextOutput, parseHookInput };

/** The fields of a hook event OC-Memory uses (every one optional: agents differ). */
export interface HookInput {
  hook_event_name?: string;
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  prompt?: string;
  source?: string;
}

export type HookEventName = 'SessionStart' | 'UserPromptSubmit';

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
  const injected = entry.injected.map((m) => (m.relevance === undefined ? { id: m.id } : { id: m.id, relevance: Math.round(m.relevance * 100) / 100 }));
  logger.log('info', 'hook.prompt', { agent: entry.agent, via: entry.via, results: injected.length, injected, ms: Math.round(entry.ms) });
}

/**
 * Session start: the agent's active memory (main's when it has none yet),
 * within `budgetTokens`, in the marker. Undefined when there is none.
 */
export async function sessionStartContext(options: { paths: HomePaths; config: Config; agent: string; fallbacks?: string[]; budgetTokens?: number }): Promise<string | undefined> {
  const budget = options.budgetTokens ?? options.config.active_memory.budget_tokens;
  const { readActiveMemory } = await import('../memory/active-memory-reader.js');
  const active = await readActiveMemory(options.paths, [options.agent, ...(options.fallbacks ?? [])], budget);
  if (!active) return undefined;
  const intro = "Long-term memory from earlier conversations (OC-Memory). Use it when relevant. OC-Memory's tools look up more and save what the user asks to remember (search_memory and remember; in pi oc_memory_search and oc_memory_remember).";
  return wrapInjectedContext(intro, `\n${active.text}`);
}

export interface PromptContextOptions {
  paths: HomePaths;
  config: Config;
  prompt: string;
  /** Only these agents' memory (default: every agent). */
  agents?: string[];
  /** Memories at most. */
  limit?: number;
  /** Characters of context at most. */
  maxChars?: number;
  /** Results below this absolute relevance (search/relevance.ts) are left out (default DEFAULT_MIN_RELEVANCE). */
  minRelevance?: number;
  openIndex?: IndexReader;
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
  const settings = embeddingSettings(options.config);
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
  const { TIERS } = await import('../search/engine.js');
  const { openEngine } = await import('../search/open-engine.js');
  const { problems } = (options.openIndex ?? openEngine(options.paths.index)).generations(TIERS);
  if (problems.length > 0) return undefined;
  const { searchMemory } = await import('../search/search.js');
  const limit = options.limit ?? 5;
  const mode = await promptSearchMode(options);
  const response = await searchMemory(
    options.paths,
    options.config,
    { query: prompt, limit: limit * 3, filters: options.agents?.length ? { agents: options.agents } : {}, cache: false, mode },
    // Never wait for the home lock on a prompt: an index behind the files (an after-turn job running) answers as it is.
    { lockWaitMs: 0, ...(options.openIndex ? { openIndex: options.openIndex } : {}) },
  );
  const { DEFAULT_MIN_RELEVANCE } = await import('../search/relevance.js');
  const { PRIORITY_EMOJI } = await import('../memory/observation-line.js');
  const floor = options.minRelevance ?? DEFAULT_MIN_RELEVANCE;
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
  const text = wrapInjectedContext('Memories related to this prompt, from earlier conversations (OC-Memory; its get tool — get_memory, in pi oc_memory_get — shows where one came from).', lines.join('\n'));
  return { text, results: kept };
}

/**
 * A running `ocm-run mcp`'s answer to a prompt hook over its socket
 * (lib/integrations/prompt-socket.ts): the request's scope (per-project: the
 * project of its cwd, and main), the lookup on the server's open index, and
 * the hooks.log line of what went in — written here, so the hook's own
 * process loads no logger. Undefined when nothing is relevant.
 */
export async function servePromptRequest(options: { paths: HomePaths; config: Config; openIndex: IndexReader; logger: Logger; request: PromptRequest; now?: () => number }): Promise<string | undefined> {
  const { request } = options;
  const now = options.now ?? Date.now;
  const received = now();
  const agent = request.agent ?? 'main';
  const { memoryScope } = await import('../sources/claude-code-project.js');
  // A request with a cwd is per-project (hooks before perProject sent only the cwd); without one, main's memory only.
  const agents = memoryScope(agent, request.perProject === true || request.projectCwd !== undefined, request.projectCwd)?.searchAgents;
  const result = await promptContext({ paths: options.paths, config: options.config, prompt: request.prompt, ...(agents ? { agents } : {}), openIndex: options.openIndex, keepsModel: true });
  // From the hook process's start when it says when that was (within a minute: a clock it cannot trust otherwise).
  const since = request.hookStartedAt !== undefined && received - request.hookStartedAt >= 0 && received - request.hookStartedAt < 60_000 ? request.hookStartedAt : received;
  logPromptInjection(options.logger, { agent, via: 'mcp', injected: result?.results.map((r) => ({ id: r.id, relevance: r.relevance ?? 0 })) ?? [], ms: now() - since });
  return result?.text;
}
