/**
 * Memory recall for an agent's next prompt, in-process: what the OpenClaw
 * plugin asks of the handle (memory.ts, `recall`) of the OC-Memory install it
 * is configured with (README, "Using it with OpenClaw"), instead of starting
 * `ocm-run search` per turn.
 *
 * A MemoryRecall keeps the index open between prompts (the search engine's
 * IndexReader, search/engine.ts: reloaded only when an index update changed a
 * tier; one load serves every agent, the agent filter applies per document),
 * and watches the memory files (search/change-watch.ts) so that it compares
 * them with the index only after something changed.
 * Before each lookup it checks that the index is not behind the memory files
 * (search/freshness.ts) and updates it when it is, so what was observed after
 * the last turn is found on this one. Results must pass an absolute relevance
 * floor (search/relevance.ts): none is better than a wrong one.
 *
 * With the local embedding model (`embeddings.provider: local`) the query is
 * embedded in-process: the model is loaded once, in the background from
 * `prepare()`, and a prompt that comes before it is ready ranks by text. With
 * an endpoint, text ranking only: a query embedding would be an HTTP request
 * per prompt, longer than the time a prompt may wait.
 */
import type { Config } from '../config/config-schema.js';
import { agentSlug, type HomePaths } from '../platform/home.js';
import { createFileLogger, type Logger } from '../platform/log.js';
import { IndexUnavailable, TIERS, type IndexReader, type RankRequest } from '../search/engine.js';
import { findInTiers, refreshIfStale } from '../search/search.js';
import { currentFirst } from '../search/current.js';
import { bridgeRendering } from '../search/bridge.js';
import { withCompany } from '../search/relevance.js';
import { EmbeddingError, embeddingSettings } from '../search/embeddings.js';
import { processEmbedder, type Embedder } from '../search/embedder.js';
import { ChangeWatch } from '../search/change-watch.js';
import { memoryRoots } from '../search/roots.js';
import type { SearchResult } from '../search/types.js';
import { housekeepingTurn, stripUserTransportNoise } from '../sources/pi-entries.js';
import { isNotFound } from '../core/errors.js';
import { isSuspicious } from '../memory/suspicious.js';
import { logPromptInjection, type InjectedMemory, type SkippedForTime } from './injections.js';

/** The marker the OpenClaw plugin wraps its context in (the same as every other front end's). */
export { wrapInjectedContext } from '../core/injected-context.js';

export interface RecallRequest {
  /** The user's current request (OpenClaw's `before_prompt_build` event.prompt). */
  query: string;
  /** Agents whose memory may be used: the asking agent, plus any the user shares with it. */
  agents: string[];
  limit: number;
  /** Results must cover at least this share of the query (0..1, search/relevance.ts). */
  minRelevance: number;
  /** How long to wait for the home lock when the index must be updated first (ms). */
  lockWaitMs?: number;
}

export interface RecallResult {
  results: SearchResult[];
  /** Why the answer may be incomplete (the index could not be brought up to date). */
  warnings: string[];
  /** Results the relevance floor kept out. */
  belowFloor: number;
}

/** The greeting turn OpenClaw starts after `/new` or `/reset`: a conversation's start, with no request in it. */
const SESSION_START = /^A new session was started via \/new or \/reset\b/i;

export type PromptKind = 'request' | 'session-start' | 'housekeeping' | 'empty';

/**
 * The user's words of a prompt (channel timestamp and untrusted-metadata
 * blocks removed), and what kind of prompt it is: OpenClaw's own turns —
 * heartbeat, cron and exec wakes, session events, hook deliveries such as
 * OC-Memory's own alerts (the transcript reader's housekeepingTurn) — get no
 * memory; its `/new` greeting is a conversation's start.
 */
