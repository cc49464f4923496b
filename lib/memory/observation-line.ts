/**
 * One observation as one Markdown list line (README, "File formats"):
 *
 *   - 🔴 09:15 [preference] User prefers TypeScript. #typescript ^o-7f3a9c21e0
 *   - 🟡 09:20 The staging host is db-stage-7. ^o-0c0c0c0c0c          (no `[…]`: a fact; `[fact]` reads the same)
 *   - ✅ 🟡 11:20 [task] Ship the auth fix. ^o-c93e0f55aa
 *   - ✅ 🟡 11:20 [task] Do the login flow first. (done 2026-04-08 by o-5d2ad17055) ^o-c93e0f55aa
 *   - 🔴 10:30 [decision] Postgres 16 is the database. #postgres (superseded 2026-05-02 by o-0b41d2e8aa) ^o-7f3a9c21e0
 *
 * The lifecycle mark (`(done …)`, `(superseded …)`) ends the text, before or after the tags; its date
 * and `by o-…` are optional, so `(done)` or `(superseded)` written by hand count too.
 *
 * Pure parse/format; no I/O.
 */
import * as crypto from 'node:crypto';
import { stripControlChars } from '../core/control-chars.js';
import { oneLine } from '../core/whitespace.js';
import type { Observation, ObservationMark, Priority } from '../core/types.js';

export const PRIORITY_EMOJI: Record<Priority, string> = { high: '🔴', medium: '🟡', low: '🟢' };
export const DONE_EMOJI = '✅';
const EMOJI_PRIORITY = new Map<string, Priority>([
  ['🔴', 'high'],
  ['🟡', 'medium'],
  ['🟢', 'low'],
  ['🟠', 'medium'],
  ['⚪', 'low'],
]);

