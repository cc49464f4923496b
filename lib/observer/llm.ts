/**
 * The LLM Observer (docs/architecture.md, "A tick"): one chat call per batch of a session's new
 * messages, with the prompt from prompts/observer.md (overridable from the
 * home). The answer is parsed line by line with the day-file line format;
 * what is malformed is repaired when the intent is unambiguous (a missing
 * bullet or priority, a JSON list instead of lines, a date outside the batch)
 * and otherwise the call is retried — garbage is never written.
 *
 * Input is kept close to the new content's size: one line per message, a
 * role letter, the time only when it moves on, tool output cut short; no
 * earlier observations are re-sent.
 */
import { LlmError, MalformedOutputError } from '../llm/errors.js';
import type { LlmClient } from '../llm/client.js';
import { mergeUsage } from '../llm/usage.js';
import type { Logger } from '../platform/log.js';
import { maskSecrets } from '../masking/masking.js';
import { observationId, oneLine, parseObservationContent } from '../memory/observation-line.js';
import { controlTagsIn, isControlTag, screenCurrentTask, screenLine } from '../memory/suspicious.js';
import { localDateTime } from '../platform/time-zone.js';
import type { Message, Observation, Observer, ObserverBatch, ObserverResult, Priority } from '../core/types.js';
import { KNOWN_CATEGORIES } from '../core/types.js';

