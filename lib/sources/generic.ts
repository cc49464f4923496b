/**
 * The generic source (the PRD's fallback when a format changes): any JSONL
 * transcript with configured field paths, or plain text logs matched by
 * configured regular expressions. One stream per file matched by the `path`
 * glob, each with its own cursor and rotation handling (tailed-file.ts).
 *
 * JSONL: `fields` name dotted paths (`message.role`, `payload.content.0.text`)
 * for role, text, time, and optionally session and id. Roles are read
 * loosely: user/human → user; assistant/ai/bot/model/agent → assistant;
 * tool/function → tool; system/developer → system. Text may be a string or
 * content blocks. A line without a known role or without text is skipped and
 * counted as malformed (so a wrong field path shows up in the logs).
 *
 * Regex logs: `user_pattern` / `assistant_pattern` match the first line of a
 * message and capture it in a named group `text` (else the whole match) and
 * optionally `time`; `timestamp_pattern` finds the time when the pattern has
 * no `time` group. A line matching neither pattern continues the previous
 * message of the same read — unless it matches `timestamp_pattern` (then it is
 * some other record, e.g. a join notice, and is skipped).
 */
import fg from 'fast-glob';
import { stat } from 'node:fs/promises';
import { basename, extname, resolve, sep } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { expandHome } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, Message, ReadLimits, Role, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { blocksText, isObject, isoTime, makeMessage, valueAtPath, type MessageContext } from './message-text.js';
import { readTailedFile, type LineParser } from './tailed-file.js';
import { invalidJsonReason } from './log-safe.js';

export interface GenericSourceConfig {
  name: string;
  enabled: boolean;
  path: string;
  format: 'jsonl' | 'regex';
  agent: string;
  fields: { role: string; text: string; time: string; session: string; id: string };
  user_pattern: string;
  assistant_pattern: string;
  timestamp_pattern: string;
}

export interface GenericSourceOptions {
  config: GenericSourceConfig;
  /** Index in `sources.generic` (for error messages). */
  index: number;
  masking: MaskingOptions;
  home: string;
  logger?: Logger;
}

const ROLES: Record<string, Role> = {
  user: 'user',
  human: 'user',
  me: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  bot: 'assistant',
  model: 'assistant',
  agent: 'assistant',
  tool: 'tool',
  function: 'tool',
  tool_result: 'tool',
  toolresult: 'tool',
  system: 'system',
  developer: 'system',
};

export function roleOf(value: unknown): Role | null {
  if (typeof value !== 'string') return null;
  return ROLES[value.trim().toLowerCase()] ?? null;
}

function compile(pattern: string, key: string): RegExp | null {
  if (pattern.trim() === '') return null;
  try {
    return new RegExp(pattern, 'u');
  } catch (error) {
    throw new ConfigError(`${key} is not a valid regular expression: ${(error as Error).message}`, {
      hint: `Fix ${key} in config.yaml (JavaScript regex syntax; name the message group (?<text>…) and optionally (?<time>…)).`,
    });
  }
}

interface JsonlState {
  n: number;
}

export function jsonlParser(ctx: MessageContext, fields: GenericSourceConfig['fields']): LineParser<JsonlState> {
  return {
    initial: () => ({ n: 0 }),
    revive: (raw) => ({ n: isObject(raw) && typeof raw.n === 'number' ? raw.n : 0 }),
    line(text, _state, lineNo) {
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch (error) {
        return { messages: [], invalid: invalidJsonReason(error) };
      }
      const role = roleOf(valueAtPath(entry, fields.role));
      if (!role) return { messages: [], invalid: `no known role at "${fields.role}"` };
      const raw = valueAtPath(entry, fields.text);
      const body = typeof raw === 'string' ? raw : blocksText(raw, ['text', 'input_text', 'output_text']);
      if (body.trim().length === 0) return { messages: [], invalid: `no text at "${fields.text}"` };
      const id = fields.id ? valueAtPath(entry, fields.id) : undefined;
      const sessionValue = fields.session ? valueAtPath(entry, fields.session) : undefined;
      const messageCtx = typeof sessionValue === 'string' && sessionValue.length > 0 ? { ...ctx, session: sessionValue } : ctx;
      const message = makeMessage(messageCtx, {
        role,
        text: body,
        time: isoTime(valueAtPath(entry, fields.time)),
        entryId: typeof id === 'string' || typeof id === 'number' ? String(id) : `L${lineNo}`,
      });
      return { messages: message ? [message] : [] };
    },
  };
}

