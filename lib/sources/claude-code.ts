/**
 * Claude Code transcripts (docs/sources.md), read-only and incrementally:
 *
 *   <dir>/<project: cwd with '/' → '-'>/<sessionId>.jsonl             a session
 *   <dir>/<project>/<sessionId>/subagents/<agent-id>.jsonl            its sub-agents (Task tool)
 *   <dir>/<project>/agent-<id>.jsonl                                  sub-agents of older versions
 *
 * Lines: `{type, uuid, parentUuid, sessionId, cwd, timestamp, isSidechain,
 * message:{role, content}}`. Only `user` and `assistant` lines are
 * conversation; Claude Code 2.1 also writes `attachment` (hook context,
 * environment, listings), `queue-operation`, `last-prompt`, `api-request`,
 * `api-request-shape`, `api-request-blob` (a copy of what went to the API),
 * `atis-latch`, `tools-used`, `cost-state`, `mode`, `summary`, `system`,
 * `file-history-snapshot`, … (docs/sources.md lists them). Content blocks
 * `text`, `thinking`, `tool_use`, `tool_result` (tool results arrive in user
 * lines), `image`.
 *
 * What becomes a message: user text (tool results as one-line `[tool result
 * …]` messages), assistant text and tool calls (`[tool call …]`); dropped:
 * thinking, `summary` / `system` lines (compaction boundaries), compaction
 * summaries (`isCompactSummary`), meta lines (`isMeta`), API error stand-ins,
 * interruption markers, and slash-command / system-reminder markup.
 *
 * Sub-agents are attributed: their prompt is written by the main agent, not
 * the user, so it becomes an assistant message "[to sub-agent Explore] …", and
 * their replies are "[sub-agent Explore] …" (the type from the sub-agent's
 * `agent-<id>.meta.json`). Each file is its own stream with its own cursor.
 *
 * Not the user's words: a `user` line whose `origin.kind` says another sender
 * wrote it (`task-notification`: a background task's result; `peer`,
 * `coordinator`, `plugin`, `auto-continuation`, `observer-activity`) or whose
 * `promptSource` is `system`. OC-Memory's own tools (`mcp__oc-memory__…`) and
 * its `<oc-memory>` block are never messages (lib/core/injected-context.ts).
 */
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  addRecalled,
  hasInjectedContext,
  isOwnTool,
  recalledItems,
  stripInjectedContext,
  withoutRestatedMemory,
} from '../core/injected-context.js';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, Message, ReadLimits, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import {
  blocksText,
  isObject,
  isoTime,
  makeMessage,
  str,
  summariseToolCall,
  summariseToolResult,
  type MessageContext,
} from './message-text.js';
import { folderAgent, projectAgent } from './claude-code-project.js';
import { readTailedFile, type LineParser } from './tailed-file.js';
import { invalidJsonReason, nameForLog } from './log-safe.js';

export interface ClaudeCodeSourceOptions {
  /** The projects folder (default ~/.claude/projects). */
  dir: string;
  /** Agent name the observations are filed under (default "claude-code"). */
  agent: string;
  /** File each project's sessions under its own agent, projectAgent(agent, project folder). */
  perProject?: boolean;
  masking: MaskingOptions;
  logger?: Logger;
}

/** `$CLAUDE_CONFIG_DIR/projects` if set, else ~/.claude/projects. */
export function defaultClaudeCodeDir(env: Record<string, string | undefined>, homedir: string): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  return configDir ? join(configDir, 'projects') : join(homedir, '.claude', 'projects');
}

interface ClaudeState {
  /** tool_use id → tool name, for naming results (bounded). */
  tools: Record<string, string>;
  /** What OC-Memory recalled in this session (hook context, its tools' results): an assistant restating it says nothing new. */
  recalled: string[];
}

const MAX_PENDING_TOOLS = 64;
/** The tools map's mark for a call to OC-Memory's own tools: its result is memory already. */
const OWN_TOOL = '\u0000oc-memory';
/** `origin.kind` of user lines another sender wrote (Claude Code 2.1). `human`, `voice-call`, `channel`, `composer` are the user. */
const NOT_USER_ORIGINS = new Set(['task-notification', 'peer', 'coordinator', 'plugin', 'auto-continuation', 'observer-activity']);
const TASK_NOTIFICATION = /^\s*<task-notification>/;

/** Was this user line written by someone other than the user (a background task's notification, another agent, the system)? */
function notUsersWords(entry: Record<string, unknown>, text: string): boolean {
  const origin = entry.origin;
  if (isObject(origin) && typeof origin.kind === 'string' && NOT_USER_ORIGINS.has(origin.kind)) return true;
  return entry.promptSource === 'system' || TASK_NOTIFICATION.test(text);
}

