/**
 * The storage engine OC-Memory ships (engine.ts): per tier a manifest (file →
 * content hash → segment, manifest.ts), one segment per file (segment.ts),
 * packs of settled files (pack.ts), vector sidecars (vectors.ts); queries
 * rank a loaded snapshot of the segments (searcher.ts), kept open between
 * queries by a long-lived process (openReader: open-index.ts). The layout on disk is
 * docs/architecture.md, "Formats" → "Search index".
 *
 * Index files are rebuildable caches: a change is written as new segment files
 * first, then the tiers' manifests (each replaced atomically), and only then
 * are the files they no longer name deleted.
 */
import { createHash } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fromSystemError } from '../core/errors.js';
import type { Tier } from '../core/types.js';
import { exists } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { Engine, FlushResult, Ranked, RankRequest, StoredFile, TierState } from './engine.js';
import type { Embedder } from './embedder.js';
import { writeIndexFile } from './files.js';
import { newGeneration, readManifest, tierDir, writeManifest, type ManifestEntry, type TierManifest } from './manifest.js';
import { OpenIndex } from './open-index.js';
import { isSettled, LOOSE_SEGMENT_LIMIT, packPlan, writePack, type PackSource } from './pack.js';
import type { RenderedWord } from './bridge.js';
import { relevanceScorer, type RelevanceOf } from './relevance.js';
import { IndexSnapshot, rankQueries, type Hit } from './searcher.js';
import { buildSegment, dayString, Segment, SEGMENT_FORMAT, SegmentError, type SegmentFile, type StoredDoc } from './segment.js';
import { makeSnippet } from './snippet.js';
import { ANALYZER_VERSION } from './tokenizer.js';
import type { SearchDoc, SearchResult } from './types.js';
import { embedSegments, type EmbedProgress } from './vectors.js';

type Log = (level: 'debug' | 'info' | 'warn' | 'error', event: string, fields?: Record<string, unknown>) => void;

export interface SegmentEngineOptions {
  /** Updating: every file is being re-stored (`index --rebuild`): vectors are re-created (from the embedding cache). */
  rebuild?: boolean;
  /** Merge a tier's segments into its pack when it has more loose ones of settled files than this (default LOOSE_SEGMENT_LIMIT; Infinity: only to drop stale documents). */
  looseSegmentLimit?: number;
  now?: () => Date;
  logger?: Logger;
}

/** Segment file name: a function of the source, its content and the formats. */
export function segmentName(key: string, hash: string): string {
  return `seg-${createHash('sha256').update(`${key}\u0000${hash}\u0000${ANALYZER_VERSION}\u0000${SEGMENT_FORMAT}`).digest('hex').slice(0, 20)}.seg`;
}

export class SegmentEngine implements Engine {
  private readonly manifests = new Map<Tier, TierManifest>();
  private readonly dirty = new Set<Tier>();
  private readonly obsolete: Array<{ tier: Tier; segment: string }> = [];
  /** A pack is checked once per update, not once for each of its files. */
  private readonly checked = new Map<string, boolean>();
  private readonly now: () => Date;
  private readonly log: Log;

  constructor(
    readonly indexDir: string,
    private readonly options: SegmentEngineOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.log = (level, event, fields) => options.logger?.log(level, event, fields);
  }

  // ---- updating

  openTier(tier: Tier): TierState {
    const read = readManifest(this.indexDir, tier);
    if (read.state !== 'ok') this.dirty.add(tier);
    this.manifests.set(tier, read.manifest);
    return { state: read.state, reason: read.reason };
  }

  private manifest(tier: Tier): TierManifest {
    const manifest = this.manifests.get(tier);
    if (!manifest) throw new Error(`the ${tier} index was not opened for changes`);
    return manifest;
  }

  stored(tier: Tier, path: string): StoredFile | undefined {
    return this.manifest(tier).files[path];
  }

  storedPaths(tier: Tier): string[] {
    return Object.keys(this.manifest(tier).files);
  }

  async intact(tier: Tier, path: string, thorough: boolean): Promise<boolean> {
    const segmentPath = join(tierDir(this.indexDir, tier), this.manifest(tier).files[path]?.segment ?? '-');
    if (!thorough) return exists(segmentPath);
    let ok = this.checked.get(segmentPath);
    if (ok === undefined) this.checked.set(segmentPath, (ok = Segment.quickCheck(segmentPath)));
    return ok;
  }

