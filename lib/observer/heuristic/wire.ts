/**
 * The compact form in which batches go to the Observer's worker thread and
 * results come back (thread.ts ↔ worker.ts).
 *
 * A structured clone of objects writes every property name of every message
 * and observation and rebuilds each object property by property on the other
 * side; JSON text has to be printed and parsed. Here the strings travel as one
 * text with their lengths in an Int32Array, and the few distinct short values
 * (roles, sources, dates, times, priorities, categories, tags) once each in a
 * table that integers point into: both threads copy a few large buffers instead
 * of handling ~10 small values per message or observation (on a 56k-message
 * backlog: the main thread's share ~4x less, the worker's ~5x less).
 * Kept for speed: about 8 % of the CPU time of a cold 63 MB backlog against a
 * structured clone of the objects (see it with
 * `npm run bench -- observe`). test/observer/heuristic/observer-wire.test.ts is its oracle: what is
 * unpacked is deep-equal to the plain objects that were packed.
 *
 * The table travels as JSON text: JSON.parse internalises short strings (up to
 * 10 characters: roles, priorities, categories, dates, times), as a JSON result
 * did, and comparisons with literals and keyed lookups want them internalised.
 *
 * Undefined where a string is expected (hand-made input) travels as length -1 /
 * index -1, so an unpacked batch or result is deep-equal to the packed one.
 */
import type { Message, Observation, ObserverBatch, ObserverResult } from '../../core/types.js';

/** A batch's user and assistant messages (the only ones the rules read). */
export interface PackedBatch {
  source: ObserverBatch['source'];
  agent: string;
  session: string;
  timeZone: string;
  now: string;
  /** Per message: role (0 user, 1 assistant), source, text, time, entryId, agent, session (see packBatch). */
  ints: Int32Array;
  /** JSON array of the distinct strings `ints` point to. */
  table: string;
  chars: string;
}

export interface PackedResult {
  count: number;
  /** Per observation: see packResult. */
  ints: Int32Array;
  /** JSON array of the distinct strings `ints` point to. */
  table: string;
  chars: string;
  currentTask?: string;
}

const MESSAGE_INTS = 7;

/** Strings that repeat go into a table, once each. */
class StringTable {
  private readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  /** -1 for undefined. */
  of(value: string | undefined): number {
    if (value === undefined) return -1;
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }

  json(): string {
    return JSON.stringify(this.values);
  }
}

/** Strings that do not repeat are appended to one text; their lengths go with the integers. */
class TextWriter {
  chars = '';
  ints: number[] = [];

  int(n: number): void {
    this.ints.push(n);
  }

  text(s: string | undefined): void {
    if (s === undefined) {
      this.ints.push(-1);
      return;
    }
    this.ints.push(s.length);
    this.chars += s;
  }
}

class TextReader {
  private at = 0;
  private pos = 0;
  private readonly table: string[];

  constructor(
    private readonly ints: Int32Array,
    private readonly chars: string,
    table: string,
  ) {
    this.table = JSON.parse(table) as string[];
  }

  int(): number {
    return this.ints[this.at++]!;
  }

  text(): string | undefined {
    const length = this.ints[this.at++]!;
    if (length < 0) return undefined;
    const s = this.chars.slice(this.pos, this.pos + length);
    this.pos += length;
    return s;
  }

  entry(): string | undefined {
    const i = this.ints[this.at++]!;
    return i < 0 ? undefined : this.table[i];
  }

  /** entry(), or `batchValue` where the writer wrote BATCH_VALUE. */
  entryOr(batchValue: string | undefined): string | undefined {
    if (this.ints[this.at] === BATCH_VALUE) {
      this.at++;
      return batchValue;
    }
    return this.entry();
  }
}

function isConversation(message: Message): boolean {
  return message.role === 'user' || message.role === 'assistant';
}

/** A message's source, agent or session that is the batch's own (as nearly always): no table entry. */
const BATCH_VALUE = -2;

/** The batch with only its user and assistant messages, packed (main thread). */
export function packBatch(batch: ObserverBatch): PackedBatch {
  const { source, agent, session, timeZone, now } = batch;
  const table = new StringTable();
  const w = new TextWriter();
  writeMessages(w, table, batch.messages, source, agent, session);
  return { source, agent, session, timeZone, now, ints: Int32Array.from(w.ints), table: table.json(), chars: w.chars };
}

