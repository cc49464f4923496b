/**
 * Codex CLI transcripts (docs/sources.md), read-only and incrementally:
 *
 *   <dir>/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl       (dir default ~/.codex/sessions)
 *   <dir>/../archived_sessions/rollout-….jsonl       sessions the user archived
 *
 * Lines `{timestamp, ordinal, type, payload, metadata}` with type
 * `session_meta`, `response_item` (payload `message`, `function_call`,
 * `function_call_output`, `custom_tool_call(_output)`, `local_shell_call`,
 * `web_search_call`, `reasoning`), `turn_context`, `event_msg`, `compacted`,
 * and since 0.169 `world_state` (the model-visible environment) and
 * `token_usage_record` (per-response usage). Older rollouts have bare response
 * items per line (no `payload`); both read.
 *
 * Codex 0.169 (checked against a real `codex exec` rollout): a tool call may
 * carry a `namespace` (MCP servers, `multi_agent_v1`), kept in the tool name;
 * a tool output may be an array of content items (`input_text`,
 * `input_image`: MCP results); `exec_command` output is a text with a
 * "Process exited with code N" line (N ≠ 0 is a failure); a compaction summary
 * is an assistant message whose line `metadata.compaction_output` is true (a
 * recap of what was read already, skipped); a sub-agent's session_meta names
 * it (`agent_nickname`, `agent_role`). OC-Memory's own tools and its injected
 * memory block are never messages (lib/core/injected-context.ts).
 *
 * Messages come from `response_item`s only: `event_msg` repeats the same
 * user/agent text for the UI, `reasoning` is the model's scratch work,
 * `compacted` is a recap of what is already in the file, `turn_context` and
 * `session_meta` are settings. Injected context in user messages
 * (`<environment_context>`, `<user_instructions>`, AGENTS.md instructions) and
 * `developer`/`system` messages are dropped. Tool calls and outputs become
 * one-line `[tool call …]` / `[tool result …]` messages. A sub-agent session
 * (session_meta `source: {subagent: …}`) is attributed like Claude Code's.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, Message, ReadLimits, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import {
  addRecalled,
  hasInjectedContext,
  isOwnTool,
  recalledItems,
  stripInjectedContext,
  withoutRestatedMemory,
} from '../core/injected-context.js';
import { isObject, isoTime, makeMessage, str, summariseToolCall, summariseToolResult, type MessageContext } from './message-text.js';
import { readTailedFile, type LineParser } from './tailed-file.js';
import { invalidJsonReason, nameForLog } from './log-safe.js';

export interface CodexSourceOptions {
  /** The sessions folder (default ~/.codex/sessions). */
  dir: string;
  /** Agent name the observations are filed under (default "codex"). */
  agent: string;
  masking: MaskingOptions;
  logger?: Logger;
}

/** `$CODEX_HOME/sessions` if set, else ~/.codex/sessions. */
export function defaultCodexDir(env: Record<string, string | undefined>, homedir: string): string {
  const codexHome = env.CODEX_HOME?.trim();
  return codexHome ? join(codexHome, 'sessions') : join(homedir, '.codex', 'sessions');
}

interface CodexState {
  /** call_id → tool name (bounded); OWN_TOOL for a call to OC-Memory's own tools. */
  tools: Record<string, string>;
  /** Sub-agent label when the session is a sub-agent's ('' = the user's own session). */
  sub: string;
  /** What OC-Memory recalled in this session (its tools' outputs, its injected block): an assistant restating it says nothing new. */
  recalled: string[];
}