export function classifyPrompt(prompt: string): { kind: PromptKind; text: string } {
  const text = stripUserTransportNoise(prompt).trim();
  if (!text) return { kind: 'empty', text };
  if (SESSION_START.test(text)) return { kind: 'session-start', text };
  if (housekeepingTurn({}, text)) return { kind: 'housekeeping', text };
  return { kind: 'request', text: text.replace(/\s+/g, ' ') };
}

/** A home's config.yaml as a long-lived process keeps it: read again when the file changed. */
export interface LiveConfig {
  /** The config as last read. */
  readonly current: Config;
  /** Read config.yaml again if it changed since (one stat). */
  refresh(): Promise<Config>;
}

export class MemoryRecall {
  readonly paths: HomePaths;
  private readonly settings: LiveConfig;
  private readonly logger: Logger | undefined;
  private readonly index: IndexReader;
  /** Tells whether the memory files may have changed since they last agreed with the index. */
  private readonly changes: ChangeWatch;
  /** A prepare() under way: a lookup waits for it rather than update the index a second time. */
  private preparing: Promise<unknown> = Promise.resolve();
  /** logs/hooks.log, opened on the first injection recorded. */
  private hooksLog: Logger | undefined;

  /** Recall over the open `index` of the home at `paths` (lib/api/memory.ts openMemory makes one). */
  constructor(paths: HomePaths, settings: LiveConfig, index: IndexReader, logger?: Logger) {
    this.paths = paths;
    this.settings = settings;
    this.logger = logger;
    this.index = index;
    const cold = memoryRoots(paths, settings.current.tiers.vault_path)
      .filter((r) => r.tier === 'cold')
      .map((r) => r.dir);
    this.changes = new ChangeWatch(paths.root, cold);
  }

  private get config(): Config {
    return this.settings.current;
  }

  /**
   * Bring the index up to date and open it, ahead of the first prompt (a
   * plugin calls this when it is loaded; building a missing index takes seconds).
   */
  prepare(lockWaitMs = 30000): Promise<string[]> {
    const prepared = (async () => {
      this.queryEmbedder()?.warm();
      const behind = await this.ensureFresh(lockWaitMs);
      const { problems } = this.index.generations(TIERS);
      if (problems.length > 0) throw problems[0];
      return behind ? [behind] : [];
    })();
    this.preparing = prepared;
    return prepared;
  }

  /** The memories related to a request, best first; only the agents' own (and shared) memory. */
  async related(request: RecallRequest): Promise<RecallResult> {
    const warnings: string[] = [];
    if (!request.query.trim() || request.limit <= 0 || request.agents.length === 0) return { results: [], warnings, belowFloor: 0 };
    await this.preparing.catch(() => undefined);
    await this.settings.refresh();
    const behind = await this.ensureFresh(request.lockWaitMs ?? 1000);
    if (behind) warnings.push(behind);
    const agents = [...new Set(request.agents.map(agentSlug))].sort();
    const filters = { agents };
    const asked: RankRequest = {
      tiers: TIERS,
      filters,
      // More candidates than asked for: the relevance floor may drop some.
      limit: request.limit * 3,
      vectorWeight: this.config.search.vector_weight,
      textWeight: this.config.search.text_weight,
      minScore: 0,
      fusion: this.config.search.fusion,
      ...(await this.queryVector(request.query, warnings)),
    };
    // A question in one language, memory perhaps in the other: the lexicon's rendering, as search's (search/bridge.ts).
    const bridged = this.config.search.bridge_languages ? bridgeRendering([request.query]) : undefined;
    if (bridged) {
      const { queryVector: vector } = await this.queryVector(bridged.text, warnings);
      asked.also = [{ query: bridged.text, words: bridged.words, ...(vector ? { vector } : {}) }];
      if (vector && !asked.modelKey) asked.modelKey = this.queryEmbedder()!.key;
    }
    let all: SearchResult[];
    try {
      all = this.index.rank(request.query, asked).results;
    } catch (error) {
      // A segment replaced between the generation check and the read (an index merge): load again, once.
      if (!isSegmentGone(error)) throw error;
      this.index.close();
      all = this.index.rank(request.query, asked).results;
    }
    // Judged at this gate's floor: what rides with a clear answer is raised to it (relevance.ts withCompany).
    // Only what is true today goes in unasked: a superseded item or a done task gives its place (and its
    // relevance) to what replaced or closed it (search/current.ts); search_memory still finds the history.
    all = currentFirst(withCompany(all, request.minRelevance), {
      filters: { ...filters, current: true },
      limit: all.length,
      lookup: (id) => findInTiers(this.index, id, TIERS),
    });
    // What is held for review (memory/suspicious.ts) is never injected; `status` lists it.
    const relevant = all.filter((r) => (r.relevance ?? 0) >= request.minRelevance);
    const kept = relevant.filter((r) => !isSuspicious(r.text)).slice(0, request.limit);
    return { results: kept, warnings, belowFloor: all.length - relevant.length };
  }

