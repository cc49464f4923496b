/**
 * Small pure helpers shared by the transcript readers (pi / OpenClaw, Claude
 * Code, Codex, generic): building a masked Message, reducing tool calls and
 * tool results to one short line, reading text out of content blocks. The pi
 * format's own rules are in pi-entries.ts.
 */
import { stripControlChars } from '../core/control-chars.js';
import { maskedText, type MaskingOptions } from '../masking/masking.js';
import { withPasswordNote } from '../masking/password-note.js';
import type { Message, Role, SourceKind } from '../core/types.js';
import { capMasked, capOneLineMasked } from './masked-cap.js';

/** Longest tool-call / tool-result summary line (characters of payload). */
export const TOOL_SUMMARY_CHARS = 200;

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** An ISO timestamp from an ISO string or epoch number (seconds or ms); '' when absent/invalid. */
export function isoTime(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Epoch seconds (< year 2286 in ms terms) vs milliseconds.
    const ms = value < 1e11 ? value * 1000 : value;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? '' : d.toISOString();
  }
  if (typeof value === 'string' && value.trim().length > 0) {
    const trimmed = value.trim();
    const d = /^\d+(\.\d+)?$/.test(trimmed)
      ? new Date(Number(trimmed) < 1e11 ? Number(trimmed) * 1000 : Number(trimmed))
      : new Date(trimmed);
    return Number.isNaN(d.getTime()) ? '' : d.toISOString();
  }
  return '';
}

/** `[tool result Bash: first 200 characters]` / `[tool error Bash: …]`. */
export function summariseToolResult(name: string, output: string, isError = false): string {
  const label = isError ? 'tool error' : 'tool result';
  const body = capOneLineMasked(output, TOOL_SUMMARY_CHARS);
  return body.length > 0 ? `[${label} ${name}: ${body}]` : `[${label} ${name}]`;
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

/**
 * Text of a content value: a string, or an array of blocks whose `text` is
 * taken when the block type is one of `textTypes`; images become "[image]".
 */
export function blocksText(content: unknown, textTypes: readonly string[] = ['text']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block)) {
      const type = str(block.type) ?? 'text';
      if (textTypes.includes(type) && typeof block.text === 'string') parts.push(block.text);
      else if (type === 'image' || type === 'input_image' || type === 'localImage') parts.push('[image]');
    }
  }
  return parts.join('\n');
}

export interface MessageContext {
  source: SourceKind;
  agent: string;
  session: string;
  masking: MaskingOptions;
}

/**
 * The text a transcript message is kept as: terminal control characters and escape sequences removed,
 * trimmed, secrets masked; a user's request to remember a password gets a note that it was masked.
 */
export function messageText(role: Role, raw: string, masking: MaskingOptions): string {
  const masked = maskedText(stripControlChars(raw).trim(), masking);
  return role === 'user' ? withPasswordNote(masked) : masked;
}

/** A trimmed, secret-masked Message, or null when nothing is left to say. */
export function makeMessage(
  ctx: MessageContext,
  fields: { role: Role; text: string; time: string; entryId: string; toolName?: string | undefined },
): Message | null {
  const masked = messageText(fields.role, fields.text, ctx.masking);
  if (masked.length === 0) return null;
  const message: Message = {
    role: fields.role,
    text: masked,
    time: fields.time,
    entryId: fields.entryId,
    source: ctx.source,
    agent: ctx.agent,
    session: ctx.session,
  };
  if (fields.toolName !== undefined) message.toolName = fields.toolName;
  return message;
}

/** Value at a dotted path (`message.content.0.text`); undefined when any step is missing. */
export function valueAtPath(value: unknown, path: string): unknown {
  if (path === '') return undefined;
  let current: unknown = value;
  for (const step of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (isObject(current)) current = current[step];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}
