/**
 * An index segment: the inverted index of ONE memory file, in a compact
 * binary file that loads without parsing (typed-array views over the bytes).
 *
 * Why not MiniSearch's JSON: at 100k observations MiniSearch takes ~415 MB of
 * heap, ~1.5 s to loadJSON and 50–150 ms per query (measured, see the README
 * "Search" section) — a fresh `ocm-run search` process could not answer in
 * 300 ms. Here a query reads only the term dictionaries and postings of the
 * segments in scope, and the stored text of the top hits.
 *
 * Layout (little-endian):
 *   "OCMSEG01" | u32 header length | header JSON | pad to 8 |
 *   sections (each 8-byte aligned, offsets in the header) | store (JSON lines)
 * The store (display fields: text, tags, provenance, lines) comes last and is
 * read only for the documents a query returns.
 *
 * A segment holds the documents of one memory file, or — a pack (lib/search/pack.ts)
 * — of many files, each a contiguous run of documents listed in `files`.
 *
 * Size: the segment format — its writer and its reader belong together, so a change to the layout is made in
 * one place.
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { analyze, ANALYZER_VERSION, ownDateTerms } from './tokenizer.js';
import type { ObservationMark, Priority, Provenance, Tier } from '../core/types.js';
import type { SearchDoc } from './types.js';

export const SEGMENT_FORMAT = 1;
const MAGIC = Buffer.from('OCMSEG01', 'latin1');
const PRIORITIES: Priority[] = ['high', 'medium', 'low'];
export const PRIORITY_CODE: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

/** One source file of a segment: its documents are firstDoc … firstDoc + docs - 1. */
export interface SegmentFile {
  path: string;
  /** Content hash of the file the documents were read from. */
  sourceHash: string;
  firstDoc: number;
  docs: number;
  /** Sum of the documents' lengths (terms). */
  length: number;
}

export interface SegmentHeader {
  format: number;
  analyzer: number;
  /** 0x01020304 written as u32: detects a different byte order. */
  bom: number;
  /** The source file ('' for a pack: see `files`). */
  path: string;
  tier: Tier;
  /** Content hash of the source file ('' for a pack). */
  sourceHash: string;
  /** The source files, in document order (absent in segments written before packs: one file, `path`). */
  files?: SegmentFile[];
  docCount: number;
  totalLength: number;
  termCount: number;
  postingCount: number;
  minDay: number;
  maxDay: number;
  categories: string[];
  agents: string[];
  tags: string[];
  sections: Record<SectionName, [offset: number, byteLength: number]>;
  storeOffset: number;
  storeLength: number;
}

export type SectionName =
  | 'termOffsets'
  | 'termBytes'
  | 'postingStart'
  | 'postingDoc'
  | 'postingTf'
  | 'docLength'
  | 'docDay'
  | 'docMinute'
  | 'docPriority'
  | 'docCategory'
  | 'docAgent'
  | 'docTagStart'
  | 'docTagIds'
  | 'idOffsets'
  | 'idBytes'
  | 'storeOffsets';

/** The display fields kept per document (the rest lives in columns). */
export interface StoredDoc {
  id: string;
  startLine: number;
  endLine: number;
  time: string;
  done: boolean;
  text: string;
  tags: string[];
  provenance?: Provenance;
  mark?: ObservationMark;
}

export class SegmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SegmentError';
  }
}

/** YYYY-MM-DD → 20260212 (0 when unknown). */
export function dayNumber(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return m ? Number(m[1]) * 10000 + Number(m[2]) * 100 + Number(m[3]) : 0;
}

