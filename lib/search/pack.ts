/**
 * Packs: the segments of many memory files merged into one segment file
 * (Lucene's segment merge). A search then reads one file and looks a query
 * word up in one dictionary instead of one per day file: at 100k observations
 * in 180 day files that is most of a fresh `ocm-run search`'s index time.
 *
 * A tier has at most one pack and some loose segments: files added since the
 * pack was made, and files still being written (today's day file gets new
 * observations every tick; packing it would mean merging again every tick).
 * The manifest says which segment holds each file's current content. When a
 * file of the pack is edited, moved or deleted, its documents in the pack are
 * stale: the same index run merges again without them, so no text removed
 * from a memory file (a hand edit, `forget`) stays in the index — and search
 * (searcher.ts) leaves stale documents out should one ever remain. See `packPlan`.
 *
 * Merging works on the segments' bytes: postings are re-numbered and copied,
 * nothing is tokenised again.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Tier } from '../core/types.js';
import type { ManifestEntry } from './manifest.js';
import { ANALYZER_VERSION } from './tokenizer.js';
import { layoutSegment, Segment, SEGMENT_FORMAT, SegmentError, SegmentScratch, type SegmentFile } from './segment.js';
import { writeIndexFileWith } from './files.js';

/** Merge when a tier has more loose segments of settled files than this. */
export const LOOSE_SEGMENT_LIMIT = 12;
/** A file is settled (worth packing) when its last day, or its last change, is this long ago. */
export const SETTLED_AFTER_MS = 2 * 24 * 3600 * 1000;

/** A segment file to merge, and which of its files to keep. */
export interface PackSource {
  file: string;
  keep: (file: SegmentFile) => boolean;
}

/** Pack file name: a function of the tier, its files and their content, and the formats. */
export function packName(tier: Tier, files: Array<{ path: string; sourceHash: string }>): string {
  const h = createHash('sha256').update(`${tier}\u0000${ANALYZER_VERSION}\u0000${SEGMENT_FORMAT}`);
  for (const f of files) h.update(`\u0000${f.path}\u0000${f.sourceHash}`);
  return `pack-${h.digest('hex').slice(0, 20)}.seg`;
}

/**
 * Whether a file is settled: its observations are from before the day before
 * yesterday, or it has not changed for that long. Files still being written
 * (today's day file) stay out of packs.
 */
export function isSettled(entry: Pick<ManifestEntry, 'maxDay' | 'mtimeMs'>, nowMs: number): boolean {
  const cutoff = nowMs - SETTLED_AFTER_MS;
  if (entry.mtimeMs <= cutoff) return true;
  const d = new Date(cutoff);
  const cutoffDay = d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
  return entry.maxDay > 0 && entry.maxDay < cutoffDay;
}

/**
 * Whether a tier's segments should be merged now: its pack holds stale
 * documents (removed text must leave the index now), or more than `looseLimit`
 * settled files have segments of their own.
 */
export function packPlan(state: { settledLoose: number; staleDocs: number }, looseLimit = LOOSE_SEGMENT_LIMIT): boolean {
  return state.staleDocs > 0 || state.settledLoose > looseLimit;
}

/** Position of `value` in `list`, appended when new. */
function internId(list: string[], ids: Map<string, number>, value: string): number {
  let i = ids.get(value);
  if (i === undefined) {
    i = list.push(value) - 1;
    ids.set(value, i);
  }
  return i;
}

