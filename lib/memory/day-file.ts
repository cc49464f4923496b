/**
 * Daily observation files: Markdown with YAML frontmatter (README, "File formats").
 *
 * The body is parsed with remark to find the list items; every byte that is not
 * an observation line (headings, notes a user added, blank lines) is kept as
 * raw text, so `format(parse(text)) === text` for any file, hand-edited or not.
 * Only what the program changes is re-formatted: appended or removed
 * observations and the frontmatter keys it owns.
 *
 * Provenance lives in a comment block at the end of the file, one line per observation id, so the
 * first lines of a file (what a chunking indexer such as OpenClaw's memory_search reads first) carry
 * observations, not ids:
 *   <!-- oc-memory provenance (id: source agent session entries)
 *   o-7f3a9c21e0: openclaw main 5f2a9c1e e1f2a3b4,c5d6e7f8
 *   -->
 * Files written before keep a `provenance:` map in the frontmatter; it is read, and moved to the
 * block the first time the program rewrites the file (README "File formats").
 *
 * Kept for speed, each beside the plain form it must equal: the frontmatter of owned keys written
 * without loading the `yaml` serialiser (formatPlainOwnedKeys, ~55 ms of a job; oracle: the
 * serialiser in test/memory/day-file.test.ts), and the provenance block written by hand and memoised
 * between a job's appends (formatProvenanceBlock; oracle: "a file written again after appends gets the
 * provenance block that formatting every entry gives", test/memory/day-file.test.ts). The append engine
 * (DayFileBuffer) appends as results arrive; `npm run bench -- observe` measures the job around them.
 */
import { createRequire } from 'node:module';
import type { List, ListItem, Root } from 'mdast';
import { OcmError } from '../core/errors.js';
import { editFrontmatter, formatYaml, readFrontmatterYaml, splitFrontmatter, yamlValue } from './frontmatter.js';
import { formatObservationLine, parseObservationContent } from './observation-line.js';
import type { Observation, Provenance, Tier } from '../core/types.js';

/*
 * The YAML and Markdown libraries are most of this module's loading time
 * (~200 ms), and a file the program wrote needs none but the frontmatter's
 * (lib/memory/frontmatter.ts): they load on first use.
 */
const require = createRequire(import.meta.url);

type MarkdownParse = (body: string) => Root;
function markdownParser(unified: typeof import('unified').unified, remarkParse: typeof import('remark-parse').default): MarkdownParse {
  return (body) => unified().use(remarkParse).parse(body) as Root;
}
/**
 * remark parses the bodies the fast path below does not take (hand-edited
 * files). It is ESM-only: Node >= 20.19 / 22.12 can require() it on first
 * use; older Node cannot, so there it is loaded with this module.
 */
let parseMarkdown: MarkdownParse | undefined = process.features.require_module
  ? undefined
  : await Promise.all([import('unified'), import('remark-parse')]).then(([u, r]) => markdownParser(u.unified, r.default));
function markdownTree(body: string): Root {
  parseMarkdown ??= markdownParser(
    (require('unified') as typeof import('unified')).unified,
    (require('remark-parse') as typeof import('remark-parse')).default,
  );
  return parseMarkdown(body);
}

export interface Frontmatter {
  /** Parsed data (empty when there is none or it is broken). */
  data: Record<string, unknown>;
  /** The exact frontmatter block including the `---` lines and final newline; '' when absent. */
  raw: string;
  /** The YAML error when the block is broken. */
  error?: string;
  /** Program changed the data: regenerate on format. */
  dirty: boolean;
  /**
   * The data as read, before the program changed anything: a changed block is edited key by key
   * against it (comments and the user's layout stay). Absent for a new block.
   */
  original?: Record<string, unknown>;
  /** Whether `raw` is exactly what the program writes for `original` (then it is written anew, fast). Decided on first write. */
  canonical?: boolean;
}

export type Segment =
  | { kind: 'raw'; text: string }
  | { kind: 'obs'; line: ParsedObservation; raw: string; dirty: boolean };

export interface ParsedObservation {
  priority: Observation['priority'];
  done: boolean;
  time: string;
  category: string;
  text: string;
  tags: string[];
  /** Undefined for a hand-written line without a block id. */
  id: string | undefined;
  /** Continuation lines (nested notes) under the item, kept verbatim. */
  extra: string;
  /** The id was written on a line of its own under the item (`  ^o-…`), not at the end of its first line. */
  idInExtra: boolean;
  /** 1-based line of the item in the file. */
  startLine: number;
  endLine: number;
}

export interface DayFile {
  frontmatter: Frontmatter;
  segments: Segment[];
  /**
   * How the file was saved, when not as the program writes it (UTF-8, no BOM, LF): a byte-order
   * mark (Windows Notepad), CRLF line endings throughout. Parsed without them, written back with them,
   * new lines included (see README "File formats").
   */
  encoding?: { bom: boolean; crlf: boolean };
  /** Provenance by observation id: the block at the end of the file (and a `provenance:` map of an older frontmatter). */
  provenance?: ProvenanceBlock;
}

