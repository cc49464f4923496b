/**
 * `search`: the repeated-query cache, the query embedding (hybrid mode when
 * the sidecar has vectors and the endpoint answers, text mode otherwise — and
 * it says why), ranking, and the result records the README documents ("Search"). A missing,
 * corrupt or old-format index is rebuilt (under the home lock) rather than
 * failing the search, and an index behind the memory files (freshness.ts) is
 * brought up to date before answering.
 */
import { describeError, isWriteRefused } from '../core/errors.js';
import { maskedText } from '../masking/masking.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { Config } from '../config/config-schema.js';
import type { Tier } from '../core/types.js';
import { EmbeddingError, embeddingSettings, type EmbeddingSettings } from './embeddings.js';
import { createEmbedder, processEmbedder, type Embedder } from './embedder.js';
import { TIERS } from './manifest.js';
import { indexStaleness } from './freshness.js';
import { QueryCache } from './query-cache.js';
import { IndexUnavailable, type Engine, type IndexReader, type Ranked, type RankRequest } from './engine.js';
import { openEngine } from './open-engine.js';
import { currentFirst } from './current.js';
import { DEFAULT_MIN_RELEVANCE, withCompany } from './relevance.js';
import { bridgeRendering } from './bridge.js';
import type { SearchFilters, SearchResponse, SearchResult } from './types.js';

export { assemble } from './segment-engine.js';

export type SearchConfig = Pick<Config, 'search' | 'embeddings' | 'tiers'>;

export interface SearchRequest {
  query: string;
  /**
   * Other renderings of the same question (other words, another language:
   * "API authentication problems" beside "API 인증 문제"), fused with it into
   * one ranking (fusion.ts); a result's relevance is its best over them.
   */
  also?: string[];
  limit?: number;
  filters?: SearchFilters;
  /** Use and fill the repeated-query cache (default true). */
  cache?: boolean;
  /**
   * 'text': full-text ranking only, no query embedding; 'hybrid' (default):
   * with the query's embedding when embeddings are configured (text otherwise).
   */
  mode?: SearchMode;
  /**
   * The floor of unasked injection the results' `relevance` is judged at (default DEFAULT_MIN_RELEVANCE, the agent
   * hooks' and the OpenClaw plugin's): a result ranked below one at the floor that holds some of the question on its
   * own is raised to it (relevance.ts withCompany).
   */
  injectionFloor?: number;
}

/** What a search may rank by: `ocm-run search --mode`, the dashboard's choice. */
export type SearchMode = 'text' | 'hybrid';

export interface SearchDeps {
  logger?: Logger;
  now?: () => Date;
  fetch?: typeof fetch;
  /** How long to wait for the home lock when the index must be rebuilt (ms). */
  lockWaitMs?: number;
  /**
   * The index kept open by a long-lived process: its snapshot is reused while
   * the manifests are unchanged, instead of loading the segments per query.
   */
  openIndex?: IndexReader;
  /**
   * The query embedder to use (default: the process's, embedder.ts processEmbedder: the local model loaded once per
   * process; an endpoint's client).
   */
  embedder?: Embedder;
}

