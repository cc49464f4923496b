/**
 * Keeping the search index in step with the memory files: one segment per
 * file, rebuilt only when the file's content hash changes; deleted files drop
 * out; a corrupt or old-format index is detected and rebuilt. A tier's
 * settled files are merged into its pack when enough of them have gathered,
 * and at once when a file of the pack changed (pack.ts).
 * Then, when embeddings are configured, the vector sidecars of segments that lack them.
 *
 * Callers hold the home lock (the `index` command, `run`).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ANALYZER_VERSION } from './tokenizer.js';
import { buildSegment, Segment, SEGMENT_FORMAT, SegmentError, type SegmentFile } from './segment.js';
import { isSettled, LOOSE_SEGMENT_LIMIT, packPlan, writePack, type PackSource } from './pack.js';
import { dayFileDocuments, displayPath, agentFromPath, memoryRoots, reflectionDocuments, type MemoryRoot } from './documents.js';
import { listMarkdown, writeIndexFile } from './files.js';
import { newGeneration, readManifest, tierDir, TIERS, writeManifest, type ManifestEntry, type TierManifest } from './manifest.js';
import { fromSystemError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { Config } from '../config/config-schema.js';
import type { Tier } from '../core/types.js';
import type { SearchDoc, SearchMode } from './types.js';
import { embedSegments, embeddingSettings, type EmbedStats } from './vectors.js';
import { exists } from '../platform/home.js';

export type IndexConfig = Pick<Config, 'embeddings' | 'tiers'>;

export interface IndexOptions {
  logger?: Logger;
  now?: () => Date;
  /** Rebuild every segment (`index --rebuild`); cached embeddings are reused. */
  rebuild?: boolean;
  /** Only these tiers (default: all). */
  tiers?: Tier[];
  /** fetch used for the embeddings endpoint (tests may pass their own). */
  fetch?: typeof fetch;
  /** Merge a tier's segments into its pack when it has more loose ones of settled files than this (default LOOSE_SEGMENT_LIMIT; Infinity: only to drop stale documents). */
  looseSegmentLimit?: number;
}

export interface IndexResult {
  /** Files indexed for the first time. */
  added: number;
  /** Files whose index entry was dropped (deleted or moved away). */
  removed: number;
  /** Files re-indexed because their content changed. */
  changed: number;
  unchanged: number;
  files: number;
  documents: number;
  /** Documents embedded through the endpoint in this run (cache misses). */
  embedded: number;
  /** Documents whose vectors came from the embedding cache. */
  embeddingCacheHits: number;
  mode: SearchMode;
  /** Tiers whose index was unreadable or of another version and was rebuilt. */
  recovered: Tier[];
  warnings: string[];
  durationMs: number;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Segment file name: a function of the source, its content and the formats. */
export function segmentName(key: string, hash: string): string {
  return `seg-${sha256(`${key}\u0000${hash}\u0000${ANALYZER_VERSION}\u0000${SEGMENT_FORMAT}`).slice(0, 20)}.seg`;
}

/** A stat mtime this close to when we hashed the file may hide a later same-size edit: re-hash. */
const MTIME_RACE_MS = 2000;

export function documentsOf(root: MemoryRoot, text: string, file: string, key: string): SearchDoc[] {
  if (root.kind === 'reflection') return reflectionDocuments(text, { path: key, fileName: basename(file) });
  return dayFileDocuments(text, { path: key, tier: root.tier, agent: agentFromPath(root, file), fileName: basename(file) });
}

export async function updateIndex(paths: HomePaths, config: IndexConfig, options: IndexOptions = {}): Promise<IndexResult> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const log = (level: 'debug' | 'info' | 'warn' | 'error', event: string, fields?: Record<string, unknown>) => options.logger?.log(level, event, fields);
  const result: IndexResult = {
    added: 0,
    removed: 0,
    changed: 0,
    unchanged: 0,
    files: 0,
    documents: 0,
    embedded: 0,
    embeddingCacheHits: 0,
    mode: 'text',
    recovered: [],
    warnings: [],
    durationMs: 0,
  };
  const roots = memoryRoots(paths, config.tiers.vault_path);
  const tiers = options.tiers ?? [...TIERS];
  const manifests = new Map<Tier, TierManifest>();
  const dirty = new Set<Tier>();
  const obsolete: Array<{ tier: Tier; segment: string }> = [];
  // A pack is checked once per run, not once for each of its files.
  const checked = new Map<string, boolean>();
  const segmentIsValid = (path: string) => {
    let ok = checked.get(path);
    if (ok === undefined) checked.set(path, (ok = Segment.quickCheck(path)));
    return ok;
  };