const MAX_PENDING_TOOLS = 64;
const OUTER_TYPES = new Set([
  'session_meta',
  'response_item',
  'turn_context',
  'event_msg',
  'compacted',
  'world_state',
  'token_usage_record',
]);
/** The tools map's mark for a call whose output is OC-Memory's own (never a message). */
const OWN_TOOL = '\u0000oc-memory';
/** Context Codex injects as user messages. */
const INJECTED = /^\s*(?:<environment_context>|<user_instructions>|<user_shell_command>|<INSTRUCTIONS>|# AGENTS\.md instructions)/;
const INJECTED_BLOCKS = /<(environment_context|user_instructions|INSTRUCTIONS)>[\s\S]*?<\/\1>/g;

/** The sub-agent's label: its nickname (and role) when Codex names it, else the kind of sub-agent; '' for the user's own session. */
function subagentLabel(meta: Record<string, unknown>): string {
  const kind = subagentKind(meta.source);
  if (kind === '') return '';
  const spawn =
    isObject(meta.source) && isObject(meta.source.subagent) && isObject(meta.source.subagent.thread_spawn)
      ? meta.source.subagent.thread_spawn
      : {};
  const nickname = str(meta.agent_nickname) ?? str(spawn.agent_nickname);
  const role = str(meta.agent_role) ?? str(spawn.agent_role);
  if (nickname) return role ? `${nickname} (${role})` : nickname;
  return role ?? kind;
}

function subagentKind(source: unknown): string {
  if (!isObject(source)) return '';
  const sub = source.subagent;
  if (typeof sub === 'string') return sub;
  if (isObject(sub)) {
    const other = sub.other;
    if (typeof other === 'string') return other;
    const first = Object.keys(sub)[0];
    return first ?? 'sub-agent';
  }
  return sub === undefined ? '' : 'sub-agent';
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** `exec_command` output: "Chunk ID: …\nWall time: …\nProcess exited with code N\n…\nOutput:\n<text>". */
const EXIT_LINE = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/m;
const OUTPUT_AFTER = /^Output:\n/m;

/** The text of an output given as content items (`input_text`, `output_text`, `text`; images as "[image]"). */
function contentItemsText(items: unknown[]): string {
  const parts: string[] = [];
  for (const item of items) {
    if (typeof item === 'string') parts.push(item);
    else if (isObject(item)) {
      if (typeof item.text === 'string') parts.push(item.text);
      else if (str(item.type)?.includes('image')) parts.push('[image]');
    }
  }
  return parts.join('\n');
}

/** A shell output's exit code and the text after its header, when it has that shape. */
function shellOutput(text: string): { text: string; error: boolean } {
  const exit = EXIT_LINE.exec(text);
  if (!exit) return { text, error: false };
  const body = OUTPUT_AFTER.exec(text);
  return { text: body ? text.slice(body.index + body[0].length) : text, error: Number(exit[1]) !== 0 };
}

/**
 * The text and error flag of a tool output: a string (a shell's, with its exit
 * code line), JSON `{output, metadata:{exit_code}}` or `{content, success}`, or
 * an array of content items (MCP results).
 */
function toolOutput(raw: unknown): { text: string; error: boolean } {
  if (Array.isArray(raw)) return { text: contentItemsText(raw), error: false };
  if (typeof raw === 'string' && !raw.trim().startsWith('{')) return shellOutput(raw);
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed.startsWith('{')) {
      try {
        value = JSON.parse(trimmed) as unknown;
      } catch {
        return { text: raw, error: false };
      }
    } else return { text: raw, error: false };
  }
  if (isObject(value)) {
    const meta = isObject(value.metadata) ? value.metadata : {};
    const exit = typeof meta.exit_code === 'number' ? meta.exit_code : undefined;
    const body = value.output ?? value.content;
    const text = typeof body === 'string' ? body : Array.isArray(body) ? contentItemsText(body) : JSON.stringify(value);
    const shell = exit === undefined && typeof body === 'string' ? shellOutput(body) : { text, error: false };
    return { text: shell.text, error: (exit !== undefined && exit !== 0) || value.success === false || shell.error };
  }
  return { text: String(value ?? ''), error: false };
}

function rememberTool(state: CodexState, id: string, name: string): void {
  state.tools[id] = name;
  const keys = Object.keys(state.tools);
  if (keys.length > MAX_PENDING_TOOLS) delete state.tools[keys[0]!];
}

