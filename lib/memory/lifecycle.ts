/**
 * The lifecycle of observations (README, "File formats"): a later observation
 * that reports a task finished closes it (`(done 2026-04-08 by o-…)`), and a
 * later decision, preference, fact or state about the same subject supersedes
 * the older one (`(superseded 2026-05-02 by o-…)`). The older line stays where
 * it is; only its mark changes. Pure: lifecycle-file.ts reads and writes.
 *
 * "The same subject" is decided narrowly — a wrong mark hides a true memory,
 * a missed one only leaves an old line unmarked:
 * - an explicit change names the old value: "switched from Postgres to
 *   SQLite", "instead of ReportLab", "no longer on Heroku", "X 대신 Y", "X에서
 *   Y로 바꿨어" supersede older items that name it;
 * - a new choice of the same kind: both name a different member of one small
 *   kind of well-known alternatives (databases, hosting, package managers…);
 * - a changed value of the same thing: most of the distinctive words of both
 *   are shared and a number, date or time differs ("the cutoff is 2 pm" →
 *   "from now on the cutoff is noon"; needs a change word when less is shared).
 * - another named place of one kind: "moving the stall to the Kenton market"
 *   for "the Alberta market on Fridays" (they share another word);
 * - a trip changed to another place, when both speak of a trip ("여행 또
 *   바꿨어 결국 제주로 다시" for "부산 가기로 했어"; "Supabase로 갈래" is none).
 * Two decisions that merely share a category, a common word or the word
 * "decided" are never one subject. A finish names what it finished — "we did
 * the passports", "physio is done", "이사 끝" — and closes every open to-do of
 * it: tasks, notes that put it on a list, a course of sessions.
 *
 * Size: one concept, the same-subject rules, in two groups that share the subject words, the weights and the
 * items (closing: `closedTask` and what it calls; superseding: `supersededBy` and the kinds of change it asks,
 * each a small function). Split them when a group gains a caller of its own.
 */
import { anyOf, oneOf, pattern } from '../core/pattern.js';
import type { Observation, ObservationMark } from '../core/types.js';
import { KIND_OF } from './alternatives.js';

export interface LifecycleOptions {
  /** Ids written in this run: only these can close or supersede (a mark a user cleared stays cleared). */
  fresh: ReadonlySet<string>;
  /** The speakers' names (config observer.user_name / assistant_name): never subject words. */
  names?: readonly string[];
}

export interface LifecycleChange {
  id: string;
  mark: ObservationMark;
}

/** Categories whose items can be superseded by a newer one about the same subject. */
const DURABLE = new Set(['decision', 'preference', 'fact', 'state']);

/** Words that say nothing about a subject (English and Korean framing, speech verbs, time words). */
const FRAME = new Set(
  (
    'the a an and or but to of in on for with at by from as is are was were be been being it its this that these those ' +
    'i me my we our us you your he she they them his her their user assistant said says say asked asks told tells ' +
    "will would shall should can could may might must need needs needed want wants wanted going gonna let lets let's " +
    'do does did done doing have has had get got make made go goes went use uses using used decided decide decision ' +
    'now then today tomorrow yesterday first next later soon again also just still only really very more less some any ' +
    'all every each one two new old here there what which who when where why how not no yes so than too about into over ' +
    'after before up down out off once please ok okay yeah sure thing things stuff way time day week month year ' +
    'prefers prefer prefers likes like always never from now on anymore any more instead actually todo to-do plan ' +
    'done finished complete completed fixed merged shipped deployed live works working worked ready sorted landed ' +
    'passes passing resolved submitted end end-to-end ' +
    'update updated unchanged change changed move moved switch switched save saved noted ' +
    '이 그 저 것 거 수 등 좀 더 꼭 잘 다 안 못 이제 지금 오늘 내일 어제 다음 나중에 그냥 진짜 정말 ' +
    '우리 내 제 너 네 했어 할게 하자 해줘 하기로'
  ).split(/\s+/),
);

