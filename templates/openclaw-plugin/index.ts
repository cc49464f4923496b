/**
 * OC-Memory's OpenClaw plugin (installed by `ocm-run integrate openclaw`,
 * shipped as index.js compiled by `npm run build`). README, "Using it with
 * OpenClaw", and docs/running.md describe what it does; in short:
 *
 * - before_prompt_build: prepends a compact memory context for the agent that
 *   is asked — the current task and the preferences from its active memory
 *   file, and the memories related to the current request (OpenClaw's
 *   `event.prompt`; `event.messages` is the history before it) that pass an
 *   absolute relevance floor — within a token cap, with a marker line. Only
 *   that agent's memory (plus agents the user shares with it: `shareFrom`).
 *   Nothing at all for heartbeat, cron and memory-flush runs (`ctx.trigger`)
 *   or OpenClaw's own housekeeping prompts; at a conversation's start the 🔴
 *   items come first. The search runs in this process: the public entry of
 *   the OC-Memory install `cli` belongs to (its package.json `exports`,
 *   lib/api/index.ts) is imported once, and the handle it opens on the home
 *   keeps the index open between prompts. Which memories went in (ids and
 *   relevance) is logged to logs/hooks.log as `hook prompt` logs its own
 *   (via `openclaw`), for the dashboard's Active memory page; never awaited.
 * - tools oc_memory_search, oc_memory_get, oc_memory_remember and
 *   oc_memory_active (api.registerTool with a factory, so each is bound to
 *   the agent of the run, `ctx.agentId`): OC-Memory's own memory tools
 *   (lib/api/tools.ts, the ones its MCP server serves), run in this
 *   process on the same open index. `remember` writes to today's day file of
 *   that agent; search and get read only that agent's memory (and `shareFrom`).
 * - agent_end / before_reset: start `ocm-run observe` in the background
 *   (detached; it takes the home's lock itself), so the reply is not delayed;
 *   the next prompt waits a bounded time for an observe still running, so
 *   what was said a turn ago is found.
 *
 * It must never break a turn: every step has a time limit, every error is
 * logged and swallowed, and a failed lookup just means no memory this turn.
 * No dependencies beyond Node's own modules and the OC-Memory install.
 *
 * Size: the plugin is one file OpenClaw loads (its compiled index.js); its hooks and tools call lib/api/ and
 * only adapt OpenClaw's events and answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants, setPriority } from 'node:os';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MemoryHandle, MemoryTool, PromptKind } from '../../lib/api/index.js';

export interface PluginConfig {
  home: string;
  node: string;
  cli: string;
  /** Replaced by minRelevance (scores are relative to the best hit); still accepted. */
  minScore?: number;
  minRelevance?: number;
  maxTokens?: number;
  searchLimit?: number;
  timeoutMs?: number;
  observeOnEnd?: boolean;
  marker?: boolean;
  /** Agents whose memory every agent may also see (the user shares it explicitly). */
  shareFrom?: string[];
}

type ResolvedConfig = Required<Omit<PluginConfig, 'minScore'>>;

interface Logger {
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/**
 * A tool as OpenClaw's agent runtime takes it (2026.2 and 2026.9 alike):
 * JSON Schema parameters, execute(toolCallId, params, signal?), a result
 * with the text the model reads and `details`. A thrown error reaches the
 * model as the tool's error.
 */
export interface AgentTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * OpenClaw 2026.9 puts plugin tools behind its Tool Search by default (the
   * model sees only tool_search / tool_describe / tool_call and a directory);
   * "direct-only" keeps a tool's schema in the request, so "remember this"
   * is one call, not three. Earlier releases ignore it.
   */
  catalogMode: 'direct-only';
  execute(
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
  ): Promise<{ content: Array<{ type: 'text'; text: string }>; details: Record<string, unknown> }>;
}

/** What OpenClaw hands a tool factory: the run's agent and session (more that this plugin does not use). */
export interface ToolFactoryContext {
  agentId?: string;
  sessionKey?: string;
}