export function dayString(day: number): string {
  if (!day) return '';
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** HH:MM → minutes since midnight (-1 when unknown). */
export function minuteNumber(time: string): number {
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : -1;
}

/** The terms a document is indexed under: its text, tags and category. */
export function documentTerms(doc: Pick<SearchDoc, 'text' | 'tags' | 'category'> & { date?: string }): string[] {
  const terms = analyze(doc.text);
  if (doc.date) for (const t of ownDateTerms(doc.date)) terms.push(t);
  for (const tag of doc.tags) for (const t of analyze(tag.replace(/[/_-]/g, ' '))) terms.push(t);
  if (doc.category && doc.category !== 'fact') for (const t of analyze(doc.category)) terms.push(t);
  return terms;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** Build the bytes of a segment for the documents of one file. */
export function buildSegment(docs: SearchDoc[], meta: { path: string; tier: Tier; sourceHash: string }): Buffer {
  const docCount = docs.length;
  const postingsByTerm = new Map<string, number[]>();
  const docLength = new Uint16Array(docCount);
  let totalLength = 0;
  const categories: string[] = [];
  const agents: string[] = [];
  const tags: string[] = [];
  const index = (list: string[], value: string) => {
    let i = list.indexOf(value);
    if (i === -1) i = list.push(value) - 1;
    return i;
  };
  const docDay = new Uint32Array(docCount);
  const docMinute = new Int16Array(docCount);
  const docPriority = new Uint8Array(docCount);
  const docCategory = new Uint16Array(docCount);
  const docAgent = new Uint16Array(docCount);
  const docTagStart = new Uint32Array(docCount + 1);
  const tagIds: number[] = [];
  let minDay = 0;
  let maxDay = 0;
  for (let d = 0; d < docCount; d++) {
    const doc = docs[d]!;
    const terms = documentTerms(doc);
    const length = Math.min(terms.length, 0xffff);
    docLength[d] = length;
    totalLength += length;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let list = postingsByTerm.get(t);
      if (!list) postingsByTerm.set(t, (list = []));
      list.push(d, Math.min(n, 0xffff));
    }
    const day = dayNumber(doc.date);
    docDay[d] = day;
    if (day) {
      minDay = minDay === 0 ? day : Math.min(minDay, day);
      maxDay = Math.max(maxDay, day);
    }
    docMinute[d] = minuteNumber(doc.time);
    docPriority[d] = PRIORITY_CODE[doc.priority] ?? 1;
    docCategory[d] = index(categories, doc.category);
    docAgent[d] = index(agents, doc.agent);
    docTagStart[d] = tagIds.length;
    for (const tag of doc.tags) tagIds.push(index(tags, tag.toLowerCase()));
  }
  docTagStart[docCount] = tagIds.length;

  const encoded = [...postingsByTerm.keys()].map((t) => ({ term: t, bytes: Buffer.from(t, 'utf8') }));
  encoded.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const termCount = encoded.length;
  const termOffsets = new Uint32Array(termCount + 1);
  const termBytes = Buffer.concat(encoded.map((e) => e.bytes));
  const postingStart = new Uint32Array(termCount + 1);
  let postingCount = 0;
  for (const list of postingsByTerm.values()) postingCount += list.length / 2;
  const postingDoc = new Uint32Array(postingCount);
  const postingTf = new Uint16Array(postingCount);
  let byteOffset = 0;
  let p = 0;
  for (let i = 0; i < termCount; i++) {
    termOffsets[i] = byteOffset;
    byteOffset += encoded[i]!.bytes.length;
    postingStart[i] = p;
    const list = postingsByTerm.get(encoded[i]!.term)!;
    for (let j = 0; j < list.length; j += 2) {
      postingDoc[p] = list[j]!;
      postingTf[p] = list[j + 1]!;
      p++;
    }
  }
  termOffsets[termCount] = byteOffset;
  postingStart[termCount] = p;

  const idChunks = docs.map((d) => Buffer.from(d.id, 'utf8'));
  const idOffsets = new Uint32Array(docCount + 1);
  let o = 0;
  idChunks.forEach((c, i) => {
    idOffsets[i] = o;
    o += c.length;
  });
  idOffsets[docCount] = o;

  const storeChunks = docs.map((d) => {
    const stored: StoredDoc = {
      id: d.id,
      startLine: d.startLine,
      endLine: d.endLine,
      time: d.time,
      done: d.done,
      text: d.text,
      tags: d.tags,
      provenance: d.provenance,
      ...(d.mark ? { mark: d.mark } : {}),
    };
    return Buffer.from(`${JSON.stringify(stored)}\n`, 'utf8');
  });
  const storeOffsets = new Uint32Array(docCount + 1);
  o = 0;
  storeChunks.forEach((c, i) => {
    storeOffsets[i] = o;
    o += c.length;
  });
  storeOffsets[docCount] = o;

  return encodeSegment(
    {
      path: meta.path,
      tier: meta.tier,
      sourceHash: meta.sourceHash,
      files: [{ path: meta.path, sourceHash: meta.sourceHash, firstDoc: 0, docs: docCount, length: totalLength }],
      docCount,
      totalLength,
      termCount,
      postingCount,
      minDay,
      maxDay,
      categories,
      agents,
      tags,
    },
    {
      termOffsets,
      termBytes,
      postingStart,
      postingDoc,
      postingTf,
      docLength,
      docDay,
      docMinute,
      docPriority,
      docCategory,
      docAgent,
      docTagStart,
      docTagIds: new Uint16Array(tagIds),
      idOffsets,
      idBytes: Buffer.concat(idChunks),
      storeOffsets,
    },
    storeChunks,
  );
}

/** What describes a segment's content (the rest of the header is layout). */
export type SegmentDescription = Omit<SegmentHeader, 'format' | 'analyzer' | 'bom' | 'sections' | 'storeOffset' | 'storeLength'>;

/** Where everything goes in a segment file. */
export interface SegmentLayout {
  /** Magic, header length and header: the first bytes of the file. */
  prefix: Buffer;
  /** Each section's bytes at its (8-aligned) offset, in file order. */
  sections: Array<{ offset: number; bytes: Uint8Array }>;
  storeOffset: number;
  /** File size. */
  size: number;
}

/** Lay out a segment file: magic, header, 8-aligned sections, then `storeLength` bytes of store. */
export function layoutSegment(
  description: SegmentDescription,
  sections: Record<SectionName, ArrayBufferView>,
  storeLength: number,
): SegmentLayout {
  const sectionData = Object.entries(sections) as Array<[SectionName, ArrayBufferView]>;
  const header: SegmentHeader = {
    format: SEGMENT_FORMAT,
    analyzer: ANALYZER_VERSION,
    bom: 0x01020304,
    ...description,
    sections: {} as SegmentHeader['sections'],
    storeOffset: 0,
    storeLength,
  };
  // Offsets depend on the header length, which depends on the offsets: lay out
  // sections after a header padded to a fixed, generous size.
  const headerProbe = Buffer.from(
    JSON.stringify({
      ...header,
      sections: Object.fromEntries(sectionData.map(([n]) => [n, [4294967295, 4294967295]])),
      storeOffset: 4294967295,
    }),
    'utf8',
  );
  const dataStart = align8(12 + headerProbe.length);
  let cursor = dataStart;
  const placed: SegmentLayout['sections'] = [];
  for (const [name, view] of sectionData) {
    header.sections[name] = [cursor, view.byteLength];
    placed.push({ offset: cursor, bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength) });
    cursor = align8(cursor + view.byteLength);
  }
  header.storeOffset = cursor;
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12 + headerBytes.length);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(prefix, 12);
  return { prefix, sections: placed, storeOffset: cursor, size: cursor + storeLength };
}