interface RegexState {
  /** The message being assembled (continuation lines are appended). */
  open: { role: Role; text: string; time: string; line: number } | null;
}

export function regexParser(
  ctx: MessageContext,
  patterns: { user: RegExp | null; assistant: RegExp | null; timestamp: RegExp | null },
): LineParser<RegexState> {
  const finish = (state: RegexState): Message[] => {
    const open = state.open;
    state.open = null;
    if (!open) return [];
    const message = makeMessage(ctx, { role: open.role, text: open.text, time: open.time, entryId: `L${open.line}` });
    return message ? [message] : [];
  };
  const timeOf = (line: string, groups: Record<string, string | undefined> | undefined): string => {
    if (groups?.time) return isoTime(groups.time);
    if (!patterns.timestamp) return '';
    const m = patterns.timestamp.exec(line);
    return m ? isoTime(m.groups?.time ?? m[1] ?? m[0]) : '';
  };
  return {
    initial: () => ({ open: null }),
    // A chunk always ends with flush(), so no message is ever carried in the cursor.
    revive: () => ({ open: null }),
    line(text, state, lineNo) {
      for (const [role, pattern] of [
        ['user', patterns.user],
        ['assistant', patterns.assistant],
      ] as const) {
        if (!pattern) continue;
        const m = pattern.exec(text);
        if (!m) continue;
        const done = finish(state);
        const body = m.groups?.text ?? m[0];
        state.open = { role, text: body, time: timeOf(text, m.groups), line: lineNo };
        return { messages: done };
      }
      // A line with its own timestamp is another record (a join notice, a system line): it ends the message.
      if (patterns.timestamp?.test(text)) return { messages: finish(state) };
      if (state.open) state.open.text += `\n${text}`;
      return { messages: [] };
    },
    flush: finish,
  };
}

export function createGenericSource(options: GenericSourceOptions): TranscriptSource {
  const { config, index } = options;
  const agent = config.agent || 'main';
  const pattern = resolve(expandHome(config.path, options.home));
  const key = (k: string) => `sources.generic[${index}].${k}`;
  const patterns =
    config.format === 'regex'
      ? {
          user: compile(config.user_pattern, key('user_pattern')),
          assistant: compile(config.assistant_pattern, key('assistant_pattern')),
          timestamp: compile(config.timestamp_pattern, key('timestamp_pattern')),
        }
      : null;
  if (patterns && !patterns.user && !patterns.assistant) {
    throw new ConfigError(`sources.generic[${index}] ("${config.name}") has format regex but neither user_pattern nor assistant_pattern.`, {
      hint: `Set ${key('user_pattern')} and ${key('assistant_pattern')}, e.g. '^\\[(?<time>[^\\]]+)\\] User: (?<text>.*)$'.`,
    });
  }

  return {
    kind: 'generic',
    async discover() {
      // The configured path is a glob already: only '~' and relative paths were resolved.
      const files = await fg(pattern.split(sep).join('/'), {
        onlyFiles: true,
        absolute: true,
        suppressErrors: true,
        dot: false,
      }).catch(() => [] as string[]);
      const streams: SourceStream[] = [];
      for (const path of files.sort()) {
        try {
          const st = await stat(path);
          const session = basename(path, extname(path));
          streams.push({ key: `generic:${config.name}:${path}`, kind: 'generic', agent, session, path, size: st.size });
        } catch {
          // vanished
        }
      }
      return streams;
    },
    read(stream: SourceStream, cursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk> {
      const ctx: MessageContext = { source: 'generic', agent: stream.agent, session: stream.session, masking: options.masking };
      const common = {
        path: stream.path,
        cursor,
        limits,
        ended: stream.ended === true,
        key: stream.key,
        ...(options.logger ? { logger: options.logger } : {}),
      };
      return patterns
        ? readTailedFile({ ...common, parser: regexParser(ctx, patterns) })
        : readTailedFile({ ...common, parser: jsonlParser(ctx, config.fields) });
    },
  };
}
