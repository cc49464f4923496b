/**
 * active_memory.md: what the agent loads every turn. Rebuilt from the day
 * files (never hand-merged) through templates/active_memory.md, and never over
 * the token budget (js-tiktoken): when everything does not fit, what matters
 * most (priority, then recency) stays.
 *
 * It says what is true today: the active task is the newest open task of any
 * session (or the Observer's current task, when newer), gone once older than
 * `activeTaskMaxAgeDays`; done tasks, superseded items (their lifecycle mark,
 * lifecycle.ts) and dated items whose date has passed leave the open tasks and
 * key facts; masked-secret husks never come in; a fact restated in the other
 * language is listed once, as first said, and one restated with less the same
 * day once, as said in full.
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
  /** The Observer's current task; `local`: when it was seen, local YYYY-MM-DD HH:MM. */
  currentTask?: { text: string; at: string; local?: string };
  /** Today, local YYYY-MM-DD: dated items before it have passed; absent, nothing expires. */
  today?: string;
  /** The active task is dropped once this many days older than today (default: never). */
  activeTaskMaxAgeDays?: number;
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
  'the a an and or but to of in on for with at by from is are was were be been being it this that these those i me my we our you your he she they them his her their user assistant prefers prefer likes like wants want always never uses use over than more less very really 을 를 이 가 은 는 에 에서 으로 로 와 과 도 만'.split(
    ' ',
  ),
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