export interface LlmObserverOptions {
  client: LlmClient;
  /** The system prompt (prompts/observer.md or the home's override). */
  prompt: string;
  logger: Logger;
  /** Tool output is cut to this many characters (default 400). */
  maxToolChars?: number;
  /** Print a time marker again only after this many minutes (default 10). */
  timeStepMinutes?: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MAX_TEXT_CHARS = 600;

interface LocalMessage {
  message: Message;
  date: string;
  time: string;
  /** Minutes since epoch (for time steps). */
  minute: number;
}

function localise(messages: Message[], timeZone: string, fallbackIso: string): LocalMessage[] {
  return messages.map((message) => {
    let instant = new Date(message.time);
    if (Number.isNaN(instant.getTime())) instant = new Date(fallbackIso);
    const { date, time } = localDateTime(instant, timeZone);
    return { message, date, time, minute: Math.floor(instant.getTime() / 60000) };
  });
}

function weekday(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return WEEKDAYS[new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay()]!;
}

function roleTag(m: Message): string {
  switch (m.role) {
    case 'user':
      return 'U';
    case 'assistant':
      return 'A';
    case 'tool':
      return `T(${m.toolName ?? 'tool'})`;
    default:
      return 'S';
  }
}

/** The user message of an Observer call: the batch, compact. */
export function formatBatchForLlm(
  batch: ObserverBatch,
  options: { maxToolChars?: number; maxCodeLines?: number; timeStepMinutes?: number } = {},
): string {
  const maxTool = options.maxToolChars ?? 400;
  const maxCode = options.maxCodeLines ?? 12;
  const step = options.timeStepMinutes ?? 10;
  const lines: string[] = [];
  let lastDate = '';
  let lastMinute = -Infinity;
  for (const l of localise(batch.messages, batch.timeZone, batch.now)) {
    if (l.date !== lastDate) {
      lines.push(`## ${l.date} (${weekday(l.date)})`);
      lastDate = l.date;
      lastMinute = -Infinity;
    }
    // Code is summarised in the memory, never copied (prompts/observer.md): its first lines say what it is.
    let text = oneLine(l.message.role === 'tool' ? l.message.text : shortenCode(l.message.text ?? '', maxCode));
    if (!text) continue;
    if (l.message.role === 'tool' && text.length > maxTool) text = `${text.slice(0, maxTool)}…`;
    const showTime = l.minute - lastMinute >= step;
    if (showTime) lastMinute = l.minute;
    lines.push(`${showTime ? `${l.time} ` : ''}${roleTag(l.message)}: ${text}`);
  }
  // The session ends here: the prompt asks for its summary (prompts/observer.md).
  if (batch.sessionEnds) lines.push(SESSION_ENDS);
  return lines.join('\n');
}

/** A fenced code block of the message, with its fences. */
const CODE_BLOCK = /^([ \t]*)(```|~~~)[^\n]*\n([\s\S]*?)^[ \t]*\2[ \t]*$/gm;

/** Fenced code blocks of more than `maxLines` lines cut to their first lines and a count of the rest. */
function shortenCode(text: string, maxLines: number): string {
  if (!text.includes('```') && !text.includes('~~~')) return text;
  return text.replace(CODE_BLOCK, (all, _indent: string, fence: string, body: string) => {
    const lines = body.replace(/\n$/, '').split('\n');
    if (lines.length <= maxLines) return all;
    const head = all.slice(0, all.indexOf('\n') + 1);
    const keep = Math.max(1, maxLines - 4);
    return `${head}${lines.slice(0, keep).join('\n')}\n… (${lines.length - keep} more lines)\n${fence}`;
  });
}

/** The line after the last message of a session that has ended. */
export const SESSION_ENDS = '(session ends)';

export interface ParsedObserverOutput {
  observations: Observation[];
  currentTask?: string;
  /** "Session summary: …" (the batch ended its session). */
  sessionSummary?: string;
  /** Lines fixed up (missing bullet/priority/category/time, out-of-batch date, JSON). */
  repaired: number;
  /** Lines that were not observations and were left out. */
  dropped: number;
}

const DATE_HEADER = /^#{1,6}\s*(\d{4}-\d{2}-\d{2})\b/;
const BARE_DATE = /^\**(\d{4}-\d{2}-\d{2})(?:\s*\([A-Za-z]+\))?\**:?$/;
const CURRENT_TASK = /^(?:[-*]\s*)?\**current task\**\s*[:：]\s*(.*)$/i;
const SESSION_SUMMARY = /^(?:[-*]\s*)?\**(?:session summary|세션 요약)\**\s*[:：]\s*(.*)$/i;
const NONE = /^(?:none|nothing(?: worth keeping)?|no observations?)\.?$/i;
const BULLET = /^(?:[-*+•]|\d{1,3}[.)])\s+/;
const PRIORITY_WORD = /^\((high|medium|low)\)\s*|^(high|medium|low)\s*[:—-]\s*/i;
// A Map: a category such as "constructor" must not find Object.prototype's.
const CATEGORY_SYNONYMS = new Map(
  Object.entries({
    preferences: 'preference',
    pref: 'preference',
    like: 'preference',
    decisions: 'decision',
    plan: 'decision',
    tasks: 'task',
    todo: 'task',
    goal: 'task',
    question: 'task',
    request: 'task',
    status: 'state',
    change: 'state',
    facts: 'fact',
    info: 'fact',
    information: 'fact',
    context: 'fact',
    note: 'fact',
    events: 'event',
    activity: 'event',
    milestone: 'event',
  }),
);

function normaliseCategory(category: string): { category: string; repaired: boolean } {
  const c = category.trim().toLowerCase();
  if ((KNOWN_CATEGORIES as readonly string[]).includes(c)) return { category: c, repaired: false };
  const mapped = CATEGORY_SYNONYMS.get(c);
  if (mapped) return { category: mapped, repaired: true };
  // Any other single word is kept (the format allows more categories); anything else is a fact.
  return /^[a-z][a-z-]{1,20}$/.test(c) ? { category: c, repaired: false } : { category: 'fact', repaired: true };
}

function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );
}

