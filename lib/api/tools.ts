/**
 * The memory tools an agent calls — search, get, remember, active memory —
 * independent of how they reach it: the MCP server (lib/mcp/server.ts) lists
 * them as they are, and an agent plugin can register the same definitions.
 * Each tool has a description written for a model, a JSON Schema for its
 * arguments (checked here with Ajv, so every transport refuses the same bad
 * arguments with the same message), and answers with text sized for a context
 * window plus the same data as a plain object. None deletes anything.
 * (docs/running.md, "The MCP server".)
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { relative, isAbsolute } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import { agentSlug, type HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { PRIORITY_EMOJI } from '../memory/observation-line.js';
import { MEMORY_TOOL_NAMES, wrapInjectedContext, type MemoryToolName } from '../core/injected-context.js';
import type { SearchResult } from '../search/types.js';
import type { Priority } from '../core/types.js';
import { REMEMBER_MAX_CHARS, type ToolClient } from './remember.js';
import type { MemoryHandle } from './memory.js';

/** The slice of JSON Schema the tools use (what MCP's `inputSchema` carries). */
/** For a host that runs these tools from a copy of dist/ alone (the OpenClaw plugin): where the package's files are. */
export { usePackageRoot } from '../platform/package-root.js';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

/** MCP tool annotations (hints for the client; none of these tools deletes anything). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolOutput {
  /** What the model reads. */
  text: string;
  /** The same answer as data, for in-process callers (an agent plugin's tool details). */
  data: Record<string, unknown>;
}

/** Who is calling: an MCP client's name and version from its `initialize` request. */
export type { ToolClient } from './remember.js';
export { charCount, rememberObservation, REMEMBER_MAX_CHARS, type Remembered } from './remember.js';

export interface MemoryToolContext {
  /** The handle the tools run on (memory.ts; a long-lived one: `keepOpen`). */
  memory: MemoryHandle;
  paths: HomePaths;
  config: Config;
  /** The agent whose memory `remember` writes to and whose active memory is read. */
  agent: string;
  /** Agents whose active memory stands in while `agent` has none (main's always last). */
  activeMemoryFallbacks?: string[];
  /** search_memory without an `agent` argument looks only at these agents' memory (default: every agent). */
  defaultSearchAgents?: string[];
  /**
   * The only agents whose memory search_memory and get_memory may read (an
   * agent plugin's per-agent memory: OpenClaw's agent `work` never reads
   * `main`'s); undefined: every agent's. It is also the default search.
   */
  agentScope?: string[];
  /** The caller, for the provenance of what it remembers (undefined: unknown). */
  client(): ToolClient | undefined;
  logger?: Logger;
  now?: () => Date;
}

export interface MemoryTool {
  name: MemoryToolName;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: ToolHints;
  /** Run with arguments as received (validated here): throws OcmError BAD_INPUT for bad ones. */
  run(args: unknown, ctx: MemoryToolContext): Promise<ToolOutput>;
}

/** Characters of one observation's text shown in a search answer (the whole line is one get_memory away). */
const RESULT_TEXT_CHARS = 600;
/** Characters of a whole answer: a few thousand tokens at most. */
const ANSWER_CHARS = 12_000;
export const SEARCH_LIMIT_DEFAULT = 8;
export const SEARCH_LIMIT_MAX = 25;
/** Renderings of one question search_memory takes at most (query and queries together). */
export const SEARCH_RENDERINGS_MAX = 6;
const listOf = (items: Record<string, unknown>, description: string) => ({
  description,
  anyOf: [{ type: 'array', items, maxItems: 20 }, items],
});

