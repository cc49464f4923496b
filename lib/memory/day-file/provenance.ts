/**
 * Provenance of a day file's observations (README "File formats"): a comment block at the end of the
 * file, one line per observation id, so the first lines of a file (what a chunking indexer such as
 * OpenClaw's memory_search reads first) carry observations, not ids:
 *   <!-- oc-memory provenance (id: source agent session entries)
 *   o-7f3a9c21e0: openclaw main 5f2a9c1e e1f2a3b4,c5d6e7f8
 *   -->
 * Files written before keep a `provenance:` map in the frontmatter (owned-frontmatter.ts reads it);
 * it moves to the block the first time the program rewrites the file (format.ts, settleProvenance).
 *
 * Kept for speed, beside the plain form it must equal: the block is written by hand and memoised
 * between a job's appends (formatProvenanceBlock, ProvenanceMemo); oracle: "a file written again after
 * appends gets the provenance block that formatting every entry gives", test/memory/day-file.test.ts.
 * `npm run bench -- observe` measures the job around it.
 */
import type { Observation, Provenance } from '../../core/types.js';
import type { DayFile, ProvenanceBlock } from './model.js';

/** The first line of the provenance block, and its last. */
const PROVENANCE_OPEN = '<!-- oc-memory provenance';
const PROVENANCE_HEADER = `${PROVENANCE_OPEN} (id: source agent session entries)\n`;
const PROVENANCE_CLOSE = '-->';

/** Where the provenance block sits in a body: [start, end) of its lines, and its map. Undefined when there is none. */
export function findProvenanceBlock(body: string): { start: number; end: number; map: Record<string, unknown> } | undefined {
  let start = body.lastIndexOf(`\n${PROVENANCE_OPEN}`);
  if (start !== -1) start += 1;
  else if (body.startsWith(PROVENANCE_OPEN)) start = 0;
  else return undefined;
  const first = body.indexOf('\n', start);
  if (first === -1) return undefined;
  let close = first;
  for (;;) {
    const next = body.indexOf('\n', close + 1);
    const line = body.slice(close + 1, next === -1 ? body.length : next);
    if (line.trimEnd() === PROVENANCE_CLOSE) {
      const end = next === -1 ? body.length : next + 1;
      return { start, end, map: parseProvenanceLines(body.slice(first + 1, close + 1)) };
    }
    if (next === -1) return undefined; // never closed: an ordinary HTML comment
    close = next;
  }
}

export function hasSeveralProvenanceBlocks(body: string): boolean {
  const first = body.startsWith(PROVENANCE_OPEN) ? 0 : body.indexOf(`\n${PROVENANCE_OPEN}`);
  return first !== -1 && body.indexOf(`\n${PROVENANCE_OPEN}`, first + 1) !== -1;
}

/**
 * A body with more than one provenance block, as Git's union merge leaves a day file both devices
 * appended to (each side's block, one perhaps unclosed, with the other side's lines between): every
 * other line stays where it is, the provenance lines go into one block at the end. The file is then
 * not what was read: union repair writes it back (lib/jobs/sync/union-repair.ts).
 */
export function joinProvenanceBlocks(body: string): string {
  const kept: string[] = [];
  // By id (both sides have the lines they had in common): the first place, the last value.
  const provenance = new Map<string, string>();
  let inBlock = false;
  for (const line of body.split('\n')) {
    if (line.startsWith(PROVENANCE_OPEN)) inBlock = true;
    else if (inBlock && line.trimEnd() === PROVENANCE_CLOSE) inBlock = false;
    else if (inBlock && PROVENANCE_LINE.test(line)) provenance.set(line.slice(0, line.indexOf(':')), line);
    else kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  return `${kept.join('\n')}\n\n${PROVENANCE_HEADER}${[...provenance.values()].map((l) => `${l}\n`).join('')}${PROVENANCE_CLOSE}\n`;
}

const PROVENANCE_LINE = /^[^\s:]+: \S/;

/** `id: value` lines (others, blank ones, are skipped; a repeated id: the last wins). */
function parseProvenanceLines(text: string): Record<string, unknown> {
  const map = Object.create(null) as Record<string, unknown>;
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ');
    if (colon <= 0) continue;
    const id = line.slice(0, colon).trim();
    const value = line.slice(colon + 2).trim();
    if (id !== '' && !/\s/.test(id) && value !== '') map[id] = value;
  }
  return map;
}

/**
 * The provenance block at the end of a day file: one `id: source agent session entries` line each,
 * inside an HTML comment (hidden in Obsidian's reading view). Written by hand: it grows with every
 * observation, and a long job writes it after every chunk (see ProvenanceMemo).
 */
export function formatProvenanceBlock(map: Record<string, unknown>): string {
  // Object.keys, not entries: entries is several times slower on a map of thousands of keys.
  const ids = Object.keys(map);
  if (ids.length === 0) return '';
  const memo = provenanceMemos.get(map);
  const reuse = memo !== undefined && startsWithMemo(map, ids, memo);
  const values: string[] = reuse ? memo.values : [];
  const out = provenanceLines(reuse ? memo.text : PROVENANCE_HEADER, map, ids, reuse ? memo.ids.length : 0, values);
  // `values` has a value for every line only when every value was a string.
  if (values.length === ids.length) provenanceMemos.set(map, { ids, values, text: out });
  else provenanceMemos.delete(map);
  return `${out}${PROVENANCE_CLOSE}\n`;
}