export interface ProvenanceBlock {
  /** id → `source agent session entries` (see formatProvenance). */
  map: Record<string, unknown>;
  /** The segment that holds the block's text, in the file's segments (its text is '' while the file has no block). */
  segment: Segment & { kind: 'raw' };
  /** The map changed: the block is written anew. */
  dirty: boolean;
  /** The frontmatter still holds a `provenance:` map (a file written before the block): it goes on the next write. */
  inFrontmatter: boolean;
}

/** The first line of the provenance block, and its last. */
const PROVENANCE_OPEN = '<!-- oc-memory provenance';
const PROVENANCE_HEADER = `${PROVENANCE_OPEN} (id: source agent session entries)\n`;
const PROVENANCE_CLOSE = '-->';

const BOM = '\uFEFF';

/** The text without a leading BOM and, when every line ends in CRLF, with LF endings; and what was taken off. */
function withoutSavedEncoding(text: string): { text: string; encoding?: DayFile['encoding'] } {
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  // Only a file whose every newline is CRLF is normalised, so that writing LF back as CRLF gives the same bytes.
  const crlf = text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text);
  if (crlf) text = text.replace(/\r\n/g, '\n');
  return bom || crlf ? { text, encoding: { bom, crlf } } : { text };
}

const OWNED_KEYS = ['date', 'tier', 'agent', 'observations', 'tags'] as const;

function parseFrontmatter(text: string): { fm: Frontmatter; body: string; bodyLineOffset: number; provenance?: Record<string, unknown> } {
  const block = splitFrontmatter(text);
  if (!block) return { fm: { data: {}, raw: '', dirty: false }, body: text, bodyLineOffset: 0 };
  const { raw, body, lines: bodyLineOffset } = block;
  try {
    // js-yaml (lib/memory/frontmatter.ts): not the `yaml` package, whose duplicate-key check is quadratic,
    // ~40 ms for the 1000-entry provenance map of a busy day in a file written before the block.
    const data = readFrontmatterYaml(block.yaml);
    const original = { ...data };
    const provenance = data.provenance;
    if (provenance && typeof provenance === 'object' && !Array.isArray(provenance)) {
      delete data.provenance;
      return { fm: { data, raw, dirty: false, original }, body, bodyLineOffset, provenance: provenance as Record<string, unknown> };
    }
    return { fm: { data, raw, dirty: false, original }, body, bodyLineOffset };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { fm: { data: {}, raw, error: message, dirty: false }, body, bodyLineOffset };
  }
}