  touchFile(tier: Tier, path: string, stamp: Pick<StoredFile, 'size' | 'mtimeMs' | 'checkedMs'>): void {
    const files = this.manifest(tier).files;
    files[path] = { ...files[path]!, size: stamp.size, mtimeMs: stamp.mtimeMs, checkedMs: stamp.checkedMs };
    this.dirty.add(tier);
  }

  async replaceFile(tier: Tier, path: string, file: Omit<StoredFile, 'docs'>, documents: SearchDoc[]): Promise<void> {
    const files = this.manifest(tier).files;
    const entry = files[path];
    const name = segmentName(path, file.hash);
    await writeIndexFile(join(tierDir(this.indexDir, tier), name), buildSegment(documents, { path, tier, sourceHash: file.hash }));
    if (entry && entry.segment !== name) this.obsolete.push({ tier, segment: entry.segment });
    if (entry?.vectors && entry.segment !== name) this.obsolete.push({ tier, segment: entry.vectors.file });
    let minDay = 0;
    let maxDay = 0;
    const agents = new Set<string>();
    for (const d of documents) {
      const day = Number(d.date.replace(/-/g, '')) || 0;
      if (day) {
        minDay = minDay ? Math.min(minDay, day) : day;
        maxDay = Math.max(maxDay, day);
      }
      agents.add(d.agent);
    }
    files[path] = {
      hash: file.hash,
      size: file.size,
      mtimeMs: file.mtimeMs,
      checkedMs: file.checkedMs,
      segment: name,
      docs: documents.length,
      minDay,
      maxDay,
      agents: [...agents],
      kind: file.kind,
      // Same segment name means same content: vectors stay valid (a rebuild re-creates them from the cache).
      vectors: entry?.segment === name && !this.options.rebuild ? entry.vectors : undefined,
    };
    this.dirty.add(tier);
  }

  removeFile(tier: Tier, path: string): void {
    const files = this.manifest(tier).files;
    const entry = files[path];
    if (!entry) return;
    this.obsolete.push({ tier, segment: entry.segment });
    if (entry.vectors) this.obsolete.push({ tier, segment: entry.vectors.file });
    delete files[path];
    this.dirty.add(tier);
  }

  async flush(embedding?: { embedder: Embedder; onProgress?: EmbedProgress }): Promise<FlushResult> {
    const result: FlushResult = { embedded: 0, embeddingCacheHits: 0, warnings: [], hybrid: false };
    const packOptions = { looseLimit: this.options.looseSegmentLimit ?? LOOSE_SEGMENT_LIMIT, nowMs: this.now().getTime() };
    for (const [tier, manifest] of this.manifests) {
      if (await packTier(tierDir(this.indexDir, tier), tier, manifest, this.obsolete, packOptions, this.log)) this.dirty.add(tier);
    }
    if (embedding) {
      const stats = await embedSegments(this.indexDir, embedding.embedder, this.manifests, {
        onProgress: embedding.onProgress,
        logger: this.options.logger,
        onChange: (tier) => this.dirty.add(tier),
      });
      result.embedded = stats.embedded;
      result.embeddingCacheHits = stats.cacheHits;
      result.warnings.push(...stats.warnings);
      result.hybrid = stats.complete;
      if (stats.failure) result.embeddingFailure = stats.failure;
      for (const o of stats.obsolete) this.obsolete.push(o);
    }
    for (const [tier, manifest] of this.manifests) {
      if (!this.dirty.has(tier)) continue;
      manifest.generation = newGeneration();
      manifest.updatedAt = this.now().toISOString();
      try {
        await writeManifest(this.indexDir, manifest);
      } catch (error) {
        throw fromSystemError(error, `write the ${tier} index manifest`);
      }
    }
    // Only after the manifests point at the new segments: delete the old ones and strays.
    for (const { tier, segment } of this.obsolete) {
      const stillUsed = Object.values(this.manifests.get(tier)!.files).some((e) => e.segment === segment || e.vectors?.file === segment);
      if (!stillUsed) await unlink(join(tierDir(this.indexDir, tier), segment)).catch(() => undefined);
    }
    for (const [tier, manifest] of this.manifests) await removeStrays(tierDir(this.indexDir, tier), manifest);
    this.manifests.clear();
    this.dirty.clear();
    this.obsolete.length = 0;
    this.checked.clear();
    return result;
  }

