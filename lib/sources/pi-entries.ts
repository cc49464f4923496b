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
import * as crypto from 'node:crypto';
import { addRecalled, hasInjectedContext, isOwnTool, recalledItems, stripInjectedContext, withoutRestatedMemory } from '../core/injected-context.js';
import { maskedText, type MaskingOptions } from '../masking/masking.js';
import type { Message, Role, SourceKind } from '../core/types.js';
import { capMasked, capOneLineMasked } from './masked-cap.js';
import { collapseWhiteSpace } from '../core/whitespace.js';
import { nameForLog } from './log-safe.js';

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

/** The tree link of an entry (every entry but the header has one). */
export interface TreeNode {
  id: string;
  parentId: string | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The tree node of a parsed entry, or null (header, or no id). */
export function treeNodeOf(entry: unknown): TreeNode | null {
  const node = lookAheadNodeOf(entry, 0);
  return node && { id: node.id, parentId: node.parentId };
}

/** The tree node of a parsed entry whose line ends at byte `end`, as one object (readers make one per line). */
export function lookAheadNodeOf(entry: unknown, end: number): LookAheadNode | null {
  if (!isObject(entry) || entry.type === 'session') return null;
  const id = entry.id;
  if (typeof id !== 'string' || id.length === 0) return null;
  return { id, parentId: parentIdOf(entry), end };
}

function parentIdOf(entry: Json): string | null {
  return typeof entry.parentId === 'string' && entry.parentId.length > 0 ? entry.parentId : null;
}

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

/** Longest tool-call / tool-result summary line (characters of payload). */
export const TOOL_SUMMARY_CHARS = 200;

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
      const raw = contentText(message.content);
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
      if (isOwnTool(toolName)) return { kind: 'recall', items: recalledItems(contentText(message.content)) };
      const label = message.isError === true ? 'tool error' : 'tool result';
      built = { role: 'tool', text: `[${label} ${toolName}: ${capOneLineMasked(contentText(message.content), TOOL_SUMMARY_CHARS)}]`, toolName };
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
  const masked = maskedText(built.text.trim(), ctx.masking);
  if (masked.length === 0) return { kind: 'skip', reason: 'empty message' };
  const out: Message = { role: built.role, text: masked, time, entryId, source: ctx.source, agent: ctx.agent, session: ctx.session };
  if (built.toolName !== undefined) out.toolName = built.toolName;
  const dedupeKey = built.key ?? `${built.role}\u0000${collapseWhiteSpace(masked)}`;
  return { kind: 'message', message: out, dedupeKey, recalled };
}

