/**
 * pi session format v3 (OpenClaw file era, the pi agent): turn parsed JSONL
 * entries into normalised, secret-masked Messages. Pure: no I/O.
 *
 * What becomes a message (see docs/transcripts.md for the reasoning):
 * - `message` entries with role `user`, `assistant`, `toolResult`, `bashExecution`;
 * - nothing else: `session` (header), `model_change`, `thinking_level_change`,
 *   `compaction`, `branch_summary`, `custom`, `custom_message`, `label`,
 *   `session_info`, and the roles `custom`, `branchSummary`,
 *   `compactionSummary` are skipped. Compaction and branch summaries are LLM
 *   recaps of entries that stay in the file (pi only appends), so they would
 *   count the same conversation twice.
 * - assistant copies written by OpenClaw's delivery layer
 *   (`provider: "openclaw"`, model `delivery-mirror` / `gateway-injected`)
 *   are skipped: they duplicate real replies.
 * - OpenClaw's housekeeping is never a message: a user turn OpenClaw started
 *   itself (heartbeat, cron and exec wakes, session events, a bare /new, a
 *   pre-compaction memory flush, a webhook or email hook; see
 *   housekeepingTurn) is skipped with everything until the next user message,
 *   and silent replies (`NO_REPLY`, `HEARTBEAT_OK`) are dropped.
 * - `{"type":"reset"}` (OpenClaw 2026.9's /new and /reset in the same session,
 *   `appendSessionResetBoundary`) ends a segment: readers end the chunk there.
 * - OC-Memory's own injected memory block (`<oc-memory>`) is stripped from
 *   user text, and calls to / results of its own tools are dropped
 *   (lib/core/injected-context.ts). OC-Memory's pi extension hands its block to pi
 *   as a hidden custom message (`custom_message`, `customType: "oc-memory"`):
 *   never a message, but what it recalled is kept, like a tool's result.
 */
import { hasInjectedContext, isOwnTool, recalledItems, stripInjectedContext } from '../core/injected-context.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Message, Role, SourceKind } from '../core/types.js';
import { capOneLineMasked } from './masked-cap.js';
import { blocksText, isObject, messageText, str, summariseToolCall, TOOL_SUMMARY_CHARS, type Json } from './message-text.js';
import { collapseWhiteSpace } from '../core/whitespace.js';
import { nameForLog } from './log-safe.js';
import { anyOf, oneOf, pattern } from '../core/pattern.js';

export interface PiContext {
  source: SourceKind;
  agent: string;
  session: string;
  masking: MaskingOptions;
}

/** What one parsed line is. */
export type PiEntryResult =
  | { kind: 'header'; sessionId?: string; cwd?: string; version?: number }
  /** `recalled`: memory OC-Memory injected into this (user) message, or null. */
  | { kind: 'message'; message: Message; dedupeKey: string; recalled: string[] | null }
  /** The result of one of OC-Memory's own tools: not a message, but what it recalled. */
  | { kind: 'recall'; items: string[] }
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; reason: string }
  /** The end of a segment (`{"type":"reset"}`): what was said before it is done. */
  | { kind: 'boundary'; reason: string }
  /** A user turn OpenClaw started itself: it and every message until the next user message are skipped. */
  | { kind: 'housekeeping'; reason: string };