/** Markup Claude Code puts in user text that is not conversation. */
const NOISE_BLOCKS =
  /<(system-reminder|command-name|command-message|command-args|local-command-stdout|local-command-stderr|bash-stdout|bash-stderr|user-memory-input)>[\s\S]*?<\/\1>/g;
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/g;
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

export function stripClaudeNoise(text: string): string {
  const cleaned = text
    .replace(NOISE_BLOCKS, '')
    .replace(BASH_INPUT, (_m, cmd: string) => `[bash: ${cmd.trim()}]`)
    .trim();
  return INTERRUPTED.test(cleaned) ? '' : cleaned;
}

function rememberTool(state: ClaudeState, id: string, name: string): void {
  state.tools[id] = name;
  const keys = Object.keys(state.tools);
  if (keys.length > MAX_PENDING_TOOLS) delete state.tools[keys[0]!];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksText(content);
}

/** Normalise one parsed Claude Code line. Pure apart from the small `state`. */
export function normalizeClaudeCodeEntry(
  entry: unknown,
  ctx: ClaudeContext,
  state: ClaudeState,
): { messages: Message[]; invalid?: string } {
  if (!isObject(entry)) return { messages: [], invalid: 'line is not a JSON object' };
  const type = entry.type;
  if (typeof type !== 'string') return { messages: [], invalid: 'entry has no "type"' };
  if (type === 'attachment') {
    // A hook's additionalContext (OC-Memory's SessionStart / UserPromptSubmit hooks): remember what it recalled.
    const attachment = entry.attachment;
    if (isObject(attachment) && attachment.type === 'hook_additional_context') {
      const content = Array.isArray(attachment.content)
        ? attachment.content.filter((c): c is string => typeof c === 'string').join('\n')
        : (str(attachment.content) ?? '');
      if (hasInjectedContext(content)) state.recalled = addRecalled(state.recalled, recalledItems(content));
    }
    return { messages: [] };
  }
  if (type !== 'user' && type !== 'assistant') return { messages: [] }; // summary, system, api-request-blob, queue-operation, last-prompt, …
  const message = entry.message;
  if (!isObject(message)) return { messages: [], invalid: `${nameForLog(type)} entry without a "message" object` };
  if (entry.isMeta === true || entry.isCompactSummary === true || entry.isApiErrorMessage === true) return { messages: [] };
  const sidechain = ctx.subagent || entry.isSidechain === true;
  const label = ctx.subagentType ? ` ${ctx.subagentType}` : '';
  const time = isoTime(entry.timestamp);
  const entryId = str(entry.uuid) ?? '';
  const out: Message[] = [];
  const push = (m: Message | null) => {
    if (m) out.push(m);
  };

  if (type === 'user') {
    const content = message.content;
    const texts: string[] = [];
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (!isObject(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
        else if (block.type === 'image') texts.push('[image]');
        else if (block.type === 'tool_result') {
          const id = str(block.tool_use_id) ?? '';
          const name = state.tools[id] ?? 'tool';
          delete state.tools[id];
          if (name === OWN_TOOL) {
            state.recalled = addRecalled(state.recalled, recalledItems(toolResultText(block.content)));
            continue;
          }
          push(
            makeMessage(ctx, {
              role: 'tool',
              text: summariseToolResult(name, toolResultText(block.content), block.is_error === true),
              time,
              entryId,
              toolName: name,
            }),
          );
        }
      }
    }
    const raw = texts.join('\n');
    if (hasInjectedContext(raw)) state.recalled = addRecalled(state.recalled, recalledItems(raw));
    const text = stripClaudeNoise(stripInjectedContext(raw));
    if (text.length > 0 && !notUsersWords(entry, text)) {
      // A sub-agent's "user" is the main agent handing it a task.
      push(
        makeMessage(
          ctx,
          sidechain ? { role: 'assistant', text: `[to sub-agent${label}] ${text}`, time, entryId } : { role: 'user', text, time, entryId },
        ),
      );
    }
    return { messages: out };
  }

  // assistant
  const parts: string[] = [];
  const content = message.content;
  if (typeof content === 'string') parts.push(content);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'tool_use') {
        const name = str(block.name) ?? 'tool';
        const id = str(block.id);
        const own = isOwnTool(name);
        if (id) rememberTool(state, id, own ? OWN_TOOL : name);
        if (!own) parts.push(summariseToolCall(name, block.input));
      }
      // thinking / redacted_thinking: the model's scratch work, dropped.
    }
  }
  const text = withoutRestatedMemory(parts.filter((p) => p.trim().length > 0).join('\n'), state.recalled);
  if (text.length > 0) push(makeMessage(ctx, { role: 'assistant', text: sidechain ? `[sub-agent${label}] ${text}` : text, time, entryId }));
  return { messages: out };
}

interface ClaudeContext extends MessageContext {
  subagent: boolean;
  /** The sub-agent's type (`Explore`, `general-purpose`, …) from its `.meta.json`, when known. */
  subagentType?: string;
}