function messageText(content: unknown, role: string, state: CodexState): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    const type = str(block.type) ?? '';
    if ((type === 'input_text' || type === 'output_text' || type === 'text') && typeof block.text === 'string') {
      if (role === 'user' && INJECTED.test(block.text)) continue;
      if (role === 'user' && hasInjectedContext(block.text)) state.recalled = addRecalled(state.recalled, recalledItems(block.text));
      parts.push(role === 'user' ? stripInjectedContext(block.text) : block.text);
    } else if (type === 'input_image') parts.push('[image]');
  }
  return parts.join('\n').replace(INJECTED_BLOCKS, '').trim();
}

/** One response item → messages. */
function normalizeItem(item: Record<string, unknown>, time: string, fallbackId: string, ctx: MessageContext, state: CodexState): Message[] {
  const type = str(item.type) ?? '';
  const entryId = str(item.id) ?? str(item.call_id) ?? fallbackId;
  const sub = state.sub;
  const out: Message[] = [];
  const push = (m: Message | null) => {
    if (m) out.push(m);
  };
  switch (type) {
    case 'message': {
      const role = str(item.role) ?? '';
      if (role !== 'user' && role !== 'assistant') return out; // developer / system: instructions
      const said = messageText(item.content, role, state);
      const text = role === 'assistant' ? withoutRestatedMemory(said, state.recalled) : said;
      if (text.length === 0) return out;
      if (role === 'user')
        push(
          makeMessage(
            ctx,
            sub ? { role: 'assistant', text: `[to sub-agent ${sub}] ${text}`, time, entryId } : { role: 'user', text, time, entryId },
          ),
        );
      else push(makeMessage(ctx, { role: 'assistant', text: sub ? `[sub-agent ${sub}] ${text}` : text, time, entryId }));
      return out;
    }
    case 'function_call':
    case 'custom_tool_call': {
      const namespace = str(item.namespace);
      const bare = str(item.name) ?? 'tool';
      const callId = str(item.call_id);
      if (isOwnTool(bare, namespace)) {
        // OC-Memory's own search / remember: what it returns is memory already.
        if (callId) rememberTool(state, callId, OWN_TOOL);
        return out;
      }
      const name = namespace ? `${namespace}.${bare}` : bare;
      if (callId) rememberTool(state, callId, name);
      const args = type === 'function_call' ? parseArguments(item.arguments) : item.input;
      push(makeMessage(ctx, { role: 'assistant', text: summariseToolCall(name, args), time, entryId }));
      return out;
    }
    case 'local_shell_call': {
      const action = isObject(item.action) ? item.action : {};
      const command = Array.isArray(action.command) ? action.command.map(String).join(' ') : (str(action.command) ?? '');
      const callId = str(item.call_id);
      if (callId) rememberTool(state, callId, 'shell');
      push(makeMessage(ctx, { role: 'assistant', text: summariseToolCall('shell', { command }), time, entryId }));
      return out;
    }
    case 'web_search_call': {
      const action = isObject(item.action) ? item.action : {};
      push(
        makeMessage(ctx, {
          role: 'assistant',
          text: summariseToolCall('web_search', str(action.query) ? { query: action.query } : undefined),
          time,
          entryId,
        }),
      );
      return out;
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const callId = str(item.call_id) ?? '';
      const namespace = str(item.namespace);
      const named = str(item.name);
      const name = state.tools[callId] ?? (named ? (namespace ? `${namespace}.${named}` : named) : 'tool');
      delete state.tools[callId];
      if (name === OWN_TOOL || (named !== undefined && isOwnTool(named, namespace))) {
        state.recalled = addRecalled(state.recalled, recalledItems(toolOutput(item.output).text));
        return out;
      }
      const { text, error } = toolOutput(item.output);
      push(makeMessage(ctx, { role: 'tool', text: summariseToolResult(name, text, error), time, entryId, toolName: name }));
      return out;
    }
    default:
      return out; // reasoning, and item types this reader does not know
  }
}