  // ---- querying

  generations(tiers: readonly Tier[]): ReturnType<Engine['generations']> {
    return IndexSnapshot.generations(this.indexDir, tiers);
  }

  rank(query: string, request: RankRequest): Ranked {
    // A one-off load skips files the filters rule out.
    return rankSnapshot(IndexSnapshot.load(this.indexDir, request.tiers, request.filters, request.modelKey), query, request);
  }

  find(id: string, tier: Tier): SearchResult | undefined {
    return findIn(IndexSnapshot.load(this.indexDir, [tier]), id);
  }

  openReader(): OpenIndex {
    return new OpenIndex(this.indexDir);
  }
}

/** What a word-by-word rendering's words count beside the question's own (searcher.ts RankQuery.textWeight). */
const RENDERING_TEXT_WEIGHT = 0.75;

/** Rank a loaded snapshot (the engine's and the open index's `rank`). */
export function rankSnapshot(snapshot: IndexSnapshot, query: string, request: RankRequest): Ranked {
  const queries: Array<{ text: string; vector?: Float32Array; words?: RenderedWord[]; textWeight?: number }> = [
    { text: query, vector: request.queryVector },
    ...(request.also ?? []).map((a) => ({
      text: a.query,
      vector: a.vector,
      words: a.words,
      ...(a.words ? { textWeight: RENDERING_TEXT_WEIGHT } : {}),
    })),
  ];
  const ranked = rankQueries(snapshot, queries, {
    limit: request.limit,
    filters: request.filters,
    vectorWeight: request.vectorWeight,
    textWeight: request.textWeight,
    minScore: request.minScore,
    fusion: request.fusion,
  });
  return {
    // Each result's own relevance: the gate that injects unasked judges them at its floor (relevance.ts withCompany).
    results: assemble(
      ranked.hits,
      ranked.terms,
      relevanceScorer(
        snapshot,
        queries.map((q, i) => ({ text: q.text, terms: ranked.termsOf[i]!, words: q.words })),
      ),
    ),
    terms: ranked.terms,
    hybrid: ranked.hybrid,
    generations: snapshot.generations,
    totalDocs: snapshot.totalDocs,
    vectorDocs: snapshot.vectorDocs,
  };
}

/** The document with observation id `id` in a loaded snapshot, as a result with score 1. */
export function findIn(snapshot: IndexSnapshot, id: string): SearchResult | undefined {
  const key = Buffer.from(id, 'utf8');
  for (const seg of snapshot.segments) {
    const { segment, excluded } = seg;
    if (segment.idBytes.indexOf(key) === -1) continue;
    for (let d = 0; d < segment.docCount; d++) {
      if (excluded?.[d] || segment.docId(d) !== id) continue;
      return assemble([{ seg, doc: d, score: 1, text: 1, vector: null }], [])[0];
    }
  }
  return undefined;
}

/** Turn ranked hits into result records (reads the stored text of just these documents). */
export function assemble(hits: Hit[], terms: string[], relevanceOf?: RelevanceOf): SearchResult[] {
  const bySegment = new Map<Hit['seg'], number[]>();
  for (const h of hits) {
    const list = bySegment.get(h.seg) ?? [];
    list.push(h.doc);
    bySegment.set(h.seg, list);
  }
  const stored = new Map<Hit['seg'], Map<number, StoredDoc>>();
  for (const [seg, docs] of bySegment) stored.set(seg, seg.segment.readStored(docs));
  return hits.map((h) => {
    const s = h.seg.segment;
    const doc = stored.get(h.seg)!.get(h.doc)!;
    const agent = s.agentOf(h.doc);
    const snippet = makeSnippet(doc.text, terms);
    return {
      id: doc.id,
      path: s.pathOf(h.doc),
      startLine: doc.startLine,
      endLine: doc.endLine,
      score: Math.round(h.score * 10000) / 10000,
      snippet: snippet.text,
      date: dayString(s.docDay[h.doc]!),
      time: doc.time,
      priority: s.priorityOf(h.doc),
      category: s.categoryOf(h.doc),
      tier: h.seg.tier,
      agent,
      tags: doc.tags,
      done: doc.done,
      ...(doc.mark ? { mark: doc.mark } : {}),
      text: doc.text,
      provenance: doc.provenance ?? { source: 'manual', agent, session: '', entryIds: [] },
      scores: { text: Math.round(h.text * 10000) / 10000, vector: h.vector === null ? null : Math.round(h.vector * 10000) / 10000 },
      relevance: relevanceOf?.(
        { text: doc.text, tags: doc.tags, category: s.categoryOf(h.doc), date: dayString(s.docDay[h.doc]!) },
        h.cosines,
      ),
    };
  });
}