/** The fields this plugin reads of what OpenClaw hands a prompt hook; each is checked before use (its releases differ). */
export interface HookEvent {
  /** The user's request. */
  prompt?: unknown;
  /** The conversation before the request: messages (`{ role }`) or session entries (`{ message: { role } }`). */
  messages?: unknown;
}

/** The fields this plugin reads of the run a hook fires for. */
export interface HookContext {
  agentId?: unknown;
  /** "user", "heartbeat", "cron", "memory"… */
  trigger?: unknown;
}

/** A hook's argument as the fields read from it: {} when OpenClaw passed no object. */
function hookFields<T extends object>(value: unknown): Partial<T> {
  return typeof value === 'object' && value !== null ? (value as Partial<T>) : {};
}

/** The agent a run is for: its `agentId`, main when none is given. */
function agentOf(ctx: unknown): string {
  const { agentId } = hookFields<HookContext>(ctx);
  return typeof agentId === 'string' && agentId ? agentId : DEFAULT_AGENT;
}

/** The part of OpenClaw's plugin API this plugin uses. */
export interface PluginApi {
  pluginConfig?: unknown;
  logger?: Logger;
  /** OpenClaw's version (api.runtime.version), for the provenance of what its agents remember. */
  runtime?: { version?: unknown };
  on(hook: string, handler: (event: unknown, ctx?: unknown) => unknown, options?: { priority?: number; timeoutMs?: number }): void;
  /** A factory is called per run with that run's context; `names` are the tools it returns (declared in openclaw.plugin.json `contracts.tools`). */
  registerTool?(factory: (ctx: ToolFactoryContext) => AgentTool[] | null, options: { names: string[] }): void;
}

/** What the context shows of a related memory. */
export interface RelatedMemory {
  /** The memory's id (o-…): what the injection log names. */
  id?: string;
  /** How much of the request it covers (0..1), logged beside the id. */
  relevance?: number;
  snippet: string;
  date?: string;
  priority?: string;
  category?: string;
}

const PRIORITY_MARK: Record<string, string> = { high: '🔴', medium: '🟡', low: '🟢' };
/** OpenClaw's `ctx.trigger` of runs that are not a user's turn (src/plugins/hook types: "user", "heartbeat", "cron", "memory"). */
const NO_LOOKUP_TRIGGERS = new Set(['heartbeat', 'cron', 'memory']);
const DEFAULT_AGENT = 'main';
/** How long logging an injection may take before it is given up (ms); the prompt never waits for it. */
const INJECTION_LOG_MS = 2000;
/** How long a "memory skipped for time" line may wait for the handle to open and the write (the machine is busy by then). */
const SKIPPED_LOG_MS = 15_000;

/** About four characters a token: the plugin carries no tokenizer. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The lines of one `## Heading` section of active_memory.md. */
export function sectionLines(markdown: string, heading: RegExp): string[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s/.test(l) && heading.test(l));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^##?\s/.test(line)) break;
    const t = line.trim();
    if (!t || /^_none yet\._$/i.test(t)) continue;
    out.push(t);
  }
  return out;
}

/** 🔴 lines first, the rest in their order (a conversation's start: what matters most, not what is newest). */
export function highPriorityFirst(lines: string[]): string[] {
  const high = lines.filter((l) => l.includes('🔴'));
  return [...high, ...lines.filter((l) => !l.includes('🔴'))];
}

/** Whether the history before the current request holds a user message (no: the conversation starts now). */
export function hasEarlierUserMessage(event: unknown): boolean {
  const { messages: history } = hookFields<HookEvent>(event);
  const messages: unknown[] = Array.isArray(history) ? history : [];
  return messages.some((m) => {
    const said = m as { role?: unknown; message?: { role?: unknown } | null } | null | undefined;
    return (said?.role ?? said?.message?.role) === 'user';
  });
}