/** A masked secret, a credential's name, `.env`: what a line about a secret holds. */
const SECRET_PART = /\[REDACTED:[^\]]*\]|\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD)\b|(?:^|\s)\.env\b/g;
const SECRET_WORDS = new Set(
  'key keys token tokens secret secrets password passwords passwd credential credentials api env here gave give given sent send pasted paste shared share said says told the a an is are was in on at of for to it its this that my your his her their user assistant and or with from into lives stored saved kept goes put asked ask added add checked check store keep make sure gitignore ignored file'.split(
    ' ',
  ),
);
/** Handing a secret over ("User gave the OpenAI key for the parser: [REDACTED:…]"): the line is about the secret. */
const HANDED_SECRET =
  /\b(?:gave|give|pasted|paste|shared|sent|here(?:'s| is))\b[^.]*\b(?:key|token|password|secret|credential)s?\b[^.]*\[REDACTED:/i;

/**
 * What a masked secret leaves behind ("User gave the OpenAI key: [REDACTED:openai-key]", a bare
 * `[REDACTED:slack-token]`), or where a secret lives ("OPENAI_API_KEY is in .env"): worth nothing in
 * every prompt. A line that also says something else ("the staging database is db-stage-2 on port
 * 5433, key [REDACTED:…]") is no husk.
 */
export function isSecretHusk(o: Pick<Observation, 'text'>): boolean {
  SECRET_PART.lastIndex = 0;
  if (!SECRET_PART.test(o.text)) return false;
  if (HANDED_SECRET.test(o.text)) return true;
  const rest = o.text
    .replace(SECRET_PART, ' ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.-]+/u);
  return rest.filter((w) => w.length >= 3 && !SECRET_WORDS.has(w)).length < 3;
}

const ISO_DATE = /\b(\d{4}-\d{2}-\d{2})\b/g;

/**
 * A dated item whose date has passed: it names days on or after its own (a deadline, an appointment,
 * "tomorrow (2026-04-27)") and all of them are before today. A day named from the past ("born
 * 1990-05-01") is no deadline.
 */
export function hasPassed(o: Pick<Observation, 'text' | 'date'>, today: string | undefined): boolean {
  if (!today || !o.text.includes('-')) return false;
  let ahead = '';
  for (const m of o.text.matchAll(ISO_DATE)) if (m[1]! >= o.date && m[1]! > ahead) ahead = m[1]!;
  return ahead !== '' && ahead < today;
}

/** A deadline said in other words than a task: "is due 30 June", "would need to be done by about 14 July", "deadline: …". */
const DEADLINE =
  /\b(?:due|deadline|needs? to be (?:done|ready|finished|in)|would need to be|has to be (?:done|ready|finished|in)|must be (?:done|ready|finished|in))\b|(?:까지\s*(?:해야|내야|끝내야|마감)|마감)/iu;

function isDeadline(o: Pick<Observation, 'text'>): boolean {
  return DEADLINE.test(o.text);
}

/** Still true: not done, not superseded, no secret husk. */
function isCurrent(o: Observation): boolean {
  return !o.done && !o.mark && !isSecretHusk(o);
}

const HANGUL_CHAR = /[\uac00-\ud7a3]/g;
const LATIN_CHAR = /[A-Za-z]/g;

function script(text: string): 'ko' | 'latin' {
  return (text.match(HANGUL_CHAR)?.length ?? 0) > (text.match(LATIN_CHAR)?.length ?? 0) / 3 ? 'ko' : 'latin';
}

/**
 * Names, identifiers and numbers a text holds in Latin letters or digits, and its tags: what a
 * translation keeps (the Observer tags 타입스크립트 and TypeScript alike, #typescript).
 */
function anchors(o: Observation): Set<string> {
  const words = Array.from(o.text.matchAll(/[A-Za-z][A-Za-z0-9_.+-]{2,}|\d+(?:[.:]\d+)?/g), (m) =>
    m[0].toLowerCase().replace(/[.]+$/, ''),
  ).filter((w) => !STOP.has(w));
  return new Set([...words, ...o.tags.map((t) => t.toLowerCase())]);
}

/**
 * The same fact said in the other language (Korean and English): same category, and the names and
 * numbers of the Korean one are nearly all in the English one (at least two). The first said stays.
 */
export function oneLanguage(observations: Observation[], newestFirst: (a: Observation, b: Observation) => number): Observation[] {
  type Kept = { o: Observation; script: 'ko' | 'latin'; anchors: Set<string> };
  const kept: Kept[] = [];
  // A twin shares two anchors at least, so only kept items of the other script and the same category
  // that share one of this item's anchors are compared (an index, not every pair: a day of 20,000
  // observations compared pairwise took minutes on every rebuild).
  const byAnchor = new Map<string, Kept[]>();
  const keyOf = (side: string, category: string, anchor: string) => `${side}\u0000${category}\u0000${anchor}`;
  const ordered = [...observations].sort((a, b) => -newestFirst(a, b));
  for (const o of ordered) {
    const mine: Kept = { o, script: script(o.text), anchors: anchors(o) };
    const otherScript = mine.script === 'ko' ? 'latin' : 'ko';
    const candidates = new Set<Kept>();
    for (const a of mine.anchors) for (const k of byAnchor.get(keyOf(otherScript, o.category, a)) ?? []) candidates.add(k);
    let twin = false;
    for (const k of candidates) {
      const ko = k.script === 'ko' ? k.anchors : mine.anchors;
      const other = k.script === 'ko' ? mine.anchors : k.anchors;
      if (ko.size < 2) continue;
      let shared = 0;
      for (const w of ko) if (other.has(w)) shared++;
      if (shared >= 2 && shared / ko.size >= 0.75) {
        twin = true;
        break;
      }
    }
    if (twin) continue;
    kept.push(mine);
    for (const a of mine.anchors) {
      const key = keyOf(mine.script, o.category, a);
      const list = byAnchor.get(key);
      if (list) list.push(mine);
      else byAnchor.set(key, [mine]);
    }
  }
  const ids = new Set(kept.map((k) => k.o.id));
  return observations.filter((o) => ids.has(o.id));
}

/**
 * One item per thing said: an observation whose words (three at least) are all in another of the same
 * category and day that says more ("Mori는 12월 7일까지 장기 과제 기능" beside "Mori는 12월 7일까지
 * RouteNote 장기 과제 기능") is that one said again, and leaves; the fuller one stays — unless the
 * shorter is what the user asked to remember, which stays in their words while the observed one leaves.
 */
export function withoutRestatements(observations: Observation[]): Observation[] {
  const words = new Map(observations.map((o) => [o, contentWords(o.text)]));
  const byDay = new Map<string, Observation[]>();
  for (const o of observations) {
    const key = `${o.date}\u0000${o.category}`;
    if (!byDay.has(key)) byDay.set(key, []);
    byDay.get(key)!.push(o);
  }
  const gone = new Set<Observation>();
  for (const group of byDay.values()) {
    if (group.length < 2) continue;
    // A fuller one holds every word of this one, so it is among the items holding this one's rarest
    // word: those are searched, in the group's order, instead of the whole group (a day of 20,000
    // observations searched whole took minutes on every rebuild; `npm run bench -- forget`).
    const holding = new Map<string, Observation[]>();
    for (const k of group) {
      for (const w of words.get(k)!) {
        const list = holding.get(w);
        if (list) list.push(k);
        else holding.set(w, [k]);
      }
    }
    for (const o of group) {
      const mine = words.get(o)!;
      if (mine.size < 3) continue;
      let rarest: Observation[] = group;
      for (const w of mine) {
        const list = holding.get(w)!;
        if (list.length < rarest.length) rarest = list;
      }
      const fuller = rarest.find((k) => {
        if (k === o || gone.has(k)) return false;
        const theirs = words.get(k)!;
        if (theirs.size < mine.size || (theirs.size === mine.size && k.text.length <= o.text.length)) return false;
        for (const w of mine) if (!theirs.has(w)) return false;
        return true;
      });
      if (!fuller) continue;
      // What the user asked to remember is kept in their words; the observed restatement of it leaves instead.
      if (remembered(o) && !remembered(fuller)) gone.add(fuller);
      else if (!remembered(o)) gone.add(o);
    }
  }
  return gone.size === 0 ? observations : observations.filter((o) => !gone.has(o));
}

/** Written by `remember` (MCP, dashboard, CLI, the plugin): the user's own words. */
function remembered(o: Observation): boolean {
  return o.provenance?.source === 'remember';
}

/** Whole days from `date` to `today` (YYYY-MM-DD). */
function daysBetween(date: string, today: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
}

/**
 * The active task: the newest open task observation of any session, or the Observer's current task when
 * it is newer and no closed task says the same; none once older than the maximum age.
 */
function activeTask(
  input: ActiveMemoryInput,
  open: Observation[],
  closed: Observation[],
): { text: string; at: string; id?: string } | undefined {
  let best: { text: string; at: string; id?: string } | undefined;
  for (const o of open) {
    const at = `${o.date} ${o.time || '00:00'}`;
    if (!best || at > best.at) best = { text: o.text, at, id: o.id };
  }
  const t = input.currentTask;
  if (t) {
    const at = t.local ?? t.at.slice(0, 16).replace('T', ' ');
    const said = t.text.trim().toLowerCase();
    const isClosed = closed.some((o) => o.text.trim().toLowerCase() === said);
    if (!isClosed && (!best || at > best.at)) best = { text: t.text, at };
  }
  if (!best) return undefined;
  const max = input.activeTaskMaxAgeDays;
  if (input.today && max !== undefined && daysBetween(best.at.slice(0, 10), input.today) > max) return undefined;
  return best;
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
  const newestFirst = newestFirstIn(input.timeZone ?? 'UTC');
  // Superseded items and secret husks are history: in the day files and search, not here.
  // (A session's summary line is for reading a day and for `search --category summary`; the items it sums up are here themselves.)
  const obs = withoutRestatements(
    oneLanguage(
      input.observations.filter((o) => o.mark?.kind !== 'superseded' && !isSecretHusk(o) && o.category !== 'summary'),
      newestFirst,
    ),
  );
  const stillTrue = (o: Observation) => isCurrent(o) && !hasPassed(o, input.today);
  const dates = [...new Set(obs.map((o) => o.date).filter(Boolean))].sort();
  // Recent = the calendar window of `recentDays` ending on the newest day with observations.
  const newest = dates[dates.length - 1];
  const windowStart = newest
    ? new Date(Date.parse(`${newest}T00:00:00Z`) - (input.recentDays - 1) * 86_400_000).toISOString().slice(0, 10)
    : '';
  const recentDates = new Set(dates.filter((d) => d >= windowStart));
  const items: Item[] = [];
  const push = (section: Item['section'], text: string, rank: number, date: string, count: number) =>
    items.push({ section, text, rank, date, obs: count, est: estimateTokens(text) + 1 });

  // Current context: the active task, then open tasks of the recent days.
  const tasks = obs.filter((o) => o.category === 'task');
  const active = activeTask(
    input,
    tasks.filter(stillTrue),
    input.observations.filter((o) => o.category === 'task' && !isCurrent(o)),
  );
  if (active) push('context', `- Active task: ${active.text} (as of ${active.at})`, 1000, '', 0);
  const openTasks = tasks
    .filter((o) => stillTrue(o) && o.id !== active?.id && recentDates.has(o.date))
    .sort(newestFirst)
    .slice(0, 5);
  openTasks.forEach((o, i) => {
    push('context', line(o, true), 900 - i, o.date, 1);
  });
  const shown = new Set(openTasks.map((o) => o.id));
  if (active?.id) shown.add(active.id);

  // Preferences and constraints: newest wins on conflict.
  const prefs = resolvePreferences(
    obs.filter((o) => o.category === 'preference' && isCurrent(o)),
    input.timeZone,
  );
  prefs.forEach((o, i) => {
    shown.add(o.id);
    push('preferences', line(o, true), 500 + PRIORITY_RANK[o.priority] * 100 - Math.min(i, 99), o.date, 1);
  });

  // Key facts: what stays true — facts, decisions and states above low priority, and anything of high
  // priority but an event or a task — of any day, unless done, superseded or its date has passed; one
  // listed here is not listed again under recent observations.
  const durable = (o: Observation) =>
    stillTrue(o) &&
    o.category !== 'task' &&
    ((o.priority !== 'low' && (o.category === 'fact' || o.category === 'decision' || o.category === 'state')) ||
      (o.priority === 'high' && o.category !== 'event'));
  const key = obs.filter((o) => !shown.has(o.id) && durable(o)).sort(newestFirst);
  key.forEach((o, i) => {
    shown.add(o.id);
    push('key', line(o, true), 150 + PRIORITY_RANK[o.priority] * 100 - Math.min(i, 100), o.date, 1);
  });

  // Recent observations by date: what happened (events, tasks) and the rest.
  // (A task still open there whose date has passed is no open task, and a deadline passed is no news: both are left out.)
  const overdue = (o: Observation) => ((o.category === 'task' && !o.done) || isDeadline(o)) && hasPassed(o, input.today);
  const recent = obs.filter((o) => recentDates.has(o.date) && !shown.has(o.id) && !overdue(o)).sort(newestFirst);
  const dateRank = new Map(
    [...recentDates]
      .sort()
      .reverse()
      .map((d, i) => [d, i]),
  );
  for (const o of recent) {
    shown.add(o.id);
    const rank = PRIORITY_RANK[o.priority] * 100 - (dateRank.get(o.date) ?? 0) * 10;
    push('recent', line(o, false), rank, o.date, 1);
  }

  // Reflections cover older periods.
  for (const r of input.reflectionLines ?? []) push('key', `- ${PRIORITY_EMOJI[r.priority]} ${r.text} (${r.period})`, r.rank ?? 150, '', 0);
  for (const r of input.reflections ?? [])
    push('reflections', `- [${r.title}](${r.path}) — ${r.periodStart} → ${r.periodEnd}`, r.rank ?? 100, '', 0);

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
      // Dropped: what was a candidate but found no room (an old event is no candidate; done or passed items neither).
      const dropped = items.reduce((n, i) => n + i.obs, 0) - count;
      return {
        text,
        tokens,
        included: count,
        dropped,
        period: dates.length ? { start: dates[0]!, end: dates[dates.length - 1]! } : undefined,
      };
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
