/**
 * The compact form in which batches go to the Observer's worker thread and
 * results come back (heuristic-thread.ts ↔ heuristic-worker.ts).
 *
 * A structured clone of objects writes every property name of every message
 * and observation and rebuilds each object property by property on the other
 * side; JSON text has to be printed and parsed. Here the strings travel as one
 * text with their lengths in an Int32Array, and the few distinct short values
 * (roles, sources, dates, times, priorities, categories, tags) once each in a
 * table that integers point into: both threads copy a few large buffers instead
 * of handling ~10 small values per message or observation (on a 56k-message
 * backlog: the main thread's share ~4x less, the worker's ~5x less).
 *
 * The table travels as JSON text: JSON.parse internalises short strings (up to
 * 10 characters: roles, priorities, categories, dates, times), as a JSON result
 * did, and comparisons with literals and keyed lookups want them internalised.
 *
 * Undefined where a string is expected (hand-made input) travels as length -1 /
 * index -1, so an unpacked batch or result is deep-equal to the packed one.
 */
import type { Message, Observation, ObserverBatch, ObserverResult } from '../types.js';

/** A batch's user and assistant messages (the only ones the rules read). */
export interface PackedBatch {
  source: ObserverBatch['source'];
  agent: string;
  session: string;
  timeZone: string;
  now: string;
  /** Per message: role, source (table indices); text, time, entryId, agent, session (lengths in `chars`). */
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
}

function isConversation(message: Message): boolean {
  return message.role === 'user' || message.role === 'assistant';
}

/** The batch with only its user and assistant messages, packed (main thread). */
export function packBatch(batch: ObserverBatch): PackedBatch {
  const table = new StringTable();
  const w = new TextWriter();
  for (const m of batch.messages) {
    if (!isConversation(m)) continue;
    w.int(table.of(m.role));
    w.int(table.of(m.source));
    w.text(m.text);
    w.text(m.time);
    w.text(m.entryId);
    w.int(table.of(m.agent));
    w.int(table.of(m.session));
  }
  const { source, agent, session, timeZone, now } = batch;
  return { source, agent, session, timeZone, now, ints: Int32Array.from(w.ints), table: table.json(), chars: w.chars };
}

/** The batch packBatch packed (worker thread): every message built alike, so the rules meet one message shape. */
export function unpackBatch(packed: PackedBatch): ObserverBatch {
  const r = new TextReader(packed.ints, packed.chars, packed.table);
  const count = packed.ints.length / MESSAGE_INTS;
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    const role = r.entry() as Message['role'];
    const source = r.entry() as Message['source'];
    const text = r.text()!;
    const time = r.text()!;
    const entryId = r.text()!;
    const agent = r.entry()!;
    const session = r.entry()!;
    messages.push({ role, text, time, entryId, source, agent, session });
  }
  const { source, agent, session, timeZone, now } = packed;
  return { source, agent, session, messages, timeZone, now };
}

/**
 * The heuristic Observer's result, packed (worker thread). Per observation:
 * id, date, time, priority, done, category, text, tags, agent and provenance,
 * the fields observeWithRules gives every observation.
 */
export function packResult(result: ObserverResult): PackedResult {
  const table = new StringTable();
  const w = new TextWriter();
  for (const o of result.observations) {
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
  const packed: PackedResult = { count: result.observations.length, ints: Int32Array.from(w.ints), table: table.json(), chars: w.chars };
  if (result.currentTask !== undefined) packed.currentTask = result.currentTask;
  return packed;
}

/** The result packResult packed (main thread). */
export function unpackResult(packed: PackedResult): ObserverResult {
  const r = new TextReader(packed.ints, packed.chars, packed.table);
  // (Arrays filled by push, as the inline Observer's: packed elements, the same array maps downstream.)
  const observations: Observation[] = [];
  for (let i = 0; i < packed.count; i++) {
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
    observations.push({ id, date, time, priority, done, category, text, tags, agent, provenance: { source, agent: provenanceAgent, session, entryIds } });
  }
  return packed.currentTask === undefined ? { observations } : { observations, currentTask: packed.currentTask };
}
