/**
 * The per-tier index manifest: which memory file is indexed by which segment,
 * under which content hash. One manifest per tier (`.ocm/index/<tier>/`), so a
 * search over the hot tier never reads warm or cold data. A segment is a
 * file's own (`seg-…`) or the tier's pack of many files (`pack-…`, pack.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tier } from '../core/types.js';
import { ANALYZER_VERSION } from './tokenizer.js';
import { SEGMENT_FORMAT } from './segment.js';
import { errorCode } from '../core/errors.js';

/** 2: entries may point at a pack. A format-1 manifest (no packs) is read as is. */
export const MANIFEST_FORMAT = 2;
const READABLE_FORMATS = [1, MANIFEST_FORMAT];
export const TIERS: readonly Tier[] = ['hot', 'warm', 'cold'];

export interface VectorInfo {
  /** Embedding model key (provider endpoint + model); vectors of another key are stale. */
  model: string;
  dims: number;
  /** Sidecar file name in the tier folder. */
  file: string;
  /** Documents settled for this model: a vector, or none by design (no text, or a language the model has no vocabulary for); the rest failed to embed. */
  count: number;
}

export interface ManifestEntry {
  /** sha256 of the file content. */
  hash: string;
  size: number;
  mtimeMs: number;
  /** When the content hash was last checked (ms since epoch). */
  checkedMs: number;
  segment: string;
  docs: number;
  minDay: number;
  maxDay: number;
  agents: string[];
  kind: string;
  vectors?: VectorInfo;
}

export interface TierManifest {
  format: number;
  segmentFormat: number;
  analyzer: number;
  tier: Tier;
  /** Changes whenever the tier's index changes (query-cache key). */
  generation: string;
  updatedAt: string;
  files: Record<string, ManifestEntry>;
  /** The tier's pack: its file name and document count (current and stale). */
  pack?: { segment: string; docs: number };
}

export function tierDir(indexDir: string, tier: Tier): string {
  return join(indexDir, tier);
}

export function manifestPath(indexDir: string, tier: Tier): string {
  return join(tierDir(indexDir, tier), 'manifest.json');
}

export function emptyManifest(tier: Tier): TierManifest {
  return {
    format: MANIFEST_FORMAT,
    segmentFormat: SEGMENT_FORMAT,
    analyzer: ANALYZER_VERSION,
    tier,
    generation: newGeneration(),
    updatedAt: new Date(0).toISOString(),
    files: {},
  };
}

/** A random id (Web Crypto's global: no module to load for a search that only reads manifests). */
export function newGeneration(): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(8))).toString('hex');
}

/** Segment file names: never a path (a manifest cannot point outside the tier folder). */
const SEGMENT_NAME = /^(?:seg|pack)-[0-9a-f]+\.seg$/;

export type ManifestState = 'ok' | 'missing' | 'corrupt' | 'version';

/** Read a tier manifest. Never throws: a missing, corrupt or old manifest is reported as such. */
export function readManifest(indexDir: string, tier: Tier): { manifest: TierManifest; state: ManifestState; reason?: string } {
  let text: string;
  try {
    text = readFileSync(manifestPath(indexDir, tier), 'utf8');
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { manifest: emptyManifest(tier), state: 'missing' };
    return { manifest: emptyManifest(tier), state: 'corrupt', reason: (error as Error).message };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { manifest: emptyManifest(tier), state: 'corrupt', reason: `manifest is not JSON (${(error as Error).message})` };
  }
  const m = data as Partial<TierManifest> | null;
  if (!m || typeof m !== 'object' || typeof m.files !== 'object' || m.files === null || typeof m.generation !== 'string') {
    return { manifest: emptyManifest(tier), state: 'corrupt', reason: 'manifest has the wrong shape' };
  }
  if (
    !READABLE_FORMATS.includes(m.format as number) ||
    m.segmentFormat !== SEGMENT_FORMAT ||
    m.analyzer !== ANALYZER_VERSION ||
    m.tier !== tier
  ) {
    return {
      manifest: emptyManifest(tier),
      state: 'version',
      reason: `index format ${String(m.format)}/${String(m.segmentFormat)}/${String(m.analyzer)} differs from ${MANIFEST_FORMAT}/${SEGMENT_FORMAT}/${ANALYZER_VERSION}`,
    };
  }
  for (const [key, entry] of Object.entries(m.files)) {
    if (
      !entry ||
      typeof entry !== 'object' ||
      typeof entry.segment !== 'string' ||
      typeof entry.hash !== 'string' ||
      !SEGMENT_NAME.test(entry.segment)
    ) {
      return { manifest: emptyManifest(tier), state: 'corrupt', reason: `manifest entry ${key} is malformed` };
    }
  }
  if (
    m.pack !== undefined &&
    (!m.pack ||
      typeof m.pack !== 'object' ||
      typeof m.pack.segment !== 'string' ||
      !SEGMENT_NAME.test(m.pack.segment) ||
      !(m.pack.docs >= 0))
  ) {
    return { manifest: emptyManifest(tier), state: 'corrupt', reason: 'manifest pack entry is malformed' };
  }
  return { manifest: m as TierManifest, state: 'ok' };
}

export async function writeManifest(indexDir: string, manifest: TierManifest): Promise<void> {
  const { writeFileAtomic } = await import('../platform/atomic-file.js');
  await writeFileAtomic(manifestPath(indexDir, manifest.tier), `${JSON.stringify(manifest)}\n`);
}
