/**
 * Ranking over loaded segments: BM25+ full text (Lucene's formula, k1 1.2,
 * b 0.75, δ 1, statistics over the documents in scope; a match raised by the
 * scores of its neighbours in the conversation, see contextScorer) plus, when the segments have
 * vectors and a query vector is given, cosine similarity; the two, and the
 * renderings of one question, fused into one ranking by fusion.ts.
 * Filters are applied before ranking; ties go to the higher
 * priority, then the more recent observation.
 *
 * Size: one concept, the ranking (text scoring, the conversation context, vectors, the candidates fusion
 * gets); fusion, relevance and snippets are modules of their own.
 */
import { join } from 'node:path';
import type { Tier } from '../core/types.js';
import { IndexUnavailable } from './engine.js';
import { readManifest, tierDir, type ManifestEntry } from './manifest.js';
import { dayNumber, documentTerms, PRIORITY_CODE, Segment } from './segment.js';
import { prefixEligible, queryTerms } from './tokenizer.js';
import { asksVersion, EXPANSION_WEIGHT, kindExpansion, VERSION_TERM, VERSION_TERM_STARTS } from './kind-expansion.js';
import { cosineScale, DEFAULT_FUSION, fuse, type Candidate, type FusionMethod } from './fusion.js';
import type { SearchFilters } from './types.js';
import { loadVectorFile, type SegmentVectors } from './vector-file.js';
import { cosineAt, nearestByVector } from './vector-scan.js';

const K1 = 1.2;
const B = 0.75;
/**
 * BM25+ (Lv & Zhai, "Lower-bounding term frequency normalization", CIKM 2011):
 * every matching term adds at least DELTA · idf, so a long document that
 * contains the word is not scored below a short one that lacks it (plain BM25
 * drives a long document's term score towards zero). δ = 1 is the paper's
 * default. Observations vary a lot in length (a reply quotes its question).
 */
const DELTA = 1;
/** Weight of a prefix expansion relative to an exact match (as MiniSearch's default 0.375, decaying with the extra length). */
const PREFIX_WEIGHT = 0.375;
const MAX_EXPANSIONS = 48;

export interface ScopedSegment {
  tier: Tier;
  /** Segment file name ('' for a segment given in memory). */
  name: string;
  segment: Segment;
  /** Global number of the segment's first document in this snapshot. */
  base: number;
  /**
   * 1 for a document out of scope: of a file whose current content is in another
   * segment (a pack's edited, moved or deleted file), or of a file the filters
   * rule out as a whole (date range, agent). Absent: every document is in scope.
   */
  excluded?: Uint8Array;
  /** Documents in scope, and the sum of their lengths. */
  docs: number;
  length: number;
  vectors?: SegmentVectors;
}

/** The segments a query looks at, loaded once (a long-running process may keep it). */
export class IndexSnapshot {
  readonly segments: ScopedSegment[];
  /** Documents in scope (the N of BM25) and the sum of their lengths. */
  readonly totalDocs: number;
  readonly totalLength: number;
  /** Global document numbers run 0 … docSpace - 1 (out-of-scope documents included). */
  readonly docSpace: number;
  /** Tier → manifest generation (query-cache key). */
  readonly generations: Record<string, string>;
  /** Documents in scope that have a vector of the requested model. */
  readonly vectorDocs: number;

  private constructor(segments: ScopedSegment[], generations: Record<string, string>) {
    this.segments = segments;
    this.generations = generations;
    let space = 0;
    let docs = 0;
    let length = 0;
    let vectorDocs = 0;
    for (const s of segments) {
      s.base = space;
      space += s.segment.docCount;
      docs += s.docs;
      length += s.length;
      if (s.vectors) for (let i = 0; i < s.vectors.scales.length; i++) if (s.vectors.scales[i]! > 0 && !s.excluded?.[i]) vectorDocs++;
    }
    this.docSpace = space;
    this.totalDocs = docs;
    this.totalLength = length;
    this.vectorDocs = vectorDocs;
  }