  for (const tier of tiers) {
    const dir = tierDir(paths.index, tier);
    const read = readManifest(paths.index, tier);
    if (read.state === 'missing') dirty.add(tier);
    if (read.state === 'corrupt' || read.state === 'version') {
      result.recovered.push(tier);
      result.warnings.push(
        read.state === 'version'
          ? `The ${tier} index was built by another version (${read.reason ?? ''}); rebuilt it.`
          : `The ${tier} index was unreadable (${read.reason ?? read.state}); rebuilt it.`,
      );
      log('warn', 'index.recovered', { tier, state: read.state, reason: read.reason });
      dirty.add(tier);
    }
    const manifest = read.manifest;
    manifests.set(tier, manifest);
    const seen = new Set<string>();
    for (const root of roots.filter((r) => r.tier === tier)) {
      for (const file of await listMarkdown(root.dir, root.ignore)) {
        const key = displayPath(paths, file);
        if (seen.has(key)) continue;
        seen.add(key);
        const entry = manifest.files[key];
        let st;
        try {
          st = await stat(file);
        } catch (error) {
          result.warnings.push(`Could not read ${key}: ${(error as Error).message}`);
          continue;
        }
        const segmentPath = join(dir, entry?.segment ?? '-');
        if (
          entry &&
          !options.rebuild &&
          entry.size === st.size &&
          entry.mtimeMs === st.mtimeMs &&
          entry.checkedMs - st.mtimeMs > MTIME_RACE_MS &&
          entry.kind === root.kind &&
          (await exists(segmentPath))
        ) {
          result.unchanged++;
          result.documents += entry.docs;
          continue;
        }
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (error) {
          result.warnings.push(`Could not read ${key}: ${(error as Error).message}`);
          log('warn', 'index.read_failed', { path: key, error: (error as Error).message });
          continue;
        }
        const hash = sha256(text);
        if (entry && !options.rebuild && entry.hash === hash && entry.kind === root.kind && segmentIsValid(segmentPath)) {
          manifest.files[key] = { ...entry, size: st.size, mtimeMs: st.mtimeMs, checkedMs: now().getTime() };
          dirty.add(tier);
          result.unchanged++;
          result.documents += entry.docs;
          continue;
        }
        const docs = documentsOf(root, text, file, key);
        const name = segmentName(key, hash);
        await writeIndexFile(join(dir, name), buildSegment(docs, { path: key, tier, sourceHash: hash }));
        if (entry && entry.segment !== name) obsolete.push({ tier, segment: entry.segment });
        if (entry?.vectors && entry.segment !== name) obsolete.push({ tier, segment: entry.vectors.file });
        let minDay = 0;
        let maxDay = 0;
        const agents = new Set<string>();
        for (const d of docs) {
          const day = Number(d.date.replace(/-/g, '')) || 0;
          if (day) {
            minDay = minDay ? Math.min(minDay, day) : day;
            maxDay = Math.max(maxDay, day);
          }
          agents.add(d.agent);
        }
        manifest.files[key] = {
          hash,
          size: st.size,
          mtimeMs: st.mtimeMs,
          checkedMs: now().getTime(),
          segment: name,
          docs: docs.length,
          minDay,
          maxDay,
          agents: [...agents],
          kind: root.kind,
          // Same segment name means same content: vectors stay valid (a rebuild re-creates them from the cache).
          vectors: entry?.segment === name && !options.rebuild ? entry.vectors : undefined,
        };
        if (entry) result.changed++;
        else result.added++;
        result.documents += docs.length;
        dirty.add(tier);
        log('debug', 'index.file', { path: key, docs: docs.length, state: entry ? 'changed' : 'added' });
      }
    }
    for (const key of Object.keys(manifest.files)) {
      if (seen.has(key)) continue;
      const entry = manifest.files[key]!;
      obsolete.push({ tier, segment: entry.segment });
      if (entry.vectors) obsolete.push({ tier, segment: entry.vectors.file });
      delete manifest.files[key];
      result.removed++;
      dirty.add(tier);
      log('debug', 'index.file', { path: key, state: 'removed' });
    }
    const packOptions = { looseLimit: options.looseSegmentLimit ?? LOOSE_SEGMENT_LIMIT, nowMs: now().getTime() };
    if (await packTier(dir, tier, manifest, obsolete, packOptions, log)) dirty.add(tier);
    result.files += Object.keys(manifest.files).length;
  }

  const embedding = embeddingSettings(config);
  if (embedding) {
    const stats: EmbedStats = await embedSegments(paths, embedding, manifests, {
      fetch: options.fetch,
      logger: options.logger,
      onChange: (tier) => dirty.add(tier),
    });
    result.embedded = stats.embedded;
    result.embeddingCacheHits = stats.cacheHits;
    result.warnings.push(...stats.warnings);
    result.mode = stats.complete ? 'hybrid' : 'text';
    for (const o of stats.obsolete) obsolete.push(o);
  }

  for (const tier of tiers) {
    const manifest = manifests.get(tier)!;
    if (!dirty.has(tier)) continue;
    manifest.generation = newGeneration();
    manifest.updatedAt = now().toISOString();
    try {
      await writeManifest(paths.index, manifest);
    } catch (error) {
      throw fromSystemError(error, `write the ${tier} index manifest`);
    }
  }
  // Only after the manifests point at the new segments: delete the old ones and strays.
  for (const { tier, segment } of obsolete) {
    const stillUsed = Object.values(manifests.get(tier)!.files).some((e) => e.segment === segment || e.vectors?.file === segment);
    if (!stillUsed) await unlink(join(tierDir(paths.index, tier), segment)).catch(() => undefined);
  }
  for (const tier of tiers) await removeStrays(tierDir(paths.index, tier), manifests.get(tier)!);

  result.durationMs = Date.now() - started;
  log('info', 'index.updated', { ...result, warnings: result.warnings.length });
  return result;
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
  log: (level: 'debug' | 'info' | 'warn' | 'error', event: string, fields?: Record<string, unknown>) => void,
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
  const sources: PackSource[] = (manifest.pack ? [manifest.pack.segment, ...loose] : [...loose]).map((name) => ({ file: join(dir, name), keep: (f) => isCurrent(name, f) }));
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