function writeMessages(w: TextWriter, table: StringTable, messages: Message[], source: string, agent: string, session: string): void {
  for (const m of messages) {
    if (!isConversation(m)) continue;
    w.int(m.role === 'user' ? 0 : 1);
    w.int(m.source === source ? BATCH_VALUE : table.of(m.source));
    w.text(m.text);
    w.text(m.time);
    w.text(m.entryId);
    w.int(m.agent === agent ? BATCH_VALUE : table.of(m.agent));
    w.int(m.session === session ? BATCH_VALUE : table.of(m.session));
  }
}

/** The batch packBatch packed (worker thread). */
export function unpackBatch(packed: PackedBatch): ObserverBatch {
  const { source, agent, session, timeZone, now } = packed;
  const messages: Message[] = [];
  readMessages(
    new TextReader(packed.ints, packed.chars, packed.table),
    packed.ints.length / MESSAGE_INTS,
    source,
    agent,
    session,
    messages,
  );
  return { source, agent, session, messages, timeZone, now };
}

function readMessages(r: TextReader, count: number, source: string, agent: string, session: string, messages: Message[]): void {
  for (let i = 0; i < count; i++) {
    const role = r.int() === 0 ? 'user' : 'assistant';
    const messageSource = r.entryOr(source) as Message['source'];
    const text = r.text()!;
    const time = r.text()!;
    const entryId = r.text()!;
    const messageAgent = r.entryOr(agent)!;
    const messageSession = r.entryOr(session)!;
    messages.push({ role, text, time, entryId, source: messageSource, agent: messageAgent, session: messageSession });
  }
}

/**
 * The heuristic Observer's result, packed (worker thread). Per observation:
 * id, date, time, priority, done, category, text, tags, agent and provenance,
 * the fields observeWithRules gives every observation.
 */
export function packResult(result: ObserverResult): PackedResult {
  const table = new StringTable();
  const w = new TextWriter();
  writeObservations(w, table, result.observations);
  const packed: PackedResult = { count: result.observations.length, ints: Int32Array.from(w.ints), table: table.json(), chars: w.chars };
  if (result.currentTask !== undefined) packed.currentTask = result.currentTask;
  return packed;
}

function writeObservations(w: TextWriter, table: StringTable, observations: Observation[]): void {
  for (const o of observations) {
    const p = o.provenance!;
    w.text(o.id);
    w.int(table.of(o.date));
    w.int(table.of(o.time));
    w.int(table.of(o.priority));
    w.int(o.done ? 1 : 0);
    w.int(table.of(o.category));
    w.text(o.text);
    w.int(o.tags.length);
    for (const tag of o.tags) w.int(table.of(tag));
    w.int(table.of(o.agent));
    w.int(table.of(p.source));
    w.int(table.of(p.agent));
    w.int(table.of(p.session));
    w.int(p.entryIds.length);
    for (const e of p.entryIds) w.text(e);
  }
}

/** The result packResult packed (main thread). */
export function unpackResult(packed: PackedResult): ObserverResult {
  const observations: Observation[] = [];
  readObservations(new TextReader(packed.ints, packed.chars, packed.table), packed.count, observations);
  return packed.currentTask === undefined ? { observations } : { observations, currentTask: packed.currentTask };
}

function readObservations(r: TextReader, count: number, observations: Observation[]): void {
  for (let i = 0; i < count; i++) {
    const id = r.text()!;
    const date = r.entry()!;
    const time = r.entry()!;
    const priority = r.entry() as Observation['priority'];
    const done = r.int() === 1;
    const category = r.entry()!;
    const text = r.text()!;
    const tags: string[] = [];
    for (let t = r.int(); t > 0; t--) tags.push(r.entry()!);
    const agent = r.entry()!;
    const source = r.entry()!;
    const provenanceAgent = r.entry()!;
    const session = r.entry()!;
    const entryIds: string[] = [];
    for (let e = r.int(); e > 0; e--) entryIds.push(r.text()!);
    observations.push({
      id,
      date,
      time,
      priority,
      done,
      category,
      text,
      tags,
      agent,
      provenance: { source, agent: provenanceAgent, session, entryIds },
    });
  }
}