/** `agentType` of a sub-agent's `agent-<id>.meta.json` (written beside its transcript by Claude Code 2.1), if readable. */
async function subagentType(transcript: string): Promise<string | undefined> {
  try {
    const meta = JSON.parse(await readFile(transcript.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as unknown;
    const type = isObject(meta) ? str(meta.agentType) : undefined;
    return type && type.trim().length > 0 && type.length <= 64 ? type.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** How far into a transcript its cwd is looked for (Claude Code writes it on the first message). */
const CWD_SCAN_BYTES = 256 * 1024;

/**
 * The cwd Claude Code wrote into a transcript's first entries, read in 16 KB steps up to
 * CWD_SCAN_BYTES; undefined when none says one (or the file cannot be read).
 */
export async function transcriptCwd(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    let text = '';
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(16 * 1024);
    for (let at = 0; at < CWD_SCAN_BYTES; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) break;
      at += bytesRead;
      text += decoder.write(buffer.subarray(0, bytesRead));
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('"cwd"')) continue;
        try {
          const entry = JSON.parse(line) as unknown;
          const cwd = isObject(entry) ? str(entry.cwd) : undefined;
          if (cwd) return cwd;
        } catch {
          // a broken line: the next may say
        }
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** The agent of a transcript with per-project memory: its project's path; Claude Code's folder name when the transcript names no cwd. */
async function perProjectAgent(agent: string, path: string, folder: string): Promise<string> {
  const cwd = await transcriptCwd(path);
  return cwd ? projectAgent(agent, cwd) : folderAgent(agent, folder);
}

function claudeParser(ctx: ClaudeContext): LineParser<ClaudeState> {
  return {
    initial: () => ({ tools: {}, recalled: [] }),
    revive: (raw) => ({
      tools: isObject(raw) && isObject(raw.tools) ? (raw.tools as Record<string, string>) : {},
      recalled: isObject(raw) && Array.isArray(raw.recalled) ? raw.recalled.filter((r): r is string => typeof r === 'string') : [],
    }),
    line(text, state) {
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch (error) {
        return { messages: [], invalid: invalidJsonReason(error) };
      }
      return normalizeClaudeCodeEntry(entry, ctx, state);
    },
  };
}

async function listDir(path: string): Promise<string[]> {
  try {
    return (await readdir(path)).sort();
  } catch {
    return [];
  }
}

export function createClaudeCodeSource(options: ClaudeCodeSourceOptions): TranscriptSource {
  const { agent } = options;
  async function addStream(streams: SourceStream[], path: string, session: string, project: string): Promise<void> {
    try {
      const st = await stat(path);
      if (!st.isFile()) return;
      // The cursor key stays the configured agent's: turning per-project memory on or off does not read a session again.
      const key = `claude-code:${agent}:${session}`;
      streams.push({
        key,
        kind: 'claude-code',
        agent: options.perProject ? await perProjectAgent(agent, path, project) : agent,
        session,
        path,
        size: st.size,
      });
    } catch {
      // vanished between readdir and stat
    }
  }

  return {
    kind: 'claude-code',
    async discover() {
      const streams: SourceStream[] = [];
      for (const project of await listDir(options.dir)) {
        if (project.startsWith('.')) continue;
        const projectDir = join(options.dir, project);
        const names = await listDir(projectDir);
        for (const name of names) {
          const path = join(projectDir, name);
          if (name.endsWith('.jsonl')) {
            const stem = basename(name, '.jsonl');
            // Older versions: sub-agent files beside the sessions.
            if (stem.startsWith('agent-')) await addStream(streams, path, `${project}/${stem}`, project);
            else await addStream(streams, path, stem, project);
          } else if (!name.startsWith('.')) {
            const subDir = join(path, 'subagents');
            for (const sub of await listDir(subDir)) {
              if (sub.endsWith('.jsonl'))
                await addStream(streams, join(subDir, sub), `${name}/subagents/${basename(sub, '.jsonl')}`, project);
            }
          }
        }
      }
      // A session before its sub-agents (their session names extend the session id).
      return streams.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
    },
    async read(stream: SourceStream, cursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk> {
      // Sub-agent streams have a session like `<session>/subagents/agent-x` (see discover).
      const subagent = stream.session.includes('/');
      const ctx: ClaudeContext = {
        source: 'claude-code',
        agent: stream.agent,
        session: stream.session,
        masking: options.masking,
        subagent,
      };
      const type = subagent ? await subagentType(stream.path) : undefined;
      if (type !== undefined) ctx.subagentType = type;
      return readTailedFile({
        path: stream.path,
        cursor,
        limits,
        parser: claudeParser(ctx),
        ended: stream.ended === true,
        key: stream.key,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    },
  };
}
