/**
 * Session summaries: each ended session gets one short observation of category `summary` in the
 * day file of its last day — its topics and how important it was — found by search like any
 * other observation.
 *
 * While a session is observed, the observe job keeps a digest of it in state.json (section
 * `sessionDigest`, per stream): how many observations, of which categories and priorities, its
 * topics (the tags of its observations), its first and last entries. A session has **ended**
 * when, at the end of an observe run,
 * - `observe --flush` (or `run --flush`) was asked for: everything read is settled now;
 * - its newest message is `observer.idle_minutes` old (the same idle time that sends an LLM batch);
 * - or a later session of the same agent and source has begun (the user moved on).
 * An ended session that goes on later gets a new summary when it ends again (the digest keeps
 * the whole session; the new line replaces nothing, the old one stays as history).
 *
 * The offline Observer's summary is a topic line ("Session: crumbline, FastAPI, htmx — 3
 * decisions, 2 tasks."); the LLM Observer writes a prose one in its answer for the batch that
 * ends the session (`Session summary: …`, prompts/observer.md), kept in the digest and used here.
 * A summary is 🟡 when the session held something 🔴 (a decision, a rule, a deadline), else 🟢 —
 * never 🔴, so summaries do not crowd the key facts of active memory.
 */
import { observationId } from '../memory/observation-line.js';
import type { Observation, Priority, SourceStream } from '../core/types.js';
import type { State } from '../platform/state.js';

/** What the job remembers of a session while it is observed (state.json, `sessionDigest`). */
export interface SessionDigest {
  source: string;
  agent: string;
  session: string;
  observations: number;
  /** Observations per category. */
  categories: Record<string, number>;
  /** Observations per priority. */
  priorities: Partial<Record<Priority, number>>;
  /** Tags of the session's observations, with how often each came. */
  topics: Record<string, number>;
  /** Observations written in Korean (the summary's language follows the majority). */
  korean: number;
  firstEntry: string;
  lastEntry: string;
  /** Date and time of the newest observation (local, as the observations say). */
  lastDate: string;
  lastTime: string;
  /** When its newest message was written (ISO): what idle time is measured from. */
  lastMessageAt: string;
  /** The LLM Observer's prose summary, when its last batch gave one. */
  prose?: string;
  /** lastEntry when the last summary was written (undefined: never). */
  summarizedAt?: string;
}

/** The digests by stream key (the section is created when missing). */
export function sessionDigests(state: State): Record<string, SessionDigest> {
  return ((state.extra as { sessionDigest?: Record<string, SessionDigest> }).sessionDigest ??= {});
}

/** At most this many topics name a session (a summary line costs every reader its tokens). */
const TOPICS = 4;

/** The digest of `stream` after these observations (of messages up to `lastMessageAt`) were written. */
export function noteObserved(
  state: State,
  stream: SourceStream,
  observations: readonly Observation[],
  lastMessageAt: string | undefined,
  prose?: string,
): void {
  if (observations.length === 0 && prose === undefined) return;
  const digests = sessionDigests(state);
  let d = digests[stream.key];
  for (const o of observations) {
    if (o.category === 'summary') continue;
    const first = o.provenance?.entryIds[0] ?? '';
    d ??= digests[stream.key] = {
      source: stream.kind,
      agent: stream.agent,
      session: stream.session,
      observations: 0,
      categories: {},
      priorities: {},
      topics: {},
      korean: 0,
      firstEntry: first,
      lastEntry: first,
      lastDate: o.date,
      lastTime: o.time,
      lastMessageAt: lastMessageAt ?? '',
    };
    d.observations++;
    d.categories[o.category] = (d.categories[o.category] ?? 0) + 1;
    d.priorities[o.priority] = (d.priorities[o.priority] ?? 0) + 1;
    for (const t of o.tags) d.topics[t] = (d.topics[t] ?? 0) + 1;
    for (const w of namedWords(o.text, stream.agent)) {
      // "PostgreSQL" is the tag postgres already.
      if (!o.tags.some((t) => w.startsWith(t) || t.startsWith(w))) d.topics[w] = (d.topics[w] ?? 0) + 1;
    }
    if (/[\uAC00-\uD7A3]/.test(o.text)) d.korean++;
    if (first) d.lastEntry = first;
    if (`${o.date} ${o.time}` >= `${d.lastDate} ${d.lastTime}`) {
      d.lastDate = o.date;
      d.lastTime = o.time;
    }
  }
  if (!d) return;
  if (lastMessageAt && lastMessageAt > d.lastMessageAt) d.lastMessageAt = lastMessageAt;
  if (prose !== undefined) d.prose = prose;
}

/** Korean particles after a noun ("마이그레이션을", "이사는"). */
const KOREAN_PARTICLE = /(?:에서|으로|까지|부터|은|는|이|가|을|를|로|의|에)$/;
/** Words that say who speaks or when, not what about. */
const NOT_TOPIC = /^(?:user|assistant|사용자|어시스턴트|session|세션)$/i;

/**
 * The names an observation mentions besides its tags: Latin words written with a capital or with
 * digits inside ("Supabase", "U2723QE") and Korean nouns before a particle ("마이그레이션을"), lowercased.
 */