/** Where the provenance block sits in a body: [start, end) of its lines, and its map. Undefined when there is none. */
function findProvenanceBlock(body: string): { start: number; end: number; map: Record<string, unknown> } | undefined {
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

function hasSeveralProvenanceBlocks(body: string): boolean {
  const first = body.startsWith(PROVENANCE_OPEN) ? 0 : body.indexOf(`\n${PROVENANCE_OPEN}`);
  return first !== -1 && body.indexOf(`\n${PROVENANCE_OPEN}`, first + 1) !== -1;
}

/**
 * A body with more than one provenance block, as Git's union merge leaves a day file both devices
 * appended to (each side's block, one perhaps unclosed, with the other side's lines between): every
 * other line stays where it is, the provenance lines go into one block at the end. The file is then
 * not what was read: union repair writes it back (lib/jobs/sync/union-repair.ts).
 */
function joinProvenanceBlocks(body: string): string {
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

type ItemRange = { start: number; end: number; line: number; endLine: number; node?: ListItem };

const SIMPLE_HEADING = /^#{1,6}(?:[ \t]|$)/;
const SIMPLE_ITEM = /^- [^\s\-*+#>`~<|\d[]/u;

/**
 * Fast path (remark reads ~0.5 MB/s; a busy day file has 1000+ lines): a body
 * made only of blank lines, ATX headings and single-line "- " items — what the
 * program itself writes — has exactly one list item per item line. Anything
 * else (notes, nested or continued items, code, HTML, setext headings, CRLF,
 * trailing spaces…) returns undefined and goes through remark. Checked against
 * remark by test/search/search-day-file-speed.test.ts.
 */
export function simpleListItemRanges(body: string): ItemRange[] | undefined {
  if (body.includes('\r') || body.includes('\0')) return undefined;
  const out: ItemRange[] = [];
  let offset = 0;
  let lineNo = 1;
  for (const line of body.split('\n')) {
    if (line === '' || SIMPLE_HEADING.test(line)) {
      // blank or heading
    } else if (SIMPLE_ITEM.test(line) && !/\s$/.test(line)) {
      out.push({ start: offset, end: offset + line.length, line: lineNo, endLine: lineNo });
    } else {
      return undefined;
    }
    offset += line.length + 1;
    lineNo++;
  }
  return out;
}

/** Offsets of every top-level list item in a Markdown body, via remark. */
export function listItemRanges(body: string): ItemRange[] {
  const fast = simpleListItemRanges(body);
  if (fast) return fast;
  return remarkListItemRanges(body);
}

export function remarkListItemRanges(body: string): ItemRange[] {
  const tree = markdownTree(body);
  const out: ItemRange[] = [];
  for (const child of tree.children) {
    if (child.type !== 'list') continue;
    for (const item of (child as List).children) {
      const start = item.position?.start.offset;
      const end = item.position?.end.offset;
      if (start === undefined || end === undefined) continue;
      out.push({ start, end, line: item.position!.start.line, endLine: item.position!.end.line, node: item });
    }
  }
  return out;
}

/** Parse a day file. Never throws on content: broken frontmatter is kept and flagged. */
export function parseDayFile(saved: string): DayFile {
  const { text, encoding } = withoutSavedEncoding(saved);
  const { fm, body: saidBody, bodyLineOffset, provenance: inFrontmatter } = parseFrontmatter(text);
  const body = hasSeveralProvenanceBlocks(saidBody) ? joinProvenanceBlocks(saidBody) : saidBody;
  const segments: Segment[] = [];
  const found = findProvenanceBlock(body);
  let blockSegment: (Segment & { kind: 'raw' }) | undefined;
  if (!found) {
    pushBodySegments(segments, body, bodyLineOffset);
  } else {
    // The block is one raw segment; what a user wrote after it is read as usual.
    pushBodySegments(segments, body.slice(0, found.start), bodyLineOffset);
    blockSegment = { kind: 'raw', text: body.slice(found.start, found.end) };
    segments.push(blockSegment);
    if (found.end < body.length) {
      const before = body.slice(0, found.end);
      let lines = 0;
      for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lines++;
      pushBodySegments(segments, body.slice(found.end), bodyLineOffset + lines);
    }
  }
  const file: DayFile = encoding ? { frontmatter: fm, segments, encoding } : { frontmatter: fm, segments };
  if (found || inFrontmatter) {
    let map = found?.map ?? (Object.create(null) as Record<string, unknown>);
    if (inFrontmatter) {
      // Both (a file written before the block, then merged or edited): the block's lines win.
      map = Object.assign(Object.create(null) as Record<string, unknown>, inFrontmatter, found?.map);
    }
    file.provenance = { map, segment: blockSegment ?? { kind: 'raw', text: '' }, dirty: false, inFrontmatter: inFrontmatter !== undefined };
  }
  return file;
}

/** The segments of a Markdown body whose first line is line `lineOffset + 1` of the file. */
function pushBodySegments(segments: Segment[], body: string, lineOffset: number): void {
  let cursor = 0;
  for (const range of listItemRanges(body)) {
    const raw = body.slice(range.start, range.end);
    const firstNewline = raw.indexOf('\n');
    const firstLine = firstNewline === -1 ? raw : raw.slice(0, firstNewline);
    const bullet = /^[-*+][ \t]+/.exec(firstLine);
    const parsed = bullet ? parseObservationContent(firstLine.slice(bullet[0].length)) : undefined;
    if (!parsed) continue;
    if (range.start > cursor) segments.push({ kind: 'raw', text: body.slice(cursor, range.start) });
    const extra = firstNewline === -1 ? '' : raw.slice(firstNewline);
    // An id a user moved onto a line of its own under the item (Obsidian's style for a block id) is still its id.
    const ownLineId = parsed.id === undefined && extra !== '' ? OWN_LINE_ID.exec(extra)?.[1] : undefined;
    segments.push({
      kind: 'obs',
      raw,
      dirty: false,
      // Spelled out, not `...parsed`: a spread plus three keys is several times slower per line.
      line: {
        priority: parsed.priority,
        done: parsed.done,
        time: parsed.time,
        category: parsed.category,
        text: parsed.text,
        tags: parsed.tags,
        id: ownLineId ?? parsed.id,
        extra,
        idInExtra: ownLineId !== undefined,
        startLine: range.line + lineOffset,
        endLine: range.endLine + lineOffset,
      },
    });
    cursor = range.end;
  }
  if (cursor < body.length) segments.push({ kind: 'raw', text: body.slice(cursor) });
}

/** A continuation line that is only a block id. */
const OWN_LINE_ID = /\n[ \t]*\^(o-[0-9a-f]{6,})[ \t]*(?:\n|$)/;

function formatFrontmatter(fm: Frontmatter): string {
  if (!fm.dirty) return fm.raw;
  if (fm.raw === '' || fm.original === undefined) return canonicalFrontmatter(fm.data);
  fm.canonical ??= fm.raw === canonicalFrontmatter(fm.original);
  if (fm.canonical) return canonicalFrontmatter(fm.data);
  // Edited by hand (comments, flow lists, keys of the user's own): only the changed keys change,
  // and tags in the user's order stay in it while they are the same tags.
  const tags = fm.data.tags;
  const before = fm.original.tags;
  const data = Array.isArray(tags) && Array.isArray(before) && sameMembers(tags, before) ? { ...fm.data, tags: before } : fm.data;
  return editFrontmatter(fm.raw, fm.original, data, frontmatterScalar) ?? canonicalFrontmatter(fm.data);
}

function sameMembers(a: readonly unknown[], b: readonly unknown[]): boolean {
  const set = new Set(b);
  return a.length === set.size && a.every((v) => set.has(v));
}

/** A value in a frontmatter the program edits: as formatPlainOwnedKeys writes it, else quoted by the YAML serialiser. */
function frontmatterScalar(value: unknown): string {
  return isPlainWord(value) || (Number.isSafeInteger(value) && !Object.is(value, -0)) ? String(value) : yamlValue(value);
}

/** The frontmatter block exactly as the program writes it for `data` (owned keys first). */
function canonicalFrontmatter(data: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {};
  for (const key of OWNED_KEYS) if (data[key] !== undefined) ordered[key] = data[key];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'provenance' || key in ordered) continue;
    ordered[key] = value;
  }
  const provenance = data.provenance;
  const yaml =
    formatPlainOwnedKeys(ordered) ??
    (Object.keys(ordered).length ? formatYaml(ordered, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'any' }) : '').replace(
      /^tags:\n((?:\s+- .*\n)+)/m,
      (_m, items: string) => {
        const list = items
          .trim()
          .split('\n')
          .map((l) => l.replace(/^\s*-\s*/, '').trim());
        return `tags: [${list.join(', ')}]\n`;
      },
    );
  // A `provenance:` map only in the data as read from a file written before the block (to recognise its own text).
  return `---\n${yaml}${provenance === undefined ? '' : formatFrontmatterProvenance(provenance)}---\n`;
}