const SEARCH_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'What to look for, in plain words (names, topics, the question itself).',
    },
    queries: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 1000 },
      minItems: 1,
      maxItems: SEARCH_RENDERINGS_MAX,
      description:
        'Several renderings of the same question, searched together as one (e.g. ["API 인증 문제", "API authentication problems"]): other words for it, and the same question in English and in Korean when the memory may be in either language. With or instead of query.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SEARCH_LIMIT_MAX,
      description: `How many results at most (default ${SEARCH_LIMIT_DEFAULT}).`,
    },
    priority: listOf(
      { type: 'string', enum: ['high', 'medium', 'low'] },
      'Only these priorities: high (🔴 important), medium (🟡), low (🟢).',
    ),
    category: listOf(
      { type: 'string', minLength: 1, maxLength: 40 },
      'Only these categories: decision, preference, task, fact, event, state, reflection…',
    ),
    since: {
      type: 'string',
      minLength: 1,
      maxLength: 20,
      description: 'From this date: YYYY-MM-DD, YYYY-MM, today, yesterday, or back from today: 7d, 2w, 3m, 1y.',
    },
    until: { type: 'string', minLength: 1, maxLength: 20, description: 'Up to this date, inclusive (same forms as since).' },
    tier: listOf(
      { type: 'string', enum: ['hot', 'warm', 'cold'] },
      'Only these tiers: hot (recent), warm (archived), cold (the Obsidian vault).',
    ),
    agent: listOf(
      { type: 'string', minLength: 1, maxLength: 100 },
      "Only the memory of these agents (default: every agent's, or this project's and main's with per-project memory).",
    ),
    tag: listOf({ type: 'string', minLength: 1, maxLength: 60 }, 'Only observations carrying all these tags (without #).'),
    current: {
      type: 'boolean',
      description:
        'Only what is current: leave out superseded decisions and facts, and done tasks (default false: they are listed, marked, below what replaced them).',
    },
  },
  additionalProperties: false,
};

const GET_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    target: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description:
        'An observation id from search_memory (o-7f3a9c21e0), or a memory file with an optional line range: path[:from[:lines]], e.g. memory/2026-02-12.md:10:5.',
    },
  },
  required: ['target'],
  additionalProperties: false,
};

const REMEMBER_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: REMEMBER_MAX_CHARS,
      description: 'One self-contained sentence with the concrete details, e.g. "User\'s staging database is db-stage-2 on port 5433."',
    },
    priority: { type: 'string', enum: ['high', 'medium', 'low'], description: 'high (🔴, the default), medium (🟡) or low (🟢).' },
    category: {
      type: 'string',
      pattern: '^[a-z][a-z-]{1,30}$',
      description: 'One word: preference, decision, task, fact (the default), event or state.',
    },
    tags: {
      type: 'array',
      items: { type: 'string', pattern: '^#?[\\p{L}\\p{N}_/-]{1,40}$' },
      maxItems: 10,
      description: 'Tags without spaces, e.g. ["billing", "infra"].',
    },
  },
  required: ['text'],
  additionalProperties: false,
};

const NO_ARGUMENTS: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: false };

/** One Ajv for every schema: `unicodeRegExp` for the \p{…} classes, every error reported. */
let ajv: Ajv | undefined;
const validators = new Map<JsonSchemaObject, ValidateFunction>();

function validatorOf(schema: JsonSchemaObject): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    // Loaded on first use (~40 ms): a process that only imports this module for its types or helpers does not pay it.
    // The schemas are this module's constants, checked against JSON Schema's meta-schema by the tests
    // (test/api/tool-schemas.test.ts), not by compiling that meta-schema in every server's first call (~25 ms CPU).
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    ajv ??= new AjvClass({ allErrors: true, strict: false, unicodeRegExp: true, validateSchema: false });
    v = ajv.compile(schema);
    validators.set(schema, v);
  }
  return v;
}