function namedWords(text: string, agent: string): string[] {
  const out = new Set<string>();
  const words = text.replace(/\([^)]*\)/g, ' ').split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    const raw = words[i]!;
    const w = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    // A capital after a sentence's end is the sentence's, not a name's ("… in Redis. Make refresh tokens …").
    const sentenceStart = /[.!?:]$/.test(words[i - 1]!);
    if ((/^[A-Z][A-Za-z0-9.+#-]{2,}$/.test(w) && !sentenceStart) || /^[A-Za-z]+\d[\w-]*$/.test(w)) {
      if (!NOT_TOPIC.test(w) && w.toLowerCase() !== agent.toLowerCase()) out.add(w.toLowerCase());
    } else if (/^[\uAC00-\uD7A3]{2,}$/.test(w) && KOREAN_PARTICLE.test(w)) {
      const noun = w.replace(KOREAN_PARTICLE, '');
      if (noun.length >= 2 && !NOT_TOPIC.test(noun)) out.add(noun);
    }
  }
  return [...out];
}

/** Has the session of this digest ended (see the module comment)? */
export function sessionEnded(
  digest: SessionDigest,
  all: readonly SessionDigest[],
  now: Date,
  idleMinutes: number,
  flush: boolean,
): boolean {
  if (flush) return true;
  const last = Date.parse(digest.lastMessageAt);
  if (Number.isFinite(last) && now.getTime() - last >= idleMinutes * 60_000) return true;
  return all.some(
    (o) =>
      o !== digest &&
      o.agent === digest.agent &&
      o.source === digest.source &&
      o.lastMessageAt > digest.lastMessageAt &&
      o.firstEntry !== digest.firstEntry,
  );
}

const CATEGORY_WORDS: Record<string, { en: [string, string]; ko: string }> = {
  decision: { en: ['decision', 'decisions'], ko: '결정' },
  preference: { en: ['preference', 'preferences'], ko: '선호' },
  task: { en: ['task', 'tasks'], ko: '할 일' },
  state: { en: ['change', 'changes'], ko: '변화' },
  event: { en: ['event', 'events'], ko: '사건' },
  fact: { en: ['fact', 'facts'], ko: '사실' },
};

/**
 * The offline summary: the session's topics (most frequent tags first) and what it held, by
 * category, strongest first: "Session: crumbline, fastapi, htmx — 3 decisions, 2 preferences, 4 tasks."
 */
export function topicLine(d: SessionDigest): string {
  const korean = d.korean * 2 > d.observations;
  const topics = Object.entries(d.topics)
    // The most frequent first; of equals, the first named (the order of the session).
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOPICS)
    .map(([t]) => t);
  const held = ['decision', 'preference', 'task', 'state', 'event', 'fact']
    .filter((c) => (d.categories[c] ?? 0) > 0)
    .slice(0, 2)
    .map((c) => {
      const n = d.categories[c]!;
      const w = CATEGORY_WORDS[c]!;
      return korean ? `${w.ko} ${n}` : `${n} ${n === 1 ? w.en[0] : w.en[1]}`;
    });
  const named = topics.length > 0 ? topics.join(', ') : korean ? '주제 없음' : 'no named topic';
  return korean ? `세션 요약: ${named} — ${held.join(', ')}.` : `Session: ${named} — ${held.join(', ')}.`;
}

/** The summary observation of an ended session (the LLM's prose when it wrote one, else the topic line). */
export function summaryObservation(d: SessionDigest): Observation {
  const prose = d.prose?.trim();
  const korean = d.korean * 2 > d.observations;
  const text = prose
    ? `${korean ? '세션 요약' : 'Session summary'}: ${prose.replace(/^(?:session summary|세션 요약)\s*:\s*/i, '')}`
    : topicLine(d);
  const priority: Priority = (d.priorities.high ?? 0) > 0 ? 'medium' : 'low';
  const entryIds = d.firstEntry === d.lastEntry ? [d.firstEntry] : [d.firstEntry, d.lastEntry];
  return {
    id: observationId({ agent: d.agent, session: d.session, date: d.lastDate, category: 'summary', text }),
    date: d.lastDate,
    time: d.lastTime,
    priority,
    done: false,
    category: 'summary',
    text,
    tags: [],
    agent: d.agent,
    provenance: { source: d.source, agent: d.agent, session: d.session, entryIds: entryIds.filter(Boolean) },
  };
}

/** The summaries of the sessions that have ended and are not summarised up to their last entry yet; marks them. */
export function endedSessionSummaries(
  state: State,
  now: Date,
  idleMinutes: number,
  flush: boolean,
  unsettled: ReadonlySet<string> = new Set(),
): Observation[] {
  const digests = sessionDigests(state);
  const all = Object.values(digests);
  const out: Observation[] = [];
  for (const [key, d] of Object.entries(digests)) {
    // A session that failed this run, or whose messages still wait for a batch, has not been read to its end.
    if (d.observations === 0 || d.summarizedAt === d.lastEntry || unsettled.has(key)) continue;
    if (!sessionEnded(d, all, now, idleMinutes, flush)) continue;
    // A topic line that names no topic ("no named topic — 1 preference") says nothing the day file does not; the LLM's prose always counts.
    if (d.prose?.trim() || Object.keys(d.topics).length > 0) out.push(summaryObservation(d));
    d.summarizedAt = d.lastEntry;
  }
  return out;
}
