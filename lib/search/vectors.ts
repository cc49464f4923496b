/**
 * The embedding sidecar.
 *
 * - Cache: `.ocm/index/embeddings/<model key>.rows`, append-only rows
 *   [16-byte content hash | f32 scale | int8 × dims], keyed by the text's
 *   content hash and the model key, so a re-index never re-embeds unchanged
 *   text (a file that moves to the warm tier keeps its vectors too).
 * - Per segment (a file's own, or a pack): `<segment>.<model key>.vec`, the
 *   int8 vectors of its documents in document order, read by search for the
 *   segments in scope.
 *
 * Vectors are L2-normalised and quantised to int8 with one scale per vector
 * (cosine error ~1e-3, a quarter of the Float32 size).
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, truncate, unlink } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../platform/log.js';
import type { Tier } from '../core/types.js';
import { EmbeddingError, type EmbeddingSettings } from './embeddings.js';
import type { Embedder } from './embedder.js';
import { writeIndexFile } from './files.js';
import { tierDir, type ManifestEntry, type TierManifest } from './manifest.js';
import { Segment, SegmentError, type StoredDoc } from './segment.js';

export { embeddingSettings, type EmbeddingSettings } from './embeddings.js';

const HASH_BYTES = 16;

export function textHash(text: string): Buffer {
  return createHash('sha256').update(text).digest().subarray(0, HASH_BYTES);
}

export function quantise(v: Float32Array, out: Int8Array, offset: number): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  if (max === 0) return 0;
  const scale = max / 127;
  for (let i = 0; i < v.length; i++) out[offset + i] = Math.round(v[i]! / scale);
  return scale;
}

/** The append-only embedding cache of one model. */
export class EmbeddingCache {
  private readonly rowsPath: string;
  private readonly metaPath: string;
  readonly model: string;
  dims: number;
  private rows: Buffer;
  private count: number;
  private readonly byHash = new Map<string, number>();
  private pending: Buffer[] = [];

  private constructor(dir: string, key: string, model: string) {
    this.rowsPath = join(dir, `${key}.rows`);
    this.metaPath = join(dir, `${key}.json`);
    this.model = model;
    this.dims = 0;
    this.rows = Buffer.alloc(0);
    this.count = 0;
  }

  static open(indexDir: string, settings: EmbeddingSettings): EmbeddingCache {
    const dir = join(indexDir, 'embeddings');
    const cache = new EmbeddingCache(dir, settings.key, settings.model);
    try {
      const meta = JSON.parse(readFileSync(cache.metaPath, 'utf8')) as { dims?: number; model?: string };
      if (typeof meta.dims === 'number' && meta.dims > 0 && meta.model === settings.model) cache.dims = meta.dims;
    } catch {
      /* no cache yet, or unreadable: start empty */
    }
    if (cache.dims > 0 && existsSync(cache.rowsPath)) {
      const bytes = readFileSync(cache.rowsPath);
      const rowSize = cache.rowSize;
      // A torn last row (killed mid-append) is ignored and cut off on the next append.
      cache.count = Math.floor(bytes.length / rowSize);
      cache.rows = bytes.subarray(0, cache.count * rowSize);
      for (let r = 0; r < cache.count; r++) cache.byHash.set(cache.rows.toString('hex', r * rowSize, r * rowSize + HASH_BYTES), r);
    }
    return cache;
  }