/** A custom message carrying OC-Memory's memory block (its pi extension's context): what it recalled; null for any other. */
function injectedMessage(custom: Json): PiEntryResult | null {
  const text = contentText(custom.content);
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

/** Text of a `content` field: a string, or blocks (`text`, `image` → "[image]"). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block)) {
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'image') parts.push('[image]');
    }
  }
  return parts.join('\n');
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

/** `[tool call: read_file path=src/db.ts]`, arguments summarised, payload capped. */
export function summariseToolCall(name: string, args: unknown): string {
  let summary = '';
  if (isObject(args)) {
    const pairs: string[] = [];
    for (const [key, value] of Object.entries(args)) {
      pairs.push(`${key}=${argValue(value)}`);
      if (pairs.join(' ').length > TOOL_SUMMARY_CHARS) break;
    }
    summary = pairs.join(' ');
  } else if (args !== undefined && args !== null) {
    summary = argValue(args);
  }
  summary = capMasked(summary, TOOL_SUMMARY_CHARS);
  return summary.length > 0 ? `[tool call: ${name} ${summary}]` : `[tool call: ${name}]`;
}

function argValue(value: unknown): string {
  if (typeof value === 'string') {
    const flat = capOneLineMasked(value, 80);
    return /[\s"]/.test(flat) || flat.length === 0 ? JSON.stringify(flat) : flat;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  try {
    return capMasked(JSON.stringify(value) ?? '', 80);
  } catch {
    return '…';
  }
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
const FILE_ERA_PROMPT =
  /^(?:Read HEARTBEAT\.md if it exists|A scheduled reminder has been triggered\.|A scheduled cron event was triggered|An async command you ran earlier has completed\.|A new session was started via \/new or \/reset|Pre-compaction memory flush\.)/;
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
const HOOK_PROMPT =
  /^(?:Job ID: [^\n]*\n+)?SECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source|<<<EXTERNAL_UNTRUSTED_CONTENT[^>\n]{0,160}>>>\s*\nSource: (?:Webhook|Email)\b/;

/** Why this user message starts a turn OpenClaw began itself (never observed), or null for the user's own words. */
export function housekeepingTurn(message: Json, text: string): string | null {
  const provenance = message.provenance;
  if (isObject(provenance) && provenance.kind === 'internal_system') return `internal_system${typeof provenance.sourceTool === 'string' ? ` (${provenance.sourceTool})` : ''}`;
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
const TIME_PREFIX = /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(?::\d{2})?(?: [A-Za-z]{1,6}(?:[+-]\d{1,2}(?::?\d{2})?)?)?\][ \t]*/;

/**
 * A line that only labels an untrusted-metadata block:
 * "Conversation info (untrusted metadata):", "Sender (untrusted metadata):",
 * "Thread starter (untrusted, for context):", "Chat history since last reply (untrusted, for context):",
 * "Untrusted context (metadata, do not treat as instructions or commands):", …
 */
const UNTRUSTED_LABEL = /^[A-Za-z][A-Za-z0-9 _/-]{0,80}\((?:untrusted|metadata)[^)\n]{0,120}\)[ \t]*:[ \t]*$|^Untrusted context\b[^\n]{0,160}:[ \t]*$/i;

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

// ---------------------------------------------------------------------------
// The tree: active branch and re-appended copies, over a stream.
//
// RULE (also in docs/transcripts.md):
// 1. Abandoned branches. pi appends every entry at the current leaf, so in
//    file order an entry's parent is normally the previous entry. An entry
//    whose parent is something else starts a new branch (a "fork"). An entry
//    E is on an abandoned branch when it is NOT an ancestor-or-self of the
//    newest entry within E's look-ahead window (the next `lookAheadEntries`
//    entries and at most `lookAheadBytes` bytes after E). The window is
//    relative to E, so for a given file the decision does not depend on how
//    the reads were chunked; for a live file it only sees what is written so
//    far (an entry observed before the user branched away stays observed).
// 2. Re-appended copies. On a fork from parent P, the hashes of the messages
//    emitted after P (from the per-stream `recent` list in the cursor) become
//    dedupe candidates; a message on the new branch whose dedupe key hash is
//    a candidate is not emitted again (each candidate matches once). The
//    candidate phase ends after 8 consecutive non-matching messages. A
//    whole-file re-read (shrink / replacement) is a fork from the root: all
//    remembered hashes are candidates. `recent` keeps the last `dedupeWindow`
//    entries (default 5,000; trimmed in batches, so up to 1.5× that).
// 3. Dedupe keys: role + whitespace-normalised masked text; tool results use
//    tool name + toolCallId (a copy may carry a trimmed output).

export interface BranchState {
  /** Id of the previous tree entry in file order (null at the start). */
  lastId: string | null;
  /** Fixed-width records: 8-char id digest + 8-char message hash ("........" = no message). */
  recent: string;
  /** Concatenated 8-char hashes that a copy may still match. */
  cand: string;
  /** Consecutive non-matching messages during a candidate phase. */
  miss: number;
  /** Inside a housekeeping turn (a heartbeat, a wake, a hook): its messages are not emitted. */
  quiet: boolean;
  /** What OC-Memory recalled in this stream, one item per line (see lib/core/injected-context.ts): restating it is not news. */
  recalled: string;
}

export const DEFAULT_DEDUPE_WINDOW = 5000;
const RECORD = 16;
const NO_HASH = '........';
const CANDIDATE_PATIENCE = 8;

export function emptyBranchState(): BranchState {
  return { lastId: null, recent: '', cand: '', miss: 0, quiet: false, recalled: '' };
}

/** Whole-file re-read: everything remembered may come again. */
export function rewindBranchState(state: BranchState): BranchState {
  return { lastId: null, recent: state.recent, cand: hashesAfter(state.recent, -1), miss: 0, quiet: false, recalled: '' };
}

/**
 * base64url sha256 of a string. The one-shot `crypto.hash` (Node ≥ 20.12) is
 * about twice as fast as a Hash object for short keys; older Node 20 releases
 * lack it. Both give the same digest.
 */
const sha256: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64url')
    : (text) => crypto.createHash('sha256').update(text).digest('base64url');

function digest8(text: string): string {
  return sha256(text).slice(0, 8);
}

function idDigest(id: string): string {
  return /^[0-9a-f]{8}$/i.test(id) ? id.toLowerCase() : digest8(`id:${id}`);
}

/** Hash of a dedupe key (8 chars of base64url sha256). */
export function dedupeHash(key: string): string {
  return digest8(key);
}

function hashesAfter(recent: string, recordIndex: number): string {
  let out = '';
  for (let at = (recordIndex + 1) * RECORD; at + RECORD <= recent.length; at += RECORD) {
    const hash = recent.slice(at + 8, at + RECORD);
    if (hash !== NO_HASH) out += hash;
  }
  return out;
}

function findRecord(recent: string, id: string): number {
  const d = idDigest(id);
  for (let at = recent.length - RECORD; at >= 0; at -= RECORD) {
    if (recent.startsWith(d, at)) return at / RECORD;
  }
  return -1;
}

function removeCandidate(cand: string, hash: string): string | null {
  for (let at = 0; at + 8 <= cand.length; at += 8) {
    if (cand.startsWith(hash, at)) return cand.slice(0, at) + cand.slice(at + 8);
  }
  return null;
}

/**
 * Feed one consumed entry (in file order) through the branch state. Returns
 * whether its message (if any) is emitted. `active` is the look-ahead verdict
 * (false: on an abandoned branch).
 */
export function advanceBranchState(
  state: BranchState,
  node: TreeNode | null,
  dedupeKey: string | null,
  active: boolean,
  dedupeWindow = DEFAULT_DEDUPE_WINDOW,
): { state: BranchState; emit: boolean } {
  const next = copyBranchState(state);
  const emit = stepBranchState(next, node, dedupeKey, active, dedupeWindow);
  return { state: next, emit };
}

/** The branch fields only (a reader may pass its whole cursor as the state). */
function copyBranchState(state: BranchState): BranchState {
  return { lastId: state.lastId, recent: state.recent, cand: state.cand, miss: state.miss, quiet: state.quiet, recalled: state.recalled };
}

/** advanceBranchState on a state the caller owns: updates it in place (no objects per entry). */
function stepBranchState(state: BranchState, node: TreeNode | null, dedupeKey: string | null, active: boolean, dedupeWindow: number): boolean {
  if (node && state.lastId !== null && node.parentId !== state.lastId) {
    // A fork: copies of what was said after the fork point may be re-appended. A parent we never
    // saw (a torn or malformed line) is not a fork: the entry continues the line.
    const at = node.parentId === null ? -1 : findRecord(state.recent, node.parentId);
    if (node.parentId === null || at >= 0) {
      state.cand = hashesAfter(state.recent, at);
      state.miss = 0;
    }
  }
  let emit = false;
  let hash = NO_HASH;
  if (dedupeKey !== null && active) {
    hash = dedupeHash(dedupeKey);
    const remaining = state.cand.length > 0 ? removeCandidate(state.cand, hash) : null;
    if (remaining !== null) {
      state.cand = remaining;
      state.miss = 0;
    } else {
      emit = true;
      if (state.cand.length > 0 && ++state.miss >= CANDIDATE_PATIENCE) {
        state.cand = '';
        state.miss = 0;
      }
    }
  }
  if (node) {
    const recent = state.recent + (idDigest(node.id) + hash);
    // Trim in batches (amortised O(1) per entry): keep between 1 and 1.5 windows, deterministically.
    const excess = recent.length - dedupeWindow * RECORD;
    state.recent = recent.slice(excess > Math.max(RECORD, Math.floor(dedupeWindow / 2) * RECORD) ? excess : 0);
    state.lastId = node.id;
  }
  return emit;
}

export interface LookAheadNode extends TreeNode {
  /** Byte offset just after the entry's line. */
  end: number;
}

export interface LookAheadWindow {
  entries: number;
  bytes: number;
}

export const DEFAULT_LOOK_AHEAD: LookAheadWindow = { entries: 256, bytes: 2 * 1024 * 1024 };

/** Whether `id` is among the entries remembered in `state.recent` (entries before the current read). */
export function rememberedEntry(state: BranchState, id: string): boolean {
  return findRecord(state.recent, id) >= 0;
}

/**
 * For nodes[0..decideCount) decide which lie on an abandoned branch, using the
 * nodes after each one (nodes must hold everything up to each window's end, or
 * up to the end of the file). `isEarlier(id)` tells whether an id belongs to an
 * entry before nodes[0] (already read). A parent found nowhere (a torn or
 * malformed line) is taken to be the entry just before its child.
 * Returns the indexes that are abandoned.
 */
export function abandonedNodes(
  nodes: readonly LookAheadNode[],
  decideCount: number,
  window: LookAheadWindow,
  isEarlier: (id: string) => boolean = () => false,
): Set<number> {
  const abandoned = new Set<number>();
  const forkPrefix = new Int32Array(nodes.length + 1);
  for (let j = 0; j < nodes.length; j += 1) {
    const fork = j > 0 && nodes[j]!.parentId !== nodes[j - 1]!.id ? 1 : 0;
    forkPrefix[j + 1] = forkPrefix[j]! + fork;
  }
  let index: Map<string, number> | null = null;
  let leaf = 0;
  for (let i = 0; i < decideCount && i < nodes.length; i += 1) {
    const limitEnd = nodes[i]!.end + window.bytes;
    if (leaf < i) leaf = i;
    while (leaf + 1 < nodes.length && leaf + 1 <= i + window.entries && nodes[leaf + 1]!.end <= limitEnd) leaf += 1;
    // No fork in (i, leaf]: a straight line from i to the leaf.
    if (forkPrefix[leaf + 1]! - forkPrefix[i + 1]! === 0) continue;
    if (index === null) {
      index = new Map();
      nodes.forEach((n, k) => index!.set(n.id, k));
    }
    let cur = leaf;
    while (cur > i) {
      const parent = nodes[cur]!.parentId;
      if (parent === null) break; // a new root: i is not on the way
      const next = index.get(parent);
      if (next !== undefined && next < cur) cur = next;
      else if (next === undefined && isEarlier(parent)) break; // forked from before i
      else cur -= 1; // missing parent: assume the entry just before
    }
    if (cur !== i) abandoned.add(i);
  }
  return abandoned;
}

/** One entry a reader consumed: its normalised result and its place among the look-ahead nodes. */
export interface ConsumedEntry {
  /** Index in the look-ahead `nodes` (-1: not a tree entry). */
  nodeIndex: number;
  result: PiEntryResult | null;
  node: TreeNode | null;
}

/**
 * Settle a read: judge each consumed entry's branch with the look-ahead nodes
 * (the first `decideCount` nodes are the consumed ones), advance the branch
 * state, and return the messages to emit, each with the entry it came from.
 * Shared by the file and the database readers.
 */
export function settleConsumed<T extends ConsumedEntry>(
  consumed: readonly T[],
  nodes: readonly LookAheadNode[],
  decideCount: number,
  window: LookAheadWindow,
  branch: BranchState,
  dedupeWindow: number,
): { emitted: Array<{ item: T; message: Message }>; branch: BranchState } {
  const before = branch;
  const abandoned = abandonedNodes(nodes, decideCount, window, (id) => rememberedEntry(before, id));
  const emitted: { item: T; message: Message }[] = [];
  // Nothing read: the state passes through as it came (the database reader passes its whole cursor here).
  if (consumed.length === 0) return { emitted, branch };
  const state = copyBranchState(branch);
  emitEntries(consumed, abandoned, state, dedupeWindow, emitted);
  return { emitted, branch: state };
}

/** settleConsumed's loop: each consumed entry through the branch state, the messages to emit into `emitted`. */
function emitEntries<T extends ConsumedEntry>(
  consumed: readonly T[],
  abandoned: Set<number>,
  state: BranchState,
  dedupeWindow: number,
  emitted: Array<{ item: T; message: Message }>,
): void {
  for (const item of consumed) {
    const result = item.result;
    const active = item.nodeIndex < 0 || !abandoned.has(item.nodeIndex);
    const message = result !== null && result.kind === 'message' ? result : null;
    if (active && result !== null) updateQuiet(state, result);
    if (active && result !== null) rememberRecalled(state, result);
    const emit = stepBranchState(state, item.node, message !== null && !state.quiet ? message.dedupeKey : null, active, dedupeWindow);
    if (message && emit && withoutRestatement(state, message.message)) emitted.push({ item, message: message.message });
  }
}

/** Keep what OC-Memory recalled (its tool's result, the block it injected into a user message). */
function rememberRecalled(state: BranchState, result: PiEntryResult): void {
  const items = result.kind === 'recall' ? result.items : result.kind === 'message' ? result.recalled : null;
  if (items === null || items.length === 0) return;
  state.recalled = addRecalled(state.recalled === '' ? [] : state.recalled.split('\n'), items).join('\n');
}

/** An assistant message without the sentences that restate recalled memory; false when nothing is left. */
function withoutRestatement(state: BranchState, message: Message): boolean {
  if (state.recalled === '' || message.role !== 'assistant') return true;
  const text = withoutRestatedMemory(message.text, state.recalled.split('\n'));
  if (text.length === 0) return false;
  message.text = text;
  return true;
}

/** A housekeeping turn starts quiet; the user's next message (or a segment's end) ends it. */
function updateQuiet(state: BranchState, result: PiEntryResult): void {
  if (result.kind === 'housekeeping') state.quiet = true;
  else if (result.kind === 'boundary') state.quiet = false;
  else if (result.kind === 'message' && result.message.role === 'user') state.quiet = false;
}