/** Obsidian-style tag: letters/digits/_/-//, at least one non-digit. */
export const TAG_PATTERN = /#((?=[\p{L}\p{N}_/-]*[\p{L}_])[\p{L}\p{N}_/-]+)/gu;
const TAG_SCAN = new RegExp(TAG_PATTERN.source, TAG_PATTERN.flags);
const TRAILING_TAGS = /((?:\s+#(?=[\p{L}\p{N}_/-]*[\p{L}_])[\p{L}\p{N}_/-]+)+)\s*$/u;
const BLOCK_ID = /\s+\^([A-Za-z0-9-]+)\s*$/;
const MARKERS = /^(?:(?:✅|🔴|🟡|🟢|🟠|⚪)\uFE0F?\s*)+/u;
/** `09:15`, `09:15:30`; a UTC offset after it (`09:15 -08:00`) only before the category. */
const TIME = /^(\d{1,2}:\d{2})(?::\d{2})?(?: ([+-]\d{2}:\d{2})(?=\s+\[))?\s+/;
const CATEGORY = /^\[([\p{L}\p{N}_ -]{1,40})\]\s*/u;
/** A lifecycle mark at the end of a text: `(done 2026-04-08 by o-…)`, `(superseded by ^o-…)`, `(done)`. */
const MARK = /\s*\((done|superseded)(?:\s+(\d{4}-\d{2}-\d{2}))?(?:\s+by\s+\^?(o-[0-9a-f]{6,}))?\)\s*$/i;

export interface ParsedLine {
  priority: Priority;
  done: boolean;
  time: string;
  /** The UTC offset written after the time (`09:15 -08:00`), for a line in another zone than its file's. */
  offset?: string | undefined;
  category: string;
  text: string;
  tags: string[];
  id: string | undefined;
  mark?: ObservationMark;
}

/** The mark ending `text`, and the text without it. */
function takeMark(text: string): { text: string; mark?: ObservationMark } {
  if (!text.endsWith(')')) return { text };
  const m = MARK.exec(text);
  if (!m) return { text };
  const mark: ObservationMark = { kind: m[1]!.toLowerCase() as ObservationMark['kind'] };
  if (m[2]) mark.date = m[2];
  if (m[3]) mark.by = m[3];
  return { text: text.slice(0, m.index), mark };
}

/** The mark as it is written in a line: `(done 2026-04-08 by o-…)`. */
export function formatMark(mark: ObservationMark): string {
  return `(${mark.kind}${mark.date ? ` ${mark.date}` : ''}${mark.by ? ` by ${mark.by}` : ''})`;
}

/**
 * Parse the first line of a list item (without the "- " bullet). Returns
 * undefined when the line is not an observation (no priority/done marker).
 */
export function parseObservationContent(content: string): ParsedLine | undefined {
  let rest = content.trim();
  const markers = MARKERS.exec(rest);
  if (!markers) return undefined;
  let priority: Priority | undefined;
  let done = false;
  for (const ch of markers[0].replace(/\uFE0F|\s/g, '')) {
    if (ch === DONE_EMOJI) done = true;
    const p = EMOJI_PRIORITY.get(ch);
    if (p && !priority) priority = p;
  }
  rest = rest.slice(markers[0].length);
  let time = '';
  let offset: string | undefined;
  const t = TIME.exec(rest);
  if (t) {
    time = t[1]!.padStart(5, '0');
    offset = t[2];
    rest = rest.slice(t[0].length);
  }
  let category = '';
  const c = CATEGORY.exec(rest);
  if (c) {
    category = c[1]!.trim().toLowerCase();
    rest = rest.slice(c[0].length);
  }
  let id: string | undefined;
  const b = BLOCK_ID.exec(rest);
  if (b) {
    id = b[1];
    rest = rest.slice(0, b.index);
  }
  // The mark is written after the tags; one written by hand before them counts too.
  const marked = takeMark(rest);
  rest = marked.text;
  let mark = marked.mark;
  const tags: string[] = [];
  const trailing = TRAILING_TAGS.exec(rest);
  if (trailing) {
    rest = rest.slice(0, trailing.index);
  }
  if (!mark) ({ text: rest, mark } = takeMark(rest));
  if (mark?.kind === 'done') done = true;
  const tagged = trailing ? rest + trailing[1] : rest;
  if (tagged.includes('#')) {
    // exec on a private copy of the pattern: cheaper per line than matchAll's iterator.
    TAG_SCAN.lastIndex = 0;
    for (let m = TAG_SCAN.exec(tagged); m; m = TAG_SCAN.exec(tagged)) {
      const tag = m[1]!;
      if (!tags.includes(tag)) tags.push(tag);
    }
  }
  return {
    priority: priority ?? (done ? 'medium' : 'medium'),
    done,
    time,
    category: category || DEFAULT_CATEGORY,
    text: rest.trim(),
    tags,
    id,
    ...(mark ? { mark } : {}),
    ...(offset ? { offset } : {}),
  };
}

/**
 * Collapse whitespace so an observation stays one line: whitespace.ts's character loop, which returns a tidy
 * text as it is (most are) without running a regular expression over every observation's text.
 */
export { oneLine };

/** A line without `[…]` is a fact: the category most lines have goes unwritten. */
export const DEFAULT_CATEGORY = 'fact';
/** A text that, written right after the markers, would read as a time. */
const TIME_START = /^\d{1,2}:\d{2}/;

/**
 * May the line leave its category out? Only a fact's, and only where the text then still reads as
 * text: not when it opens like a category (`[draft] …`), a UTC offset is written (it is read only
 * before a category), or no time is written and the text opens like a time or a marker.
 */
function categoryUnwritten(category: string, text: string, timeWritten: boolean, offset: string | undefined): boolean {
  if (category !== DEFAULT_CATEGORY || offset || CATEGORY.test(text)) return false;
  return timeWritten || !(TIME_START.test(text) || MARKERS.test(text));
}

/**
 * Format the list line for an observation (with the "- " bullet, no newline). `offset`: the UTC offset
 * to write after the time (`09:15 -08:00`), for a line in another zone than its file's.
 */
export function formatObservationLine(
  obs: Pick<Observation, 'priority' | 'done' | 'time' | 'category' | 'text' | 'tags' | 'id' | 'mark'>,
  offset?: string,
): string {
  // Whatever wrote the text (an Observer, a model, a front end), no escape sequence or control character goes into the file.
  let text = oneLine(stripControlChars(obs.text));
  // A text that itself ends like a mark ("Step one (done)") would read back as marked: a full stop keeps it text.
  if (text.endsWith(')') && MARK.test(text)) text += '.';
  const done = obs.done || obs.mark?.kind === 'done';
  let line = done ? `- ${DONE_EMOJI} ${PRIORITY_EMOJI[obs.priority]}` : `- ${PRIORITY_EMOJI[obs.priority]}`;
  if (obs.time) line += offset ? ` ${obs.time} ${offset}` : ` ${obs.time}`;
  line += categoryUnwritten(obs.category, text, obs.time !== '', offset) ? ` ${text}` : ` [${obs.category}] ${text}`;
  if (obs.tags.length > 0) {
    // Tags the text already carries inline are not repeated at the end (a text without '#' carries none).
    const inline = text.includes('#') ? new Set(Array.from(text.matchAll(TAG_PATTERN), (m) => m[1])) : undefined;
    for (const t of obs.tags) if (!inline?.has(t)) line += ` #${t}`;
  }
  if (obs.mark) line += ` ${formatMark(obs.mark)}`;
  return `${line} ^${obs.id}`;
}

/** Sentence-ending punctuation that does not change an observation's identity (…, 。 and . ! ?). */
function isEndPunctuation(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3002 || code === 0x2026;
}

/** Normalise text for identity: case, spacing and trailing punctuation do not matter. */
export function normaliseForId(text: string): string {
  return normaliseLineForId(oneLine(text));
}

/** normaliseForId() of a text that oneLine() leaves as it is. */
function normaliseLineForId(line: string): string {
  const lower = line.toLowerCase();
  // Same as .replace(/[.!?。…]+$/u, ''), without running a regex over the whole text.
  let end = lower.length;
  while (end > 0 && isEndPunctuation(lower.charCodeAt(end - 1))) end--;
  return end === lower.length ? lower : lower.slice(0, end);
}

/** SHA-256 as hex: one-shot crypto.hash (Node ≥ 20.12, ~3x faster per id) or a Hash object before that. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * A stable observation id: the same fact from the same session on the same day
 * always gets the same id, so re-running a job after a crash cannot duplicate
 * it; the same words on another day are another observation.
 */
export function observationId(parts: ObservationIdParts): string {
  return idOf(parts, normaliseForId(parts.text));
}

/**
 * observationId() of a text that is one line already, as oneLine() gives it (no white space but
 * single spaces between words): the same id, without scanning the text for white space again.
 * The heuristic Observer's texts all come out of oneLine().
 */
export function observationIdOfLine(parts: ObservationIdParts): string {
  return idOf(parts, normaliseLineForId(parts.text));
}

interface ObservationIdParts {
  agent: string;
  session: string;
  date?: string;
  category: string;
  text: string;
  salt?: string;
}

function idOf(parts: ObservationIdParts, normalised: string): string {
  const key = `${parts.agent}\u0000${parts.session}\u0000${parts.date ?? ''}\u0000${parts.category}\u0000${normalised}\u0000${parts.salt ?? ''}`;
  return `o-${sha256Hex(key).slice(0, 10)}`;
}
