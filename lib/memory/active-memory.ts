/**
 * active_memory.md: what the agent loads every turn. Rebuilt from the day
 * files (never hand-merged) through templates/active_memory.md, and never over
 * the token budget (js-tiktoken): when everything does not fit, what matters
 * most (priority, then recency) stays.
 */
import { isSuspicious } from './suspicious.js';
import { PRIORITY_EMOJI, DONE_EMOJI } from './observation-line.js';
import { countTokens, estimateTokens } from '../core/tokens.js';
import { localInstantMs } from '../platform/time-zone.js';
import type { Observation, Priority } from '../core/types.js';

export interface ReflectionRef {
  /** Path relative to the home, e.g. reflections/2026-01-01_2026-01-31.md */
  path: string;
  periodStart: string;
  periodEnd: string;
  /** A one-line summary or title. */
  title: string;
  /** Higher is kept first (default 100). */
  rank?: number;
}

export interface ActiveMemoryInput {
  template: string;
  agent: string;
  observations: Observation[];
  reflections?: ReflectionRef[];
  /** Reflection lines that stand in for older periods (from the Reflector); higher `rank` is kept first (default 150). */
  reflectionLines?: Array<{ text: string; priority: Priority; period: string; rank?: number }>;
  currentTask?: { text: string; at: string };
  budgetTokens: number;
  recentDays: number;
  /** Formatted "updated at" (the caller owns the clock and the time zone). */
  updatedAt: string;
  /** The zone of observations that do not say theirs (the configured one; default UTC). */
  timeZone?: string;
}

export interface ActiveMemoryResult {
  text: string;
  tokens: number;
  /** Observations represented in the file. */
  included: number;
  /** Candidates left out to stay within budget. */
  dropped: number;
  period: { start: string; end: string } | undefined;
}

const PRIORITY_RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };
const STOP = new Set(
  'the a an and or but to of in on for with at by from is are was were be been being it this that these those i me my we our you your he she they them his her their user assistant prefers prefer likes like wants want always never uses use over than more less very really 을 를 이 가 은 는 에 에서 으로 로 와 과 도 만'.split(' '),
);

function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}_+#.-]+/u)
      .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
      .filter((w) => w.length > 1 && !STOP.has(w)),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Newest first by absolute time: an observation's local date and time in its own zone (else
 * `fallbackZone`), so that after a move from Seoul to Los Angeles a line written at 18:00 in Los
 * Angeles is newer than one written at 08:00 the next calendar day in Seoul. Observations without
 * a date come last; ties keep their order.
 */
function newestFirstIn(fallbackZone: string): (a: Observation, b: Observation) => number {
  const instants = new Map<Observation, number>();
  const instant = (o: Observation): number => {
    let at = instants.get(o);
    if (at === undefined) {
      at = o.date ? localInstantMs(o.date, o.time, o.zone ?? fallbackZone) : Number.NEGATIVE_INFINITY;
      if (Number.isNaN(at)) at = Number.NEGATIVE_INFINITY;
      instants.set(o, at);
    }
    return at;
  };
  return (a, b) => {
    const x = instant(a);
    const y = instant(b);
    return x === y ? 0 : y > x ? 1 : -1;
  };
}

/**
 * Preferences with conflicts resolved: when two preferences are about the
 * same thing (their content words overlap by half or more), the newest (by
 * absolute time; `timeZone` for observations that do not say theirs) wins.
 */
export function resolvePreferences(observations: Observation[], timeZone = 'UTC'): Observation[] {
  const kept: Array<{ o: Observation; words: Set<string> }> = [];
  for (const o of [...observations].sort(newestFirstIn(timeZone))) {
    const words = contentWords(o.text);
    if (kept.some((k) => jaccard(k.words, words) >= 0.5)) continue;
    kept.push({ o, words });
  }
  return kept.map((k) => k.o);
}

function line(o: Observation, withDate: boolean): string {
  const marks = `${o.done ? `${DONE_EMOJI} ` : ''}${PRIORITY_EMOJI[o.priority]}`;
  const when = withDate ? ` (${o.date})` : o.time ? ` ${o.time}` : '';
  return withDate ? `- ${marks} [${o.category}] ${o.text}${when}` : `- ${marks}${when} [${o.category}] ${o.text}`;
}

interface Item {
  section: 'context' | 'preferences' | 'recent' | 'key' | 'reflections';
  text: string;
  /** Higher = kept first. */
  rank: number;
  date: string;
  obs: number;
  est: number;
}

function render(input: ActiveMemoryInput, items: Item[], counts: { tokens: number; observations: number; period: string }): string {
  const by = (s: Item['section']) => items.filter((i) => i.section === s);
  const recent = by('recent').sort((a, b) => (a.date === b.date ? 0 : b.date.localeCompare(a.date)));
  const recentText: string[] = [];
  let lastDate = '';
  for (const i of recent) {
    if (i.date !== lastDate) {
      recentText.push(`${recentText.length ? '\n' : ''}### ${i.date}`);
      lastDate = i.date;
    }
    recentText.push(i.text);
  }
  const orNone = (lines: string[]) => (lines.length ? lines.join('\n') : '_None yet._');
  const values: Record<string, string> = {
    agent_suffix: input.agent === 'main' ? '' : ` — ${input.agent}`,
    updated_at: input.updatedAt,
    tokens: String(counts.tokens),
    budget: String(input.budgetTokens),
    observations: String(counts.observations),
    period: counts.period,
    current_context: orNone(by('context').map((i) => i.text)),
    preferences: orNone(by('preferences').map((i) => i.text)),
    recent: orNone(recentText),
    key_facts: orNone(by('key').map((i) => i.text)),
    reflections: orNone(by('reflections').map((i) => i.text)),
  };
  return input.template.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
}