  /** A snapshot over segments already in memory (benchmarks, evaluation). */
  static fromSegments(segments: Array<{ tier: Tier; segment: Segment }>): IndexSnapshot {
    const scoped = segments.map((s) => ({
      tier: s.tier,
      name: '',
      segment: s.segment,
      base: 0,
      docs: s.segment.docCount,
      length: s.segment.header.totalLength,
    }));
    return new IndexSnapshot(scoped, {});
  }

  /** Manifest generations of some tiers, without loading segments (cheap: for the query cache). */
  static generations(indexDir: string, tiers: readonly Tier[]): { generations: Record<string, string>; problems: IndexUnavailable[] } {
    const generations: Record<string, string> = {};
    const problems: IndexUnavailable[] = [];
    for (const tier of tiers) {
      const read = readManifest(indexDir, tier);
      if (read.state !== 'ok') problems.push(new IndexUnavailable(tier, read.state, read.reason ?? `the ${tier} index is ${read.state}`));
      generations[tier] = read.manifest.generation;
    }
    return { generations, problems };
  }

  /**
   * Load the segments of `tiers` that can hold matches for `filters`: files
   * outside the date range or of other agents are out of scope (a segment of
   * such files only is skipped unread). Throws IndexUnavailable when a
   * manifest or segment is missing, corrupt or old.
   */
  static load(indexDir: string, tiers: readonly Tier[], filters: SearchFilters = {}, modelKey?: string): IndexSnapshot {
    const since = filters.since ? dayNumber(filters.since) : 0;
    const until = filters.until ? dayNumber(filters.until) : 0;
    const agents = filters.agents?.length ? new Set(filters.agents) : undefined;
    const inScope = (entry: ManifestEntry): boolean => {
      if (entry.docs === 0) return false;
      if ((since || until) && entry.maxDay === 0) return false;
      if (since && entry.maxDay < since) return false;
      if (until && entry.minDay > until) return false;
      if (agents && !entry.agents.some((a) => agents.has(a))) return false;
      return true;
    };
    const segments: ScopedSegment[] = [];
    const generations: Record<string, string> = {};
    for (const tier of tiers) {
      const read = readManifest(indexDir, tier);
      if (read.state !== 'ok') throw new IndexUnavailable(tier, read.state, read.reason ?? `the ${tier} index is ${read.state}`);
      const files = read.manifest.files;
      generations[tier] = read.manifest.generation;
      const dir = tierDir(indexDir, tier);
      // Segment file → its files in scope (a pack holds many).
      const wanted = new Map<string, Array<[key: string, entry: ManifestEntry]>>();
      for (const [key, entry] of Object.entries(files)) {
        if (!inScope(entry)) continue;
        const list = wanted.get(entry.segment);
        if (list) list.push([key, entry]);
        else wanted.set(entry.segment, [[key, entry]]);
      }
      for (const [name, entries] of wanted) {
        let segment: Segment;
        try {
          segment = Segment.load(join(dir, name), { lazyPostings: true });
        } catch (error) {
          const what = entries.length === 1 ? entries[0]![0] : `${entries.length} files`;
          throw new IndexUnavailable(tier, 'segment', `index segment of ${what} is unreadable (${(error as Error).message})`);
        }
        let excluded: Uint8Array | undefined;
        let docs = 0;
        let length = 0;
        for (const f of segment.files) {
          const entry = Object.hasOwn(files, f.path) ? files[f.path] : undefined;
          if (entry && entry.segment === name && entry.hash === f.sourceHash && inScope(entry)) {
            docs += f.docs;
            length += f.length;
          } else if (f.docs > 0) {
            excluded ??= new Uint8Array(segment.docCount);
            excluded.fill(1, f.firstDoc, f.firstDoc + f.docs);
          }
        }
        const withVectors = modelKey ? entries.find(([, e]) => e.vectors?.model === modelKey)?.[1] : undefined;
        const vectors = withVectors?.vectors
          ? loadVectorFile(join(dir, withVectors.vectors.file), { model: modelKey!, docCount: segment.docCount })
          : undefined;
        segments.push({ tier, name, segment, base: 0, docs, length, excluded, vectors });
      }
    }
    return new IndexSnapshot(segments, generations);
  }
}