/** Entry ids an observation most likely came from: same minute, else best word overlap. */
function provenanceIds(local: LocalMessage[], date: string, time: string, text: string): string[] {
  const words = contentWords(text);
  const overlap = (l: LocalMessage) => {
    let n = 0;
    for (const w of contentWords(l.message.text)) if (words.has(w)) n++;
    return n;
  };
  const sameMinute = time ? local.filter((l) => l.date === date && l.time === time) : [];
  if (sameMinute.length > 0) {
    const scored = sameMinute.map((l) => ({ l, n: overlap(l) }));
    const best = Math.max(...scored.map((s) => s.n));
    const chosen = best > 0 ? scored.filter((s) => s.n === best) : scored;
    return chosen.slice(0, 5).map((s) => s.l.message.entryId);
  }
  const scored = local.map((l) => ({ l, n: overlap(l) })).filter((s) => s.n > 0);
  scored.sort((a, b) => b.n - a.n);
  if (scored.length > 0) return scored.slice(0, 3).map((s) => s.l.message.entryId);
  const sameDay = local.filter((l) => l.date === date);
  return (sameDay.length > 0 ? sameDay : local).slice(-1).map((l) => l.message.entryId);
}

interface RawLine {
  date?: string;
  priority?: Priority;
  done: boolean;
  time: string;
  category?: string;
  text: string;
  tags: string[];
  repaired: boolean;
}

function fromJson(text: string): { lines: RawLine[]; currentTask?: string } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const obj = data as { observations?: unknown; current_task?: unknown; currentTask?: unknown };
  const list = Array.isArray(data) ? data : Array.isArray(obj?.observations) ? obj.observations : undefined;
  if (!list) return undefined;
  const lines: RawLine[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const body = typeof o.text === 'string' ? o.text : typeof o.observation === 'string' ? o.observation : undefined;
    if (!body) continue;
    const p = String(o.priority ?? '').toLowerCase();
    const priority: Priority | undefined =
      p === 'high' || p === '🔴' ? 'high' : p === 'low' || p === '🟢' ? 'low' : p === 'medium' || p === '🟡' ? 'medium' : undefined;
    lines.push({
      date: typeof o.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(o.date) ? o.date : undefined,
      priority,
      done: o.done === true,
      time: typeof o.time === 'string' && /^\d{1,2}:\d{2}$/.test(o.time) ? o.time.padStart(5, '0') : '',
      category: typeof o.category === 'string' ? o.category : undefined,
      text: body,
      tags: Array.isArray(o.tags) ? o.tags.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^#/, '')) : [],
      repaired: true,
    });
  }
  const task =
    typeof obj?.current_task === 'string' ? obj.current_task : typeof obj?.currentTask === 'string' ? obj.currentTask : undefined;
  return { lines, currentTask: task };
}

/**
 * Parse, validate and repair an Observer answer into observations for this
 * batch. Throws MalformedOutputError when it cannot be trusted.
 */