/** A whole segment file in memory: its layout, then the store from its chunks, in order. */
export function encodeSegment(
  description: SegmentDescription,
  sections: Record<SectionName, ArrayBufferView>,
  store: Uint8Array[],
): Buffer {
  let storeLength = 0;
  for (const chunk of store) storeLength += chunk.length;
  const layout = layoutSegment(description, sections, storeLength);
  const out = Buffer.alloc(layout.size);
  layout.prefix.copy(out, 0);
  for (const { offset, bytes } of layout.sections) out.set(bytes, offset);
  let cursor = layout.storeOffset;
  for (const chunk of store) {
    out.set(chunk, cursor);
    cursor += chunk.length;
  }
  return out;
}

/** Read bytes [from, to) of the file into the same positions of `bytes`. */
function readFully(fd: number, bytes: Buffer, from: number, to: number): void {
  let at = from;
  while (at < to) {
    const n = readSync(fd, bytes, at, to - at, at);
    if (n === 0) throw new SegmentError('file truncated');
    at += n;
  }
}

/**
 * The byte range of the postings sections (postingDoc, postingTf: next to each
 * other, no other section inside) past `readFrom` (what is read already), or
 * undefined when that is too little to be worth leaving out of the read.
 */
function postingsGap(header: SegmentHeader, readFrom: number): [number, number] | undefined {
  const s = header.sections;
  if (!Array.isArray(s?.postingDoc) || !Array.isArray(s?.postingTf)) return undefined;
  const start = Math.min(s.postingDoc[0], s.postingTf[0]);
  const end = Math.max(s.postingDoc[0] + s.postingDoc[1], s.postingTf[0] + s.postingTf[1]);
  if (end > header.storeOffset || end - Math.max(start, readFrom) < 65536) return undefined;
  for (const [name, [offset, length]] of Object.entries(s)) {
    if (name !== 'postingDoc' && name !== 'postingTf' && offset < end && offset + length > start) return undefined;
  }
  return [Math.max(start, readFrom), end];
}