function describeAjvError(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  if (e.keyword === 'additionalProperties')
    return `unknown argument "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
  if (e.keyword === 'required') return `missing argument "${String((e.params as { missingProperty: string }).missingProperty)}"`;
  if (e.keyword === 'enum') return `${where} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues).join(', ')}`;
  if (e.keyword === 'pattern' && where.startsWith('tags')) return `${where} must be one word (letters, digits, _ / -)`;
  return `${where || 'arguments'} ${e.message ?? 'is not valid'}`;
}

/** The arguments as the tool's schema describes them, or BAD_INPUT naming what is wrong. */
function checkArguments<T>(tool: Pick<MemoryTool, 'name' | 'inputSchema'>, args: unknown): T {
  const value = args === undefined || args === null ? {} : args;
  const validate = validatorOf(tool.inputSchema);
  if (validate(value)) return value as T;
  // anyOf produces one error per branch: report each argument once, without the generic "must match a schema in anyOf".
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf');
  const messages = [...new Set(errors.map(describeAjvError))];
  throw new OcmError('BAD_INPUT', `Invalid arguments for ${tool.name}: ${messages.join('; ') || 'not an object'}.`, {
    hint: `See the ${tool.name} input schema; for example ${EXAMPLES[tool.name] ?? '{}'}.`,
  });
}

const EXAMPLES: Record<string, string> = {
  search_memory: '{"query": "staging database", "since": "30d"}',
  get_memory: '{"target": "o-7f3a9c21e0"}',
  remember: '{"text": "User prefers tabs over spaces.", "category": "preference"}',
  active_memory: '{}',
};

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A memory path as the user sees it: relative to the home when inside it. */
function shownPath(paths: HomePaths, path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(paths.root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function provenanceLine(r: Pick<SearchResult, 'provenance'>): string {
  const p = r.provenance;
  // A transcript's session id (a UUID) by its first 8 characters, as `ocm-run search` shows it; a client name in full.
  const session = p.session ? ` session ${/^[0-9a-f-]{20,}$/i.test(p.session) ? p.session.slice(0, 8) : cut(p.session, 40)}` : '';
  return `${p.source} ${p.agent}${session}`;
}

function resultData(paths: HomePaths, r: SearchResult): Record<string, unknown> {
  return {
    id: r.id,
    date: r.date,
    time: r.time,
    priority: r.priority,
    category: r.category,
    agent: r.agent,
    tier: r.tier,
    tags: r.tags,
    done: r.done,
    mark: r.mark,
    text: r.text,
    path: shownPath(paths, r.path),
    lines: [r.startLine, r.endLine],
    score: r.score,
    provenance: r.provenance,
  };
}

/** ` · done`, ` · superseded 2026-05-02 by o-…`: what the line's mark says, for the model to read. */
function markLabel(r: Pick<SearchResult, 'done' | 'mark'>): string {
  if (r.mark) return ` · ${r.mark.kind}${r.mark.date ? ` ${r.mark.date}` : ''}${r.mark.by ? ` by ${r.mark.by}` : ''}`;
  return r.done ? ' · done' : '';
}

function resultLines(paths: HomePaths, r: SearchResult, n: number): string {
  const when = r.time ? `${r.date} ${r.time}` : r.date || 'undated';
  const head = `${n}. ${r.id} · ${when} · ${PRIORITY_EMOJI[r.priority]} ${r.priority} · ${r.category}${markLabel(r)} · agent ${r.agent}`;
  return `${head}\n   ${cut(r.text, RESULT_TEXT_CHARS)}\n   (from ${provenanceLine(r)}; ${shownPath(paths, r.path)}:${r.startLine})`;
}

interface SearchArgs {
  query?: string;
  queries?: string[];
  limit?: number;
  priority?: string | string[];
  category?: string | string[];
  since?: string;
  until?: string;
  tier?: string | string[];
  agent?: string | string[];
  tag?: string | string[];
  current?: boolean;
}

const searchTool: MemoryTool = {
  name: 'search_memory',
  title: 'Search long-term memory',
  description: [
    "Search the user's long-term memory (OC-Memory): observations kept from earlier conversations with this and other agents — decisions, preferences, facts, tasks, events — each with its date and priority (🔴 high, 🟡 medium, 🟢 low).",
    'Use it before answering anything that may depend on what was said, decided or done before: names, choices, preferences, earlier work, "what did we…", "remind me…".',
    'Memory is found by words and by meaning; when it may be in another language than the question, pass queries with the question in English and in Korean (and other words for it), e.g. {"queries": ["API 인증 문제", "API authentication problems"]}.',
    'Returns the best matches first, each with an id (pass it to get_memory for the exact line and where it came from). Filters narrow by date, priority, category, agent or tag.',
  ].join(' '),
  inputSchema: SEARCH_SCHEMA,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(raw, ctx) {
    const args = checkArguments<SearchArgs>(searchTool, raw);
    const renderings = [
      ...new Set([args.query, ...(args.queries ?? [])].filter((q): q is string => q !== undefined && q.trim() !== '').map((q) => q.trim())),
    ];
    if (renderings.length === 0) {
      throw new OcmError(
        'BAD_INPUT',
        'Invalid arguments for search_memory: give query, or queries (a list of renderings of one question).',
        { hint: `For example ${EXAMPLES.search_memory}.` },
      );
    }
    if (renderings.length > SEARCH_RENDERINGS_MAX) {
      throw new OcmError(
        'BAD_INPUT',
        `Invalid arguments for search_memory: at most ${SEARCH_RENDERINGS_MAX} renderings of one question (query and queries together).`,
        { hint: 'Keep the question and one or two renderings of it in each language.' },
      );
    }
    const shownQuery = renderings.join(' / ');
    const { filtersFromOptions } = await import('../search/filters.js');
    const now = ctx.now?.() ?? new Date();
    let filters: import('../search/types.js').SearchFilters;
    try {
      filters = filtersFromOptions(
        {
          since: args.since,
          until: args.until,
          priority: asList(args.priority),
          category: asList(args.category),
          tier: asList(args.tier),
          agent: asList(args.agent),
          tag: asList(args.tag),
          current: args.current === true,
        },
        now,
        ctx.config.timezone,
      );
    } catch (error) {
      // The filters' messages name command-line flags (--since); here they are arguments.
      if (!(error instanceof OcmError)) throw error;
      throw new OcmError(error.code, `Invalid arguments for search_memory: ${error.message.replace(/--(\w+)/g, '$1')}`, {
        hint: error.hint?.replace(/--(\w+) /g, '$1: '),
      });
    }
    if (ctx.agentScope) filters.agents = withinScope(ctx.agentScope, filters.agents);
    else if (!filters.agents && ctx.defaultSearchAgents?.length) filters.agents = ctx.defaultSearchAgents;
    const limit = args.limit ?? Math.min(SEARCH_LIMIT_DEFAULT, ctx.config.search.default_limit);
    const found = await ctx.memory.search({ query: renderings[0]!, also: renderings.slice(1), limit, filters });
    // What is held for review (memory/suspicious.ts) is not handed to the model; get_memory still reads it by id, quoted.
    const { isSuspicious } = await import('../memory/suspicious.js');
    const held = found.results.filter((r) => isSuspicious(r.text)).length;
    const response =
      held > 0
        ? {
            ...found,
            results: found.results.filter((r) => !isSuspicious(r.text)),
            warnings: [
              ...found.warnings,
              `${held} matching memor${held === 1 ? 'y is' : 'ies are'} held for the user's review (suspicious text) and left out.`,
            ],
          }
        : found;
    const lines: string[] = [];
    let used = 0;
    let shown = 0;
    for (const r of response.results) {
      const block = resultLines(ctx.paths, r, shown + 1);
      if (used + block.length > ANSWER_CHARS && shown > 0) break;
      lines.push(block);
      used += block.length + 1;
      shown++;
    }
    const header =
      response.results.length === 0
        ? `No memory matches "${cut(shownQuery, 120)}".`
        : `${shown} memor${shown === 1 ? 'y' : 'ies'} for "${cut(shownQuery, 120)}" (${response.mode} search${shown < response.results.length ? `; ${response.results.length - shown} more left out for length, narrow the query or use filters` : ''}):`;
    const warnings = response.warnings.map((w) => `Note: ${w}`);
    return {
      // What memory says reaches the model inside the marker, as quoted data (lib/core/injected-context.ts).
      text:
        response.results.length === 0 ? [header, ...warnings].join('\n') : wrapInjectedContext(header, [...lines, ...warnings].join('\n')),
      data: {
        query: renderings[0],
        queries: renderings,
        mode: response.mode,
        results: response.results.slice(0, shown).map((r) => resultData(ctx.paths, r)),
        warnings: response.warnings,
      },
    };
  },
};