function normaliseFilters(f: SearchFilters = {}): SearchFilters {
  const sorted = (xs?: string[]) => (xs?.length ? [...new Set(xs)].sort() : undefined);
  const out: SearchFilters = {};
  if (f.since) out.since = f.since;
  if (f.until) out.until = f.until;
  const p = sorted(f.priorities);
  if (p) out.priorities = p as SearchFilters['priorities'];
  const c = sorted(f.categories?.map((x) => x.toLowerCase()));
  if (c) out.categories = c;
  if (f.current) out.current = true;
  const t = sorted(f.tiers);
  if (t) out.tiers = t as Tier[];
  const a = sorted(f.agents);
  if (a) out.agents = a;
  const g = sorted(f.tags?.map((x) => x.toLowerCase().replace(/^#/, '')));
  if (g) out.tags = g;
  return out;
}

async function rebuild(paths: HomePaths, config: SearchConfig, deps: SearchDeps, reason: string, full?: Tier[]): Promise<string> {
  deps.logger?.log('warn', 'search.index_rebuild', { reason });
  await updateUnderLock(paths, config, deps, full);
  return reason;
}

/**
 * Bring an index that is behind the memory files up to date (an incremental
 * update). Undefined when it is current now; a warning when the home stayed
 * locked (a long job holds it) and the answer may miss the newest memories.
 */
export async function refreshIfStale(
  paths: HomePaths,
  config: SearchConfig,
  tiers: readonly Tier[],
  deps: SearchDeps = {},
): Promise<string | undefined> {
  // A long-lived process asking again and again: the files were found in step with the index a moment ago.
  if (deps.openIndex?.checkedFresh(tiers)) return undefined;
  const staleness = await indexStaleness(paths, config.tiers.vault_path, tiers);
  if (!staleness.stale) {
    deps.openIndex?.markFresh(tiers);
    return undefined;
  }
  deps.logger?.log('info', 'search.index_refresh', { reason: staleness.reason });
  try {
    await updateUnderLock(paths, config, { ...deps, lockWaitMs: deps.lockWaitMs ?? 10000 });
    return undefined;
  } catch (error) {
    if (isWriteRefused(error)) {
      // Full or read-only disk: answer from the index as it is.
      const d = describeError(error);
      deps.logger?.log('warn', 'search.index_refresh_failed', { error: d.message, code: d.code });
      return `The search index is behind the memory files and could not be updated (${d.message}): results may miss the newest memories.`;
    }
    if ((error as { code?: unknown }).code !== 'LOCKED') throw error;
    return `The search index is behind the memory files (${staleness.reason ?? 'changed'}) and another job holds the home: results may miss the newest memories.`;
  }
}

async function updateUnderLock(paths: HomePaths, config: SearchConfig, deps: SearchDeps, full?: readonly Tier[]): Promise<void> {
  // Loaded only when needed: the indexer pulls in the Markdown parsers.
  const { withHomeLock } = await import('../platform/lock.js');
  const { updateIndex } = await import('./indexer.js');
  // The model this process embeds its queries with embeds what the refresh finds too (in this thread: a few new
  // documents, and no second copy of the model in a worker).
  const settings = embeddingSettings(config);
  const embedder =
    settings?.provider === 'local' ? (deps.embedder?.key === settings.key ? deps.embedder : processEmbedder(settings)) : undefined;
  await withHomeLock(
    paths.lock,
    () =>
      updateIndex(paths, config, {
        rebuild: full !== undefined,
        tiers: full && [...full],
        logger: deps.logger,
        now: deps.now,
        fetch: deps.fetch,
        ...(embedder ? { embedder } : {}),
      }),
    { waitMs: deps.lockWaitMs ?? 30000 },
  );
}

async function queryVector(
  settings: EmbeddingSettings,
  query: string,
  cache: QueryCache | undefined,
  deps: SearchDeps,
): Promise<{ vector?: Float32Array; warning?: string }> {
  const cached = cache?.getVector(settings.key, query);
  if (cached) return { vector: cached };
  const embedder =
    deps.embedder?.key === settings.key
      ? deps.embedder
      : settings.provider === 'local'
        ? processEmbedder(settings)
        : createEmbedder({ ...settings, timeoutMs: Math.min(settings.timeoutMs, 15000) }, { fetch: deps.fetch, retryDelaysMs: [] });
  // A Hangul query under the English-only model: ranked by its words (a vector would match every Korean text alike).
  if (!embedder.accepts(query)) return {};
  try {
    const [vector] = await embedder.embed([query]);
    cache?.setVector(settings.key, query, vector!, (deps.now?.() ?? new Date()).getTime());
    return { vector: vector! };
  } catch (error) {
    if (!(error instanceof EmbeddingError)) throw error;
    deps.logger?.log('warn', 'search.embedding_failed', { error: error.message, kind: error.kind });
    return { warning: `Text-only search: ${error.message}.` };
  }
}

export async function searchMemory(
  paths: HomePaths,
  config: SearchConfig,
  request: SearchRequest,
  deps: SearchDeps = {},
): Promise<SearchResponse> {
  // A secret typed into a query must not reach the query cache or an embedding provider (memory is masked, so
  // the masked query finds what the raw one would).
  const renderings = [...new Set([request.query, ...(request.also ?? [])].map((q) => maskedText(q.trim())).filter(Boolean))];
  const query = renderings[0] ?? '';
  // A question in one language, memory perhaps in the other: the lexicon's rendering joins the agent's (bridge.ts).
  const bridged = config.search.bridge_languages ? bridgeRendering(renderings) : undefined;
  const also = bridged ? [...renderings.slice(1), bridged.text] : renderings.slice(1);
  const filters = normaliseFilters(request.filters);
  const limit = Math.max(1, Math.floor(request.limit ?? config.search.default_limit));
  const tiers = filters.tiers ?? [...TIERS];
  const floor = request.injectionFloor ?? DEFAULT_MIN_RELEVANCE;
  // A text-only search neither asks for the query's embedding nor reads the vectors.
  const settings = request.mode === 'text' ? undefined : embeddingSettings(config);
  const warnings: string[] = [];
  const useCache = request.cache !== false;
  const cache = useCache ? new QueryCache(paths.index) : undefined;
  const now = () => (deps.now?.() ?? new Date()).getTime();
  const cacheKey = JSON.stringify({
    // The shape of a cached response: 2 since results carry `relevance`, 3 since framing words do not count in it, 4 since it weighs meaning and the question's focus, 5 since results carry `mark`, 6 since a question gets a rendering in the other language, 7 since a result rides with a clear answer above it.
    v: 7,
    q: query,
    g: floor,
    a: also,
    f: filters,
    l: limit,
    w: [config.search.fusion, config.search.vector_weight, config.search.text_weight],
    m: config.search.min_score,
    e: settings?.key ?? null,
  });

  // An open index holds every file in scope (rank applies the filters per document); the engine's one-off load skips files the filters rule out.
  const engine: Pick<Engine, 'generations' | 'rank' | 'find'> = deps.openIndex ?? openEngine(paths.index);
  const generationsNow = () => engine.generations(tiers, settings?.key);
  let { generations, problems } = generationsNow();
  if (problems.length > 0) {
    const first = problems[0]!;
    const missing = problems.every((p) => p.state === 'missing');
    warnings.push(
      await rebuild(
        paths,
        config,
        deps,
        missing ? 'Built the search index (it did not exist yet).' : `Rebuilt the search index: ${first.message}.`,
      ),
    );
    ({ generations } = generationsNow());
  }
  const behind = await refreshIfStale(paths, config, tiers, deps);
  if (behind) warnings.push(behind);
  ({ generations } = generationsNow());

  if (cache && warnings.length === 0) {
    const hit = cache.getResponse<SearchResponse>(cacheKey, generations);
    if (hit) return { ...hit, cached: true };
  }

  let vector: Float32Array | undefined;
  const alsoVectors: Array<Float32Array | undefined> = [];
  if (settings && query) {
    for (const [i, text] of [query, ...also].entries()) {
      const q = await queryVector(settings, text, cache, deps);
      if (i === 0) vector = q.vector;
      else alsoVectors.push(q.vector);
      if (q.warning) {
        warnings.push(q.warning);
        break; // the endpoint failed: the other renderings would wait for it too
      }
    }
  }

  const asked: RankRequest = {
    tiers,
    filters,
    // Room for the history `--current` leaves out.
    limit: filters.current ? limit * 2 + 10 : limit,
    vectorWeight: config.search.vector_weight,
    textWeight: config.search.text_weight,
    minScore: config.search.min_score,
    modelKey: settings?.key,
    queryVector: vector,
    also: also.map((text, i) => ({
      query: text,
      vector: alsoVectors[i],
      ...(bridged && text === bridged.text ? { words: bridged.words } : {}),
    })),
    fusion: config.search.fusion,
  };
  const ask = () => engine.rank(query, asked);
  let ranked: Ranked;
  try {
    ranked = ask();
  } catch (error) {
    if (!(error instanceof IndexUnavailable)) throw error;
    // An `index` run may have replaced a segment (a merge) after the manifest was read: when a manifest changed, look again first.
    const current = engine.generations(tiers, settings?.key).generations;
    const again = tiers.some((tier) => current[tier] !== generations[tier]) ? tryRank(ask) : error;
    if (!(again instanceof IndexUnavailable)) ranked = again;
    else {
      // An unreadable segment: rebuild that tier in full (its hashes may still match).
      warnings.push(
        await rebuild(
          paths,
          config,
          deps,
          `Rebuilt the search index: ${again.message}.`,
          again.state === 'segment' ? [again.tier] : undefined,
        ),
      );
      ranked = ask();
    }
  }
  if (settings && vector && ranked.vectorDocs === 0 && ranked.totalDocs > 0) {
    warnings.push('Text-only search: no document has an embedding yet (run `ocm-run index` while the embeddings endpoint is reachable).');
  }

  const results = currentFirst(withCompany(ranked.results, floor), { filters, limit, lookup: (id) => findInTiers(engine, id, tiers) });
  const response: SearchResponse = { results, mode: ranked.hybrid ? 'hybrid' : 'text', warnings, cached: false, terms: ranked.terms };
  if (cache) {
    // A degraded answer (endpoint down, index just rebuilt) is not cached: the next query retries.
    if (warnings.length === 0) cache.setResponse(cacheKey, ranked.generations, response, now());
    await cache.save(); // (never throws: a cache that cannot be written is skipped)
  }
  return response;
}

/** The observation with this id in the first of `tiers` that holds it (an unreadable tier is passed over): a replacement the query's words did not find. */
export function findInTiers(engine: Pick<Engine, 'find'>, id: string, tiers: readonly Tier[]): SearchResult | undefined {
  for (const tier of tiers) {
    try {
      const found = engine.find(id, tier);
      if (found) return found;
    } catch (error) {
      if (!(error instanceof IndexUnavailable)) throw error;
    }
  }
  return undefined;
}

function tryRank(ask: () => Ranked): Ranked | IndexUnavailable {
  try {
    return ask();
  } catch (error) {
    if (error instanceof IndexUnavailable) return error;
    throw error;
  }
}