  get rowSize(): number {
    return HASH_BYTES + 4 + this.dims;
  }

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Buffer): boolean {
    return this.byHash.has(hash.toString('hex'));
  }

  /** Copy the cached vector of `hash` into out[offset…]; returns its scale (0 when absent). */
  copyInto(hash: Buffer, out: Int8Array, offset: number): number {
    const row = this.byHash.get(hash.toString('hex'));
    if (row === undefined) return 0;
    const at = row < this.count ? this.rows : Buffer.concat(this.pending);
    const base = (row < this.count ? row : row - this.count) * this.rowSize;
    const scale = at.readFloatLE(base + HASH_BYTES);
    out.set(new Int8Array(at.buffer, at.byteOffset + base + HASH_BYTES + 4, this.dims), offset);
    return scale;
  }

  add(hash: Buffer, vector: Float32Array): void {
    if (this.dims === 0) this.dims = vector.length;
    if (vector.length !== this.dims)
      throw new EmbeddingError('api', `the model returned ${vector.length} dimensions, the cache holds ${this.dims}`);
    const row = Buffer.alloc(this.rowSize);
    hash.copy(row, 0);
    const q = new Int8Array(row.buffer, row.byteOffset + HASH_BYTES + 4, this.dims);
    const scale = quantise(vector, q, 0);
    row.writeFloatLE(scale, HASH_BYTES);
    this.byHash.set(hash.toString('hex'), this.count + this.pending.length);
    this.pending.push(row);
  }

  /** Append the new rows to disk. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await mkdir(join(this.rowsPath, '..'), { recursive: true, mode: 0o700 });
    // Atomic: a search reads this without the home lock, and half a file read as "no cache" dropped its vectors.
    await writeIndexFile(this.metaPath, `${JSON.stringify({ model: this.model, dims: this.dims, hashBytes: HASH_BYTES })}\n`);
    if (existsSync(this.rowsPath)) {
      const fd = openSync(this.rowsPath, 'r');
      const size = fstatSync(fd).size;
      closeSync(fd);
      if (size % this.rowSize !== 0) await truncate(this.rowsPath, size - (size % this.rowSize));
    }
    const data = Buffer.concat(this.pending);
    await appendFile(this.rowsPath, data, { mode: 0o600 });
    this.rows = Buffer.concat([this.rows, data]);
    this.count += this.pending.length;
    this.pending = [];
  }
}

/**
 * Take the vectors of these texts out of every model's cache (`forget`): each
 * cache file that holds one is written again without those rows, so the
 * other vectors stay and nothing else is embedded again. A cache whose
 * description is unreadable is deleted instead (the index re-embeds what it
 * needs). Returns the rows dropped.
 */
export async function dropCachedVectors(indexDir: string, texts: string[]): Promise<number> {
  if (texts.length === 0) return 0;
  const dir = join(indexDir, 'embeddings');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const drop = new Set(texts.map((t) => textHash(t).toString('hex')));
  let dropped = 0;
  for (const name of names.filter((n) => n.endsWith('.rows'))) {
    const rowsPath = join(dir, name);
    const metaPath = join(dir, name.replace(/\.rows$/, '.json'));
    const bytes = await readFile(rowsPath);
    let dims = 0;
    try {
      dims = (JSON.parse(await readFile(metaPath, 'utf8')) as { dims?: number }).dims ?? 0;
    } catch {
      /* unreadable: deleted below */
    }
    const rowSize = HASH_BYTES + 4 + dims;
    if (!(dims > 0)) {
      await unlink(rowsPath).catch(() => undefined);
      await unlink(metaPath).catch(() => undefined);
      continue;
    }
    const kept: Buffer[] = [];
    let here = 0;
    for (let at = 0; at + rowSize <= bytes.length; at += rowSize) {
      if (drop.has(bytes.toString('hex', at, at + HASH_BYTES))) here++;
      else kept.push(bytes.subarray(at, at + rowSize));
    }
    if (here === 0) continue;
    await writeIndexFile(rowsPath, Buffer.concat(kept));
    dropped += here;
  }
  return dropped;
}

export { buildVectorFile, loadVectorFile, vectorFileName, type SegmentVectors } from './vector-file.js';
import { buildVectorFile, vectorFileName } from './vector-file.js';

export interface EmbedStats {
  embedded: number;
  cacheHits: number;
  warnings: string[];
  /** Every indexed document of every tier has a vector of this model. */
  complete: boolean;
  /** Why embedding stopped this run, when it did (`model`: the local model's files are missing or broken). */
  failure?: EmbeddingError['kind'];
  /** Sidecar files replaced (to delete once the manifests are written). */
  obsolete: Array<{ tier: Tier; segment: string }>;
}

/** Progress of the documents a run embeds (cache misses): `done` of `total`. */
export type EmbedProgress = (done: number, total: number) => void;

/**
 * Give every segment a vector sidecar for the embedder's model: cached
 * vectors are reused, the rest are embedded in batches. A document the model
 * takes no vector for (embedder.accepts: Hangul under the English-only local
 * model) or without text is settled without one. An unreachable endpoint or
 * a broken model stops embedding (warning); search stays text-only for
 * documents without vectors and the next run retries.
 */