  /** The local model's embedder of this process (undefined: no local model configured). */
  private queryEmbedder(): Embedder | undefined {
    const settings = embeddingSettings(this.config);
    return settings?.provider === 'local' ? processEmbedder(settings) : undefined;
  }

  /** The query's vector, when the local model is loaded and takes the query (not Hangul-dominant). */
  private async queryVector(query: string, warnings: string[]): Promise<Pick<RankRequest, 'modelKey' | 'queryVector'>> {
    const embedder = this.queryEmbedder();
    if (!embedder?.accepts(query)) return {};
    if (!embedder.ready()) {
      embedder.warm();
      return {};
    }
    try {
      const [queryVector] = await embedder.embed([query]);
      return { modelKey: embedder.key, queryVector };
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      warnings.push(`Text-only recall: ${error.message}.`);
      return {};
    }
  }

  /**
   * Update an index that is behind the memory files (search/freshness.ts) —
   * compared only when the watch saw a change since the last clean comparison.
   * A warning when the home stayed locked.
   */
  private async ensureFresh(lockWaitMs: number): Promise<string | undefined> {
    if (!this.changes.mayHaveChanged()) return undefined;
    this.changes.markClean();
    try {
      const behind = await refreshIfStale(this.paths, this.config, TIERS, { logger: this.logger, lockWaitMs });
      if (behind) this.changes.markDirty();
      return behind;
    } catch (error) {
      this.changes.markDirty();
      throw error;
    }
  }

  /**
   * Log which memories went into `agent`'s prompt, the way `hook prompt` logs
   * its own (injections.ts logPromptInjection: logs/hooks.log, ids and
   * relevance only), so the dashboard's Active memory page lists the plugin's
   * injections too. Resolves when the line is written; a failure to write is
   * the log's own (never thrown).
   */
  recordInjection(entry: { agent: string; via: string; injected: InjectedMemory[]; ms: number }): Promise<void> {
    const log = this.hooks();
    logPromptInjection(log, entry);
    return log.flush();
  }

  recordSkippedForTime(entry: SkippedForTime): Promise<void> {
    const log = this.hooks();
    const { what, ...fields } = entry;
    log.log('warn', what === 'prompt' ? 'hook.prompt_late' : 'hook.last_turn_late', fields);
    return log.flush();
  }

  /** logs/hooks.log, opened on the first line written. */
  private hooks(): Logger {
    this.hooksLog ??= createFileLogger({ dir: this.paths.logs, name: 'hooks' });
    return this.hooksLog;
  }

  /**
   * Stop watching the memory files and close the index (a plugin being
   * unloaded). Resolves once the injection lines recorded so far are in
   * logs/hooks.log, so the home can be moved or removed right after.
   */
  async close(): Promise<void> {
    this.changes.close();
    this.index.close();
    await this.hooksLog?.flush();
  }
}

function isSegmentGone(error: unknown): boolean {
  return error instanceof IndexUnavailable || isNotFound(error);
}