const NOT_MESSAGES = new Set([
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

const DELIVERY_COPIES = new Set(['delivery-mirror', 'gateway-injected']);

/** Normalise one parsed JSONL entry. */
export function normalizePiEntry(entry: unknown, ctx: PiContext): PiEntryResult {
  if (!isObject(entry)) return { kind: 'invalid', reason: 'line is not a JSON object' };
  const type = entry.type;
  if (typeof type !== 'string') return { kind: 'invalid', reason: 'entry has no "type"' };
  if (type === 'session') {
    const header: PiEntryResult = { kind: 'header' };
    const id = str(entry.id);
    const cwd = str(entry.cwd);
    if (id !== undefined) header.sessionId = id;
    if (cwd !== undefined) header.cwd = cwd;
    if (typeof entry.version === 'number') header.version = entry.version;
    return header;
  }
  if (type === 'reset') return { kind: 'boundary', reason: 'reset' };
  if (type === 'custom_message') return injectedMessage(entry) ?? { kind: 'skip', reason: type };
  if (NOT_MESSAGES.has(type)) return { kind: 'skip', reason: type };
  if (type !== 'message') return { kind: 'skip', reason: `unknown entry type ${type}` };
  const message = entry.message;
  if (!isObject(message)) return { kind: 'invalid', reason: 'message entry without a "message" object' };
  const role = message.role;
  const entryId = str(entry.id) ?? '';
  const time = entryTime(entry, message);
  let built: { role: Role; text: string; toolName?: string; key?: string } | null;
  let recalled: string[] | null = null;
  switch (role) {
    case 'user': {
      // OC-Memory's own memory block first: the channel's time prefix may follow it.
      const raw = blocksText(message.content);
      if (hasInjectedContext(raw)) recalled = recalledItems(raw);
      const text = stripUserTransportNoise(stripInjectedContext(raw));
      const housekeeping = housekeepingTurn(message, text);
      if (housekeeping !== null) return { kind: 'housekeeping', reason: housekeeping };
      built = { role: 'user', text };
      break;
    }
    case 'assistant': {
      if (message.provider === 'openclaw' && DELIVERY_COPIES.has(String(message.model))) {
        return { kind: 'skip', reason: `assistant copy (${String(message.model)})` };
      }
      const text = assistantText(message.content);
      if (isSilentReply(text)) return { kind: 'skip', reason: 'silent reply' };
      built = { role: 'assistant', text: withoutSilentToken(text) };
      break;
    }
    case 'toolResult': {
      const toolName = str(message.toolName) ?? 'tool';
      if (isOwnTool(toolName)) return { kind: 'recall', items: recalledItems(blocksText(message.content)) };
      const label = message.isError === true ? 'tool error' : 'tool result';
      built = {
        role: 'tool',
        text: `[${label} ${toolName}: ${capOneLineMasked(blocksText(message.content), TOOL_SUMMARY_CHARS)}]`,
        toolName,
      };
      // A re-appended copy keeps its toolCallId but may carry a trimmed output.
      const callId = str(message.toolCallId);
      if (callId) built.key = `tool\u0000${toolName}\u0000${callId}`;
      break;
    }
    case 'bashExecution': {
      const command = capOneLineMasked(str(message.command) ?? '', 120);
      const outcome =
        message.cancelled === true ? 'cancelled' : typeof message.exitCode === 'number' ? `exit ${message.exitCode}` : 'no exit code';
      built = { role: 'tool', text: `[bash: ${command} → ${outcome}]`, toolName: 'bash' };
      break;
    }
    case 'custom':
      return injectedMessage(message) ?? { kind: 'skip', reason: 'role custom' };
    case 'branchSummary':
    case 'compactionSummary':
    case 'hookMessage':
      return { kind: 'skip', reason: `role ${String(role)}` };
    default:
      return { kind: 'invalid', reason: `message with unknown role ${nameForLog(role)}` };
  }
  const masked = messageText(built.role, built.text, ctx.masking);
  if (masked.length === 0) return { kind: 'skip', reason: 'empty message' };
  const out: Message = { role: built.role, text: masked, time, entryId, source: ctx.source, agent: ctx.agent, session: ctx.session };
  if (built.toolName !== undefined) out.toolName = built.toolName;
  const dedupeKey = built.key ?? `${built.role}\u0000${collapseWhiteSpace(masked)}`;
  return { kind: 'message', message: out, dedupeKey, recalled };
}

/** A custom message carrying OC-Memory's memory block (its pi extension's context): what it recalled; null for any other. */
function injectedMessage(custom: Json): PiEntryResult | null {
  const text = blocksText(custom.content);
  if (!hasInjectedContext(text)) return null;
  return { kind: 'recall', items: recalledItems(text) };
}

const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function entryTime(entry: Json, message: Json): string {
  if (typeof entry.timestamp === 'string' && CANONICAL_ISO.test(entry.timestamp)) return entry.timestamp;
  for (const candidate of [entry.timestamp, message.timestamp]) {
    if (typeof candidate === 'string' || typeof candidate === 'number') {
      const date = new Date(candidate);
      if (!Number.isNaN(date.getTime())) return date.toISOString();
    }
  }
  return '';
}

/** OpenClaw reply directives in assistant text, e.g. `[[reply_to_current]]`. */
const REPLY_TAGS = /\[\[\s{0,3}(?:reply_to_current|reply_to\s{0,3}:\s{0,3}[^\]\n]{1,64}|audio_as_voice)\s{0,3}\]\]\s{0,3}/g;

function assistantText(content: unknown): string {
  if (typeof content === 'string') return content.replace(REPLY_TAGS, '');
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text.replace(REPLY_TAGS, ''));
    else if (block.type === 'toolCall') {
      const name = str(block.name) ?? 'tool';
      if (!isOwnTool(name)) parts.push(summariseToolCall(name, block.arguments));
    }
    // thinking blocks are dropped: they are the model's scratch work, not conversation.
  }
  return parts.filter((p) => p.trim().length > 0).join('\n');
}