/** Sort strings in UTF-8 byte order (the order of a segment's dictionary). */
function sortByBytes(terms: string[]): string[] {
  // UTF-16 code-unit order (the default sort) is byte order unless a surrogate pair is involved.
  if (!terms.some((t) => /[\uD800-\uDFFF]/.test(t))) return terms.sort();
  return terms.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

/** Stored documents to copy: bytes [start, end) of a source file. */
interface StoreRun {
  file: string;
  start: number;
  end: number;
}

/**
 * Merge the kept files of `sources` into a new pack in `dir` (documents in
 * source order, each source's in its own order). Passes over the sources,
 * one segment in memory at a time (read into one reused buffer): sizes; the
 * dictionary, document columns and posting counts; then the postings. The
 * stored documents are copied file to file. Returns the pack's name and file table. Throws SegmentError when a
 * source is not a valid segment.
 */
export async function writePack(
  dir: string,
  tier: Tier,
  sources: PackSource[],
): Promise<{ name: string; files: SegmentFile[]; docs: number }> {
  const scratch = new SegmentScratch();
  // Sizes are bounded by the sources' (dropped documents make the pack smaller).
  let docBound = 0;
  for (const source of sources) docBound += Segment.load(source.file, { scratch }).docCount;
  const files: SegmentFile[] = [];
  const maps: Int32Array[] = []; // per source: old → new document number, -1 when dropped
  const termIdsBySource: Int32Array[] = []; // per source: term index → distinct term number
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  let counts = new Uint32Array(1024); // kept postings per distinct term
  const storeRuns: StoreRun[] = [];
  const idChunks: Buffer[] = [];
  const categories: string[] = [];
  const agents: string[] = [];
  const tags: string[] = [];
  const categoryIds = new Map<string, number>();
  const agentIds = new Map<string, number>();
  const tagIdsOf = new Map<string, number>();
  const docLength = new Uint16Array(docBound);
  const docDay = new Uint32Array(docBound);
  const docMinute = new Int16Array(docBound);
  const docPriority = new Uint8Array(docBound);
  const docCategory = new Uint16Array(docBound);
  const docAgent = new Uint16Array(docBound);
  const docTagStart = new Uint32Array(docBound + 1);
  const idOffsets = new Uint32Array(docBound + 1);
  const storeOffsets = new Uint32Array(docBound + 1);
  const tagIds: number[] = [];
  let docCount = 0;
  let totalLength = 0;
  let minDay = 0;
  let maxDay = 0;

  // ---- pass 1: files, documents, dictionary, posting counts
  for (const source of sources) {
    const seg = Segment.load(source.file, { scratch });
    const map = new Int32Array(seg.docCount).fill(-1);
    const h = seg.header;
    const categoryMap = h.categories.map((c) => internId(categories, categoryIds, c));
    const agentMap = h.agents.map((a) => internId(agents, agentIds, a));
    const tagMap = h.tags.map((t) => internId(tags, tagIdsOf, t));
    for (const f of seg.files) {
      if (!source.keep(f)) continue;
      files.push({ path: f.path, sourceHash: f.sourceHash, firstDoc: docCount, docs: f.docs, length: f.length });
      totalLength += f.length;
      if (f.docs === 0) continue;
      const from = f.firstDoc;
      const to = f.firstDoc + f.docs;
      for (let d = from; d < to; d++) {
        const n = docCount++;
        map[d] = n;
        docLength[n] = seg.docLength[d]!;
        const day = seg.docDay[d]!;
        docDay[n] = day;
        if (day) {
          minDay = minDay === 0 ? day : Math.min(minDay, day);
          maxDay = Math.max(maxDay, day);
        }
        docMinute[n] = seg.docMinute[d]!;
        docPriority[n] = seg.docPriority[d]!;
        docCategory[n] = categoryMap[seg.docCategory[d]!]!;
        docAgent[n] = agentMap[seg.docAgent[d]!]!;
        docTagStart[n] = tagIds.length;
        for (let t = seg.docTagStart[d]!; t < seg.docTagStart[d + 1]!; t++) tagIds.push(tagMap[seg.docTagIds[t]!]!);
        idOffsets[n + 1] = idOffsets[n]! + seg.idOffsets[d + 1]! - seg.idOffsets[d]!;
        storeOffsets[n + 1] = storeOffsets[n]! + seg.storeOffsets[d + 1]! - seg.storeOffsets[d]!;
      }
      idChunks.push(Buffer.from(seg.idBytes.subarray(seg.idOffsets[from]!, seg.idOffsets[to]!)));
      const [start, end] = seg.storeRange(from, to);
      const last = storeRuns[storeRuns.length - 1];
      if (last && last.file === source.file && last.end === start) last.end = end;
      else storeRuns.push({ file: source.file, start, end });
    }
    const decoded = seg.termsBetween(0, h.termCount);
    const ids = new Int32Array(decoded.length);
    for (let i = 0; i < decoded.length; i++) {
      const u = internId(terms, termIds, decoded[i]!);
      ids[i] = u;
      if (u >= counts.length) {
        const grown = new Uint32Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
      for (let q = seg.postingStart[i]!; q < seg.postingStart[i + 1]!; q++) if (map[seg.postingDoc[q]!]! >= 0) counts[u]!++;
    }
    maps.push(map);
    termIdsBySource.push(ids);
  }
  docTagStart[docCount] = tagIds.length;
  if (categories.length > 0xffff || agents.length > 0xffff || tags.length > 0xffff)
    throw new SegmentError('too many distinct categories, agents or tags for one pack');

  // ---- the dictionary in byte order, without terms of dropped documents only
  const kept = sortByBytes(terms.filter((t) => counts[termIds.get(t)!]! > 0));
  const termCount = kept.length;
  const termBytes = Buffer.from(kept.join(''), 'utf8');
  const termOffsets = new Uint32Array(termCount + 1);
  const postingStart = new Uint32Array(termCount + 1);
  const fill = new Uint32Array(terms.length); // next posting slot of each distinct term
  let byteOffset = 0;
  let postingCount = 0;
  kept.forEach((t, i) => {
    termOffsets[i] = byteOffset;
    byteOffset += Buffer.byteLength(t, 'utf8');
    const u = termIds.get(t)!;
    postingStart[i] = postingCount;
    fill[u] = postingCount;
    postingCount += counts[u]!;
  });
  termOffsets[termCount] = byteOffset;
  postingStart[termCount] = postingCount;

  // ---- pass 2: postings (sources in order, so each term's documents stay ascending)
  const postingDoc = new Uint32Array(postingCount);
  const postingTf = new Uint16Array(postingCount);
  sources.forEach((source, s) => {
    const seg = Segment.load(source.file, { scratch });
    const map = maps[s]!;
    const ids = termIdsBySource[s]!;
    if (ids.length !== seg.header.termCount) throw new SegmentError(`${source.file} changed while it was merged`);
    for (let i = 0; i < ids.length; i++) {
      const u = ids[i]!;
      let at = fill[u]!;
      for (let q = seg.postingStart[i]!; q < seg.postingStart[i + 1]!; q++) {
        const d = map[seg.postingDoc[q]!]!;
        if (d < 0) continue;
        postingDoc[at] = d;
        postingTf[at] = seg.postingTf[q]!;
        at++;
      }
      fill[u] = at;
    }
  });
  const idBytes = Buffer.concat(idChunks, idOffsets[docCount]);
  const storeLength = storeOffsets[docCount]!;

  const layout = layoutSegment(
    { path: '', tier, sourceHash: '', files, docCount, totalLength, termCount, postingCount, minDay, maxDay, categories, agents, tags },
    {
      termOffsets,
      termBytes,
      postingStart,
      postingDoc,
      postingTf,
      docLength: docLength.subarray(0, docCount),
      docDay: docDay.subarray(0, docCount),
      docMinute: docMinute.subarray(0, docCount),
      docPriority: docPriority.subarray(0, docCount),
      docCategory: docCategory.subarray(0, docCount),
      docAgent: docAgent.subarray(0, docCount),
      docTagStart: docTagStart.subarray(0, docCount + 1),
      docTagIds: new Uint16Array(tagIds),
      idOffsets: idOffsets.subarray(0, docCount + 1),
      idBytes,
      storeOffsets: storeOffsets.subarray(0, docCount + 1),
    },
    storeLength,
  );
  const name = packName(tier, files);
  await writeIndexFileWith(join(dir, name), async (handle) => {
    let position = 0;
    const put = async (bytes: Uint8Array) => {
      let done = 0;
      while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
      position += bytes.length;
    };
    await put(layout.prefix);
    for (const { offset, bytes } of layout.sections) {
      if (offset > position) await put(Buffer.alloc(offset - position));
      await put(bytes);
    }
    if (layout.storeOffset > position) await put(Buffer.alloc(layout.storeOffset - position));
    // The stored documents, file to file in slices.
    const slice = Buffer.allocUnsafe(1 << 20);
    for (const run of storeRuns) {
      const fd = openSync(run.file, 'r');
      try {
        for (let at = run.start; at < run.end; ) {
          const got = readSync(fd, slice, 0, Math.min(slice.length, run.end - at), at);
          if (got === 0) throw new SegmentError(`${run.file} is shorter than its header says`);
          await put(slice.subarray(0, got));
          at += got;
        }
      } finally {
        closeSync(fd);
      }
    }
    if (position !== layout.size) throw new SegmentError('pack size does not match its layout');
  });
  return { name, files, docs: docCount };
}
