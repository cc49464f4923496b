/**
 * The repeated-query cache, kept on disk because `ocm-run search` is a fresh
 * process each time: `.ocm/index/query-cache.json` holds the last responses
 * (valid only while the manifest generations of their tiers are unchanged, so
 * any index change invalidates them) and query embeddings (keyed by model and
 * query text; they stay valid across index changes and save an API call).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FORMAT = 1;
const MAX_RESPONSES = 100;
const MAX_VECTORS = 500;

interface CacheFile {
  format: number;
  responses: Record<string, { generations: Record<string, string>; at: number; value: unknown }>;
  vectors: Record<string, { at: number; vector: string }>;
}

export class QueryCache {
  private readonly path: string;
  private data: CacheFile;
  private dirty = false;

  constructor(indexDir: string) {
    this.path = join(indexDir, 'query-cache.json');
    this.data = { format: FORMAT, responses: {}, vectors: {} };
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as CacheFile;
      if (parsed && parsed.format === FORMAT && typeof parsed.responses === 'object' && typeof parsed.vectors === 'object')
        this.data = parsed;
    } catch {
      /* missing or broken: start empty */
    }
  }

  getResponse<T>(key: string, generations: Record<string, string>): T | undefined {
    const hit = this.data.responses[key];
    if (!hit) return undefined;
    const same =
      Object.keys(generations).length === Object.keys(hit.generations).length &&
      Object.entries(generations).every(([t, g]) => hit.generations[t] === g);
    return same ? (hit.value as T) : undefined;
  }

  setResponse(key: string, generations: Record<string, string>, value: unknown, now: number): void {
    this.data.responses[key] = { generations, at: now, value };
    prune(this.data.responses, MAX_RESPONSES);
    this.dirty = true;
  }

  getVector(model: string, query: string): Float32Array | undefined {
    const hit = this.data.vectors[`${model}\u0000${query}`];
    if (!hit) return undefined;
    const bytes = Buffer.from(hit.vector, 'base64');
    if (bytes.length % 4 !== 0) return undefined;
    const copy = new Uint8Array(bytes);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }

  setVector(model: string, query: string, vector: Float32Array, now: number): void {
    this.data.vectors[`${model}\u0000${query}`] = {
      at: now,
      vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'),
    };
    prune(this.data.vectors, MAX_VECTORS);
    this.dirty = true;
  }

  /** Write changes (best effort: a cache that cannot be written only costs speed). */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const { writeIndexFile } = await import('./files.js');
    await writeIndexFile(this.path, JSON.stringify(this.data)).catch(() => undefined);
  }
}

function prune(map: Record<string, { at: number }>, max: number): void {
  const keys = Object.keys(map);
  if (keys.length <= max) return;
  keys.sort((a, b) => map[a]!.at - map[b]!.at);
  for (const k of keys.slice(0, keys.length - max)) delete map[k];
}