/** Build active_memory.md within the budget. Pure. */
export function buildActiveMemory(given: ActiveMemoryInput): ActiveMemoryResult {
  const input = withoutSuspicious(given);
  const obs = input.observations;
  const newestFirst = newestFirstIn(input.timeZone ?? 'UTC');
  const dates = [...new Set(obs.map((o) => o.date).filter(Boolean))].sort();
  // Recent = the calendar window of `recentDays` ending on the newest day with observations.
  const newest = dates[dates.length - 1];
  const windowStart = newest ? new Date(Date.parse(`${newest}T00:00:00Z`) - (input.recentDays - 1) * 86_400_000).toISOString().slice(0, 10) : '';
  const recentDates = new Set(dates.filter((d) => d >= windowStart));
  const items: Item[] = [];
  const push = (section: Item['section'], text: string, rank: number, date: string, count: number) =>
    items.push({ section, text, rank, date, obs: count, est: estimateTokens(text) + 1 });

  // Current context: the active task, then open tasks of the recent days.
  if (input.currentTask) push('context', `- Active task: ${input.currentTask.text} (as of ${input.currentTask.at.slice(0, 16).replace('T', ' ')})`, 1000, '', 0);
  const openTasks = obs.filter((o) => o.category === 'task' && !o.done && recentDates.has(o.date)).sort(newestFirst).slice(0, 5);
  openTasks.forEach((o, i) => push('context', line(o, true), 900 - i, o.date, 1));
  const shown = new Set(openTasks.map((o) => o.id));

  // Preferences and constraints: newest wins on conflict.
  const prefs = resolvePreferences(obs.filter((o) => o.category === 'preference'), input.timeZone);
  prefs.forEach((o, i) => {
    shown.add(o.id);
    push('preferences', line(o, true), 500 + PRIORITY_RANK[o.priority] * 100 - Math.min(i, 99), o.date, 1);
  });

  // Key facts: what stays true — facts, decisions and states above low priority, and anything of high
  // priority but an event — of any day; one listed here is not listed again under recent observations.
  const durable = (o: Observation) => !o.done && ((o.priority !== 'low' && (o.category === 'fact' || o.category === 'decision' || o.category === 'state')) || (o.priority === 'high' && o.category !== 'event'));
  const key = obs.filter((o) => !shown.has(o.id) && durable(o)).sort(newestFirst);
  key.forEach((o, i) => {
    shown.add(o.id);
    push('key', line(o, true), 150 + PRIORITY_RANK[o.priority] * 100 - Math.min(i, 100), o.date, 1);
  });

  // Recent observations by date: what happened (events, tasks) and the rest.
  const recent = obs.filter((o) => recentDates.has(o.date) && !shown.has(o.id)).sort(newestFirst);
  const dateRank = new Map([...recentDates].sort().reverse().map((d, i) => [d, i]));
  for (const o of recent) {
    shown.add(o.id);
    const rank = PRIORITY_RANK[o.priority] * 100 - (dateRank.get(o.date) ?? 0) * 10;
    push('recent', line(o, false), rank, o.date, 1);
  }


  // Reflections cover older periods.
  for (const r of input.reflectionLines ?? []) push('key', `- ${PRIORITY_EMOJI[r.priority]} ${r.text} (${r.period})`, r.rank ?? 150, '', 0);
  for (const r of input.reflections ?? []) push('reflections', `- [${r.title}](${r.path}) — ${r.periodStart} → ${r.periodEnd}`, r.rank ?? 100, '', 0);

  const ordered = [...items].sort((a, b) => b.rank - a.rank);
  const period = dates.length ? `${dates[0]} → ${dates[dates.length - 1]}` : 'no observations yet';
  const frame = estimateTokens(render(input, [], { tokens: 0, observations: 0, period }));

  // Greedy by rank on estimates, then exact trimming.
  let included: Item[] = [];
  let est = frame;
  for (const item of ordered) {
    if (est + item.est > input.budgetTokens * 1.15) continue;
    included.push(item);
    est += item.est;
  }
  for (let guard = 0; guard < 50; guard++) {
    const count = included.reduce((n, i) => n + i.obs, 0);
    let text = render(input, included, { tokens: 0, observations: count, period });
    let tokens = countTokens(text);
    text = render(input, included, { tokens, observations: count, period });
    tokens = countTokens(text);
    // The count printed in the header must be the final one.
    text = render(input, included, { tokens, observations: count, period });
    if (tokens <= input.budgetTokens || included.length === 0) {
      return { text, tokens, included: count, dropped: obs.length - count, period: dates.length ? { start: dates[0]!, end: dates[dates.length - 1]! } : undefined };
    }
    // Drop the least important items worth the overshoot.
    let over = tokens - input.budgetTokens;
    const keep = [...included];
    while (over > 0 && keep.length > 0) {
      const victim = keep.pop()!;
      over -= Math.max(1, victim.est);
    }
    included = keep;
  }
  throw new Error('active memory could not be fitted to its budget');
}

/**
 * The input without what is held for review (memory/suspicious.ts): an
 * observation, reflection line or active task whose text tries to act on the
 * agent is never part of what every session starts with (`status` lists it).
 */
function withoutSuspicious(input: ActiveMemoryInput): ActiveMemoryInput {
  const observations = input.observations.filter((o) => !isSuspicious(o.text));
  const reflectionLines = input.reflectionLines?.filter((l) => !isSuspicious(l.text));
  const currentTask = input.currentTask && !isSuspicious(input.currentTask.text) ? input.currentTask : undefined;
  return { ...input, observations, ...(reflectionLines ? { reflectionLines } : {}), currentTask };
}