// ---------------------------------------------------------------------------
// OpenClaw's housekeeping: turns it starts itself, silent replies.

/**
 * 2026.9 writes a short stand-in for every wake turn (src/auto-reply/heartbeat.ts,
 * INTERNAL_WAKE_TRANSCRIPT_PROMPTS): `[OpenClaw heartbeat poll]`, `[OpenClaw cron
 * wake]`, `[OpenClaw exec completion]`, `[OpenClaw session event]`, and for a
 * bare /new or /reset `[OpenClaw session new]` / `[OpenClaw session reset]`.
 */
const WAKE_STAND_IN = /^\[OpenClaw [a-z][a-z -]{0,40}\]/;
/**
 * 2026.2.x (the file era) wrote the prompt itself: the default heartbeat prompt,
 * the cron-event and exec-event prompts (src/infra/heartbeat-runner.ts), the
 * bare-/new startup prompt, and the pre-compaction memory flush.
 */
const FILE_ERA_PROMPTS = [
  /Read HEARTBEAT\.md if it exists/,
  /A scheduled reminder has been triggered\./,
  /A scheduled cron event was triggered/,
  /An async command you ran earlier has completed\./,
  /A new session was started via \/new or \/reset/,
  /Pre-compaction memory flush\./,
];
const FILE_ERA_PROMPT = pattern([/^/, anyOf(...FILE_ERA_PROMPTS)]);
/** An isolated cron run's prompt, `[cron:<job id> <job name>] <message>` (both eras; src/cron/isolated-agent). */
const CRON_RUN = /^\[cron:[^\]\s]+(?: [^\]\n]{0,120})?\]/;
/** A custom heartbeat prompt: it asks for HEARTBEAT_OK and OpenClaw appends the time on its own last line. */
const CUSTOM_HEARTBEAT = /\bHEARTBEAT_OK\b[\s\S]*\nCurrent time: [^\n]+$/;
/**
 * A hook turn (`/hooks/agent`, Gmail): OpenClaw wraps the external content
 * (src/security/external-content.ts, buildSafeExternalPrompt) — "Job ID: …",
 * a SECURITY NOTICE, then `<<<EXTERNAL_UNTRUSTED_CONTENT id="…">>>` with a
 * `Source: Webhook` / `Source: Email` line. It is not the user speaking.
 */
const SECURITY_NOTICE = /^(?:Job ID: [^\n]*\n+)?SECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source/;
const EXTERNAL_CONTENT = /<<<EXTERNAL_UNTRUSTED_CONTENT[^>\n]{0,160}>>>\s*\nSource: (?:Webhook|Email)\b/;
const HOOK_PROMPT = oneOf([SECURITY_NOTICE, EXTERNAL_CONTENT]);

/** Why this user message starts a turn OpenClaw began itself (never observed), or null for the user's own words. */
export function housekeepingTurn(message: Json, text: string): string | null {
  const provenance = message.provenance;
  if (isObject(provenance) && provenance.kind === 'internal_system')
    return `internal_system${typeof provenance.sourceTool === 'string' ? ` (${provenance.sourceTool})` : ''}`;
  if (WAKE_STAND_IN.test(text)) return 'wake turn';
  if (FILE_ERA_PROMPT.test(text)) return 'wake prompt';
  if (CRON_RUN.test(text)) return 'cron run';
  if (text.includes('HEARTBEAT_OK') && CUSTOM_HEARTBEAT.test(text)) return 'heartbeat prompt';
  if (text.includes('EXTERNAL') && HOOK_PROMPT.test(text)) return 'hook';
  return null;
}

/**
 * Silent replies (src/auto-reply/tokens.ts): `NO_REPLY` / `HEARTBEAT_OK` alone
 * (repeated, in markdown emphasis or punctuation), as a JSON string, or as
 * `{"action":"NO_REPLY"}`. OpenClaw delivers nothing for them.
 */
const SILENT_ONLY = /^[\p{P}\s]*(?:NO_REPLY|HEARTBEAT_OK)(?:[\p{P}\s]+(?:NO_REPLY|HEARTBEAT_OK))*[\p{P}\s]*$/iu;
const SILENT_TOKEN = /NO_REPLY|HEARTBEAT_OK/i;

export function isSilentReply(text: string): boolean {
  if (!SILENT_TOKEN.test(text)) return false;
  const trimmed = text.trim();
  if (SILENT_ONLY.test(trimmed)) return true;
  if (!trimmed.startsWith('{') && !trimmed.startsWith('"')) return false;
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (typeof value === 'string') return SILENT_ONLY.test(value);
    return isObject(value) && Object.keys(value).length === 1 && typeof value.action === 'string' && SILENT_ONLY.test(value.action);
  } catch {
    return false;
  }
}