/** `out` with the lines of ids[from..], each string value also pushed to `values`. */
function provenanceLines(out: string, map: Record<string, unknown>, ids: readonly string[], from: number, values: string[]): string {
  for (let i = from; i < ids.length; i++) {
    const id = ids[i]!;
    const value = map[id];
    if (typeof value === 'string') {
      out += `${id}: ${value}\n`;
      values.push(value);
    } else {
      // Not ours (a hand edit of an older frontmatter map): kept, on one line.
      out += `${id}: ${JSON.stringify(value) ?? ''}\n`;
    }
  }
  return out;
}

/**
 * What formatProvenanceBlock last wrote for a map whose values were all
 * strings: its keys and values then, and the text. A day file that grows by
 * appends is written after every chunk of a long job; its block then only
 * needs its new lines formatted. The text is reused only when the map still
 * starts with the very same keys and values in the same order (checked entry
 * by entry, by identity: far cheaper than formatting a line), so it is what
 * formatting every entry again would give.
 */
interface ProvenanceMemo {
  ids: string[];
  values: string[];
  text: string;
}
const provenanceMemos = new WeakMap<object, ProvenanceMemo>();

function startsWithMemo(map: Record<string, unknown>, ids: readonly string[], memo: ProvenanceMemo): boolean {
  if (memo.ids.length > ids.length) return false;
  for (let i = 0; i < memo.ids.length; i++) {
    const id = ids[i]!;
    if (id !== memo.ids[i] || map[id] !== memo.values[i]) return false;
  }
  return true;
}

/**
 * Characters `enc` changes: most fields (ids, names) have none, and a test is cheaper than the replaces.
 * `>` among them: the block is an HTML comment, and a `-->` in a session id would end it early.
 */
const PROVENANCE_SPECIAL = /[%\s,>]/;
function enc(s: string): string {
  return PROVENANCE_SPECIAL.test(s) ? s.replace(/%/g, '%25').replace(/\s/g, '%20').replace(/,/g, '%2C').replace(/>/g, '%3E') : s;
}

/** `source agent session e1,e2` from its encoded `source agent session ` prefix and the entry ids. Spaces inside fields are %-encoded. */
function provenanceWith(prefix: string, entryIds: readonly string[]): string {
  return prefix + (entryIds.map(enc).join(',') || '-');
}

/** `source agent session e1,e2` → Provenance (see provenanceWith). */
export function parseProvenance(text: unknown): Provenance | undefined {
  if (typeof text !== 'string') return undefined;
  const [source, agent, session, entries] = text.trim().split(/\s+/);
  if (!source || !agent || !session) return undefined;
  const dec = (s: string) => decodeURIComponent(s);
  return {
    source: dec(source),
    agent: dec(agent),
    session: dec(session),
    entryIds: !entries || entries === '-' ? [] : entries.split(',').map(dec),
  };
}

const NO_PROVENANCE: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

export function provenanceMap(file: DayFile): Record<string, unknown> {
  return file.provenance?.map ?? NO_PROVENANCE;
}

/** The file's provenance block to add to; a new, empty one when it has none. */
export function provenanceBlock(file: DayFile): ProvenanceBlock {
  // Prototype-less: an id is a key like any other (none finds Object.prototype's).
  file.provenance ??= {
    map: Object.create(null) as Record<string, unknown>,
    segment: { kind: 'raw', text: '' },
    dirty: false,
    inFrontmatter: false,
  };
  return file.provenance;
}

/** Ids written anywhere in the file's body but the provenance block (an id moved by hand off its line is still there). */
export function mentionedIds(file: DayFile): Set<string> {
  const ids = new Set<string>();
  for (const seg of file.segments) {
    if (seg === file.provenance?.segment) continue;
    const text = seg.kind === 'raw' ? seg.text : seg.raw;
    for (const m of text.matchAll(/\bo-[0-9a-f]{6,}\b/g)) ids.add(m[0]);
  }
  return ids;
}

/** Provenance lines of new observations, in the file's map. Returns how many. */
export function addProvenance(prov: Record<string, unknown>, observations: Observation[]): number {
  const ids: string[] = [];
  const values: string[] = [];
  provenanceValues(observations, ids, values);
  for (let i = 0; i < ids.length; i++) prov[ids[i]!] = values[i];
  return ids.length;
}

/** The ids of the observations with provenance, and their provenance values. */
function provenanceValues(observations: Observation[], ids: string[], values: string[]): void {
  // Observations come in runs from one session: its encoded `source agent session ` prefix is made once per run.
  let run: Provenance | undefined;
  let prefix = '';
  for (const o of observations) {
    const p = o.provenance;
    if (!p) continue;
    if (run === undefined || p.source !== run.source || p.agent !== run.agent || p.session !== run.session) {
      run = p;
      prefix = `${enc(p.source)} ${enc(p.agent)} ${enc(p.session)} `;
    }
    ids.push(o.id);
    values.push(provenanceWith(prefix, p.entryIds));
  }
}