/** Normalise one parsed Codex rollout line. Pure apart from the small `state`. */
export function normalizeCodexLine(
  entry: unknown,
  lineNo: number,
  ctx: MessageContext,
  state: CodexState,
): { messages: Message[]; invalid?: string } {
  if (!isObject(entry)) return { messages: [], invalid: 'line is not a JSON object' };
  const type = str(entry.type);
  const fallbackId = `L${lineNo}`;
  if (type && OUTER_TYPES.has(type) && 'payload' in entry) {
    const payload = entry.payload;
    if (!isObject(payload)) return { messages: [], invalid: `${nameForLog(type)} line without a "payload" object` };
    if (type === 'session_meta') {
      const meta = isObject(payload.meta) ? payload.meta : payload; // some versions nest it
      state.sub = subagentLabel(meta);
      return { messages: [] };
    }
    if (type !== 'response_item') return { messages: [] };
    // A compaction summary: a recap of what was read already, not a new reply.
    if (isCompactionOutput(entry.metadata) || isCompactionOutput(payload.metadata)) return { messages: [] };
    return { messages: normalizeItem(payload, isoTime(entry.timestamp) || isoTime(payload.timestamp), fallbackId, ctx, state) };
  }
  // A line type of a newer Codex, with its payload: not an item of an older rollout.
  if (type && 'payload' in entry && 'timestamp' in entry) return { messages: [] };
  // Older rollouts: a header line {id, timestamp, instructions}, state lines {record_type}, bare items.
  if (type === undefined) return { messages: [] };
  return { messages: normalizeItem(entry, isoTime(entry.timestamp), fallbackId, ctx, state) };
}

function isCompactionOutput(metadata: unknown): boolean {
  return isObject(metadata) && metadata.compaction_output === true;
}

function codexParser(ctx: MessageContext): LineParser<CodexState> {
  return {
    initial: () => ({ tools: {}, sub: '', recalled: [] }),
    revive: (raw) => ({
      tools: isObject(raw) && isObject(raw.tools) ? (raw.tools as Record<string, string>) : {},
      sub: isObject(raw) && typeof raw.sub === 'string' ? raw.sub : '',
      recalled: isObject(raw) && Array.isArray(raw.recalled) ? raw.recalled.filter((r): r is string => typeof r === 'string') : [],
    }),
    line(text, state, lineNo) {
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch (error) {
        return { messages: [], invalid: invalidJsonReason(error) };
      }
      return normalizeCodexLine(entry, lineNo, ctx, state);
    },
  };
}

const UUID_TAIL = /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** `rollout-2025-05-07T17-24-21-<uuid>.jsonl` → the uuid (else the file's base name). */
export function codexSessionId(name: string): string | null {
  if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) return null;
  const base = basename(name, '.jsonl');
  return UUID_TAIL.exec(base)?.[1] ?? base;
}

async function listDir(path: string): Promise<string[]> {
  try {
    return (await readdir(path)).sort();
  } catch {
    return [];
  }
}

export function createCodexSource(options: CodexSourceOptions): TranscriptSource {
  const { agent } = options;

  async function collect(dir: string, depth: number, out: Map<string, SourceStream>): Promise<void> {
    for (const name of await listDir(dir)) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const session = codexSessionId(name);
      if (session) {
        const key = `codex:${agent}:${session}`;
        if (out.has(key)) continue;
        try {
          const st = await stat(path);
          if (st.isFile()) out.set(key, { key, kind: 'codex', agent, session, path, size: st.size });
        } catch {
          // vanished between readdir and stat
        }
      } else if (depth > 0 && /^\d+$/.test(name)) {
        await collect(path, depth - 1, out);
      }
    }
  }

  return {
    kind: 'codex',
    async discover() {
      const streams = new Map<string, SourceStream>();
      await collect(options.dir, 3, streams); // YYYY/MM/DD
      await collect(join(dirname(options.dir), 'archived_sessions'), 0, streams);
      return [...streams.values()];
    },
    read(stream: SourceStream, cursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk> {
      const ctx: MessageContext = { source: 'codex', agent: stream.agent, session: stream.session, masking: options.masking };
      return readTailedFile({
        path: stream.path,
        cursor,
        limits,
        parser: codexParser(ctx),
        ended: stream.ended === true,
        key: stream.key,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    },
  };
}