/** A string the `yaml` serialiser writes as it is: a name, a date, a tag; never one that reads as a number, bool or null. */
const PLAIN_WORD = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const READS_AS_OTHER_TYPE = /^(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-f]+|true|false|null|yes|no|on|off|y|n)$/i;
function isPlainWord(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_WORD.test(value) && !READS_AS_OTHER_TYPE.test(value);
}

/**
 * The owned keys exactly as the `yaml` serialiser (with the flow-style tags
 * above) writes them, without loading it (~55 ms of a job): only when every
 * key is owned and every value is a plain word or an integer, and the tags a
 * list of plain words — what the program writes. Undefined otherwise.
 * test/memory/day-file.test.ts checks it against the serialiser.
 */
function formatPlainOwnedKeys(ordered: Record<string, unknown>): string | undefined {
  let out = '';
  for (const [key, value] of Object.entries(ordered)) {
    if (!(OWNED_KEYS as readonly string[]).includes(key)) return undefined;
    if (key === 'tags' && Array.isArray(value)) {
      if (!value.every((tag) => isPlainWord(tag))) return undefined;
      out += `${key}: [${value.join(', ')}]\n`;
    } else if (isPlainWord(value) || (Number.isSafeInteger(value) && !Object.is(value, -0))) {
      out += `${key}: ${String(value)}\n`;
    } else {
      return undefined;
    }
  }
  return out;
}

/** A YAML plain scalar we may write unquoted (our ids and provenance strings always are). */
const PLAIN_SCALAR = /^[A-Za-z0-9_][A-Za-z0-9_.:%,/+ -]*$/;
/**
 * A subset of those decided by one test: starts with a letter (not a number),
 * words of plain characters without ':' or '#', single spaces between them.
 * Our ids and provenance strings are; the full test runs for anything else.
 */
const SIMPLE_SCALAR = /^[A-Za-z_][A-Za-z0-9_.%,/+-]*(?: [A-Za-z0-9_.%,/+-]+)*$/;
const RESERVED_WORD = /^(?:true|false|null|yes|no|on|off)$/i;
function yamlScalar(text: string): string {
  // (No reserved word is longer than 5 characters: ids and provenance strings skip that test.)
  if (SIMPLE_SCALAR.test(text) && (text.length > 5 || !RESERVED_WORD.test(text))) return text;
  return PLAIN_SCALAR.test(text) && !/: |:$| #|\s$/.test(text) && !/^(true|false|null|~|yes|no|on|off|[-+]?[0-9.]+(e[-+]?[0-9]+)?)$/i.test(text) ? text : JSON.stringify(text);
}

/**
 * The provenance block at the end of a day file: one `id: source agent session entries` line each,
 * inside an HTML comment (hidden in Obsidian's reading view). Written by hand: it grows with every
 * observation, and a long job writes it after every chunk (see ProvenanceMemo).
 */