/** The agents asked for, all inside the scope (or the whole scope when none were asked for); BAD_INPUT naming one outside it. */
function withinScope(scope: string[], asked: string[] | undefined): string[] {
  if (!asked?.length) return scope;
  const outside = asked.filter((a) => !scope.includes(a));
  if (outside.length > 0) {
    throw new OcmError(
      'BAD_INPUT',
      `Invalid arguments for search_memory: the memory of agent ${outside.join(', ')} is not available here.`,
      {
        hint: `Leave agent out to search this agent's memory (${scope.join(', ')}).`,
      },
    );
  }
  return asked;
}

/** Lines of a file shown by get_memory at most (the rest: ask for a range). */
const GET_LINES_MAX = 200;

const getTool: MemoryTool = {
  name: 'get_memory',
  title: 'Read one memory exactly',
  description: [
    'Read one observation by its id (o-…, from search_memory) with its date, priority, tags and where it came from (agent, session) — or lines of a memory file, path[:from[:lines]] with from 1-based, e.g. memory/2026-02-12.md:10:5.',
    "Only files inside the memory can be read (memory/, archive/, reflections/, active_memory.md, the vault's OC-Memory folder).",
  ].join(' '),
  inputSchema: GET_SCHEMA,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(raw, ctx) {
    const { target } = checkArguments<{ target: string }>(getTool, raw);
    const { parseTarget } = await import('../search/get.js');
    const isId = /^[or]-/.test(target.trim());
    // Within an agent scope only observations (whose agent is known) can be read, not whole files that may hold another agent's.
    if (ctx.agentScope && !isId) {
      throw new OcmError('BAD_INPUT', 'Invalid arguments for get_memory: only an observation id can be read here, not a file.', {
        hint: 'Pass an id from a search result, e.g. {"target": "o-7f3a9c21e0"}.',
      });
    }
    const parsed = parseTarget(target);
    // Bounded unless the caller asked for a range: a whole day file can be megabytes.
    const bounded = isId || parsed.lines !== undefined ? target : `${parsed.path}:${parsed.from ?? 1}:${GET_LINES_MAX}`;
    const result = await ctx.memory.get(bounded);
    if (result.kind === 'lines') {
      const text = cut(result.text, ANSWER_CHARS);
      const last = result.from + result.lines - 1;
      const more =
        last < result.totalLines
          ? `\n(lines ${result.from}–${last} of ${result.totalLines}; ask for ${result.path}:${last + 1}:${GET_LINES_MAX} for more)`
          : '';
      return {
        text: wrapInjectedContext(`${result.path} lines ${result.from}–${last} of ${result.totalLines} (OC-Memory):`, `${text}${more}`),
        data: { path: result.path, from: result.from, lines: result.lines, totalLines: result.totalLines, text },
      };
    }
    const r = result;
    if (ctx.agentScope && !ctx.agentScope.includes(r.agent))
      throw new OcmError('NOT_FOUND', `No observation ${target.trim()} in this agent's memory.`, {
        hint: 'Search first: pass an id from a search result.',
      });
    const when = r.time ? `${r.date} ${r.time}` : r.date;
    const text = wrapInjectedContext(
      'One observation from earlier conversations (OC-Memory).',
      [
        `${r.id} · ${when} · ${PRIORITY_EMOJI[r.priority]} ${r.priority} · ${r.category}${r.done ? ' · done' : ''} · agent ${r.agent} · ${r.tier}`,
        r.text,
        ...(r.tags.length ? [`tags: ${r.tags.map((t) => `#${t}`).join(' ')}`] : []),
        `from: ${r.provenance.source} ${r.provenance.agent}${r.provenance.session ? ` session ${r.provenance.session}` : ''}${r.provenance.entryIds.length ? ` entries ${r.provenance.entryIds.slice(0, 5).join(',')}` : ''}`,
        `in: ${shownPath(ctx.paths, r.path)}:${r.startLine}`,
      ].join('\n'),
    );
    return { text, data: resultData(ctx.paths, r) };
  },
};

interface RememberArgs {
  text: string;
  priority?: Priority;
  category?: string;
  tags?: string[];
}

const rememberTool: MemoryTool = {
  name: 'remember',
  title: 'Save to long-term memory',
  description: [
    'Save something to the user\'s long-term memory now: when the user asks you to remember or note something ("remember that…", "from now on…"), or states a lasting preference, decision or fact worth keeping for later conversations.',
    'Write one self-contained sentence in the third person with the concrete details (names, numbers, dates), e.g. "User\'s staging database is db-stage-2 on port 5433."',
    'Saved as 🔴 high priority unless you say otherwise; saving the same sentence again on the same day changes nothing. Secrets are masked before anything is written.',
  ].join(' '),
  inputSchema: REMEMBER_SCHEMA,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(raw, ctx) {
    const args = checkArguments<RememberArgs>(rememberTool, raw);
    const r = await ctx.memory.remember({ ...args, agent: ctx.agent, client: ctx.client() });
    const o = r.observation;
    const where = shownPath(ctx.paths, r.path);
    const maskedNote = r.note ? ` (${r.note})` : r.masked > 0 ? ` (${r.masked} secret${r.masked === 1 ? '' : 's'} masked)` : '';
    const text = r.added
      ? `Saved to memory as ${o.id} (${PRIORITY_EMOJI[o.priority]} ${o.priority}, ${o.category}) in ${where}${maskedNote}: ${o.text}`
      : `Already in memory as ${o.id} (${where}); nothing changed.`;
    return {
      text,
      data: {
        id: o.id,
        added: r.added,
        path: where,
        date: o.date,
        time: o.time,
        priority: o.priority,
        category: o.category,
        tags: o.tags,
        text: o.text,
        agent: o.agent,
        provenance: o.provenance,
      },
    };
  },
};

const activeMemoryTool: MemoryTool = {
  name: 'active_memory',
  title: 'Read the active memory',
  description: [
    "The user's active memory: a short summary OC-Memory keeps up to date — the current task, standing preferences and constraints, and recent important observations.",
    'Read it at the start of a task if it has not been given to you in this conversation yet.',
  ].join(' '),
  inputSchema: NO_ARGUMENTS,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(raw, ctx) {
    checkArguments<Record<string, never>>(activeMemoryTool, raw);
    const found = await ctx.memory.activeMemory([ctx.agent, ...(ctx.activeMemoryFallbacks ?? [])]);
    // readActiveMemory stands in main's for an agent that has none: not within an agent scope that leaves main out.
    const active = found && (!ctx.agentScope || ctx.agentScope.includes(agentSlug(found.agent))) ? found : undefined;
    if (!active)
      return {
        text: `No active memory yet for agent ${ctx.agent} (it is written after the first conversations are observed).`,
        data: { agent: ctx.agent, text: '' },
      };
    return {
      text: wrapInjectedContext(`The active memory of agent ${active.agent} (OC-Memory).`, active.text),
      data: { agent: active.agent, path: shownPath(ctx.paths, active.path), text: active.text },
    };
  },
};

/** Every memory tool, in the order they are listed to a model. */
export const MEMORY_TOOLS: readonly MemoryTool[] = MEMORY_TOOL_NAMES.map(
  (name) => [searchTool, getTool, rememberTool, activeMemoryTool].find((t) => t.name === name)!,
);

export function findMemoryTool(name: string): MemoryTool | undefined {
  return MEMORY_TOOLS.find((t) => t.name === name);
}