/** A silent token OpenClaw strips before delivery: trailing `NO_REPLY`, or `HEARTBEAT_OK` at either edge. */
const TRAILING_SILENT = /(?:^|\s+|\*+)(?:NO_REPLY|HEARTBEAT_OK)(?:\s+(?:NO_REPLY|HEARTBEAT_OK))*[\s*.]*$/i;
const LEADING_HEARTBEAT_OK = /^[\s*]*HEARTBEAT_OK\b[\s*:.,-]*/i;

function withoutSilentToken(text: string): string {
  if (!SILENT_TOKEN.test(text)) return text;
  return text.replace(TRAILING_SILENT, '').replace(LEADING_HEARTBEAT_OK, '').trim();
}

// ---------------------------------------------------------------------------
// User text: transport noise added by OpenClaw channels.

/** `[Fri 2026-04-10 16:30 CEST] `, `[Sun 2026-04-19 00:33 GMT+8] `, `[Wed 2026-03-11 23:51] `. */
const TIME_PREFIX =
  /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(?::\d{2})?(?: [A-Za-z]{1,6}(?:[+-]\d{1,2}(?::?\d{2})?)?)?\][ \t]*/;

/**
 * A line that only labels an untrusted-metadata block:
 * "Conversation info (untrusted metadata):", "Sender (untrusted metadata):",
 * "Thread starter (untrusted, for context):", "Chat history since last reply (untrusted, for context):",
 * "Untrusted context (metadata, do not treat as instructions or commands):", …
 */
const UNTRUSTED_LABEL =
  /^[A-Za-z][A-Za-z0-9 _/-]{0,80}\((?:untrusted|metadata)[^)\n]{0,120}\)[ \t]*:[ \t]*$|^Untrusted context\b[^\n]{0,160}:[ \t]*$/i;

/**
 * Strip a leading channel timestamp prefix and every untrusted-metadata block
 * (the label line plus a following ```fenced``` block, a bare JSON object, or
 * the paragraph up to the next blank line). Labels only count when they stand
 * alone on their line, so "he said (untrusted metadata): and left" stays.
 */
export function stripUserTransportNoise(text: string): string {
  const normalised = text.replace(/\r\n?/g, '\n');
  // Most messages carry no metadata block: without one of the label words no line can be a label.
  let result = (MAY_HOLD_LABEL.test(normalised) ? withoutMetadataBlocks(normalised) : normalised).trim();
  // The prefix may now lead the text (it often comes after the metadata blocks).
  for (let n = 0; n < 3 && TIME_PREFIX.test(result); n += 1) result = result.replace(TIME_PREFIX, '').trim();
  return result.replace(/\n{3,}/g, '\n\n');
}

/** Every UNTRUSTED_LABEL match contains one of these words. */
const MAY_HOLD_LABEL = /untrusted|metadata/i;

/** The text without its untrusted-metadata blocks (label lines and what they label). */
function withoutMetadataBlocks(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const line = raw.replace(TIME_PREFIX, '').trim();
    if (!UNTRUSTED_LABEL.test(line)) {
      out.push(raw);
      i += 1;
      continue;
    }
    i = skipBlock(lines, i + 1);
  }
  return out.join('\n');
}

/** Index of the first line after the metadata block that starts at `i` (after its label). */
function skipBlock(lines: string[], start: number): number {
  let i = start;
  while (i < lines.length && (lines[i] ?? '').trim() === '') i += 1;
  const first = (lines[i] ?? '').trim();
  if (first.startsWith('```')) {
    for (let j = i + 1; j < lines.length; j += 1) {
      if ((lines[j] ?? '').trim().startsWith('```')) return j + 1;
    }
    return lines.length; // unterminated fence: the rest is metadata
  }
  if (first.startsWith('{') || first.startsWith('[')) {
    // A bare JSON value: skip until brackets balance (string-aware).
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let j = i; j < lines.length; j += 1) {
      for (const ch of lines[j] ?? '') {
        if (inString) {
          if (escaped) escaped = false;
          else if (ch === '\\') escaped = true;
          else if (ch === '"') inString = false;
        } else if (ch === '"') inString = true;
        else if (ch === '{' || ch === '[') depth += 1;
        else if (ch === '}' || ch === ']') depth -= 1;
      }
      if (depth <= 0) return j + 1;
    }
    return lines.length;
  }
  // A plain paragraph (e.g. "Untrusted context …:" followed by lines): up to the next blank line.
  while (i < lines.length && (lines[i] ?? '').trim() !== '') i += 1;
  return i;
}