/**
 * Merge the tier's pack (its current documents) and the loose segments of
 * settled files into a new pack when `packPlan` says so. Returns true when the
 * manifest changed. A segment that cannot be read leaves the tier as it is
 * (search detects it and rebuilds).
 */
async function packTier(
  dir: string,
  tier: Tier,
  manifest: TierManifest,
  obsolete: Array<{ tier: Tier; segment: string }>,
  options: { looseLimit: number; nowMs: number },
  log: Log,
): Promise<boolean> {
  const files = manifest.files;
  const current = manifest.pack?.segment;
  const loose = new Set<string>();
  let packCurrentDocs = 0;
  let packReferenced = false;
  for (const entry of Object.values(files)) {
    if (entry.segment === current) {
      packReferenced = true;
      packCurrentDocs += entry.docs;
    } else if (isSettled(entry, options.nowMs)) loose.add(entry.segment);
  }
  let changed = false;
  if (manifest.pack && !packReferenced) {
    // Every file of the pack was edited, moved or deleted.
    obsolete.push({ tier, segment: manifest.pack.segment });
    delete manifest.pack;
    changed = true;
  }
  const staleDocs = manifest.pack ? manifest.pack.docs - packCurrentDocs : 0;
  if (!packPlan({ settledLoose: loose.size, staleDocs }, options.looseLimit)) return changed;

  const started = Date.now();
  const isCurrent = (name: string, f: SegmentFile) => {
    const entry = Object.hasOwn(files, f.path) ? files[f.path] : undefined;
    return entry !== undefined && entry.segment === name && entry.hash === f.sourceHash;
  };
  const sources: PackSource[] = (manifest.pack ? [manifest.pack.segment, ...loose] : [...loose]).map((name) => ({
    file: join(dir, name),
    keep: (f) => isCurrent(name, f),
  }));
  let pack: Awaited<ReturnType<typeof writePack>>;
  try {
    pack = await writePack(dir, tier, sources);
  } catch (error) {
    if (!(error instanceof SegmentError)) throw error;
    log('warn', 'index.pack_skipped', { tier, error: error.message });
    return changed;
  }
  const { name } = pack;
  for (const f of pack.files) {
    const entry = files[f.path]!;
    if (entry.segment === name) continue;
    obsolete.push({ tier, segment: entry.segment });
    // Vectors follow document numbers: the pack gets its own sidecar (from the embedding cache).
    if (entry.vectors) obsolete.push({ tier, segment: entry.vectors.file });
    delete entry.vectors;
    entry.segment = name;
  }
  if (manifest.pack && manifest.pack.segment !== name) obsolete.push({ tier, segment: manifest.pack.segment });
  manifest.pack = { segment: name, docs: pack.docs };
  log('info', 'index.packed', { tier, files: pack.files.length, docs: pack.docs, loose: loose.size, ms: Date.now() - started });
  return true;
}

/** Segment/vector files no manifest entry refers to (left by a crash or a stale run). */
async function removeStrays(dir: string, manifest: TierManifest): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const used = new Set<string>();
  for (const e of Object.values(manifest.files) as ManifestEntry[]) {
    used.add(e.segment);
    if (e.vectors) used.add(e.vectors.file);
  }
  if (manifest.pack) used.add(manifest.pack.segment);
  for (const name of names) {
    const indexFile = name.startsWith('seg-') || name.startsWith('pack-');
    const temporary = (name.startsWith('.seg-') || name.startsWith('.pack-')) && name.endsWith('.tmp');
    if ((indexFile && !used.has(name)) || temporary) {
      await unlink(join(dir, name)).catch(() => undefined);
    }
  }
}