export function parseObserverOutput(answer: string, batch: ObserverBatch): ParsedObserverOutput {
  const local = localise(batch.messages, batch.timeZone, batch.now);
  const dates = [...new Set(local.map((l) => l.date))].sort();
  const lastDate = dates[dates.length - 1] ?? localDateTime(new Date(batch.now), batch.timeZone).date;
  const text = answer
    .replace(/^\s*```[a-z]*\s*\n?/i, '')
    .replace(/\n?```\s*$/, '')
    .trim();

  let raw: RawLine[] = [];
  let currentTask: string | undefined;
  let sessionSummary: string | undefined;
  let dropped = 0;
  let sawNone = false;
  const json = text.startsWith('[') || text.startsWith('{') ? fromJson(text) : undefined;
  if (json) {
    raw = json.lines;
    currentTask = json.currentTask;
  } else {
    let date: string | undefined;
    for (const rawLine of text.split(/\r?\n/)) {
      const line = rawLine.trim();
      if (!line || /^```/.test(line) || /^-{3,}$/.test(line)) continue;
      const header = DATE_HEADER.exec(line) ?? BARE_DATE.exec(line);
      if (header) {
        date = header[1];
        continue;
      }
      const task = CURRENT_TASK.exec(line);
      if (task) {
        currentTask = task[1]!.trim();
        continue;
      }
      const summary = SESSION_SUMMARY.exec(line);
      if (summary) {
        sessionSummary = summary[1]!.trim();
        continue;
      }
      if (NONE.test(line)) {
        sawNone = true;
        continue;
      }
      const bullet = BULLET.exec(line);
      let content = bullet ? line.slice(bullet[0].length) : line;
      let repaired = !bullet;
      let forced: Priority | undefined;
      const word = PRIORITY_WORD.exec(content);
      if (word) {
        forced = (word[1] ?? word[2])!.toLowerCase() as Priority;
        content = content.slice(word[0].length);
        repaired = true;
      }
      let parsed = parseObservationContent(content);
      if (!parsed) {
        // No priority marker. A bullet with a [category] or a sentence is still clearly an observation.
        if (!bullet || !/\p{L}{2,}.*\s.*\p{L}{2,}/u.test(content)) {
          dropped++;
          continue;
        }
        parsed = parseObservationContent(`🟡 ${content}`);
        repaired = true;
        if (!parsed) {
          dropped++;
          continue;
        }
      } else if (!bullet) {
        repaired = true;
      }
      raw.push({
        date,
        priority: forced ?? parsed.priority,
        done: parsed.done,
        time: parsed.time,
        category: parsed.category,
        text: parsed.text,
        tags: parsed.tags,
        repaired,
      });
    }
  }

  const observations: Observation[] = [];
  const seen = new Set<string>();
  let repairedCount = 0;
  // The model's answer follows the rules of the heuristic's (memory/suspicious.ts): no marker tag, control tags only
  // where the user wrote them, an instruction to the agent never a preference, task or the active task.
  const earned = controlTagsIn(batch.messages.filter((m) => m.role === 'user').map((m) => m.text ?? ''));
  for (const given of raw) {
    const r = screenLine({ ...given, category: given.category ?? 'fact', priority: given.priority ?? 'medium' }, earned);
    if (!given.priority) r.repaired = true;
    let body = oneLine(maskSecrets(r.text).text);
    if (body.length < 3 || !/\p{L}/u.test(body)) {
      dropped++;
      continue;
    }
    let repaired = r.repaired;
    if (body.length > MAX_TEXT_CHARS) {
      body = `${body.slice(0, MAX_TEXT_CHARS).replace(/\s+\S*$/, '')}…`;
      repaired = true;
    }
    // The date is that of a message in the batch: a date the model made up is re-anchored.
    let date = r.date;
    let time = r.time;
    if (time && !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
      time = '';
      repaired = true;
    }
    if (!date || !dates.includes(date)) {
      const byTime = time
        ? (local.find((l) => l.time === time && (!date || l.date === date)) ?? local.find((l) => l.time === time))
        : undefined;
      if (date) repaired = true;
      date = byTime?.date ?? lastDate;
    }
    if (!time) {
      const ids = provenanceIds(local, date, '', body);
      const from = local.find((l) => l.message.entryId === ids[0]);
      time = from && from.date === date ? from.time : '';
    }
    const cat = normaliseCategory(r.category ?? 'fact');
    if (cat.repaired) repaired = true;
    const priority = r.priority;
    const id = observationId({ agent: batch.agent, session: batch.session, category: cat.category, text: body, salt: date });
    if (seen.has(id)) continue;
    seen.add(id);
    if (repaired) repairedCount++;
    const entryIds = provenanceIds(local, date, time, body);
    observations.push({
      id,
      date,
      time,
      priority,
      done: r.done,
      category: cat.category,
      text: body,
      tags: ownControlTags([...new Set(r.tags)], local, entryIds),
      agent: batch.agent,
      provenance: { source: batch.source, agent: batch.agent, session: batch.session, entryIds },
    });
  }

  if (observations.length === 0 && !sawNone && (dropped > 0 || raw.length > 0)) {
    throw new MalformedOutputError(`no usable observation line in the answer (${dropped} unreadable lines)`, text.slice(0, 200));
  }
  if (observations.length > 0 && dropped > 2 * observations.length + 2) {
    throw new MalformedOutputError(`${dropped} unreadable lines against ${observations.length} observations`, text.slice(0, 200));
  }
  if (currentTask !== undefined) {
    currentTask = oneLine(maskSecrets(currentTask).text).replace(/^\*+|\*+$/g, '');
    if (!currentTask || /^(none|unclear|unknown|n\/a|-)\.?$/i.test(currentTask)) currentTask = undefined;
    currentTask = screenCurrentTask(currentTask);
  }
  if (sessionSummary !== undefined) {
    // Untrusted like every line of the answer: masked, one line, at most a few sentences.
    sessionSummary = oneLine(maskSecrets(sessionSummary).text)
      .replace(/^\*+|\*+$/g, '')
      .slice(0, 600);
    if (!sessionSummary || /^(none|n\/a|-)\.?$/i.test(sessionSummary)) sessionSummary = undefined;
    // Screened as the current task is (memory/suspicious.ts): a summary that gives orders is dropped, the topic line is written instead.
    sessionSummary = screenCurrentTask(sessionSummary);
  }
  return { observations, currentTask, ...(sessionSummary ? { sessionSummary } : {}), repaired: repairedCount, dropped };
}

/** `tags` with a control tag (#pin) only when a user message the line came from carries it: the model cannot pin a line the user did not. */
function ownControlTags(tags: string[], local: LocalMessage[], entryIds: string[]): string[] {
  if (!tags.some(isControlTag)) return tags;
  const own = controlTagsIn(
    local.filter((l) => l.message.role === 'user' && entryIds.includes(l.message.entryId)).map((l) => l.message.text ?? ''),
  );
  return tags.filter((t) => !isControlTag(t) || own.has(t.toLowerCase()));
}

/** Several sessions in one call: each under `# Session N`. */
export function formatBatchesForLlm(batches: ObserverBatch[], options: { maxToolChars?: number; timeStepMinutes?: number } = {}): string {
  return batches.map((b, i) => `# Session ${i + 1}\n${formatBatchForLlm(b, options)}`).join('\n');
}

const SESSION_HEADER = /^\s*#\s+session\s+(\d+)\b.*$/i;

/** Split a several-sessions answer at its `# Session N` headers and parse each part for its batch. */
export function parseObserverOutputMany(answer: string, batches: ObserverBatch[]): ParsedObserverOutput[] {
  if (batches.length === 1) return [parseObserverOutput(answer, batches[0]!)];
  const parts = new Map<number, string[]>();
  let current: number | undefined;
  for (const line of answer
    .replace(/^\s*```[a-z]*\s*\n?/i, '')
    .replace(/\n?```\s*$/, '')
    .split(/\r?\n/)) {
    const header = SESSION_HEADER.exec(line);
    if (header) {
      current = Number(header[1]);
      if (!parts.has(current)) parts.set(current, []);
      continue;
    }
    if (current !== undefined) parts.get(current)!.push(line);
  }
  if (parts.size === 0) {
    if (/^\s*none\.?\s*$/i.test(answer)) return batches.map(() => ({ observations: [], repaired: 0, dropped: 0 }));
    throw new MalformedOutputError('the answer did not keep the sessions apart (no "# Session N" headers)', answer.slice(0, 200));
  }
  // A session the model left out had nothing worth keeping.
  return batches.map((b, i) => {
    const part = parts.get(i + 1);
    return part?.join('').trim() ? parseObserverOutput(part.join('\n'), b) : { observations: [], repaired: 0, dropped: 0 };
  });
}

/** Create the LLM Observer. */
export function createLlmObserver(options: LlmObserverOptions): Observer {
  const { client, logger } = options;
  const format = { maxToolChars: options.maxToolChars, timeStepMinutes: options.timeStepMinutes };
  const observeOnce = async (batch: ObserverBatch): Promise<ObserverResult> => {
    const user = formatBatchForLlm(batch, format);
    const result = await client.chat({ system: options.prompt, user, parse: (answer) => parseObserverOutput(answer, batch) });
    const parsed = result.value;
    if (parsed.repaired > 0 || parsed.dropped > 0) {
      logger.log('info', 'observer.output_repaired', { session: batch.session, repaired: parsed.repaired, dropped: parsed.dropped });
    }
    return {
      observations: parsed.observations,
      currentTask: parsed.currentTask,
      ...(parsed.sessionSummary ? { sessionSummary: parsed.sessionSummary } : {}),
      usage: result.usage,
    };
  };

  /** Too long for the model: observe the halves (a single message is shortened). */
  const observe = async (batch: ObserverBatch, depth = 0): Promise<ObserverResult> => {
    try {
      return await observeOnce(batch);
    } catch (error) {
      if (!(error instanceof LlmError) || error.errorClass !== 'context_length' || depth >= 6) throw error;
      let parts: ObserverBatch[];
      if (batch.messages.length > 1) {
        const mid = Math.ceil(batch.messages.length / 2);
        parts = [
          { ...batch, messages: batch.messages.slice(0, mid), sessionEnds: false },
          { ...batch, messages: batch.messages.slice(mid) },
        ];
      } else {
        const m = batch.messages[0]!;
        parts = [{ ...batch, messages: [{ ...m, text: `${m.text.slice(0, Math.floor(m.text.length / 2))}…` }] }];
      }
      logger.log('warn', 'observer.batch_split', { session: batch.session, messages: batch.messages.length, parts: parts.length });
      const results: ObserverResult[] = [];
      for (const p of parts) results.push(await observe(p, depth + 1));
      const task = [...results].reverse().find((r) => r.currentTask)?.currentTask;
      const summary = results[results.length - 1]?.sessionSummary;
      return {
        observations: results.flatMap((r) => r.observations),
        currentTask: task,
        ...(summary ? { sessionSummary: summary } : {}),
        usage: mergeUsage(error.usage, ...results.map((r) => r.usage)),
      };
    }
  };

  const observeMany = async (batches: ObserverBatch[]): Promise<ObserverResult[]> => {
    if (batches.length === 1) return [await observe(batches[0]!)];
    try {
      const result = await client.chat({
        system: options.prompt,
        user: formatBatchesForLlm(batches, format),
        parse: (answer) => parseObserverOutputMany(answer, batches),
      });
      const repaired = result.value.reduce((n, p) => n + p.repaired, 0);
      const dropped = result.value.reduce((n, p) => n + p.dropped, 0);
      if (repaired > 0 || dropped > 0) logger.log('info', 'observer.output_repaired', { sessions: batches.length, repaired, dropped });
      // The call's usage counted once, with the first session.
      return result.value.map((p, i) => ({
        observations: p.observations,
        currentTask: p.currentTask,
        ...(p.sessionSummary ? { sessionSummary: p.sessionSummary } : {}),
        usage: i === 0 ? result.usage : undefined,
      }));
    } catch (error) {
      // Too long together: one call per session (each may split further).
      if (!(error instanceof LlmError) || error.errorClass !== 'context_length') throw error;
      logger.log('warn', 'observer.batch_split', { sessions: batches.length });
      const out: ObserverResult[] = [];
      for (const b of batches) out.push(await observe(b));
      if (out[0]) out[0] = { ...out[0], usage: mergeUsage(error.usage, out[0].usage) };
      return out;
    }
  };

  return {
    kind: 'llm',
    label: `llm ${client.label}`,
    observe: (batch) => observe(batch),
    observeMany,
  };
}
