/**
 * Text forms shared by the Reflectors and the reflection files: the
 * observations as a Reflector reads them (date headers, then
 * `- 🟡 HH:MM [category] text`, no ids — this is also what tokens_before
 * counts), and a reflection's body (date headers, then lines).
 */
import { DONE_EMOJI, oneLine, PRIORITY_EMOJI } from './observation-line.js';
import type { Observation, Priority } from '../core/types.js';

/** One line of a reflection, dated (the reflection keeps the time line). */
export interface ReflectionLine {
  date: string;
  priority: Priority;
  done: boolean;
  category: string;
  text: string;
  tags: string[];
}

function byDate<T extends { date: string }>(items: T[], line: (item: T) => string): string {
  const out: string[] = [];
  let last = '';
  for (const item of items) {
    if (item.date !== last) {
      if (out.length > 0) out.push('');
      out.push(`## ${item.date}`);
      last = item.date;
    }
    out.push(line(item));
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

export function sortObservations(observations: Observation[]): Observation[] {
  return [...observations].sort((a, b) => a.date.localeCompare(b.date) || a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
}

/** Observations as the Reflector reads them (and as tokens_before counts them). */
export function renderObservations(observations: Observation[]): string {
  return byDate(sortObservations(observations), (o) => {
    const marks = `${o.done ? `${DONE_EMOJI} ` : ''}${PRIORITY_EMOJI[o.priority]}`;
    return `- ${marks}${o.time ? ` ${o.time}` : ''} [${o.category}] ${oneLine(o.text)}`;
  });
}

/** The body of a reflection file: date headers and lines (no block ids). */
export function renderReflectionLines(lines: ReflectionLine[]): string {
  return byDate(lines, (l) => {
    const marks = `${l.done ? `${DONE_EMOJI} ` : ''}${PRIORITY_EMOJI[l.priority]}`;
    const text = oneLine(l.text);
    const inline = new Set([...text.matchAll(/#([\p{L}\p{N}_/-]+)/gu)].map((m) => m[1]));
    const tags = l.tags
      .filter((t) => !inline.has(t))
      .map((t) => ` #${t}`)
      .join('');
    return `- ${marks} [${l.category}] ${text}${tags}`;
  });
}