/** The category of session summaries (lib/observe/session-summary.ts). */
const SESSION_SUMMARY = 'summary';

/** Per-segment filter, compiled once per query (undefined: every document passes; null: none does). */
function compileFilter(s: ScopedSegment, filters: SearchFilters): ((d: number) => boolean) | null | undefined {
  const seg = s.segment;
  const excluded = s.excluded;
  if (s.docs === 0) return null;
  const since = filters.since ? dayNumber(filters.since) : 0;
  const until = filters.until ? dayNumber(filters.until) : 0;
  let categoryOk: Uint8Array | undefined;
  if (filters.categories?.length) {
    const wanted = new Set(filters.categories.map((c) => c.toLowerCase()));
    categoryOk = Uint8Array.from(seg.header.categories, (c) => (wanted.has(c.toLowerCase()) ? 1 : 0));
    if (!categoryOk.some((x) => x)) return null;
  } else if (seg.header.categories.includes(SESSION_SUMMARY)) {
    // A session's summary is found when asked for (`--category summary`): an ordinary question is answered by
    // what was said, not by the topic lines of whole sessions, which would take its first places.
    categoryOk = Uint8Array.from(seg.header.categories, (c) => (c === SESSION_SUMMARY ? 0 : 1));
  }
  let agentOk: Uint8Array | undefined;
  if (filters.agents?.length) {
    const wanted = new Set(filters.agents);
    agentOk = Uint8Array.from(seg.header.agents, (a) => (wanted.has(a) ? 1 : 0));
    if (!agentOk.some((x) => x)) return null;
  }
  let priorityMask = 0;
  if (filters.priorities?.length) for (const p of filters.priorities) priorityMask |= 1 << PRIORITY_CODE[p];
  let tagIds: number[] | undefined;
  if (filters.tags?.length) {
    tagIds = [];
    for (const tag of filters.tags) {
      const i = seg.header.tags.indexOf(tag.toLowerCase().replace(/^#/, ''));
      if (i === -1) return null;
      tagIds.push(i);
    }
  }
  if (!excluded && !since && !until && !categoryOk && !agentOk && !priorityMask && !tagIds) return undefined; // everything passes
  return (d: number) => {
    if (excluded?.[d]) return false;
    const day = seg.docDay[d]!;
    if (since && (day === 0 || day < since)) return false;
    if (until && (day === 0 || day > until)) return false;
    if (categoryOk && !categoryOk[seg.docCategory[d]!]) return false;
    if (agentOk && !agentOk[seg.docAgent[d]!]) return false;
    if (priorityMask && !(priorityMask & (1 << seg.docPriority[d]!))) return false;
    if (tagIds) {
      const from = seg.docTagStart[d]!;
      const to = seg.docTagStart[d + 1]!;
      for (const t of tagIds) {
        let found = false;
        for (let i = from; i < to; i++) if (seg.docTagIds[i] === t) found = true;
        if (!found) return false;
      }
    }
    return true;
  };
}

export interface RankOptions {
  limit: number;
  filters: SearchFilters;
  vectorWeight: number;
  textWeight: number;
  minScore: number;
  /** Normalised query vector: hybrid ranking over segments with vectors. */
  queryVector?: Float32Array;
  /** Expand query words to longer index terms (postg → postgresql). Default on. */
  prefix?: boolean;
  /** Pseudo-relevance feedback (second text pass). Default off. */
  feedback?: boolean;
  /** Share of a neighbouring observation's text score a document gets (see contextScorer). Default CONTEXT_WEIGHT. */
  context?: number;
  /** How text and vector scores, and several renderings, are fused (fusion.ts). */
  fusion?: FusionMethod;
}

export interface Hit {
  seg: ScopedSegment;
  doc: number;
  score: number;
  /** The best text score over the renderings, scaled to the best hit (0..1). */
  text: number;
  /** The best cosine on fusion's absolute 0..1 scale; null without vectors. */
  vector: number | null;
  /** Per rendering, the raw cosine (null without a vector). */
  cosines?: Array<number | null>;
}

/** Expansion of the query terms into index terms with weights. */
function expandTerms(snapshot: IndexSnapshot, terms: string[], prefix = true): Map<string, number> {
  const weights = new Map<string, number>();
  for (const q of terms) {
    weights.set(q, Math.max(weights.get(q) ?? 0, 1));
    if (!prefix || !prefixEligible(q)) continue;
    // Every index term with the prefix (then the nearest ones are kept): the
    // same expansions however the documents are split into segments.
    const found = new Set<string>();
    termsWithPrefix(snapshot, q, found);
    found.delete(q);
    for (const t of nearest(found, MAX_EXPANSIONS)) {
      const distance = t.length - q.length;
      const w = (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * distance);
      weights.set(t, Math.max(weights.get(t) ?? 0, w));
    }
  }
  return weights;
}

/** Most version numbers a "which version" question is expanded by. */
const MAX_VERSION_TERMS = 256;

/** The index's version-shaped terms in scope ("3.12", "v2.0.1"; kind-expansion.ts), at most MAX_VERSION_TERMS, shortest first. */
function versionTerms(snapshot: IndexSnapshot): string[] {
  const found = new Set<string>();
  for (const start of VERSION_TERM_STARTS) termsWithPrefix(snapshot, start, found, (t) => VERSION_TERM.test(t));
  return nearest(found, MAX_VERSION_TERMS);
}

/** Adds to `found` every index term starting with `prefix` that `keep` accepts (all, without it) and a document in scope holds. */
function termsWithPrefix(snapshot: IndexSnapshot, prefix: string, found: Set<string>, keep?: (term: string) => boolean): void {
  const key = Buffer.from(prefix, 'utf8');
  for (const s of snapshot.segments) {
    const [from, to] = s.segment.prefixRange(key);
    const terms = s.segment.termsBetween(from, to);
    for (let i = from; i < to; i++) {
      const term = terms[i - from]!;
      if ((!keep || keep(term)) && (!s.excluded || postingsInScope(s, i) > 0)) found.add(term);
    }
  }
}

/** The `max` shortest terms, equal lengths in code-unit order (as sorting by length, then `<`). */
function nearest(terms: Set<string>, max: number): string[] {
  const byLength: string[][] = [];
  for (const t of terms) (byLength[t.length] ??= []).push(t);
  const out: string[] = [];
  for (const bucket of byLength) {
    if (!bucket) continue;
    bucket.sort(); // default order: UTF-16 code units, the order of `<`
    for (const t of bucket) {
      if (out.length === max) return out;
      out.push(t);
    }
  }
  return out;
}

/** Compare hits: score, then priority (high first), then newer date/time, then index order for stability. */
function better(a: Hit, b: Hit): number {
  if (Math.abs(a.score - b.score) > 1e-9) return b.score - a.score;
  const pa = a.seg.segment.docPriority[a.doc]!;
  const pb = b.seg.segment.docPriority[b.doc]!;
  if (pa !== pb) return pa - pb;
  const da = a.seg.segment.docDay[a.doc]!;
  const db = b.seg.segment.docDay[b.doc]!;
  if (da !== db) return db - da;
  const ma = a.seg.segment.docMinute[a.doc]!;
  const mb = b.seg.segment.docMinute[b.doc]!;
  if (ma !== mb) return mb - ma;
  return a.seg.base + a.doc - (b.seg.base + b.doc);
}

/** Keep the best `k` of a stream of (global doc, score) pairs (of equal scores, the first offered). */
class TopK {
  readonly k: number;
  readonly docs: number[] = [];
  readonly scores: number[] = [];
  private minIndex = -1;
  constructor(k: number) {
    this.k = k;
  }
  offer(doc: number, score: number): void {
    if (this.docs.length < this.k) {
      this.docs.push(doc);
      this.scores.push(score);
      if (this.docs.length === this.k) this.recomputeMin();
      return;
    }
    if (score <= this.scores[this.minIndex]!) return;
    this.docs[this.minIndex] = doc;
    this.scores[this.minIndex] = score;
    this.recomputeMin();
  }
  private recomputeMin(): void {
    let m = 0;
    for (let i = 1; i < this.scores.length; i++) if (this.scores[i]! < this.scores[m]!) m = i;
    this.minIndex = m;
  }
  get min(): number {
    return this.docs.length < this.k ? -Infinity : this.scores[this.minIndex]!;
  }
}

export interface RankResult {
  hits: Hit[];
  /** The analysed terms of every rendering (for highlighting). */
  terms: string[];
  /** Per rendering, its analysed terms. */
  termsOf: string[][];
  /** Ranking used vectors. */
  hybrid: boolean;
}

/** Number of documents containing `term` across the snapshot. */
export function documentFrequency(snapshot: IndexSnapshot, key: Buffer): number {
  let df = 0;
  for (const s of snapshot.segments) {
    const i = s.segment.find(key);
    if (i !== -1) df += postingsInScope(s, i);
  }
  return df;
}

/** Number of documents in scope among the postings of term `i`. */
function postingsInScope(s: ScopedSegment, i: number): number {
  const from = s.segment.postingStart[i]!;
  const to = s.segment.postingStart[i + 1]!;
  const excluded = s.excluded;
  if (!excluded) return to - from;
  s.segment.loadPostings([i]);
  const docs = s.segment.postingDoc;
  let n = 0;
  for (let p = from; p < to; p++) if (!excluded[docs[p]!]) n++;
  return n;
}

/** BM25 scores of every document matching the weighted terms (filters applied). */
function scoreText(
  snapshot: IndexSnapshot,
  weights: Map<string, number>,
  filters: Map<ScopedSegment, ((d: number) => boolean) | null | undefined>,
  total: number,
): { scores: Float64Array; touched: number[] } {
  const scores = new Float64Array(snapshot.docSpace);
  const touched: number[] = [];
  const avgdl = snapshot.totalLength / Math.max(1, total) || 1;
  const passCache = new Int8Array(snapshot.docSpace); // 0 unknown, 1 pass, -1 fail
  // Where each term is, then its postings read (lazily loaded segments: one read pass per segment).
  const located = new Map<string, Array<[ScopedSegment, number]>>();
  const wanted = new Map<ScopedSegment, number[]>();
  for (const term of weights.keys()) {
    const key = Buffer.from(term, 'utf8');
    const at: Array<[ScopedSegment, number]> = [];
    for (const s of snapshot.segments) {
      const i = s.segment.find(key);
      if (i === -1) continue;
      at.push([s, i]);
      const list = wanted.get(s);
      if (list) list.push(i);
      else wanted.set(s, [i]);
    }
    located.set(term, at);
  }
  for (const [s, terms] of wanted) s.segment.loadPostings(terms);
  for (const [term, weight] of weights) {
    const found: Array<[ScopedSegment, number]> = [];
    let df = 0;
    for (const [s, i] of located.get(term)!) {
      df += postingsInScope(s, i);
      if (filters.has(s) && filters.get(s) !== null) found.push([s, i]);
    }
    if (df === 0) continue;
    const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
    const factor = weight * idf * (K1 + 1);
    const lowerBound = DELTA * weight * idf;
    for (const [s, i] of found) {
      const seg = s.segment;
      const filter = filters.get(s);
      const from = seg.postingStart[i]!;
      const to = seg.postingStart[i + 1]!;
      const { postingDoc, postingTf, docLength } = seg;
      const base = s.base;
      for (let p = from; p < to; p++) {
        const d = postingDoc[p]!;
        const g = base + d;
        if (filter) {
          let pass = passCache[g]!;
          if (pass === 0) passCache[g] = pass = filter(d) ? 1 : -1;
          if (pass < 0) continue;
        }
        const tf = postingTf[p]!;
        const norm = tf + K1 * (1 - B + (B * docLength[d]!) / avgdl);
        const before = scores[g]!;
        if (before === 0) touched.push(g);
        scores[g] = before + (factor * tf) / norm + lowerBound;
      }
    }
  }
  return { scores, touched };
}

const FEEDBACK_DOCS = 8;
const FEEDBACK_TERMS = 10;
const FEEDBACK_WEIGHT = 0.4;

/**
 * Pseudo-relevance feedback (RM3-style): the terms that weigh most in the
 * best first-pass hits (term share × hit score × idf) join the query with a
 * lower weight. Standard recall booster for short queries over short texts.
 */
function feedbackTerms(
  snapshot: IndexSnapshot,
  scores: Float64Array,
  touched: number[],
  exclude: Set<string>,
  total: number,
): Map<string, number> {
  const top = new TopK(FEEDBACK_DOCS);
  for (const g of touched) if (scores[g]! > top.min) top.offer(g, scores[g]!);
  const max = Math.max(...top.scores);
  const relevance = new Map<string, number>();
  const bySegment = new Map<ScopedSegment, Array<[number, number]>>();
  top.docs.forEach((g, i) => {
    const [s, d] = locateIn(snapshot, g);
    const list = bySegment.get(s) ?? [];
    list.push([d, top.scores[i]! / max]);
    bySegment.set(s, list);
  });
  for (const [s, docs] of bySegment) {
    const stored = s.segment.readStored(docs.map(([d]) => d));
    for (const [d, weight] of docs) {
      const doc = stored.get(d);
      if (!doc) continue;
      const terms = documentTerms({ text: doc.text, tags: doc.tags, category: s.segment.categoryOf(d) });
      for (const t of terms) if (!exclude.has(t) && t.length > 1) relevance.set(t, (relevance.get(t) ?? 0) + weight / terms.length);
    }
  }
  const scored: Array<[string, number]> = [];
  for (const [t, r] of relevance) {
    const df = documentFrequency(snapshot, Buffer.from(t, 'utf8'));
    if (df < 2) continue; // a term of one document only finds that document again
    scored.push([t, r * Math.log(1 + (total - df + 0.5) / (df + 0.5))]);
  }
  scored.sort((a, b) => b[1] - a[1]);
  const best = scored.slice(0, FEEDBACK_TERMS);
  const out = new Map<string, number>();
  const top1 = best[0]?.[1] ?? 0;
  for (const [t, w] of best) out.set(t, (FEEDBACK_WEIGHT * w) / top1);
  return out;
}

function locateIn(snapshot: IndexSnapshot, g: number): [ScopedSegment, number] {
  let lo = 0;
  let hi = snapshot.segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (snapshot.segments[mid]!.base <= g) lo = mid;
    else hi = mid - 1;
  }
  const s = snapshot.segments[lo]!;
  return [s, g - s.base];
}

/** Share of a neighbour's text score a document gets (the nearest neighbour; half that at distance 2). */
export const CONTEXT_WEIGHT = 0.5;
/** How many observations before and after a document count as its context. */
const CONTEXT_RADIUS = 2;
/** Neighbours written further apart than this are another conversation. */
const CONTEXT_MINUTES = 10;

/**
 * Conversation context: an observation is often the answer to what was said
 * just before it ("Three times a week." after "How often do you work out?"),
 * or is followed by what names its topic. Each document gets, on top of its
 * own text score, the best of its neighbours' scores × CONTEXT_WEIGHT / k —
 * the observations k ≤ CONTEXT_RADIUS places before and after it in the same
 * file, of the same day and agent, written within CONTEXT_MINUTES of it
 * (README, "Search" → "Ranking"). Only documents that match the query
 * themselves are raised: context orders the matches, it does not add results
 * that contain none of the query's words.
 *
 * Returns a document's score with its context, worked out when asked: a
 * ranking reads it only for the documents that may enter its best `k` and for
 * the fused candidates, and a question of common words matches most of the
 * memory (textRanking).
 */
function contextScorer(snapshot: IndexSnapshot, scores: Float64Array, weight: number): (g: number) => number {
  return (g) => {
    const own = scores[g]!;
    if (own === 0) return own;
    const [s, d] = locateIn(snapshot, g);
    const seg = s.segment;
    const minute = seg.docMinute[d]!;
    if (minute < 0) return own;
    const file = seg.files[seg.fileIndexOf(d)]!;
    const first = file.firstDoc;
    const end = first + file.docs;
    let extra = 0;
    for (let k = 1; k <= CONTEXT_RADIUS; k++) {
      for (let n = d - k; n <= d + k; n += 2 * k) {
        if (n < first || n >= end) continue;
        // (A neighbour that matches nothing has no score; the filters were applied when it was scored.)
        const near = scores[s.base + n]!;
        if (near === 0) continue;
        if (seg.docDay[n] !== seg.docDay[d] || seg.docAgent[n] !== seg.docAgent[d]) continue;
        const m = seg.docMinute[n]!;
        if (m < 0 || Math.abs(m - minute) > CONTEXT_MINUTES) continue;
        const share = (weight * near) / k;
        if (share > extra) extra = share;
      }
    }
    return own + extra;
  };
}

/** One rendering of the question: its words and, for hybrid ranking, its normalised vector. */
export interface RankQuery {
  text: string;
  vector?: Float32Array;
  /**
   * How much the rendering's words count beside the question's own (default 1): a word-by-word rendering
   * (bridge.ts) counts less, so a memory holding the question's own words ranks above one holding only its
   * translation.
   */
  textWeight?: number;
}

/** Rank the snapshot's documents for a query. */
export function rank(snapshot: IndexSnapshot, query: string, options: RankOptions): RankResult {
  return rankQueries(snapshot, [{ text: query, vector: options.queryVector }], options);
}

/**
 * How many candidates each list offers. Text alone fused by 'linear' is the best
 * query's score (CombMAX, fusion.ts), so the top `limit` of the fused list lies in
 * the union of each list's own top `limit`: no more are needed. Vectors (a text
 * and a vector list combined per query) and reciprocal rank fusion (ranks summed
 * over lists) need room below each list's top.
 */
function candidatesPerList(hybrid: boolean, queries: number, options: RankOptions): number {
  const deep = hybrid || (queries > 1 && (options.fusion ?? DEFAULT_FUSION) !== 'linear');
  return deep ? Math.max(options.limit * 5, 50) : options.limit;
}

/**
 * Rank the snapshot's documents for several renderings of one question (the
 * same question in other words or another language), fused into one ranking
 * (fusion.ts). A hit's `cosines` and `termsOf` give, per rendering, what the
 * relevance measure (relevance.ts) needs.
 */
export function rankQueries(snapshot: IndexSnapshot, queries: readonly RankQuery[], options: RankOptions): RankResult {
  const segments = snapshot.segments.filter((s) => !options.filters.tiers?.length || options.filters.tiers.includes(s.tier));
  const filters = new Map<ScopedSegment, ((d: number) => boolean) | null | undefined>();
  for (const s of segments) filters.set(s, compileFilter(s, options.filters));
  const live = segments.filter((s) => filters.get(s) !== null);
  const hybrid = queries.some((q) => q.vector) && live.some((s) => s.vectors);
  const k = candidatesPerList(hybrid, queries.length, options);

  const text = queries.map((q) => textRanking(snapshot, q.text, filters, k, options));
  const weightOf = queries.map((q) => q.textWeight ?? 1);
  const maxText = Math.max(0, ...text.map((t, i) => t.max * weightOf[i]!));
  const vectors = queries.map((q) => (hybrid && q.vector ? vectorRanking(live, filters, q.vector, k) : undefined));

  const candidates = new Set<number>();
  for (const t of text) for (const g of t.top) candidates.add(g);
  for (const v of vectors) if (v) for (const g of v.keys()) candidates.add(g);
  const located: Array<[ScopedSegment, number, number]> = [];
  const parts: Candidate[] = [];
  for (const g of candidates) {
    const [s, d] = locateIn(snapshot, g);
    located.push([s, d, g]);
    parts.push({
      text: text.map((t, i) => (maxText > 0 ? (t.scoreOf(g) * weightOf[i]!) / maxText : 0)),
      cosine: queries.map((q, i) => (vectors[i] ? (vectors[i]!.get(g) ?? cosineOf(s, d, q.vector!)) : null)),
    });
  }
  const fused = fuse(options.fusion ?? DEFAULT_FUSION, parts, { text: options.textWeight, vector: options.vectorWeight }, hybrid);
  const hits: Hit[] = [];
  parts.forEach((p, i) => {
    const score = fused[i]!;
    if (score <= 0 || score < options.minScore) return;
    const [s, d] = located[i]!;
    const best = p.cosine.reduce<number | null>((m, c) => (c === null ? m : Math.max(m ?? -1, c)), null);
    hits.push({ seg: s, doc: d, score, text: Math.max(...p.text), vector: best === null ? null : cosineScale(best), cosines: p.cosine });
  });
  hits.sort(better);
  const terms = [...new Set(text.flatMap((t) => t.terms))];
  return { hits: hits.slice(0, options.limit), terms, termsOf: text.map((t) => t.terms), hybrid };
}

/**
 * One query's text ranking: each document's BM25+ score (feedback and context applied; `scoreOf`, by global
 * number), its best `k` and best score.
 */
function textRanking(
  snapshot: IndexSnapshot,
  query: string,
  filters: Map<ScopedSegment, ((d: number) => boolean) | null | undefined>,
  k: number,
  options: RankOptions,
): { terms: string[]; scoreOf: (g: number) => number; top: number[]; max: number } {
  const terms = queryTerms(query);
  const total = snapshot.totalDocs;
  let scores: Float64Array = new Float64Array(snapshot.docSpace);
  let touched: number[] = [];
  let scoreOf = (g: number) => scores[g]!;
  /** The most context can add to a document's own score. */
  let contextBound = 0;
  if (terms.length > 0 && total > 0) {
    const weights = expandTerms(snapshot, terms, options.prefix !== false);
    // "Which database …?" / "Which Python version …?": the kind's members, or the index's version numbers, count as
    // words of the question (kind-expansion.ts).
    for (const t of kindExpansion(query, terms)) if (!weights.has(t)) weights.set(t, EXPANSION_WEIGHT);
    if (asksVersion(query)) for (const t of versionTerms(snapshot)) if (!weights.has(t)) weights.set(t, EXPANSION_WEIGHT);
    ({ scores, touched } = scoreText(snapshot, weights, filters, total));
    if (options.feedback && touched.length > 0) {
      const expansion = feedbackTerms(snapshot, scores, touched, new Set(weights.keys()), total);
      if (expansion.size > 0) {
        for (const [t, w] of expansion) weights.set(t, Math.max(weights.get(t) ?? 0, w));
        ({ scores, touched } = scoreText(snapshot, weights, filters, total));
      }
    }
    const context = options.context ?? CONTEXT_WEIGHT;
    if (context > 0 && touched.length > 0) {
      scoreOf = contextScorer(snapshot, scores, context);
      let best = 0;
      for (const g of touched) if (scores[g]! > best) best = scores[g]!;
      contextBound = context * best;
    }
  }
  let max = 0;
  const top = new TopK(k);
  let min = top.min;
  for (const g of touched) {
    // Not even the best context would lift it above the k-th best so far: it is not offered, and its context not read.
    if (scores[g]! + contextBound <= min) continue;
    const score = scoreOf(g);
    if (score > max) max = score;
    if (score > min) {
      top.offer(g, score);
      min = top.min;
    }
  }
  return { terms, scoreOf, top: top.docs, max };
}

/** Cosine of document `d` of a segment with the query vector (null: no vector of that size). */
function cosineOf(s: ScopedSegment, d: number, q: Float32Array): number | null {
  return s.vectors ? cosineAt(s.vectors, d, q) : null;
}

/** The `k` documents nearest to the query vector (global number → cosine), filters applied: by sign code, then exactly (vector-scan.ts). */
function vectorRanking(
  live: ScopedSegment[],
  filters: Map<ScopedSegment, ((d: number) => boolean) | null | undefined>,
  q: Float32Array,
  k: number,
): Map<number, number> {
  const nearest = nearestByVector(live, q, k, (s, d) => {
    const filter = filters.get(s as ScopedSegment);
    return !filter || filter(d);
  });
  return new Map(nearest.map(({ doc, score }) => [doc, score]));
}