/** A value as a change names it: a word of letters, digits and `_.+#-` ("Postgres", "fly.io", "C#"). */
const VALUE_NAME = /[\p{L}\p{N}_.+#-]+/u;

/** Saying that a task is finished ("login is done", "works end to end", "merged", "완료"). */
const FINISHED_EN = pattern(
  [
    /\b/,
    anyOf(
      ...['done', 'finished', 'complete[ds]?', 'completed', 'fixed', 'merged', 'shipped', 'deployed', 'live'],
      // "works", but not "works on", "working through", "worked late".
      pattern([
        /(?:works?|working|worked)/,
        /(?!\s+(?:on|backwards?|through|towards?|out|from|at|in|for|with|around|off|away|hard|late|together|under|as)\b)/,
      ]),
      ...['ready', 'sorted', 'landed', 'in place', 'passes', 'passing', 'resolved', 'submitted', 'sent', 'booked', 'paid'],
      ...['renewed', 'handled', 'taken care of'],
    ),
    /\b/,
  ],
  'i',
);
const FINISHED_KO = /(?:완료|끝났|끝냈|끝남|마쳤|해결했|해결됐|보냈|예약했|신청했|냈어|샀어|샀다|했어요|했음|다 했|됐어|됐다)/u;
/** A completion said as a wish or a plan is none ("should be done by Friday", "will be ready"). */
const NOT_YET = oneOf(
  [
    pattern([
      /\b/,
      anyOf(
        ...['will', 'should', 'would', 'could', 'must', 'needs?', 'has to', 'have to', 'going to', 'gonna'],
        ...['not', "isn't", "aren't", "wasn't", "won't", 'until', 'by (?:then|friday|monday|tomorrow)', 'once', 'when', 'if'],
        ...['before', 'yet'],
      ),
      /\b/,
    ]),
    anyOf('해야', '할게', '하자', '할 거', '예정', '아직', '안 ?됐', '못 ?했'),
  ],
  'iu',
);

/** An explicit change that names the old value. */
const CHANGED_FROM: RegExp[] = [
  pattern(
    [
      /\b/,
      anyOf(
        ...['switch(?:ed|ing)?', 'mov(?:e|ed|ing)', 'migrat(?:e|ed|ing)', 'chang(?:e|ed|ing)'],
        ...['go(?:ing)? back', 'went back', 'port(?:ed|ing)?'],
      ),
      /\b[^.;]{0,30}?\bfrom\s+/,
      `(${VALUE_NAME.source})`,
    ],
    'iu',
  ),
  /\binstead of\s+([\p{L}\p{N}_.+#-]+)/iu,
  /\breplac(?:e|ed|ing)\s+([\p{L}\p{N}_.+#-]+)\s+(?:with|by)\b/iu,
  /\bno longer\s+(?:on|use|using|with|in)?\s*([\p{L}\p{N}_.+#-]+)/iu,
  /\bnot\s+([\p{L}\p{N}_.+#-]+)\s+any ?more\b/iu,
  // "we're not doing Canada after all", "not going with Stripe anymore": the plan named is given up.
  pattern(
    [
      /\bnot\s+(?:doing|going to|going with|using|taking|having|buying|booking)\s+(?:the\s+)?/,
      `(${VALUE_NAME.source})`,
      /\b[^.;!?]{0,30}?\b(?:after all|any ?more|instead)\b/,
    ],
    'iu',
  ),
  pattern(
    [
      /\b/,
      anyOf('drop(?:ped|ping)?', 'ditch(?:ed|ing)?', 'scrap(?:ped|ping)?', 'cancel(?:l?ed|l?ing)?', 'abandon(?:ed|ing)?'),
      /\s+(?:the\s+)?/,
      `(${VALUE_NAME.source})`,
    ],
    'iu',
  ),
  /([\p{L}\p{N}_.+#-]+?)(?:은|는|을|를)?\s+(?:대신|말고)/u,
  /([\p{L}\p{N}_.+#-]+?)에서\s+\S+?(?:으로|로)\s*(?:바꾸|바꿨|바꿔|변경|옮기|옮겼|갈아)/u,
];

/**
 * "Postgres → SQLite": a change only where its sentence says one or both sides are of one kind
 * ("Portland → Banff" is a route, "grouped oven → product" an order).
 */
const ARROW = /([\p{L}\p{N}_.+#-]+)\s*(?:→|->)\s*([\p{L}\p{N}_.+#-]+)/u;

/** Words that say a value changed ("from now on", "moved to", "이제"). */
const CHANGE_WORD = oneOf(
  [
    pattern([
      /\b/,
      anyOf(
        ...['now', 'from now on', 'moved', 'changed', 'updated', 'switch(?:ed)?', 'instead', 'actually', 'any ?more', 'no longer'],
        ...['revised', 'rescheduled', 'postponed', 'pushed back', 'after all', 'scratch (?:that|the|this)'],
      ),
      /\b/,
    ]),
    anyOf('이제', '바꿨', '바꿔', '변경', '옮겼', '대신', '바뀌', '미뤄', '연기'),
  ],
  'iu',
);

/** Saying a choice is made ("we'll use", "go with", "쓰기로"): a mere mention of another database is none. */
const CHOICE_WORD = oneOf(
  [
    pattern([
      /\b/,
      anyOf(
        ...['use', 'using', 'go with', 'going with', 'pick(?:ed)?', 'chose', 'choose', 'decided', 'settled on', 'stick with'],
        ...['stay with', 'run on', 'runs on', 'moved to'],
      ),
      /\b/,
    ]),
    anyOf('쓰기로', '쓸게', '쓰자', '로 가자', '로 하자', '으로 하자', '결정'),
  ],
  'iu',
);

/** Where a sentence of an observation's text ends ("… done. Next …"). */
const SENTENCE_END = /(?<=[.!?。])\s+/u;
/** Where a sentence, or a clause after a semicolon, ends: one statement each ("moved to 3pm; the room too"). */
const CLAUSE_END = /(?<=[.!?。;])\s+/u;

/** Values whose change makes a newer statement an update: numbers, dates, times. */
const VALUE = /\d+(?:[.:,]\d+)*\s*(?:am|pm|h|k|m|gb|mb|%|시|일|월|원)?|\b(?:noon|midnight)\b/giu;

/** Words that are values, not subjects: times of day, months, weekdays. */
const VALUE_WORD = new Set(
  (
    'am pm noon midnight morning evening night ' +
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec ' +
    'monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun ' +
    '오전 오후 월요일 화요일 수요일 목요일 금요일 토요일 일요일'
  ).split(' '),
);

const HANGUL = /[\uac00-\ud7a3]/;
const PARTICLE = /(?:으로|에서|에게|까지|부터|이랑|하고|처럼|보다|은|는|이|가|을|를|에|로|와|과|도|만|의|랑)$/u;

/** A word as compared: lower case, without a possessive, a Korean particle or a plain English inflection. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (HANGUL.test(w)) return w.length >= 3 ? w.replace(PARTICLE, '') : w;
  if (w.length >= 6 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length >= 6 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length >= 5 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length >= 4 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w;
}

/** The subject words of a text: content words, stemmed, without framing and the speakers' names. */
export function subjectWords(text: string, names: ReadonlySet<string> = new Set()): Set<string> {
  return new Set(
    wordsOf(text, names)
      .map(stem)
      .filter((s) => !FRAME.has(s) && !names.has(s)),
  );
}

/** The content words of a text as written (lower case): a Latin word keeps no Korean particle ("Firebase로"). */
function wordsOf(text: string, names: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const token of text.toLowerCase().split(/[^\p{L}\p{N}_.+#-]+/u)) {
    const raw = token.replace(/(?<=[a-z0-9])[\uac00-\ud7a3]{1,2}$/u, '');
    const w = raw.replace(/^[.#+-]+|[.,+-]+$/g, '');
    // Numbers, dates and numbered labels ("3-12", "2026-01-26") are values, not subject words.
    if (w.length < 2 || FRAME.has(w) || names.has(w) || /^[\d.:,/-]+$/.test(w)) continue;
    out.push(w);
  }
  return out;
}

/** Numbers, dates and times, and names (a capitalised word inside a sentence: "the Montavilla market"). */
function values(text: string, names: ReadonlySet<string>): Set<string> {
  const out = new Set(Array.from(text.toLowerCase().matchAll(VALUE), (m) => m[0].replace(/\s+/g, '')));
  for (const m of text.matchAll(/(?<=[\p{L}\p{N},;:—–-]\s+)\p{Lu}[\p{L}\p{N}&'.-]+/gu)) {
    const w = m[0].toLowerCase();
    if (!names.has(w) && !VALUE_WORD.has(w) && !FRAME.has(w)) out.add(`name:${w}`);
  }
  return out;
}

interface Item {
  o: Observation;
  order: number;
  words: Set<string>;
  values: Set<string>;
  kinds: Map<string, Set<string>>;
  /** Subject words of the other observations made from the same message (a split message keeps its subject). */
  context: Set<string>;
  /** The members of KINDS it says it chooses (choicesOf). */
  choices: Map<string, Set<string>>;
  /** Old values its own change names ("from Postgres"): history, not what it holds. */
  fromValues: string[];
  /** Measured values it holds ("480 MB", "18 units"), as `number unit` keys (measures). */
  measures: Set<string>;
  /** Measured values it says changed away from ("212 MB, down from 480"): history, not what it holds. */
  fromMeasures: Set<string>;
  /** The speakers' names (never subject words). */
  names: ReadonlySet<string>;
  /** Another observation made from the same message says a change ("여행지 바꿨어" beside "후쿠오카로 가기로 했어"). */
  siblingChange: boolean;
  /** It or another observation of the same message speaks of a trip ("여행", "trip"). */
  trip: boolean;
  /** Unmarked and not done when read (isOpen). */
  current: boolean;
  /** A task or a note of a to-do (isTodoNote): what a finish closes. */
  todo: boolean;
  /** A fact or state that reports a problem: what a finish solves. */
  reportsProblem: boolean;
}

/**
 * What a rule reads of one item alone (its text's patterns, named places, change sentences), derived on
 * first use and kept: a fresh item is compared with every older one that shares a word with it, so a
 * backlog's day of thousands would otherwise run the same patterns over the same texts millions of times.
 */
function perItem<T>(derive: (item: Item) => T): (item: Item) => T {
  const kept = new WeakMap<Item, { value: T }>();
  return (item) => {
    let entry = kept.get(item);
    if (!entry) {
      entry = { value: derive(item) };
      kept.set(item, entry);
    }
    return entry.value;
  };
}

/** The members of KINDS a text names, by kind (`postgres16`, `PostgreSQL` are postgres). */
function kindsOf(words: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const word of words) {
    const w = word.replace(/\d+$/, '');
    const k = KIND_OF.get(w);
    if (!k) continue;
    if (!out.has(k)) out.set(k, new Set());
    out.get(k)!.add(w === 'postgresql' ? 'postgres' : w === 'mongo' ? 'mongodb' : w);
  }
  return out;
}

/**
 * The members of KINDS an observation says it chooses. A decision or preference chooses what it names when it
 * says a choice or a change ("we'll use SQLite", "Firebase 대신 Supabase"); any other observation only in a
 * sentence that says a change ("Driver: SQLite, drop psycopg", "back to WeasyPrint"): a fact that mentions
 * another database ("works directly on SQLite"), or a plan whose other sentence says "instead of constants",
 * chooses none.
 */
function choicesOf(o: Observation, kinds: Map<string, Set<string>>, names: ReadonlySet<string>): Map<string, Set<string>> {
  if (kinds.size === 0) return kinds;
  const saysChange = (text: string) => CHANGE_WORD.test(text) || changedFrom(text).length > 0 || backToKind(text);
  if (o.category === 'decision' || o.category === 'preference') return CHOICE_WORD.test(o.text) || saysChange(o.text) ? kinds : new Map();
  const out = new Map<string, Set<string>>();
  for (const sentence of o.text.split(CLAUSE_END)) {
    if (!saysChange(sentence)) continue;
    for (const [kind, members] of kindsOf(wordsOf(sentence, names))) {
      if (!out.has(kind)) out.set(kind, new Set());
      for (const m of members) out.get(kind)!.add(m);
    }
  }
  return out;
}

/** "Back to WeasyPrint": a return to a member of a kind (not "back to roughly its old size"). */
function backToKind(text: string): boolean {
  for (const m of text.matchAll(/\bback to\s+([\p{L}\p{N}_.+#-]+)/giu))
    if (KIND_OF.has(m[1]!.toLowerCase().replace(/\d+$/, ''))) return true;
  return false;
}

/**
 * Rarer words weigh more: a word most observations hold says little about one subject. Counted over the
 * observations up to the newer one only, so a decision depends on what came before it, never on what a
 * later run adds (one run over a month marks what daily runs mark). `inPair`: how many of the two
 * compared items hold it (they do not count, or every shared word would weigh less).
 */
type Weight = (w: string, inPair: number) => number;
class Weigher {
  private readonly df = new Map<string, number>();
  private n = 0;
  readonly weight: Weight = (w, inPair) => Math.log(1 + Math.max(1, this.n) / Math.max(1, (this.df.get(w) ?? 0) - inPair + 1));

  add(item: Item): void {
    this.n++;
    for (const w of item.words) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }
}

/** Shares of each side's subject weight that the two share. */
function overlap(a: Set<string>, b: Set<string>, weight: Weight): { a: number; b: number; shared: number } {
  let wa = 0;
  let wb = 0;
  let ws = 0;
  let shared = 0;
  for (const w of a) {
    const both = b.has(w);
    const x = weight(w, both ? 2 : 1);
    wa += x;
    if (both) {
      ws += x;
      shared++;
    }
  }
  for (const w of b) wb += weight(w, a.has(w) ? 2 : 1);
  return { a: wa ? ws / wa : 0, b: wb ? ws / wb : 0, shared };
}

/** How many words of `a` `b` holds too (at most 2: all a caller needs to know). */
function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w) && ++n >= 2) break;
  return n;
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const short = a.length < b.length ? a : b;
  const long = a.length < b.length ? b : a;
  return short.length >= 5 && long.startsWith(short);
}

function byTime(a: Item, b: Item): number {
  const ka = `${a.o.date} ${a.o.time}`;
  const kb = `${b.o.date} ${b.o.time}`;
  return ka === kb ? a.order - b.order : ka < kb ? -1 : 1;
}

/** Is `o` still current (no mark, not done)? */
export function isOpen(o: Pick<Observation, 'done' | 'mark'>): boolean {
  return !o.done && !o.mark;
}

/**
 * The marks the fresh observations set on older ones, in time order. Each
 * older item gets at most one mark; items already marked (or done) keep theirs.
 */
export function lifecycleMarks(observations: readonly Observation[], options: LifecycleOptions): LifecycleChange[] {
  const names = new Set((options.names ?? []).flatMap((n) => n.toLowerCase().split(/\s+/)).filter(Boolean));
  const items: Item[] = observations.map((o, order) => {
    const raw = wordsOf(o.text, names);
    const words = new Set(raw.map(stem).filter((s) => !FRAME.has(s) && !names.has(s)));
    const kinds = kindsOf(raw);
    return {
      o,
      order,
      words,
      values: values(o.text, names),
      kinds,
      choices: choicesOf(o, kinds, names),
      fromValues: changedFrom(o.text),
      measures: new Set(measures(o.text)),
      fromMeasures: new Set(measuresChangedFrom(o.text)),
      names,
      context: new Set<string>(),
      siblingChange: false,
      trip: TRIP.test(o.text),
      current: isOpen(o),
      todo: o.category === 'task' || isTodoNote(o),
      reportsProblem: (o.category === 'fact' || o.category === 'state') && PROBLEM.test(o.text),
    };
  });
  // Observations made from one message (same session, a shared entry) share their subject words as context.
  const byEntry = new Map<string, Item[]>();
  for (const item of items) {
    const p = item.o.provenance;
    for (const e of p?.entryIds ?? []) {
      const key = `${p!.session}\u0000${e}`;
      if (!byEntry.has(key)) byEntry.set(key, []);
      byEntry.get(key)!.push(item);
    }
  }
  for (const group of byEntry.values())
    for (const a of group)
      for (const b of group) {
        if (a === b) continue;
        for (const w of b.words) a.context.add(w);
        if (DESTINATION_CHANGE.test(b.o.text)) a.siblingChange = true;
        if (TRIP.test(b.o.text)) a.trip = true;
      }
  items.sort(byTime);
  const weigher = new Weigher();
  const weight = weigher.weight;
  const changes: LifecycleChange[] = [];
  const marked = new Set<string>();
  const mark = (old: Item, kind: ObservationMark['kind'], by: Item) => {
    marked.add(old.o.id);
    changes.push({ id: old.o.id, mark: { kind, date: by.o.date || undefined, by: by.o.id } });
  };
  const open = (i: Item) => i.current && !marked.has(i.o.id);
  // Older items are found through the words, kinds and old values they share with the newer one (every
  // rule needs one of them), not by comparing every pair: a backlog of thousands stays linear.
  const postings = new Map<string, number[]>();
  const post = (key: string, n: number) => {
    const list = postings.get(key);
    if (list) list.push(n);
    else postings.set(key, [n]);
  };
  for (let n = 0; n < items.length; n++) {
    const newer = items[n]!;
    // A ✅ line ("login is done", written done by the Observer) reports a finish too: only a marked one is history.
    if (options.fresh.has(newer.o.id) && !newer.o.mark && !marked.has(newer.o.id)) {
      const keys = [
        ...newer.words,
        ...[...newer.kinds.keys()].map((k) => `kind:${k}`),
        ...[...newer.fromMeasures].map((m) => `measure:${m}`),
        ...(goesSomewhere(newer) ? [GOES_TO_KEY] : []),
        ...(deadlinesOf(newer).length > 0 ? [DEADLINE_KEY] : []),
      ];
      // Marked in a flag per item, read in item order: a common word posts nearly every item, and a set of
      // thousands sorted anew for each fresh item costs more than one pass over the flags.
      const found = new Uint8Array(n);
      for (const key of keys) for (const i of postings.get(key) ?? []) found[i] = 1;
      const older: Item[] = [];
      for (let i = 0; i < n; i++) if (found[i] && open(items[i]!) && items[i]!.o.id !== newer.o.id) older.push(items[i]!);
      const marksBefore = changes.length;
      const task = closedTask(newer, older, weight);
      if (task) mark(task, 'done', newer);
      // "We did the passports" closes every to-do that named them (the task and the notes that restated it).
      for (const also of task
        ? doneObjectTodos(
            newer,
            older.filter((i) => i !== task && open(i)),
          )
        : [])
        mark(also, 'done', newer);
      // (Every older item was open when found: only what was marked since needs leaving out.)
      const problem = resolvedProblem(newer, changes.length === marksBefore ? older : older.filter((i) => i !== task && open(i)), weight);
      if (problem) mark(problem, 'superseded', newer);
      for (const old of supersededBy(newer, task || problem ? older.filter((i) => i !== task && i !== problem) : older, weight))
        mark(old, 'superseded', newer);
    }
    weigher.add(newer);
    for (const w of newer.words) post(w, n);
    for (const k of newer.kinds.keys()) post(`kind:${k}`, n);
    for (const m of newer.measures) post(`measure:${m}`, n);
    // A decision to go somewhere shares no word with the trip changed elsewhere ("후쿠오카로" / "오사카로 다시").
    if (newer.o.category === 'decision' && goesSomewhere(newer)) post(GOES_TO_KEY, n);
    // A deadline at a time shares no word with its new time said another way ("close at 2 pm" / "the cutoff is noon").
    if (DURABLE.has(newer.o.category) && deadlinesOf(newer).length > 0) post(DEADLINE_KEY, n);
  }
  return changes;
}

/** A fact or state that reports a problem ("staging migrations fail", "CI is red", "빌드가 안 돼"). */
const PROBLEM = oneOf(
  [
    pattern([
      /\b/,
      anyOf(
        ...['fails?', 'failing', 'failed', 'broken', 'breaks', 'crash(?:es|ed|ing)?', 'errors?', 'bug', "doesn't work"],
        ...['does not work', "isn't working", "aren't working", 'not working', "won't start", 'is red', 'are red', 'hangs'],
        'times out',
      ),
      /\b/,
    ]),
    anyOf('안 ?돼', '안 ?됨', '에러', '오류', '실패', '고장'),
  ],
  'iu',
);

/**
 * The problem `newer` reports solved (the best match): a later finish of the same thing ("User fixed it.
 * Migrations run cleanly on staging now" for "staging migrations fail") makes the problem history, as a
 * finish closes a task. A finish that still reports a problem ("works locally but fails on CI") solves none.
 */
function resolvedProblem(newer: Item, older: Item[], weight: Weight): Item | undefined {
  if (PROBLEM.test(newer.o.text)) return undefined;
  return closedTask(
    newer,
    older.filter((i) => i.reportsProblem),
    weight,
    'problem',
  );
}

/** The open task `newer` reports finished, if one matches it well enough (the best one). */
function closedTask(newer: Item, older: Item[], weight: Weight, what: 'task' | 'problem' = 'task'): Item | undefined {
  const text = newer.o.text;
  // An open task is a plan ("we need the demo ready"), not a finish; a ✅ one reports one.
  if (newer.o.category === 'task' && !newer.o.done) return undefined;
  const said = FINISHED_EN.test(text) || FINISHED_KO.test(text);
  if (NOT_YET.test(text)) return undefined;
  let best: { item: Item; score: number } | undefined;
  const doneObjects = didObjects(text);
  for (const t of older) {
    if (what === 'task' && !t.todo) continue;
    const o = overlap(newer.words, t.words, weight);
    if (o.shared === 0) continue;
    // The task's own verb in the past and its object: "wrote the export script" for "will write an export script";
    // or "did" and its object, for any verb: "we did the passports" for "renew the kids' passports".
    const verb = verbOf(t);
    const did =
      (verb !== undefined && saysPast(newer, verb) && [...newer.words].some((w) => t.words.has(w) && w !== stem(verb))) ||
      doneObjects.some((w) => t.words.has(w) && !forAfter(t.o.text, w));
    // Else a finish said of it: one side is mostly the other's ("login is done" is about "do the login flow
    // first"), and the other not mostly different ("the login flow works" is not about "fix the signup flow").
    // Or said right after it in the same session, of a word of it: "Assistant will mark migration 0003
    // as applied" … "User fixed it. Migrations run cleanly now".
    const close = said && o.a >= 0.4 && sameSessionSoonAfter(t.o, newer.o) ? 0.4 : 0;
    const score = did ? 1 + Math.max(o.a, o.b) : said && Math.min(o.a, o.b) >= 0.5 ? Math.max(o.a, o.b) : close;
    if (score === 0) continue;
    if (!best || score > best.score || (score === best.score && byTime(t, best.item) > 0)) best = { item: t, score };
  }
  return best?.item;
}

/** A fact that notes a to-do ("Juniper has put 'renew the passports' on Helen's list", "open items: …", "할 일"): a task in other words. */
const TODO_NOTE =
  /\bon (?:\p{L}+'s |the |my |your |her |his |their |our )?(?:to-?do |shopping )?list\b|\bopen items\b|\bto-?dos?\b|(?:할 일|할일)/iu;

function isTodoNote(o: Observation): boolean {
  return (o.category === 'fact' || o.category === 'state') && (TODO_NOTE.test(o.text) || COURSE.test(o.text));
}

/** A course that ends: a number of sessions, lessons, classes… ("Mondays at 9, six sessions"). */
const COURSE_UNIT = '(?:sessions|lessons|classes|appointments|visits|treatments|rounds)';
const COURSE = new RegExp(`\\b(?:\\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\\s+${COURSE_UNIT}\\b|\\d+\\s*회`, 'iu');
/** Progress through a course, no end: "3 sessions done", "two of six done". */
const PART_DONE = new RegExp(
  `\\b(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|half)\\s+(?:of\\s+\\w+\\s+)?(?:${COURSE_UNIT}\\s+)?(?:done|finished|completed)\\b`,
  'iu',
);

/** "physio is done!", "the passports are finished": the thing named first is what is finished. */
const FINISHED_THING_EN = /\b([\p{L}][\p{L}\p{N}'’-]+)\s+(?:is|are)\s+(?:all\s+)?(?:done|finished|complete|over)\b/giu;

/** Where the thing done ends: "we did the passports today at the post office". */
const DID_PHRASE_END = /^(?:today|tonight|yesterday|this|last|at|on|in|with|for|by|before|after|together|finally|already|and|but)$/i;

/** "이사 끝!", "이사 끝났어", "신청 완료": the word before says what is finished (not "끝나고", "끝나면": after it). */
const FINISHED_THING_KO = /([\p{L}\p{N}]{2,})\s*(?:끝(?![\uac00-\ud7a3])|끝났|끝냈|끝남|완료)/gu;

/** A name that is not a question word: "Helen", not "What". */
const PERSON_NAME = /(?!(?:What|When|Where|Why|How|Which|Who|Whose)\b)\p{Lu}\p{Ll}+/u;
/** "we did the passports", "Helen finally did all the taxes": the thing done, up to three words, is group 1. */
const DID_THE_THING = pattern(
  [
    /\b/,
    anyOf(/[Ww]e|I|[Ss]he|[Hh]e|[Tt]hey/, PERSON_NAME),
    /\s+(?:finally\s+|already\s+|just\s+)?did\s+/,
    /(?:the|our|my|his|her|their|all the|both)\s+/,
    /([\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2})/u,
  ],
  'gu',
);

/**
 * What a speaker says they did ("we did the passports today", "Helen finally did the taxes", "이사 끝!"):
 * "did" stands for the task's own verb. Not in a question ("what did the doctor say?", "did the kids like it?").
 */
function didObjects(text: string): string[] {
  const out: string[] = [];
  for (const sentence of text.split(SENTENCE_END)) {
    if (sentence.trim().endsWith('?')) continue;
    for (const m of sentence.matchAll(FINISHED_THING_KO)) if (HANGUL.test(m[1]!) && !FRAME.has(m[1]!)) out.push(stem(m[1]!));
    if (!PART_DONE.test(sentence))
      for (const m of sentence.matchAll(FINISHED_THING_EN)) {
        const w = stem(m[1]!.replace(/['’]$/, ''));
        if (w.length >= 3 && !FRAME.has(w) && !FRAME.has(m[1]!.toLowerCase())) out.push(w);
      }
    for (const m of sentence.matchAll(DID_THE_THING)) {
      // The head of the phrase: "the kids' passports today" did the passports, not the kids.
      const phrase: string[] = [];
      for (const word of m[1]!.split(/\s+/)) {
        if (phrase.length > 0 && (DID_PHRASE_END.test(word) || FRAME.has(word.toLowerCase()) || VALUE_WORD.has(word.toLowerCase()))) break;
        phrase.push(word);
      }
      const w = stem(phrase[phrase.length - 1]!.replace(/['’]$/, ''));
      if (w.length >= 3 && !FRAME.has(w)) out.push(w);
    }
  }
  return out;
}

/** Does the task name `word` as the time after which it is done ("이사 끝나고 할게", "after the move")? Then it is not that thing. */
function forAfter(text: string, word: string): boolean {
  const w = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${w}\\S{0,2}\\s*(?:끝나고|끝나면|끝난 ?(?:후|뒤|다음)|후에?|뒤에?|다음에)|\\bafter (?:the |my |our )?${w}`, 'iu').test(
    text,
  );
}

/** The other open to-dos (tasks and to-do notes) that name what `newer` says was done ("did the passports"). */
function doneObjectTodos(newer: Item, older: Item[]): Item[] {
  if (NOT_YET.test(newer.o.text)) return [];
  const objects = didObjects(newer.o.text);
  if (objects.length === 0) return [];
  return older.filter((t) => t.todo && objects.some((w) => t.words.has(w) && !forAfter(t.o.text, w)));
}

/** Irregular past forms of verbs tasks are said with (regular ones are verb + ed). */
const IRREGULAR_PAST: Record<string, readonly string[]> = {
  write: ['wrote', 'written'],
  build: ['built'],
  do: ['did', 'done'],
  make: ['made'],
  send: ['sent'],
  set: ['set'],
  run: ['ran'],
  buy: ['bought'],
  pay: ['paid'],
  get: ['got', 'gotten'],
  give: ['gave', 'given'],
  take: ['took', 'taken'],
  find: ['found'],
  put: ['put'],
  read: ['read'],
  tell: ['told'],
  bring: ['brought'],
  leave: ['left'],
  sell: ['sold'],
  draw: ['drew', 'drawn'],
  choose: ['chose', 'chosen'],
  redo: ['redid'],
  rewrite: ['rewrote', 'rewritten'],
  begin: ['began', 'begun'],
};

/** How soon after a task a finish in the same session still speaks of it ("fixed it"). */
const SAME_SESSION_MINUTES = 180;

function sameSessionSoonAfter(task: Observation, finish: Observation): boolean {
  const a = task.provenance?.session;
  if (!a || a !== finish.provenance?.session || task.date !== finish.date || !task.time || !finish.time) return false;
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const gap = minutes(finish.time) - minutes(task.time);
  return gap >= 0 && gap <= SAME_SESSION_MINUTES;
}

/** The verb a task is said with: "will write …", "needs to fix …", "todo: build …". */
function taskVerb(text: string): string | undefined {
  const verb = /\b(?:will|'ll|to|gonna|should|must|todo:?)\s+(?:\w+ly\s+)?([a-z]+)/.exec(text.toLowerCase())?.[1];
  return verb && verb.length >= 2 && !['be', 'the', 'a', 'an', 'do'].includes(verb) ? verb : undefined;
}

const verbOf = perItem((i) => taskVerb(i.o.text));

/** Does the item's text say `verb` in the past ("wrote" for write)? Kept by verb: many tasks share one. */
const pastSaid = perItem(() => new Map<string, boolean>());
function saysPast(item: Item, verb: string): boolean {
  const said = pastSaid(item);
  let yes = said.get(verb);
  if (yes === undefined) {
    yes = pastForms(verb).some((f) => new RegExp(`\\b${f}\\b`, 'i').test(item.o.text));
    said.set(verb, yes);
  }
  return yes;
}

/** Past forms of a verb: irregular ones from the table, else verb + (e)d (stop → stopped, try → tried). */
function pastForms(verb: string): string[] {
  const irregular = IRREGULAR_PAST[verb];
  if (irregular) return [...irregular];
  if (verb.endsWith('e')) return [`${verb}d`];
  if (/[^aeiou]y$/.test(verb)) return [`${verb.slice(0, -1)}ied`];
  return [`${verb}ed`, `${verb}${verb.slice(-1)}ed`];
}

/** The older durable items about the subject `newer` states anew. */
function supersededBy(newer: Item, older: Item[], weight: Weight): Item[] {
  // A task or an event supersedes only as a change ("the demo moved a week later", "is now Friday 22 May",
  // "Updated: Walter — apartment 118, moved 1 May").
  const rescheduled = (newer.o.category === 'task' || newer.o.category === 'event') && CHANGE_WORD.test(newer.o.text);
  // A measured value said changed ("212 MB, down from 480") updates what held the old value, whatever says it.
  if (!DURABLE.has(newer.o.category) && !rescheduled)
    return older.filter((old) => DURABLE.has(old.o.category) && changedMeasure(old, newer));
  const out: Item[] = [];
  const oldValues = newer.fromValues;
  const chooses = newer.choices.size > 0;
  for (const old of older) {
    // A task is superseded only by a change that names it ("drop the export script") or a changed date or
    // time of the same thing ("the demo moved to Friday 22 May"); it is otherwise closed.
    if (old.o.category === 'task') {
      if (
        changedValue(old, newer, weight) ||
        (oldValues.length > 0 && sameSubject(old, newer, oldValues, false, weight)) ||
        choiceLeftBehind(old, newer)
      )
        out.push(old);
      continue;
    }
    if (!DURABLE.has(old.o.category)) continue;
    if (
      changedMeasure(old, newer) ||
      sameSubject(old, newer, oldValues, chooses, weight) ||
      decidedQuestion(old, newer, weight) ||
      otherNamedPlace(old, newer) ||
      newDestination(old, newer) ||
      changedDeadline(old, newer) ||
      changedDate(old, newer)
    )
      out.push(old);
  }
  return out;
}

/**
 * A task to run one member of a kind ("Postgres 16. Nadia will run it in docker compose") is history once a
 * decision or preference chooses another member of that kind without keeping it ("decided to do it (on: …
 * SQLite …)"). A task that moves away from its member ("move the test data over from postgres") is part of
 * the change and stays open; a task naming two members of the kind is left alone.
 */
function choiceLeftBehind(old: Item, newer: Item): boolean {
  if (newer.o.category !== 'decision' && newer.o.category !== 'preference') return false;
  for (const [kind, members] of newer.choices) {
    const before = [...(old.kinds.get(kind) ?? [])];
    const was = before[0];
    if (was === undefined || before.length !== 1) continue;
    if (members.has(was) || old.fromValues.some((f) => sameWord(stem(was), f))) continue;
    if ([...members].some((m) => !newer.fromValues.some((f) => sameWord(stem(m), f)))) return true;
  }
  return false;
}

/** Saying a thing is not decided yet ("not sure where to keep the refresh tokens", "아직 못 정했어"). */
const UNDECIDED = oneOf(
  [
    pattern([
      /\b/,
      anyOf(
        ...['not sure', 'unsure', 'undecided', "haven't decided", "hasn't decided", 'not decided', 'wondering', "can't decide"],
        ...['torn between', 'no idea (?:which|where|how|whether)'],
      ),
      /\b/,
    ]),
    anyOf('모르겠', '못 ?정했', '고민 ?중'),
  ],
  'iu',
);

const undecided = perItem((i) => UNDECIDED.test(i.o.text));

/**
 * An open question a later decision answers: "User is not sure where to keep the refresh tokens" is history
 * once "User decided on rotating opaque refresh tokens in Redis" — when most of what the question is about
 * (at least two words) is in the decision.
 */
function decidedQuestion(old: Item, newer: Item, weight: Weight): boolean {
  if (newer.o.category !== 'decision' || old.o.category === 'decision' || !undecided(old)) return false;
  const o = overlap(old.words, newer.words, weight);
  return o.shared >= 2 && o.a >= 0.5;
}

/** The old values an explicit change names ("from Postgres", "instead of ReportLab"), stemmed. */
function changedFrom(text: string): string[] {
  const out: string[] = [];
  for (const re of CHANGED_FROM) {
    const m = re.exec(text);
    const raw = m?.[1]?.toLowerCase().replace(/[.,]+$/, '');
    // A verb is no old value ("instead of failing"), nor a framing word.
    if (!raw || raw.length < 2 || FRAME.has(raw) || /(?:ing|ly)$/.test(raw)) continue;
    out.push(stem(raw));
  }
  for (const sentence of text.split(CLAUSE_END)) {
    const arrow = ARROW.exec(sentence);
    if (!arrow) continue;
    const [from, to] = [arrow[1]!, arrow[2]!].map((w) => w.toLowerCase().replace(/\d+$/, ''));
    const oneKind = KIND_OF.has(from!) && KIND_OF.get(from!) === KIND_OF.get(to!);
    if ((oneKind || CHANGE_WORD.test(sentence)) && from!.length >= 2 && !FRAME.has(from!)) out.push(stem(from!));
  }
  return out;
}

function sameSubject(old: Item, newer: Item, oldValues: string[], chooses: boolean, weight: Weight): boolean {
  // An explicit change naming what the old item holds — not what the old item itself left ("switched from
  // MySQL to Redis" does not hold MySQL).
  if (oldValues.some((v) => [...old.words].some((w) => sameWord(w, v) && !old.fromValues.some((f) => sameWord(w, f))))) return true;
  // A new member of a kind the old item chose, said as a choice: the database was Postgres, now it is SQLite.
  if (chooses)
    for (const [kind, members] of newer.choices) {
      const before = old.kinds.get(kind);
      if (!before) continue;
      // What the newer one chooses, not what it says it left ("switched from MySQL to …").
      const added = [...members].filter((m) => !before.has(m) && !newer.fromValues.some((f) => sameWord(stem(m), f)));
      if (added.length === 0) continue;
      const kept = [...before].filter((m) => members.has(m));
      if (added.length > 0 && kept.length === 0) return true;
    }
  // Two preferences are one when nearly all of both is shared ("prefers the mobile app because it is
  // simpler" is not "prefers Terraform because it is simpler").
  if (old.o.category === 'preference' && newer.o.category === 'preference') {
    const o = overlap(held(old, newer, old.words), held(old, newer, newer.words), weight);
    return o.shared >= 2 && Math.min(o.a, o.b) >= 0.8;
  }
  return changedValue(old, newer, weight);
}

/** The words of an item that name its subject: no values (2 pm, noon, Friday, 15 May), nothing either one left ("from MySQL"). */
function held(old: Item, newer: Item, words: Set<string>): Set<string> {
  const left = [...old.fromValues, ...newer.fromValues];
  return new Set([...words].filter((w) => !VALUE_WORD.has(w) && !/\d/.test(w) && !left.some((f) => sameWord(w, f))));
}

/**
 * An update written as a note, "Updated: Maya's birthday present — her own pottery wheel": what comes after
 * the change word up to the dash (or colon) names the thing (with a property in lower case, not a name
 * alone), the rest is its new value. The older item is
 * about the same thing when it holds every word of that name (at least two; the words of the other
 * observations the same message gave count too, one of them its own), and the new value says something
 * it did not. "Updated: Theo's swim lessons — Tuesdays" is not about "Theo's allergist appointment".
 */
function labelUpdate(old: Item, update: LabelUpdate | undefined): boolean {
  if (!update) return false;
  const { label, value } = update;
  const about = (w: string) => old.words.has(w) || old.context.has(w);
  return label.every(about) && label.some((w) => old.words.has(w)) && value.some((w) => !about(w));
}

/** The name and the new value of an update written as a note (labelUpdate), or undefined where the sentence is none. */
interface LabelUpdate {
  label: string[];
  value: string[];
}
function labelUpdateOf(sentence: string, names: ReadonlySet<string>): LabelUpdate | undefined {
  const at = CHANGE_WORD.exec(sentence);
  if (!at) return undefined;
  const rest = sentence.slice(at.index + at[0].length).replace(/^[\s:*]+/, '');
  const split = /\s+[—–]\s+|:\s+/u.exec(rest);
  if (!split || split.index === 0) return undefined;
  const labelText = rest.slice(0, split.index);
  const label = [...subjectWords(labelText, names)].filter((w) => !VALUE_WORD.has(w) && !/\d/.test(w));
  // The name must say which property changed ("birthday present"), not only whose: a name alone
  // ("Clay Hen Pottery — Montavilla Farmers Market") leaves its other facts (what it is called) alone.
  const property = subjectWords(labelText.replace(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'’.-]*/gu, ' '), names);
  if (property.size === 0) return undefined;
  const value = [...subjectWords(rest.slice(split.index + split[0].length), names)].filter((w) => !VALUE_WORD.has(w) && !/\d/.test(w));
  if (label.length < 2 || value.length === 0) return undefined;
  return { label, value };
}

/**
 * The same thing with a changed value, said as a change ("from now on the cutoff is noon", "the demo is
 * now Friday 22 May"): a number, date or time differs, at least two subject words are shared, and the
 * newer statement is nearly all about what the older one was (the older may say more). A list of like
 * sentences that differ in a number ("item 3 uses library 3") is many items, not one updated.
 */
function changedValue(old: Item, newer: Item, weight: Weight): boolean {
  for (const { update, said, all, bare } of changeSentences(newer)) {
    if (labelUpdate(old, update)) return true;
    const differs = said.size > 0 && old.values.size > 0 && [...said].some((v) => !old.values.has(v));
    // At least two words shared (below): none of the rest can hold where fewer are.
    if (!differs || sharedCount(all, old.words) < 2) continue;
    const words = new Set([...all].filter((w) => bare.has(w) || old.words.has(w)));
    const o = overlap(held(old, newer, old.words), held(old, newer, words), weight);
    if (o.shared >= 2 && ((o.a >= 0.75 && o.b >= 0.75) || (o.b >= 0.75 && o.a >= 0.25))) return true;
  }
  return false;
}

/**
 * The sentences of an item that say a change, as changedValue reads them (none where it says no change):
 * the sentence that says it ("Juniper updated: Walter — Lantus 14 units at bedtime." and not the plan that
 * follows it), or the whole text where no one sentence does.
 */
const changeSentences = perItem((item) => {
  const text = item.o.text;
  if (!CHANGE_WORD.test(text)) return [];
  const sentences = text.split(SENTENCE_END).filter((s) => CHANGE_WORD.test(s));
  return (sentences.length > 0 ? sentences : [text]).map((sentence) => ({
    update: labelUpdateOf(sentence, item.names),
    said: values(sentence, item.names),
    // What it says in parentheses is detail ("apartment 118 (ground floor)"): a word of it counts where the
    // older item holds it too ("(metformin unchanged)"), and is no other subject where it does not.
    all: sentence === text ? item.words : subjectWords(sentence, item.names),
    bare: subjectWords(sentence.replace(/\([^()]*\)/g, ' '), item.names),
  }));
});

/** A move said in a sentence ("moving the stall to …", "switched to …", "instead"). */
const MOVE_WORD = /\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|transferr?(?:ed|ing|s)?|relocat(?:e|es|ed|ing)|instead)\b/iu;

/**
 * The places a text names as "<Name> <thing>": a run of capitalised words and the common noun that ends
 * it ("the Montavilla market", "Hollywood Farmers Market" → market: montavilla / hollywood), with the
 * other words of the run (farmers), which name it and are no other subject.
 */
function namedPlaces(text: string, names: ReadonlySet<string>): Array<{ head: string; name: string; run: string[] }> {
  const out: Array<{ head: string; name: string; run: string[] }> = [];
  const tokens = text.split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean);
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i]!;
    if (
      !/^\p{Lu}\p{Ll}/u.test(first) ||
      FRAME.has(first.toLowerCase()) ||
      names.has(first.toLowerCase()) ||
      VALUE_WORD.has(first.toLowerCase())
    )
      continue;
    let j = i + 1;
    while (j < tokens.length && /^\p{Lu}\p{Ll}/u.test(tokens[j]!)) j++;
    // "Montavilla market": the noun after the run; "Hollywood Farmers Market": the run's last word.
    const after = j < tokens.length && /^\p{Ll}/u.test(tokens[j]!) ? tokens[j]! : undefined;
    const head = after ?? (j - i >= 2 ? tokens[j - 1]! : undefined);
    const run = tokens.slice(i + 1, after ? j : j - 1).map((w) => stem(w));
    i = j - 1;
    if (!head) continue;
    const h = stem(head);
    if (h.length < 3 || FRAME.has(h) || VALUE_WORD.has(h) || names.has(h)) continue;
    out.push({ head: h, name: first.toLowerCase(), run });
  }
  return out;
}

/**
 * A thing moved to another place of the same kind by name: "Helen is moving the stall to the Montavilla
 * market" makes "the Hollywood market on Saturdays" history. Both name a place with the same noun and a
 * different name, the newer one in a sentence that says a move, the older one never names the new place,
 * and they share another subject word beside the place (Saturdays) — a printer at the Porto office is no
 * meeting moved to the Lisbon office.
 */
function otherNamedPlace(old: Item, newer: Item): boolean {
  const oldPlaces = placesOf(old);
  if (oldPlaces.length === 0) return false;
  const oldText = lowerText(old);
  for (const to of placesMovedTo(newer)) {
    if (oldText.includes(to.name)) continue;
    for (const from of oldPlaces) {
      if (from.head !== to.head || from.name === to.name) continue;
      const place = new Set([to.head, to.name, from.name, ...to.run, ...from.run]);
      if ([...newer.words].some((w) => old.words.has(w) && !place.has(w))) return true;
    }
  }
  return false;
}
const placesOf = perItem((i) => namedPlaces(i.o.text, i.names));
/** The places named in the sentences of an item that say a move. */
const placesMovedTo = perItem((i) =>
  i.o.text
    .split(CLAUSE_END)
    .filter((sentence) => MOVE_WORD.test(sentence))
    .flatMap((sentence) => namedPlaces(sentence, i.names)),
);
const lowerText = perItem((i) => i.o.text.toLowerCase());

/** "X(으)로 가기로 했어", "X 가기로": where a decided trip goes (a word with a subject particle, "누나가", is who goes). */
const GOING_TO_KO = /([\p{L}\p{N}]+?)(?:으로|로)?\s*(?:가기로|갈래|가자|갈 거)/u;
/** "Y로 다시", "Y로 바꿨어": the new destination of a changed plan. */
const NEW_DESTINATION_KO = /([\p{L}\p{N}]+?)(?:으로|로)\s*(?:다시|가기로|갈래|가자|바꿨|바꿔|변경|정했)/u;
/** A trip spoken of: only then is "X로 가기로" where one goes (Korean chooses with 가다 too, "Supabase로 갈래"). */
const TRIP = /\b(?:trips?|travel(?:s|l?ing|l?ed)?|vacations?|holidays?|getaways?)\b|(?:여행|휴가)/iu;
/** Saying a plan changed (not a mere "now"): "instead", "after all", "바꿨어", "다시". */
const DESTINATION_CHANGE = /\b(?:instead|after all|chang(?:e|ed|ing)|switch(?:ed|ing)?|rather)\b|(?:바꿨|바꿔|바꾸|변경|다시|대신)/iu;
/** "going to X" / "go to X" in a decision, English. */
const GOING_TO_EN = /\b(?:going|go|fly|flying|travel(?:l?ing)?|head(?:ing)?)\s+to\s+(?:the\s+)?(\p{Lu}[\p{L}'-]+)/u;

function destination(text: string, re: RegExp, names: ReadonlySet<string>): string | undefined {
  const m = re.exec(text);
  const w = m?.[1]?.toLowerCase();
  if (!w || w.length < 2 || names.has(w) || FRAME.has(w)) return undefined;
  if (!HANGUL.test(w)) return w;
  // A Korean subject or object particle is who goes or what is done ("누나가", "축가를"), not where; 에 is where ("부산에").
  if (/(?:가|이|는|은|를|을|랑|와|과|도)$/u.test(w)) return undefined;
  return w.length >= 3 ? w.replace(/에$/u, '') : w;
}

/**
 * A trip changed to another place: "여행 또 바꿨어 결국 오사카로 다시" (or "we're going to Porto instead")
 * makes the older decision to go elsewhere ("후쿠오카로 가기로 했어") history. Both speak of a trip (in
 * their own words or in another observation of the same message); the newer one says a change and names
 * where it goes now; the older one is a decision to go to a place the newer does not name.
 */
const GOES_TO_KEY = 'goes-to:';

function goesSomewhere(item: Item): boolean {
  const t = item.o.text;
  return (
    (destination(t, GOING_TO_KO, item.names) ??
      destination(t, GOING_TO_EN, item.names) ??
      destination(t, NEW_DESTINATION_KO, item.names)) !== undefined
  );
}

function newDestination(old: Item, newer: Item): boolean {
  // Both about a trip: "Supabase로 갈래" goes with a backend, it travels nowhere.
  if (old.o.category !== 'decision' || !old.trip || !newer.trip) return false;
  const changed = DESTINATION_CHANGE.test(newer.o.text) || newer.siblingChange;
  if (!changed) return false;
  const to = destination(newer.o.text, NEW_DESTINATION_KO, newer.names) ?? destination(newer.o.text, GOING_TO_EN, newer.names);
  const from = destination(old.o.text, GOING_TO_KO, old.names) ?? destination(old.o.text, GOING_TO_EN, old.names);
  if (!to || !from || to === from) return false;
  return !lowerText(newer).includes(from) && !lowerText(old).includes(to);
}

/** Units a measured value is written with ("480MB", "14 units", "3 kg", "40 %"); a bare number has none. */
const UNIT = /((?:[kmgt]b|ms|mg|kg|km|ml|units?|%))?/;
const NUMBER = /(\d+(?:[.,]\d+)?)\s*/;
const NO_LETTER = /(?![\p{L}\p{N}])/u;
const MEASURE = pattern([/(?<![\p{L}\p{N}.,:])/u, NUMBER, UNIT, /(?![\p{L}\p{N}]|[.,:]\d)/u], 'giu');
/** "212 MB, down from 480": the new value, then the old one after "down / up from". */
const DOWN_FROM = pattern([NUMBER, UNIT, NO_LETTER, /[^.;!?\d]{0,12}?\b(?:down|up)\s+from\s+/, NUMBER, UNIT, NO_LETTER], 'giu');
/** "grew from 160 MB to 480 MB", "dropped from 18 to 14 units": a change verb, the old value, then the new. */
const FROM_TO = pattern(
  [
    /\b/,
    anyOf(
      ...['grew', 'grown', 'grows', 'growing', 'went', 'gone', 'dropped', 'fell', 'fallen', 'rose', 'risen', 'shrank', 'shrunk'],
      ...['increased', 'decreased', 'reduced', 'cut', 'lowered', 'raised', 'changed', 'jumped', 'climbed', 'down', 'up'],
    ),
    /\s+from\s+/,
    NUMBER,
    UNIT,
    /\s+to\s+/,
    NUMBER,
    UNIT,
    NO_LETTER,
  ],
  'giu',
);

function measureKey(num: string, unit: string | undefined): string {
  const u = unit?.toLowerCase().replace(/^units?$/, 'unit') ?? '';
  return `${num.replace(',', '.')} ${u}`.trim();
}

/** The measured values a text holds, as `number unit` keys ("480 mb"; a bare number is its digits). */
function measures(text: string): string[] {
  return Array.from(text.matchAll(MEASURE), (m) => measureKey(m[1]!, m[2]));
}

/** The old values a text says a measure changed away from, with the new value's unit where the old has none. */
function measuresChangedFrom(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(DOWN_FROM)) out.push(measureKey(m[3]!, m[4] ?? m[2]));
  for (const m of text.matchAll(FROM_TO)) out.push(measureKey(m[1]!, m[2] ?? m[4]));
  return out;
}

/**
 * A measured value said changed: "212 MB, down from 480" (or "grew from 160 MB to 480 MB") makes an older
 * item that holds the old value in the same unit history ("the image is 480MB") — not one that said it
 * left that value itself. A bare number (no unit on either side) changes only an item that shares a subject
 * word with it: "30 laps, up from 25" is not about "25 guests".
 */
function changedMeasure(old: Item, newer: Item): boolean {
  for (const from of newer.fromMeasures) {
    if (!old.measures.has(from) || old.fromMeasures.has(from)) continue;
    if (from.includes(' ') || [...newer.words].some((w) => old.words.has(w))) return true;
  }
  return false;
}

/** A deadline said in a sentence: "the cutoff is …", "orders close at …", "due by …", "마감". */
const DEADLINE_WORD = /\b(?:cut-?offs?|deadlines?|closes?\s+at|closing time|last orders|due\s+(?:at|by))\b|마감/iu;
/** A time of day ("2 pm", "14:00", "noon", "오후 2시"), as compared: lower case, no spaces. */
const CLOCK_TIME = /\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight)\b|(?:오전|오후)?\s*\d{1,2}시/giu;
/** Where a deadline's time is anchored: "the day before", "the same day", "on Fridays", "전날". */
const DEADLINE_ANCHOR =
  /\bthe (?:day|night|evening|morning|week) (?:before|after)\b|\b(?:the )?same day\b|\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bevery (?:day|morning|evening|week)\b|전날|당일|前日/giu;
const DEADLINE_KEY = 'deadline:';
/** The words that say a deadline, stemmed: no other subject of the sentence that moves it. */
const DEADLINE_NAMES = new Set(['cutoff', 'cut-off', 'deadline', 'close', 'closing', 'due', '마감']);

/** The times of day of each sentence that says a deadline, with the anchors beside them. */
function deadlineTimes(text: string): Array<{ sentence: string; times: string[]; anchors: string[] }> {
  const out: Array<{ sentence: string; times: string[]; anchors: string[] }> = [];
  for (const sentence of text.split(CLAUSE_END)) {
    if (!DEADLINE_WORD.test(sentence)) continue;
    const times = Array.from(sentence.matchAll(CLOCK_TIME), (m) => m[0].toLowerCase().replace(/\s+/g, ''));
    if (times.length === 0) continue;
    out.push({ sentence, times, anchors: Array.from(sentence.matchAll(DEADLINE_ANCHOR), (m) => m[0].toLowerCase()) });
  }
  return out;
}

/**
 * An item's deadlines at a time of day, read once, each with what changedDeadline asks of it as the newer
 * item: does its sentence say a change, and what it names besides the deadline and the time.
 */
const deadlinesOf = perItem((item) =>
  deadlineTimes(item.o.text).map((d) => ({
    ...d,
    saysChange: CHANGE_WORD.test(d.sentence),
    named: [...subjectWords(d.sentence, item.names)].filter((w) => !DEADLINE_NAMES.has(w) && !VALUE_WORD.has(w) && !/\d/.test(w)),
  })),
);

/**
 * A deadline moved to another time, said as a change: "from now on the cutoff is noon on the day before"
 * makes "orders for a delivery day close at 2 pm the day before" history. Both say a deadline at a time of
 * day and the times differ; the newer sentence names nothing the older item does not (its words but the
 * deadline's and the time's are the older's: "the deadline for grant applications is now 5 pm" is another
 * deadline); and they share where the time is anchored ("the day before") or a subject word.
 */
function changedDeadline(old: Item, newer: Item): boolean {
  const before = deadlinesOf(old);
  if (before.length === 0) return false;
  for (const { saysChange, named, ...now } of deadlinesOf(newer)) {
    if (!saysChange) continue;
    if (!named.every((w) => old.words.has(w) || old.context.has(w))) continue;
    for (const then of before) {
      if (now.times.every((t) => then.times.includes(t))) continue;
      const anchored = now.anchors.some((a) => then.anchors.includes(a));
      if (anchored || named.some((w) => old.words.has(w))) return true;
    }
  }
  return false;
}

/** A word that names a date as the thing changed ("the date", "날짜", "일정"). */
const DATE_NOUN = /\b(?:dates?)\b|날짜|일정/iu;
const DATE_NOUNS = new Set(['date', '날짜', '일정']);
/** A day as written: "2026-09-19", "19일", "the 26th", "22 May", "May 22". */
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DAY_DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\d{1,2}\\s*일|\\b\\d{1,2}(?:st|nd|rd|th)\\b|\\b${MONTH}\\s+\\d{1,2}\\b|\\b\\d{1,2}\\s+${MONTH}`,
  'giu',
);

function dayDates(text: string): string[] {
  return Array.from(text.matchAll(DAY_DATE), (m) => m[0].toLowerCase().replace(/\s+/g, ''));
}

/**
 * The sentences of an item that say a date changed, read once: a change word, a word for the date and a
 * day in one sentence ("한결이사에 날짜 변경 (26일 오전 가능한지) … 퇴거 날짜 26일로", "the date changed: the
 * 14th"), with the days it names and its subject words but the date's own.
 */
const dateChangesOf = perItem((item) =>
  item.o.text
    .split(CLAUSE_END)
    .filter((sentence) => CHANGE_WORD.test(sentence) && DATE_NOUN.test(sentence))
    .map((sentence) => ({
      days: dayDates(sentence),
      words: [...subjectWords(sentence, item.names)].filter((w) => !/\d/.test(w) && !VALUE_WORD.has(w)),
    }))
    .filter((change) => change.days.length > 0),
);
const daysOf = perItem((item) => dayDates(item.o.text));

/**
 * A date said changed, in a sentence of its own or an item of a list: "Mori는 한결이사에 날짜 변경 (26일
 * 오전 가능한지) 망원동 집주인한테 퇴거 날짜 26일로 …" makes "9월 19일 토요일 … 망원동 집 만기가 9월 말 (주제: 이사
 * 날짜 정해졌어)" history. The newer sentence says a change, a word for the date and a day the older item
 * does not hold; the older item holds a day; and the two share at least two subject words, one of them more
 * than the word for the date ("결혼식 날짜" and "인터넷 설치 날짜 변경" share only the date).
 */
function changedDate(old: Item, newer: Item): boolean {
  const before = daysOf(old);
  if (before.length === 0) return false;
  for (const change of dateChangesOf(newer)) {
    if (change.days.every((d) => before.includes(d))) continue;
    const shared = change.words.filter((w) => old.words.has(w));
    if (shared.length >= 2 && shared.some((w) => !DATE_NOUNS.has(w))) return true;
  }
  return false;
}