export async function embedSegments(
  indexDir: string,
  embedder: Embedder,
  manifests: Map<Tier, TierManifest>,
  options: { logger?: Logger; onChange: (tier: Tier) => void; onProgress?: EmbedProgress },
): Promise<EmbedStats> {
  const settings = embedder.settings;
  const stats: EmbedStats = { embedded: 0, cacheHits: 0, warnings: [], complete: true, obsolete: [] };
  const cache = EmbeddingCache.open(indexDir, settings);
  /**
   * One segment file (a file's own, or a pack of many), the text hash of each of its current documents, and those
   * that get no vector by design.
   */
  type Work = {
    tier: Tier;
    name: string;
    segment: Segment;
    entries: Array<[key: string, entry: ManifestEntry]>;
    hashes: Array<Buffer | undefined>;
    none: Set<number>;
  };
  const work: Work[] = [];
  const missing = new Map<string, string>(); // hash hex → text
  for (const [tier, manifest] of manifests) {
    const bySegment = new Map<string, Array<[string, ManifestEntry]>>();
    for (const [key, entry] of Object.entries(manifest.files)) {
      const list = bySegment.get(entry.segment);
      if (list) list.push([key, entry]);
      else bySegment.set(entry.segment, [[key, entry]]);
    }
    for (const [name, entries] of bySegment) {
      if (entries.every(([, e]) => e.vectors && e.vectors.model === settings.key && e.vectors.count === e.docs)) continue;
      let segment: Segment;
      try {
        segment = Segment.load(join(tierDir(indexDir, tier), name));
      } catch (error) {
        if (error instanceof SegmentError) continue; // rebuilt by the next text index run
        throw error;
      }
      const hashes: Array<Buffer | undefined> = new Array(segment.docCount).fill(undefined);
      const none = new Set<number>();
      for (const f of segment.files) {
        const entry = Object.hasOwn(manifest.files, f.path) ? manifest.files[f.path] : undefined;
        // A pack's documents of a file edited or deleted since are not embedded.
        if (!entry || entry.segment !== name || entry.hash !== f.sourceHash || f.docs === 0) continue;
        const lines = segment
          .readStoreBytes(f.firstDoc, f.firstDoc + f.docs)
          .toString('utf8')
          .split('\n');
        for (let i = 0; i < f.docs; i++) {
          const text = (JSON.parse(lines[i]!) as StoredDoc).text;
          if (!text.trim() || !embedder.accepts(text)) {
            none.add(f.firstDoc + i);
            continue;
          }
          const h = textHash(text);
          if (cache.has(h)) stats.cacheHits++;
          else missing.set(h.toString('hex'), text);
          hashes[f.firstDoc + i] = h;
        }
      }
      work.push({ tier, name, segment, entries, hashes, none });
    }
  }
  const pendingHashes = [...missing.keys()];
  let failure: string | undefined;
  if (pendingHashes.length > 0) {
    const texts = pendingHashes.map((h) => missing.get(h)!);
    options.onProgress?.(0, texts.length);
    try {
      await embedder.embed(texts, (done, vectors, from) => {
        vectors.forEach((v, i) => {
          cache.add(Buffer.from(pendingHashes[from + i]!, 'hex'), v);
        });
        stats.embedded += vectors.length;
        options.logger?.log('debug', 'index.embedded', { done, total: texts.length });
        options.onProgress?.(done, texts.length);
      });
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      failure = error.message;
      stats.failure = error.kind;
      stats.warnings.push(
        `Embeddings unavailable, search stays text-only for ${texts.length - stats.embedded} documents: ${error.message}`,
      );
      options.logger?.log('warn', 'index.embeddings_failed', { error: error.message, kind: error.kind, embedded: stats.embedded });
    }
    await cache.flush();
  }
  for (const w of work) {
    // No vector yet in this space (the first run failed, or every document so far is one without): the model's size.
    const dims = cache.dims || (w.none.size > 0 && failure === undefined ? settings.dimensions : 0);
    if (dims === 0) {
      stats.complete = false;
      continue;
    }
    const scales = new Float32Array(w.segment.docCount);
    const data = new Int8Array(w.segment.docCount * dims);
    w.hashes.forEach((h, d) => {
      if (h) scales[d] = cache.copyInto(h, data, d * dims);
    });
    const file = vectorFileName(w.name, settings.key);
    await writeIndexFile(
      join(tierDir(indexDir, w.tier), file),
      buildVectorFile({ model: settings.key, dims, segment: w.name }, scales, data),
    );
    const slots = new Map(w.segment.files.map((f) => [f.path, f]));
    for (const [key, entry] of w.entries) {
      const f = slots.get(key);
      let count = 0;
      if (f) for (let d = f.firstDoc; d < f.firstDoc + f.docs; d++) if (scales[d]! > 0 || w.none.has(d)) count++;
      if (entry.vectors && entry.vectors.file !== file) stats.obsolete.push({ tier: w.tier, segment: entry.vectors.file });
      entry.vectors = { model: settings.key, dims, file, count };
    }
    options.onChange(w.tier);
  }
  for (const manifest of manifests.values()) {
    for (const entry of Object.values(manifest.files)) {
      if (!entry.vectors || entry.vectors.model !== settings.key || entry.vectors.count < entry.docs) stats.complete = false;
    }
  }
  if (failure) stats.complete = false;
  return stats;
}