/** One buffer for reading many segments one after the other (merging), instead of one buffer each. */
export class SegmentScratch {
  private buffer = new ArrayBuffer(0);

  /** A view of the first `length` bytes (8-aligned); when it has to grow, the first `keep` bytes are kept. */
  take(length: number, keep = 0): Buffer {
    if (this.buffer.byteLength < length) {
      const grown = new ArrayBuffer(Math.max(length, 2 * this.buffer.byteLength));
      new Uint8Array(grown).set(new Uint8Array(this.buffer, 0, keep));
      this.buffer = grown;
    }
    return Buffer.from(this.buffer, 0, length);
  }
}

/** A loaded segment: typed-array views over its bytes (the store stays on disk). */
export class Segment {
  readonly header: SegmentHeader;
  readonly file: string;
  readonly termOffsets: Uint32Array;
  readonly termBytes: Buffer;
  readonly postingStart: Uint32Array;
  readonly postingDoc: Uint32Array;
  readonly postingTf: Uint16Array;
  readonly docLength: Uint16Array;
  readonly docDay: Uint32Array;
  readonly docMinute: Int16Array;
  readonly docPriority: Uint8Array;
  readonly docCategory: Uint16Array;
  readonly docAgent: Uint16Array;
  readonly docTagStart: Uint32Array;
  readonly docTagIds: Uint16Array;
  readonly idOffsets: Uint32Array;
  readonly idBytes: Buffer;
  readonly storeOffsets: Uint32Array;
  /** The source files, in document order (one for a file's own segment, many for a pack). */
  readonly files: SegmentFile[];

  /** For a segment loaded with lazy postings: 1 for each term whose postings are in memory. */
  private postingsLoaded: Uint8Array | undefined;

