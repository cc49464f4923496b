/**
 * Keeping the search index in step with the memory files: a file is re-stored
 * only when its content hash changes; deleted files drop out; a corrupt or
 * old-format index is detected and rebuilt. The indexer decides what changed
 * and turns files into documents; the storage engine (engine.ts, here
 * segment-engine.ts: segments, packs, vector sidecars when embeddings are
 * configured) keeps them.
 *
 * Callers hold the home lock (the `index` command, `run`).
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PLAIN_TEXT_CHARS } from '../memory/day-file/index.js';
import { dayFileDocuments, displayPath, agentFromPath, memoryRoots, reflectionDocuments, type MemoryRoot } from './documents.js';
import type { Engine } from './engine.js';
import { listMarkdown } from './files.js';
import { TIERS } from './manifest.js';
import { openEngine } from './open-engine.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { Config } from '../config/config-schema.js';
import type { Tier } from '../core/types.js';
import type { SearchDoc, SearchMode } from './types.js';
import { embeddingSettings, type EmbedProgress } from './vectors.js';
import { createEmbedder, type Embedder } from './embedder.js';
import { readTextSteady } from '../platform/atomic-file.js';

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
  /** The embedder to use (default: one from config, the local model on a worker thread; closed after the run). */
  embedder?: Embedder;
  /** Documents embedded so far of those this run embeds. */
  onEmbedProgress?: EmbedProgress;
  /** As each memory file is taken up (to re-index or to find unchanged): its number among all the run's files, their total, its path. */
  onFileProgress?: (done: number, total: number, path: string) => void;
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
  /** Why embedding stopped, when it did: `model` (the local model is missing or broken), `unreachable`, `auth`, `api`, `config`. */
  embeddingFailure?: string;
  mode: SearchMode;
  /** Tiers whose index was unreadable or of another version and was rebuilt. */
  recovered: Tier[];
  warnings: string[];
  durationMs: number;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A stat mtime this close to when we hashed the file may hide a later same-size edit: re-hash. */
const MTIME_RACE_MS = 2000;

/** `onPlainText`: told when a day file was too long to read as Markdown and was read line by line. */
export function documentsOf(root: MemoryRoot, text: string, file: string, key: string, onPlainText?: () => void): SearchDoc[] {
  if (root.kind === 'reflection') return reflectionDocuments(text, { path: key, fileName: basename(file) });
  return dayFileDocuments(text, { path: key, tier: root.tier, agent: agentFromPath(root, file), fileName: basename(file), onPlainText });
}

export async function updateIndex(paths: HomePaths, config: IndexConfig, options: IndexOptions = {}): Promise<IndexResult> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const log = (level: 'debug' | 'info' | 'warn' | 'error', event: string, fields?: Record<string, unknown>) =>
    options.logger?.log(level, event, fields);
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
  const engine: Engine = openEngine(paths.index, {
    rebuild: options.rebuild,
    looseSegmentLimit: options.looseSegmentLimit,
    now,
    logger: options.logger,
  });

  // Every tier's files listed first, so progress can say how many there are in all.
  const listed = new Map<Tier, Array<{ root: MemoryRoot; files: string[] }>>();
  let filesTotal = 0;
  let filesDone = 0;
  for (const tier of tiers) {
    const lists = [];
    for (const root of roots.filter((r) => r.tier === tier)) {
      const files = await listMarkdown(root.dir, root.ignore);
      filesTotal += files.length;
      lists.push({ root, files });
    }
    listed.set(tier, lists);
  }

  for (const tier of tiers) {
    const opened = engine.openTier(tier);
    if (opened.state === 'corrupt' || opened.state === 'version') {
      result.recovered.push(tier);
      result.warnings.push(
        opened.state === 'version'
          ? `The ${tier} index was built by another version (${opened.reason ?? ''}); rebuilt it.`
          : `The ${tier} index was unreadable (${opened.reason ?? opened.state}); rebuilt it.`,
      );
      log('warn', 'index.recovered', { tier, state: opened.state, reason: opened.reason });
    }
    const seen = new Set<string>();
    for (const { root, files } of listed.get(tier)!) {
      for (const file of files) {
        const key = displayPath(paths, file);
        if (seen.has(key)) continue;
        seen.add(key);
        options.onFileProgress?.(++filesDone, filesTotal, key);
        const entry = engine.stored(tier, key);
        let st;
        try {
          st = await stat(file);
        } catch (error) {
          result.warnings.push(`Could not read ${key}: ${(error as Error).message}`);
          continue;
        }
        if (
          entry &&
          !options.rebuild &&
          entry.size === st.size &&
          entry.mtimeMs === st.mtimeMs &&
          entry.checkedMs - st.mtimeMs > MTIME_RACE_MS &&
          entry.kind === root.kind &&
          (await engine.intact(tier, key, false))
        ) {
          result.unchanged++;
          result.documents += entry.docs;
          continue;
        }
        let text: string;
        try {
          text = await readTextSteady(file);
        } catch (error) {
          result.warnings.push(`Could not read ${key}: ${(error as Error).message}`);
          log('warn', 'index.read_failed', { path: key, error: (error as Error).message });
          continue;
        }
        const hash = sha256(text);
        if (entry && !options.rebuild && entry.hash === hash && entry.kind === root.kind && (await engine.intact(tier, key, true))) {
          engine.touchFile(tier, key, { size: st.size, mtimeMs: st.mtimeMs, checkedMs: now().getTime() });
          result.unchanged++;
          result.documents += entry.docs;
          continue;
        }
        const docs = documentsOf(root, text, file, key, () => {
          result.warnings.push(
            `${key} is longer than ${PLAIN_TEXT_CHARS / 1024} K characters of hand-edited Markdown: its list items were read line by line, not as Markdown.`,
          );
          log('warn', 'index.plain_text', { path: key, chars: text.length });
        });
        await engine.replaceFile(
          tier,
          key,
          { hash, size: st.size, mtimeMs: st.mtimeMs, checkedMs: now().getTime(), kind: root.kind },
          docs,
        );
        if (entry) result.changed++;
        else result.added++;
        result.documents += docs.length;
        log('debug', 'index.file', { path: key, docs: docs.length, state: entry ? 'changed' : 'added' });
      }
    }
    for (const key of engine.storedPaths(tier)) {
      if (seen.has(key)) continue;
      engine.removeFile(tier, key);
      result.removed++;
      log('debug', 'index.file', { path: key, state: 'removed' });
    }
    result.files += engine.storedPaths(tier).length;
  }

  const embedding = embeddingSettings(config);
  // Made only now, and the model loaded only for documents without a cached vector: an unchanged index loads nothing.
  const embedder = embedding && (options.embedder ?? createEmbedder(embedding, { fetch: options.fetch, thread: true }));
  let flushed;
  try {
    flushed = await engine.flush(embedder && { embedder, onProgress: options.onEmbedProgress });
  } finally {
    if (embedder && embedder !== options.embedder) await embedder.close();
  }
  if (embedding) {
    result.embedded = flushed.embedded;
    result.embeddingCacheHits = flushed.embeddingCacheHits;
    result.warnings.push(...flushed.warnings);
    result.mode = flushed.hybrid ? 'hybrid' : 'text';
    if (flushed.embeddingFailure) result.embeddingFailure = flushed.embeddingFailure;
  }

  result.durationMs = Date.now() - started;
  log('info', 'index.updated', { ...result, warnings: result.warnings.length });
  return result;
}