function formatProvenanceBlock(map: Record<string, unknown>): string {
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
 * A `provenance:` map as the program wrote it into the frontmatter before the block: only to tell
 * a frontmatter the program wrote from one a user edited (see formatFrontmatter).
 */
function formatFrontmatterProvenance(provenance: unknown): string {
  if (!provenance || typeof provenance !== 'object' || Array.isArray(provenance)) return formatYaml({ provenance }, { lineWidth: 0 });
  const map = provenance as Record<string, unknown>;
  const ids = Object.keys(map);
  if (ids.length === 0) return 'provenance: {}\n';
  let out = 'provenance:\n';
  for (const id of ids) {
    const value = map[id];
    out += typeof value === 'string' ? `  ${yamlScalar(id)}: ${yamlScalar(value)}\n` : formatYaml({ [id]: value }, { lineWidth: 0 }).replace(/^/gm, '  ').replace(/ +$/, '');
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

function formatSegment(seg: Segment): string {
  if (seg.kind === 'raw') return seg.text;
  if (!seg.dirty) return seg.raw;
  const { line } = seg;
  // An id on a line of its own stays there (in `extra`).
  return formatObservationLine({ ...line, id: line.idInExtra ? '' : line.id ?? '' }) + line.extra;
}

/** The segments' text. */
function formatSegments(segments: readonly Segment[]): string {
  return segments.map(formatSegment).join('');
}

/** Serialise a day file. For an unchanged parse, returns the input byte for byte. */
export function formatDayFile(file: DayFile): string {
  settleProvenance(file);
  const text = formatFrontmatter(file.frontmatter) + formatSegments(file.segments);
  if (!file.encoding) return text;
  return (file.encoding.bom ? BOM : '') + (file.encoding.crlf ? text.replace(/\n/g, '\r\n') : text);
}

/**
 * Before a write: a `provenance:` map found in the frontmatter's data goes to the block (union-repair
 * reads a merged older frontmatter into the data), a file still holding such a map in its frontmatter
 * loses it there as soon as either part changes, and a changed block gets its new text.
 */
function settleProvenance(file: DayFile): void {
  const fm = file.frontmatter;
  const stray = fm.data.provenance;
  if (stray !== undefined) {
    delete fm.data.provenance;
    fm.dirty = true;
    if (stray && typeof stray === 'object' && !Array.isArray(stray)) {
      const block = provenanceBlock(file);
      for (const [id, value] of Object.entries(stray)) if (!(id in block.map)) block.map[id] = value;
      block.dirty = true;
    }
  }
  const block = file.provenance;
  if (!block) return;
  if (block.inFrontmatter && (fm.dirty || block.dirty)) {
    fm.dirty = true;
    block.dirty = true;
  }
  if (!block.dirty) return;
  const text = formatProvenanceBlock(block.map);
  const seg = block.segment;
  if (!file.segments.includes(seg)) {
    if (text === '') return;
    // A new block: last in the file, after a blank line.
    const body = formatSegments(file.segments);
    const sep = body === '' || body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
    if (sep !== '') file.segments.push({ kind: 'raw', text: sep });
    file.segments.push(seg);
  }
  seg.text = text;
}

/** A new, empty day file. */
export function createDayFile(options: { date: string; agent: string; tier: Tier; /** Body template (templates/daily.md); `{{date}}`, `{{agent}}` are filled in. */ template?: string }): DayFile {
  const template = options.template ?? '# {{date}}\n';
  const body = template.replace(/\{\{(date|agent)\}\}/g, (_m, key: 'date' | 'agent') => options[key]);
  return {
    frontmatter: {
      data: { date: options.date, tier: options.tier, agent: options.agent, observations: 0, tags: [] },
      raw: '',
      dirty: true,
    },
    segments: [{ kind: 'raw', text: body.endsWith('\n') ? body : `${body}\n` }],
  };
}

/** Characters `enc` changes: most fields (ids, names) have none, and a test is cheaper than three replaces. */
const PROVENANCE_SPECIAL = /[%\s,]/;
function enc(s: string): string {
  return PROVENANCE_SPECIAL.test(s) ? s.replace(/%/g, '%25').replace(/\s/g, '%20').replace(/,/g, '%2C') : s;
}

/** `source agent session e1,e2` ⇄ Provenance. Spaces inside fields are %-encoded. */
export function formatProvenance(p: Provenance): string {
  return provenanceWith(`${enc(p.source)} ${enc(p.agent)} ${enc(p.session)} `, p.entryIds);
}

/** formatProvenance from its encoded `source agent session ` prefix. */
function provenanceWith(prefix: string, entryIds: readonly string[]): string {
  return prefix + (entryIds.map(enc).join(',') || '-');
}

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

function provenanceMap(file: DayFile): Record<string, unknown> {
  return file.provenance?.map ?? NO_PROVENANCE;
}

/** The file's provenance block to add to; a new, empty one when it has none. */
function provenanceBlock(file: DayFile): ProvenanceBlock {
  // Prototype-less: an id is a key like any other (none finds Object.prototype's).
  file.provenance ??= { map: Object.create(null) as Record<string, unknown>, segment: { kind: 'raw', text: '' }, dirty: false, inFrontmatter: false };
  return file.provenance;
}

/** Ids written anywhere in the file's body but the provenance block (an id moved by hand off its line is still there). */
function mentionedIds(file: DayFile): Set<string> {
  const ids = new Set<string>();
  for (const seg of file.segments) {
    if (seg === file.provenance?.segment) continue;
    const text = seg.kind === 'raw' ? seg.text : seg.raw;
    for (const m of text.matchAll(/\bo-[0-9a-f]{6,}\b/g)) ids.add(m[0]);
  }
  return ids;
}

export interface FileContext {
  /** Date from the file name, used when frontmatter has none. */
  date?: string;
  agent?: string;
  tier?: Tier;
}

export interface LocatedObservation extends Observation {
  startLine: number;
  endLine: number;
}

/** Every observation in the file, with date/agent from frontmatter (or context) and provenance. */
export function listObservations(file: DayFile, context: FileContext = {}): LocatedObservation[] {
  const fmDate = typeof file.frontmatter.data.date === 'string' ? file.frontmatter.data.date : undefined;
  const date = fmDate ?? context.date ?? '';
  const agent = typeof file.frontmatter.data.agent === 'string' ? file.frontmatter.data.agent : context.agent ?? 'main';
  const prov = provenanceMap(file);
  const out: LocatedObservation[] = [];
  for (const seg of file.segments) {
    if (seg.kind !== 'obs') continue;
    const l = seg.line;
    const provenance = l.id ? parseProvenance(prov[l.id]) : undefined;
    out.push({
      id: l.id ?? `line-${l.startLine}`,
      date,
      time: l.time,
      priority: l.priority,
      done: l.done,
      category: l.category,
      text: l.text,
      tags: l.tags,
      agent,
      ...(provenance ? { provenance } : {}),
      startLine: l.startLine,
      endLine: l.endLine,
    });
  }
  return out;
}

export function observationIds(file: DayFile): Set<string> {
  const ids = new Set<string>();
  for (const seg of file.segments) if (seg.kind === 'obs' && seg.line.id) ids.add(seg.line.id);
  return ids;
}

/** Recount the owned keys and drop provenance of lines no longer there. `lineIds`: the file's ids, when the caller has them. */
function refreshOwnedFrontmatter(file: DayFile, lineIds?: Set<string>): void {
  let count = 0;
  const tags = new Set<string>();
  const ids = lineIds ?? new Set<string>();
  for (const s of file.segments) {
    if (s.kind !== 'obs') continue;
    count++;
    for (const t of s.line.tags) tags.add(t);
    if (!lineIds && s.line.id) ids.add(s.line.id);
  }
  const prov = provenanceMap(file);
  const keys = Object.keys(prov);
  // Provenance of ids no longer in the file goes. Usually every entry stays:
  // then the map is kept as it is (adding thousands of keys to a new object one by one is slow).
  // (An empty id is never a line's id.)
  const isLine = (id: string) => id !== '' && ids.has(id);
  if (!keys.every(isLine)) {
    // An id a user moved off its line (onto a line of its own, into a note) still exists: its provenance stays.
    const mentioned = mentionedIds(file);
    const kept = Object.create(null) as Record<string, unknown>;
    for (const id of keys) if (isLine(id) || mentioned.has(id)) kept[id] = prov[id];
    const block = provenanceBlock(file);
    block.map = kept;
    block.dirty = true;
    // The block's text follows at once (callers read the raw segments, e.g. to tell an emptied day).
    if (file.segments.includes(block.segment)) block.segment.text = formatProvenanceBlock(kept);
  }
  file.frontmatter.data.observations = count;
  file.frontmatter.data.tags = [...tags].sort();
  file.frontmatter.dirty = true;
}

/** Throws (BAD_INPUT, with a hint) when the program must not rewrite this file: its frontmatter is broken. */
export function assertWritable(file: DayFile, path: string): void {
  if (file.frontmatter.error) {
    throw new OcmError('BAD_INPUT', `${path} has a broken frontmatter block (${file.frontmatter.error}); it is not rewritten.`, {
      hint: 'Fix the YAML between the --- lines (or delete the block); the pending observations are written on the next run, nothing is lost.',
      details: { path },
    });
  }
}

/**
 * Append observations whose id is not in the file yet. Returns how many were
 * added. New lines go after the last observation (before any trailing notes).
 */
export function appendObservations(file: DayFile, observations: Observation[], path = 'day file'): number {
  return new DayFileAppender(file).append(observations, path);
}

/**
 * One day file that is appended to many times (a long observe job appends each chunk's observations as they
 * arrive). appendObservations recounts the whole file (ids, tags, provenance) on every append; here only the
 * first append does, and later ones update the count, tags and provenance from their new lines alone, which
 * gives the same file as long as nothing else changes it meanwhile.
 */
export class DayFileAppender {
  /** Ids of the file's lines. */
  readonly ids: Set<string>;
  /** The file's tags and number of lines once the first append has recounted them (then its owned keys are current). */
  private tags: Set<string> | undefined;
  private count = 0;

  constructor(readonly file: DayFile) {
    this.ids = observationIds(file);
  }

  /** appendObservations: throws, changing nothing, when the file would change but has a broken frontmatter. */
  append(observations: Observation[], path = 'day file'): number {
    // Each loop below is a function of its own: a job appends a few times to each of its day files,
    // thousands of lines at a time, so the loops are what gets optimised, one small function each.
    if (allKnown(this.ids, observations)) return 0;
    assertWritable(this.file, path);
    const fresh = observations.filter((o) => !this.ids.has(o.id) && (this.ids.add(o.id), true));
    insertInTimeOrder(this.file.segments, fresh, this.file.provenance?.segment);
    // Added to the file's own map (not a copy of it: copying thousands of keys per append is slow).
    const block = provenanceBlock(this.file);
    if (addProvenance(block.map, fresh) > 0) block.dirty = true;
    this.updateOwnedFrontmatter(fresh.length, tagsOf(fresh));
    return fresh.length;
  }

  /**
   * The last `count` lines of `other` (an earlier state of this file, whose newest lines are not on disk)
   * that this file does not have, appended as they are there, with their provenance: for a file that
   * was edited on disk meanwhile. Returns how many.
   */
  appendLastLinesOf(other: DayFile, count: number, path = 'day file'): number {
    const lines = lastObservationSegments(other.segments, count).filter((s) => !this.ids.has(s.line.id!));
    if (lines.length === 0) return 0;
    assertWritable(this.file, path);
    const added: Segment[] = [];
    const from = provenanceMap(other);
    const block = provenanceBlock(this.file);
    const prov = block.map;
    let withProvenance = 0;
    for (const seg of lines) {
      const id = seg.line.id!;
      this.ids.add(id);
      added.push({ kind: 'raw', text: '\n' }, seg);
      if (from[id] !== undefined) {
        prov[id] = from[id];
        withProvenance++;
      }
    }
    insertSegments(this.file.segments, added, this.file.provenance?.segment);
    if (withProvenance > 0) block.dirty = true;
    const tags = new Set<string>();
    for (const seg of lines) for (const t of seg.line.tags) tags.add(t);
    this.updateOwnedFrontmatter(lines.length, tags);
    return lines.length;
  }

  /** The owned keys after `added` new lines with these tags. */
  private updateOwnedFrontmatter(added: number, newTags: Set<string>): void {
    const fm = this.file.frontmatter;
    if (this.tags === undefined) {
      // `ids` now holds exactly the ids of the file's lines.
      refreshOwnedFrontmatter(this.file, this.ids);
      this.tags = new Set(fm.data.tags as string[]);
      this.count = fm.data.observations as number;
      return;
    }
    // Since the recount every provenance key is a line's, and new lines only add keys: none goes.
    this.count += added;
    fm.data.observations = this.count;
    const before = this.tags.size;
    for (const t of newTags) this.tags.add(t);
    if (this.tags.size !== before) fm.data.tags = [...this.tags].sort();
    fm.dirty = true;
  }
}

function allKnown(ids: Set<string>, observations: Observation[]): boolean {
  return observations.every((o) => ids.has(o.id));
}

function tagsOf(observations: Observation[]): Set<string> {
  const tags = new Set<string>();
  for (const o of observations) for (const t of o.tags) tags.add(t);
  return tags;
}

/** The last `count` observation segments with an id, in file order. */
function lastObservationSegments(segments: readonly Segment[], count: number): Array<Segment & { kind: 'obs' }> {
  const out: Array<Segment & { kind: 'obs' }> = [];
  for (let i = segments.length - 1; i >= 0 && out.length < count; i--) {
    const seg = segments[i]!;
    if (seg.kind === 'obs' && seg.line.id) out.push(seg);
  }
  return out.reverse();
}

/** The ParsedObservation of an observation being appended (no continuation lines, no place yet). */
function appendedLine(o: Observation): ParsedObservation {
  return { priority: o.priority, done: o.done, time: o.time, category: o.category, text: o.text, tags: o.tags, id: o.id, extra: '', idInExtra: false, startLine: 0, endLine: 0 };
}

/** A blank-line separator and the formatted line, for each observation. */
function observationSegments(observations: Observation[]): Segment[] {
  return observations.flatMap((o): Segment[] => [
    { kind: 'raw', text: '\n' },
    { kind: 'obs', line: appendedLine(o), raw: formatObservationLine(o), dirty: false },
  ]);
}

/** Are the file's timed observation lines in time order? */
function inTimeOrder(segments: readonly Segment[]): boolean {
  let previous = '';
  for (const seg of segments) {
    if (seg.kind !== 'obs' || !seg.line.time) continue;
    if (seg.line.time < previous) return false;
    previous = seg.line.time;
  }
  return true;
}

/** Earlier first; a line without a time after every line with one (stable otherwise). */
function byTime(a: { time: string }, b: { time: string }): number {
  if (!a.time || !b.time) return (a.time ? 0 : 1) - (b.time ? 0 : 1);
  return a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
}

/**
 * Insert new observations so that the day reads in time order: each after the last line whose time
 * is not later than its own (before the first line when every line is later). Sources and sessions
 * are observed one after another, so a later batch may hold earlier messages (05:01 must not come
 * before 00:40). The usual case — everything new is later — is one append after the last line.
 */
function insertInTimeOrder(segments: Segment[], fresh: Observation[], provenanceSegment?: Segment): void {
  const sorted = [...fresh].sort(byTime);
  let last = segments.length - 1;
  while (last >= 0 && segments[last]!.kind !== 'obs') last--;
  const lastTime = last >= 0 ? (segments[last] as Segment & { kind: 'obs' }).line.time : '';
  // A file whose lines a user put in another order keeps it: new lines go after the last one.
  if (last < 0 || !lastTime || !sorted.some((o) => o.time && o.time < lastTime) || !inTimeOrder(segments)) {
    insertSegments(segments, observationSegments(sorted), provenanceSegment);
    return;
  }
  // Lines earlier than the file's last one go in place; the rest (sorted, not earlier) after them.
  const early = sorted.filter((o) => o.time && o.time < lastTime);
  const late = sorted.filter((o) => !(o.time && o.time < lastTime));
  for (const o of early) {
    const seg: Segment = { kind: 'obs', line: appendedLine(o), raw: formatObservationLine(o), dirty: false };
    let j = segments.length - 1;
    while (j >= 0 && !(segments[j]!.kind === 'obs' && (segments[j] as Segment & { kind: 'obs' }).line.time !== '' && (segments[j] as Segment & { kind: 'obs' }).line.time <= o.time)) j--;
    if (j >= 0) {
      segments.splice(j + 1, 0, { kind: 'raw', text: '\n' }, seg);
    } else {
      let first = 0;
      while (segments[first]!.kind !== 'obs') first++;
      segments.splice(first, 0, seg, { kind: 'raw', text: '\n' });
    }
  }
  if (late.length > 0) insertSegments(segments, observationSegments(late), provenanceSegment);
}

/**
 * Insert new observation segments (each after its separator) after the last observation, before
 * any trailing notes and the provenance block; the first observations go after the existing text, after a blank line.
 * The file then ends with a newline.
 */
function insertSegments(segments: Segment[], added: Segment[], provenanceSegment?: Segment): void {
  let lastObs = segments.length - 1;
  while (lastObs >= 0 && segments[lastObs]!.kind !== 'obs') lastObs--;
  const block = lastObs < 0 && provenanceSegment ? segments.indexOf(provenanceSegment) : -1;
  if (block !== -1) {
    // No observation yet, but a provenance block (of ids a user moved off their lines): the new lines go before it.
    const after = segments.splice(block);
    const body = formatSegments(segments);
    added[0] = { kind: 'raw', text: body === '' || body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n' };
    for (const seg of added) segments.push(seg);
    segments.push({ kind: 'raw', text: '\n\n' });
    for (const seg of after) segments.push(seg);
  } else if (lastObs >= 0) {
    // In place, without spreading the new segments as arguments (a long list would overflow the stack).
    const after = segments.splice(lastObs + 1);
    for (const seg of added) segments.push(seg);
    for (const seg of after) segments.push(seg);
  } else {
    const body = formatSegments(segments);
    const sep = body === '' ? '' : body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
    added[0] = { kind: 'raw', text: sep };
    for (const seg of added) segments.push(seg);
  }
  if (segments[segments.length - 1]!.kind === 'obs') segments.push({ kind: 'raw', text: '\n' });
}

/** Provenance lines of new observations, in the file's map. Returns how many. */
function addProvenance(prov: Record<string, unknown>, observations: Observation[]): number {
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

/** Remove observations by id (with their continuation lines). Returns the removed ids. */
export function removeObservations(file: DayFile, ids: Iterable<string>, path = 'day file'): string[] {
  const wanted = new Set(ids);
  const removed: string[] = [];
  const next: Segment[] = [];
  for (const seg of file.segments) {
    if (seg.kind === 'obs' && seg.line.id && wanted.has(seg.line.id)) {
      removed.push(seg.line.id);
      // Drop the newline that separated it from the previous segment.
      const prev = next[next.length - 1];
      if (prev && prev.kind === 'raw' && prev.text.endsWith('\n')) prev.text = prev.text.slice(0, -1);
      continue;
    }
    next.push(seg);
  }
  if (removed.length === 0) return removed;
  assertWritable(file, path);
  // Re-join a leading newline if we stripped one before a following obs line.
  for (let i = 1; i < next.length; i++) {
    const prev = next[i - 1]!;
    const cur = next[i]!;
    if (cur.kind === 'obs' && prev.kind === 'raw' && !prev.text.endsWith('\n') && prev.text !== '') prev.text += '\n';
    if (cur.kind === 'obs' && prev.kind === 'obs') next.splice(i, 0, { kind: 'raw', text: '\n' });
  }
  file.segments = next.filter((s) => !(s.kind === 'raw' && s.text === ''));
  refreshOwnedFrontmatter(file);
  return removed;
}

/** Replace fields of one observation (marks it for re-formatting). */
export function updateObservation(file: DayFile, id: string, patch: Partial<Pick<Observation, 'priority' | 'done' | 'category' | 'text' | 'tags' | 'time'>>): boolean {
  for (const seg of file.segments) {
    if (seg.kind === 'obs' && seg.line.id === id) {
      Object.assign(seg.line, patch);
      seg.dirty = true;
      refreshOwnedFrontmatter(file);
      return true;
    }
  }
  return false;
}

/** Set a frontmatter key the program owns (e.g. tier when a file moves). */
export function setFrontmatter(file: DayFile, key: string, value: unknown): void {
  file.frontmatter.data[key] = value;
  file.frontmatter.dirty = true;
}

/** Date (YYYY-MM-DD) from a day file's name, if it has one. */
export function dateFromFileName(path: string): string | undefined {
  const m = /(\d{4}-\d{2}-\d{2})(?:[^/\\]*)?\.md$/.exec(path);
  return m?.[1];
}