  private constructor(file: string, header: SegmentHeader, bytes: Buffer, lazyPostings = false) {
    this.file = file;
    this.header = header;
    const section = <T>(
      name: SectionName,
      Ctor: { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number },
    ): T => {
      const entry = header.sections[name];
      if (!Array.isArray(entry) || entry.length !== 2) throw new SegmentError(`section ${name} missing`);
      const [offset, byteLength] = entry;
      if (offset + byteLength > bytes.length || offset % 8 !== 0 || byteLength % Ctor.BYTES_PER_ELEMENT !== 0)
        throw new SegmentError(`section ${name} out of bounds`);
      return new Ctor(bytes.buffer, bytes.byteOffset + offset, byteLength / Ctor.BYTES_PER_ELEMENT);
    };
    const raw = (name: SectionName): Buffer => {
      const [offset, byteLength] = header.sections[name];
      if (offset + byteLength > bytes.length) throw new SegmentError(`section ${name} out of bounds`);
      return bytes.subarray(offset, offset + byteLength);
    };
    this.termOffsets = section('termOffsets', Uint32Array);
    this.termBytes = raw('termBytes');
    this.postingStart = section('postingStart', Uint32Array);
    this.postingDoc = section('postingDoc', Uint32Array);
    this.postingTf = section('postingTf', Uint16Array);
    this.docLength = section('docLength', Uint16Array);
    this.docDay = section('docDay', Uint32Array);
    this.docMinute = section('docMinute', Int16Array);
    this.docPriority = section('docPriority', Uint8Array);
    this.docCategory = section('docCategory', Uint16Array);
    this.docAgent = section('docAgent', Uint16Array);
    this.docTagStart = section('docTagStart', Uint32Array);
    this.docTagIds = section('docTagIds', Uint16Array);
    this.idOffsets = section('idOffsets', Uint32Array);
    this.idBytes = raw('idBytes');
    this.storeOffsets = section('storeOffsets', Uint32Array);
    const { docCount, termCount, postingCount } = header;
    if (
      this.termOffsets.length !== termCount + 1 ||
      this.postingStart.length !== termCount + 1 ||
      this.postingDoc.length !== postingCount ||
      this.docLength.length !== docCount ||
      this.storeOffsets.length !== docCount + 1 ||
      this.idOffsets.length !== docCount + 1 ||
      this.postingStart[termCount] !== postingCount ||
      this.termOffsets[termCount] !== this.termBytes.length
    ) {
      throw new SegmentError('section sizes do not match the header');
    }
    this.files = header.files ?? [
      { path: header.path, sourceHash: header.sourceHash, firstDoc: 0, docs: docCount, length: header.totalLength },
    ];
    let next = 0;
    for (const f of this.files) {
      if (
        !f ||
        typeof f.path !== 'string' ||
        typeof f.sourceHash !== 'string' ||
        f.firstDoc !== next ||
        !(f.docs >= 0) ||
        !(f.length >= 0)
      ) {
        throw new SegmentError('file table does not match the documents');
      }
      next += f.docs;
    }
    if (next !== docCount) throw new SegmentError('file table does not match the documents');
    if (lazyPostings) this.postingsLoaded = new Uint8Array(termCount);
  }