/** A bounded wait that ran out (the machine was busy): said in logs/hooks.log, which `ocm-run status` reads. */
class TimedOut extends Error {
  readonly ms: number;
  constructor(message: string, ms: number) {
    super(message);
    this.ms = ms;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimedOut(`${what} took longer than ${ms} ms`, ms)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export interface MemoryContext {
  text: string;
  tokens: number;
  task: number;
  preferences: number;
  related: number;
  /** The related memories that went in (id and relevance): what the injection log records. */
  injected: Array<{ id: string; relevance?: number }>;
}

/** The marker around injected memory (lib/core/injected-context.ts wrapInjectedContext of the OC-Memory install). */
export type WrapMemory = (intro: string, body: string) => string;

const INTRO = 'Long-term memory from earlier conversations (OC-Memory). Use it when relevant.';

/**
 * Build the prepended context; undefined when there is nothing worth adding.
 * `wrap` is OC-Memory's own marker, so nothing a memory says can end the
 * block or open another, and the block says that it is quoted memory.
 */
export function composeContext(parts: {
  task: string[];
  preferences: string[];
  related: RelatedMemory[];
  maxTokens: number;
  marker: boolean;
  wrap: WrapMemory;
}): MemoryContext | undefined {
  const known = new Set([...parts.task, ...parts.preferences].map((l) => l.toLowerCase()));
  const related = parts.related.filter((r) => ![...known].some((k) => k.includes(r.snippet.toLowerCase().slice(0, 60))));
  const sections: Array<{ title: string; lines: string[] }> = [
    { title: 'Current task', lines: parts.task.slice(0, 3) },
    { title: 'Preferences and constraints', lines: parts.preferences },
    {
      title: 'Related memories',
      lines: related.map(
        (r) =>
          `- ${PRIORITY_MARK[r.priority ?? ''] ?? '•'} ${r.date ? `${r.date} ` : ''}${r.category ? `[${r.category}] ` : ''}${r.snippet}`,
      ),
    },
  ];
  const counts = { task: 0, preferences: 0, related: 0 };
  let used = approxTokens(parts.wrap(INTRO, '')) + 20;
  const keys = ['task', 'preferences', 'related'] as const;
  // The budget goes to the current task, then to what this request is about, then to standing preferences
  // (a long preference list must not crowd out the related memories); the sections show in their usual order.
  const kept: string[][] = [[], [], []];
  for (const i of [0, 2, 1]) {
    const section = sections[i]!;
    const titleCost = approxTokens(section.title) + 2;
    for (const line of section.lines) {
      const cost = approxTokens(line) + 1 + (kept[i]!.length === 0 ? titleCost : 0);
      if (used + cost > parts.maxTokens) break;
      kept[i]!.push(line.startsWith('- ') ? line : `- ${line}`);
      used += cost;
    }
  }
  let body = '';
  sections.forEach((section, i) => {
    if (kept[i]!.length === 0) return;
    counts[keys[i]!] = kept[i]!.length;
    body += `\n## ${section.title}\n${kept[i]!.join('\n')}`;
  });
  if (counts.task + counts.preferences + counts.related === 0) return undefined;
  if (parts.marker) {
    const what = [
      counts.task ? 'current task' : '',
      counts.preferences ? `${counts.preferences} preference${counts.preferences === 1 ? '' : 's'}` : '',
      counts.related ? `${counts.related} related memor${counts.related === 1 ? 'y' : 'ies'}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    body += `\n(🧠 memory used: ${what} — if you rely on it, you may end your reply with a short "🧠" note.)`;
  }
  const text = parts.wrap(INTRO, body);
  const injected = related
    .slice(0, counts.related)
    .filter((r): r is RelatedMemory & { id: string } => typeof r.id === 'string')
    .map((r) => (typeof r.relevance === 'number' ? { id: r.id, relevance: r.relevance } : { id: r.id }));
  return { text, tokens: approxTokens(text), ...counts, injected };
}

function resolveConfig(raw: unknown): ResolvedConfig | undefined {
  const c = (raw && typeof raw === 'object' ? raw : {}) as Partial<PluginConfig>;
  if (!c.home || !c.node || !c.cli) return undefined;
  return {
    home: c.home,
    node: c.node,
    cli: c.cli,
    minRelevance: typeof c.minRelevance === 'number' ? c.minRelevance : 0.5,
    maxTokens: typeof c.maxTokens === 'number' ? c.maxTokens : 800,
    searchLimit: typeof c.searchLimit === 'number' ? c.searchLimit : 5,
    timeoutMs: typeof c.timeoutMs === 'number' ? c.timeoutMs : 4000,
    observeOnEnd: c.observeOnEnd !== false,
    marker: c.marker !== false,
    shareFrom: Array.isArray(c.shareFrom) ? c.shareFrom.filter((a): a is string => typeof a === 'string' && a.length > 0) : [],
  };
}

/** OC-Memory's public entry (lib/api/index.ts). */
type EntryModule = typeof import('../../lib/api/index.js');

/**
 * The file of OC-Memory's public entry in the install `cli` belongs to: the
 * package's own name resolved from inside it, through its package.json
 * `exports` (this plugin's folder has a package.json of the same name, so the
 * name is resolved from `cli`, not from here).
 */
export function entryPath(cli: string): string {
  return createRequire(cli).resolve('oc-memory');
}

/**
 * The names the tools are registered under: `contracts.tools` of
 * openclaw.plugin.json says the same (OpenClaw 2026.9 refuses a tool it does
 * not declare), and lib/core/injected-context.ts pluginToolName makes them from
 * the memory tools' names — the prefix by which the transcript readers know
 * OC-Memory's own tool calls, so what they return is never observed again.
 */
export const TOOL_NAMES = ['oc_memory_search', 'oc_memory_get', 'oc_memory_remember', 'oc_memory_active'] as const;

/** One plugin instance: the open recall and the background observe. */
export class MemoryPlugin {
  readonly config: ResolvedConfig;
  private readonly logger: Logger;
  private recall: Promise<{ module: EntryModule; memory: MemoryHandle }> | undefined;
  private observing: ChildProcess | undefined;
  private observeAgain = false;
  private observeDone: Promise<void> = Promise.resolve();
  /** Injection lines being written to logs/hooks.log (close waits for them). */
  private readonly pendingLogs = new Set<Promise<unknown>>();
  private entry: EntryModule | undefined;
  /** OpenClaw's version, named in the provenance of what its agents remember. */
  private readonly clientVersion: string | undefined;

  constructor(config: ResolvedConfig, logger: Logger, clientVersion?: string) {
    this.config = config;
    this.logger = logger;
    this.clientVersion = clientVersion;
  }

  /** Load the memory tools' definitions ahead of the first run (a tool factory must answer synchronously). */
  loadTools(): Promise<void> {
    return this.loadEntry().then(() => undefined);
  }

  /** The public entry, imported once. */
  private async loadEntry(): Promise<EntryModule> {
    const module = (await import(pathToFileURL(entryPath(this.config.cli)).href)) as EntryModule;
    this.entry ??= this.withPackageRoot(module);
    return this.entry;
  }

  /**
   * The definitions, synchronously: loaded already, or loaded now with
   * require — an ES module can be required on Node ≥ 22.12, which every
   * OpenClaw release that has plugin tools needs (OpenClaw 2026.2 loads a
   * plugin again for each agent's workspace and asks for its tools at once).
   */
  private toolDefinitions(): EntryModule {
    this.entry ??= this.withPackageRoot(createRequire(this.config.cli)(entryPath(this.config.cli)) as EntryModule);
    return this.entry;
  }

  /**
   * The tools read the package's templates (remember rebuilds active memory).
   * OpenClaw 2026.9 runs them from a capture of dist/ without templates/, so
   * they are told the install `cli` belongs to (<root>/dist/scripts/cli.js).
   */
  private withPackageRoot(module: EntryModule): EntryModule {
    module.usePackageRoot(dirname(dirname(dirname(this.config.cli))));
    return module;
  }

  /**
   * The memory tools for one run of agent `ctx.agentId` (main when none is
   * given), or null when OC-Memory's lib cannot be loaded (logged: the run
   * goes on without them).
   */
  toolsFor(ctx: ToolFactoryContext | undefined): AgentTool[] | null {
    const agent = agentOf(ctx);
    let module: EntryModule;
    try {
      module = this.toolDefinitions();
    } catch (error) {
      this.logger.warn?.(
        `oc-memory: no memory tools this run: could not load OC-Memory from ${this.config.cli} (${(error as Error).message.split('\n')[0]})`,
      );
      return null;
    }
    return module.MEMORY_TOOLS.map((tool) => this.agentTool(tool, module.pluginToolName(tool.name), agent));
  }

  private agentTool(tool: MemoryTool, name: string, agent: string): AgentTool {
    return {
      name,
      label: tool.title,
      description: tool.description,
      parameters: tool.inputSchema as unknown as Record<string, unknown>,
      catalogMode: 'direct-only',
      execute: async (_toolCallId, params) => {
        const started = Date.now();
        const { memory } = await this.openRecall();
        const context = await memory.toolContext({
          agent,
          sharedFrom: this.config.shareFrom,
          client: { name: 'openclaw', ...(this.clientVersion ? { version: this.clientVersion } : {}) },
        });
        try {
          const out = await tool.run(params ?? {}, context);
          this.logger.info?.(`oc-memory: ${name} for agent ${agent} in ${Date.now() - started} ms`);
          return { content: [{ type: 'text', text: out.text }], details: out.data };
        } catch (error) {
          // The model reads the message and the hint (what to pass instead); the run goes on.
          const hint = (error as { hint?: unknown }).hint;
          this.logger.info?.(`oc-memory: ${name} for agent ${agent} failed (${(error as Error).message.split('\n')[0]})`);
          throw new Error(typeof hint === 'string' && hint ? `${(error as Error).message}\n→ ${hint}` : (error as Error).message);
        }
      },
    };
  }

  /** The handle on this home, opened on first use (and again after a failure). */
  openRecall(): Promise<{ module: EntryModule; memory: MemoryHandle }> {
    this.recall ??= (async () => {
      const module = await this.loadEntry();
      const memory = await module.openMemory(this.config.home, { keepOpen: true });
      // Build or update the index and open it now, not during the first prompt; a failure here is the first lookup's to report.
      memory.prepare().then(
        (warnings) => {
          for (const w of warnings) this.logger.warn?.(`oc-memory: ${w}`);
        },
        () => undefined,
      );
      return { module, memory };
    })();
    this.recall.catch(() => {
      this.recall = undefined;
    });
    return this.recall;
  }

  /** The memory context for one prompt; undefined when there is nothing to add. */
  async contextFor(event: unknown, ctx: unknown): Promise<MemoryContext | undefined> {
    const started = Date.now();
    const { trigger: said } = hookFields<HookContext>(ctx);
    const trigger = typeof said === 'string' ? said : undefined;
    if (trigger && NO_LOOKUP_TRIGGERS.has(trigger)) {
      this.logger.info?.(`oc-memory: no memory lookup for a ${trigger} run`);
      return undefined;
    }
    const agent = agentOf(ctx);
    let loaded: { module: EntryModule; memory: MemoryHandle };
    try {
      loaded = await this.openRecall();
    } catch (error) {
      // Without OC-Memory's lib it cannot tell a request from OpenClaw's housekeeping: add nothing.
      this.logger.warn?.(
        `oc-memory: no memory this turn: could not load OC-Memory from ${this.config.cli} (${(error as Error).message.split('\n')[0]})`,
      );
      return undefined;
    }
    const { module, memory } = loaded;
    const { prompt: request } = hookFields<HookEvent>(event);
    const prompt = module.classifyPrompt(typeof request === 'string' ? request : '');
    if (prompt.kind === 'housekeeping' || prompt.kind === 'empty') {
      this.logger.info?.(
        `oc-memory: no memory for ${prompt.kind === 'empty' ? 'an empty prompt' : "one of OpenClaw's housekeeping prompts"}`,
      );
      return undefined;
    }
    const starting = prompt.kind === 'session-start' || !hasEarlierUserMessage(event);
    // What the last turn said is observed by now (a bounded wait: a slow observe costs memory, never the turn).
    await withTimeout(this.observeDone, Math.max(100, this.config.timeoutMs - 1000), 'the previous observe').catch((error: unknown) => {
      // Past the lookup's own bound the whole prompt is the one logged as late (before_prompt_build).
      if (error instanceof TimedOut && Date.now() - started < this.config.timeoutMs)
        this.recordSkippedForTime(memory, { agent, what: 'last-turn', timeoutMs: error.ms });
    });
    const active = memory.promptActiveMemory(agent);
    const related = await this.relatedMemories(memory, prompt.kind, prompt.text, agent);
    const taskLines = sectionLines(active, /current context/i).filter((l) => !/^-?\s*_/.test(l));
    const task = starting ? highPriorityFirst(taskLines) : taskLines;
    const preferences = starting ? highPriorityFirst(sectionLines(active, /preferences/i)) : sectionLines(active, /preferences/i);
    const context = composeContext({
      task,
      preferences,
      related,
      maxTokens: this.config.maxTokens,
      marker: this.config.marker,
      wrap: module.wrapInjectedContext,
    });
    this.logger.info?.(
      `oc-memory: ${context ? `${context.tokens} tokens of memory (${context.related} related)` : 'no memory to add'} for agent ${agent} in ${Date.now() - started} ms`,
    );
    this.recordInjection(memory, agent, context, Date.now() - started);
    return context;
  }

  /**
   * Log which memories went in (logs/hooks.log, as `hook prompt` does: the
   * dashboard's Active memory page lists them). Not awaited: the prompt never
   * waits for it; a write that fails or takes longer than INJECTION_LOG_MS is
   * a warning, never the turn's failure.
   */
  private recordInjection(memory: MemoryHandle, agent: string, context: MemoryContext | undefined, ms: number): void {
    const written = Promise.resolve().then(() => memory.recordInjection({ agent, via: 'openclaw', injected: context?.injected ?? [], ms }));
    this.trackLog(written, INJECTION_LOG_MS, 'the injection');
  }

  /**
   * Memory left out for time — the whole lookup, or the last turn still being observed — goes to
   * logs/hooks.log (`ocm-run status`: "Memory skipped for time"), never silently. Not awaited, like the
   * injection line.
   */
  recordSkippedForTime(memory: MemoryHandle | undefined, entry: { agent: string; what: 'prompt' | 'last-turn'; timeoutMs: number }): void {
    // A lookup can run out before the handle is even open (a busy machine): the line waits for it, off the turn's path.
    const handle = memory ? Promise.resolve(memory) : this.openRecall().then((loaded) => loaded.memory);
    const written = handle.then((h) => h.recordSkippedForTime({ ...entry, via: 'openclaw' }));
    this.trackLog(written, SKIPPED_LOG_MS, 'the skipped memory');
  }

  /** A hooks.log line being written: bounded, a failure is a warning, and close() waits for it. */
  private trackLog(written: Promise<void>, ms: number, what: string): void {
    const logged = withTimeout(written, ms, `logging ${what}`).catch((error: unknown) =>
      this.logger.warn?.(`oc-memory: ${what} was not logged (${(error as Error).message.split('\n')[0]})`),
    );
    this.pendingLogs.add(logged);
    void logged.finally(() => this.pendingLogs.delete(logged));
  }

  /**
   * The plugin is being unloaded (OpenClaw's gateway_stop): wait for the
   * injection lines still being written, then let go of the index and the
   * watch of the memory files (the handle's close), so nothing is left
   * half-written in the home.
   */
  async close(): Promise<void> {
    await Promise.all(this.pendingLogs);
    const opened = this.recall;
    this.recall = undefined;
    const loaded = await opened?.catch(() => undefined);
    await loaded?.memory.close();
  }

  private async relatedMemories(memory: MemoryHandle, kind: PromptKind, query: string, agent: string): Promise<RelatedMemory[]> {
    if (kind !== 'request' || this.config.searchLimit === 0) return [];
    try {
      const found = await memory.recall({
        query: query.slice(0, 1000),
        agents: [agent, ...this.config.shareFrom],
        limit: this.config.searchLimit,
        minRelevance: this.config.minRelevance,
        lockWaitMs: Math.max(100, this.config.timeoutMs - 1000),
      });
      for (const w of found.warnings) this.logger.warn?.(`oc-memory: ${w}`);
      return found.results;
    } catch (error) {
      this.logger.warn?.(`oc-memory: search skipped (${(error as Error).message.split('\n')[0]})`);
      return [];
    }
  }

  /** Start `ocm-run observe` in the background; while one runs, one more follows it (it may have read the transcript before this turn ended). */
  observe(why: string): void {
    if (!this.config.observeOnEnd) return;
    if (this.observing) {
      this.observeAgain = true;
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(this.config.node, [this.config.cli, 'observe', '--home', this.config.home], {
        detached: true,
        stdio: 'ignore',
        windowsHide: true,
        env: { ...process.env, CI: '1' },
      });
    } catch (error) {
      this.logger.warn?.(`oc-memory: observe after ${why} failed to start (${(error as Error).message})`);
      return;
    }
    belowNormalPriority(child);
    this.observing = child;
    this.observeDone = new Promise<void>((resolve) => {
      const finished = () => {
        if (this.observing !== child) return;
        this.observing = undefined;
        resolve();
        if (this.observeAgain) {
          this.observeAgain = false;
          this.observe(`${why} (again)`);
        }
      };
      child.once('error', (error) => {
        this.logger.warn?.(`oc-memory: observe after ${why} failed to start (${error.message})`);
        finished();
      });
      child.once('exit', finished);
    });
    // The gateway may exit while it runs: the observe goes on, and it keeps nothing alive here.
    child.unref();
  }
}

/**
 * The observe started after a turn runs below normal priority (nice 10 on
 * Unix), so it never takes CPU from the gateway, whose next turn may start
 * at once (runBelowNormalPriority in lib/platform/process.ts does the same
 * for the other agents' after-turn hook; this file loads no lib module
 * before the first prompt). A child already gone, or a system that refuses,
 * is left as it is.
 */
function belowNormalPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    setPriority(child.pid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // it runs at normal priority
  }
}

const plugin = {
  id: 'oc-memory',
  name: 'OC-Memory',
  description: 'Observational long-term memory for OpenClaw, kept as Markdown by OC-Memory.',
  register(api: PluginApi): void {
    const logger: Logger = api.logger ?? {};
    const config = resolveConfig(api.pluginConfig);
    if (!config) {
      logger.warn?.('oc-memory: plugin config needs home, node and cli; run `ocm-run integrate openclaw` again. Memory is off for now.');
      return;
    }
    // 2026.2 reports "unknown" to plugins: a version only when it is one.
    const version = typeof api.runtime?.version === 'string' && /^\d/.test(api.runtime.version) ? api.runtime.version : undefined;
    const memory = new MemoryPlugin(config, logger, version);
    // Open the index now, so the first prompt does not wait for it.
    memory
      .openRecall()
      .catch((error: unknown) =>
        logger.warn?.(
          `oc-memory: could not load OC-Memory from ${config.cli} (${(error as Error).message.split('\n')[0]}); will retry on the next prompt`,
        ),
      );
    if (typeof api.registerTool === 'function') {
      memory.loadTools().catch(() => undefined); // a failure is the tool factory's to report
      api.registerTool((ctx) => memory.toolsFor(ctx), { names: [...TOOL_NAMES] });
    }
    api.on(
      'before_prompt_build',
      async (event: unknown, ctx?: unknown) => {
        try {
          const context = await withTimeout(memory.contextFor(event, ctx), config.timeoutMs, 'the memory lookup');
          return context ? { prependContext: context.text } : undefined;
        } catch (error) {
          if (error instanceof TimedOut)
            memory.recordSkippedForTime(undefined, {
              agent: agentOf(ctx),
              what: 'prompt',
              timeoutMs: error.ms,
            });
          logger.warn?.(`oc-memory: no memory this turn (${(error as Error).message})`);
          return undefined;
        }
      },
      { timeoutMs: config.timeoutMs + 500 },
    );
    api.on('agent_end', () => memory.observe('agent_end'));
    api.on('before_reset', () => memory.observe('before_reset'));
    api.on('gateway_stop', () => memory.close());
  },
};

export default plugin;