  /**
   * Make sure the postings of these terms are in `postingDoc` / `postingTf`
   * (a segment loaded with lazy postings reads them now, one open for all).
   * Every reader of postings calls this first.
   */
  loadPostings(terms: readonly number[]): void {
    const loaded = this.postingsLoaded;
    if (!loaded || terms.every((i) => loaded[i])) return;
    const fd = openSync(this.file, 'r');
    try {
      for (const i of terms) {
        if (loaded[i]) continue;
        const from = this.postingStart[i]!;
        const to = this.postingStart[i + 1]!;
        for (const [name, view] of [
          ['postingDoc', this.postingDoc],
          ['postingTf', this.postingTf],
        ] as const) {
          const size = view.BYTES_PER_ELEMENT;
          const target = new Uint8Array(view.buffer, view.byteOffset + from * size, (to - from) * size);
          if (target.length > 0 && readSync(fd, target, 0, target.length, this.header.sections[name][0] + from * size) !== target.length) {
            throw new SegmentError('postings truncated');
          }
        }
        loaded[i] = 1;
      }
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Read a segment file (everything but the store). Throws SegmentError when
   * it is not a valid segment. With `scratch`, the bytes are read into its
   * buffer (the segment is valid until the next load into the same scratch).
   * With `lazyPostings`, the postings of a large segment stay on disk until
   * `loadPostings` asks for some terms' (a query needs a few terms of thousands).
   */
  static load(file: string, options: { scratch?: SegmentScratch; lazyPostings?: boolean } = {}): Segment {
    const { scratch } = options;
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < 12) throw new SegmentError('file too short');
      // Read into a fresh ArrayBuffer (offset 0, so 8-aligned for the typed-array views):
      // a small segment is then used in place, without a second buffer and a copy.
      const firstLength = Math.min(size, 65536);
      const first = scratch ? scratch.take(firstLength) : Buffer.from(new ArrayBuffer(firstLength));
      readSync(fd, first, 0, first.length, 0);
      if (!first.subarray(0, 8).equals(MAGIC)) throw new SegmentError('not a segment file');
      const headerLength = first.readUInt32LE(8);
      if (12 + headerLength > size) throw new SegmentError('header truncated');
      let headerBytes: Buffer;
      if (12 + headerLength <= first.length) headerBytes = first.subarray(12, 12 + headerLength);
      else {
        headerBytes = Buffer.alloc(headerLength);
        readSync(fd, headerBytes, 0, headerLength, 12);
      }
      let header: SegmentHeader;
      try {
        header = JSON.parse(headerBytes.toString('utf8')) as SegmentHeader;
      } catch {
        throw new SegmentError('header is not JSON');
      }
      if (header.format !== SEGMENT_FORMAT || header.analyzer !== ANALYZER_VERSION) throw new SegmentError('version mismatch');
      if (header.bom !== 0x01020304) throw new SegmentError('byte order mismatch');
      if (header.storeOffset + header.storeLength !== size) throw new SegmentError('size does not match the header (truncated?)');
      let bytes: Buffer;
      let lazy = false;
      if (header.storeOffset <= first.length) bytes = first.subarray(0, header.storeOffset);
      else {
        // A fresh (or the scratch's), 8-aligned buffer for the typed-array views.
        if (scratch) bytes = scratch.take(header.storeOffset, first.length);
        else {
          bytes = Buffer.from(new ArrayBuffer(header.storeOffset));
          first.copy(bytes, 0);
        }
        const gap = options.lazyPostings ? postingsGap(header, first.length) : undefined;
        if (gap) {
          // Everything but the postings (the gap's pages are never touched).
          readFully(fd, bytes, first.length, gap[0]);
          readFully(fd, bytes, gap[1], header.storeOffset);
          lazy = true;
        } else readFully(fd, bytes, first.length, header.storeOffset);
      }
      return new Segment(file, header, bytes, lazy);
    } finally {
      closeSync(fd);
    }
  }

  /** Cheap validity check (magic, versions, size against the header) without loading the sections. */
  static quickCheck(file: string): boolean {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return false;
    }
    try {
      const size = fstatSync(fd).size;
      if (size < 12) return false;
      const head = Buffer.alloc(12);
      readSync(fd, head, 0, 12, 0);
      if (!head.subarray(0, 8).equals(MAGIC)) return false;
      const length = head.readUInt32LE(8);
      if (12 + length > size) return false;
      const bytes = Buffer.alloc(length);
      readSync(fd, bytes, 0, length, 12);
      const header = JSON.parse(bytes.toString('utf8')) as SegmentHeader;
      return header.format === SEGMENT_FORMAT && header.analyzer === ANALYZER_VERSION && header.storeOffset + header.storeLength === size;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }

  get docCount(): number {
    return this.header.docCount;
  }

  termAt(i: number): string {
    return this.termBytes.toString('utf8', this.termOffsets[i]!, this.termOffsets[i + 1]!);
  }

  private compareAt(i: number, key: Buffer): number {
    return Buffer.compare(this.termBytes.subarray(this.termOffsets[i]!, this.termOffsets[i + 1]!), key);
  }

  /** First term index whose bytes are >= key. */
  lowerBound(key: Buffer): number {
    let lo = 0;
    let hi = this.header.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareAt(mid, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the term, or -1. */
  find(key: Buffer): number {
    const i = this.lowerBound(key);
    return i < this.header.termCount && this.compareAt(i, key) === 0 ? i : -1;
  }

  /** Indexes [from, to) of the terms starting with `prefix` (two binary searches). */
  prefixRange(prefix: Buffer): [number, number] {
    const from = this.lowerBound(prefix);
    // Every term with the prefix sorts before the prefix with its last byte below 0xff incremented (and the rest cut).
    let end = prefix.length;
    while (end > 0 && prefix[end - 1] === 0xff) end--;
    if (end === 0) return [from, this.header.termCount];
    const after = Buffer.from(prefix.subarray(0, end));
    after[end - 1]!++;
    return [from, Math.max(from, this.lowerBound(after))];
  }

  /** The terms [from, to), decoded (an all-ASCII run in one go). */
  termsBetween(from: number, to: number): string[] {
    const out: string[] = new Array(Math.max(0, to - from));
    if (to <= from) return out;
    const start = this.termOffsets[from]!;
    const bytes = this.termBytes.subarray(start, this.termOffsets[to]!);
    if (isAscii(bytes)) {
      const text = bytes.toString('latin1');
      for (let i = from; i < to; i++) out[i - from] = text.slice(this.termOffsets[i]! - start, this.termOffsets[i + 1]! - start);
    } else {
      for (let i = from; i < to; i++) out[i - from] = this.termAt(i);
    }
    return out;
  }

  /** Index in `files` of the file document `d` comes from. */
  fileIndexOf(d: number): number {
    const files = this.files;
    let lo = 0;
    let hi = files.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (files[mid]!.firstDoc <= d) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Path of the file document `d` comes from. */
  pathOf(d: number): string {
    return this.files[this.fileIndexOf(d)]!.path;
  }

  /** File positions [start, end) of the stored documents [from, to). */
  storeRange(from: number, to: number): [start: number, end: number] {
    return [this.header.storeOffset + this.storeOffsets[from]!, this.header.storeOffset + this.storeOffsets[to]!];
  }

  /** The raw store bytes (JSON lines) of documents [from, to), one positional read. */
  readStoreBytes(from: number, to: number): Buffer {
    const start = this.storeOffsets[from]!;
    const end = this.storeOffsets[to]!;
    const out = Buffer.alloc(end - start);
    if (out.length === 0) return out;
    const fd = openSync(this.file, 'r');
    try {
      if (readSync(fd, out, 0, out.length, this.header.storeOffset + start) !== out.length) throw new SegmentError('store truncated');
    } finally {
      closeSync(fd);
    }
    return out;
  }

  docId(d: number): string {
    return this.idBytes.toString('utf8', this.idOffsets[d]!, this.idOffsets[d + 1]!);
  }

  priorityOf(d: number): Priority {
    return PRIORITIES[this.docPriority[d]!] ?? 'medium';
  }

  categoryOf(d: number): string {
    return this.header.categories[this.docCategory[d]!] ?? '';
  }

  agentOf(d: number): string {
    return this.header.agents[this.docAgent[d]!] ?? '';
  }

  tagsOf(d: number): string[] {
    const out: string[] = [];
    for (let i = this.docTagStart[d]!; i < this.docTagStart[d + 1]!; i++) out.push(this.header.tags[this.docTagIds[i]!]!);
    return out;
  }

  /** Read the stored display fields of some documents (one open, positional reads). */
  readStored(docs: number[]): Map<number, StoredDoc> {
    const out = new Map<number, StoredDoc>();
    if (docs.length === 0) return out;
    const fd = openSync(this.file, 'r');
    try {
      for (const d of docs) {
        const start = this.storeOffsets[d]!;
        const end = this.storeOffsets[d + 1]!;
        const buf = Buffer.alloc(end - start);
        readSync(fd, buf, 0, buf.length, this.header.storeOffset + start);
        try {
          out.set(d, JSON.parse(buf.toString('utf8')) as StoredDoc);
        } catch {
          throw new SegmentError(`stored document ${d} is not JSON`);
        }
      }
    } finally {
      closeSync(fd);
    }
    return out;
  }
}
