/**
 * The jobs a person runs by hand on a memory home, besides the tick: bring
 * the search index up to date (`ocm-run index`), reflect now (`ocm-run
 * reflect`). Each is the job's own function — search/indexer.ts
 * updateIndex under the home lock, jobs/reflect.ts reflectNow — with the
 * checks a caller's arguments need first (an agent the home does not know
 * is a typo, and the refusal says which agents there are). Tier moves and rollbacks are the
 * handle's (api/memory.ts); the figures of `ocm-run stats` are api/stats.ts.
 */
import type { ReflectNowResult } from '../jobs/reflect.js';
import type { IndexOptions, IndexResult } from '../search/indexer.js';
import { assertKnownAgents, underHomeLock, type MemoryHome } from './home.js';

export interface IndexUpdateOptions extends Pick<IndexOptions, 'onFileProgress' | 'onEmbedProgress'> {
  /** Rebuild every segment (cached embeddings are reused). */
  rebuild?: boolean;
}

export interface IndexUpdate {
  index: IndexResult;
  /** The embeddings in use (undefined: full text only): the local model, or an endpoint's model. */
  embeddings?: { provider: string; model: string };
}

/** The search index (and embeddings) brought up to date with the memory files, under the home lock. */
export async function updateSearchIndex(home: MemoryHome, options: IndexUpdateOptions = {}): Promise<IndexUpdate> {
  const { paths, config } = home;
  const [{ updateIndex }, { embeddingSettings }] = await Promise.all([import('../search/indexer.js'), import('../search/embeddings.js')]);
  const settings = embeddingSettings(config);
  const index = await underHomeLock(home, () =>
    updateIndex(paths, config, {
      logger: home.logger,
      now: home.now,
      rebuild: options.rebuild === true,
      onFileProgress: options.onFileProgress,
      onEmbedProgress: options.onEmbedProgress,
    }),
  );
  return settings ? { index, embeddings: { provider: settings.provider, model: settings.model } } : { index };
}

export interface ReflectOptions {
  /** Reflect now, whatever the thresholds. */
  force?: boolean;
  /** Also reflect the recent days that active memory shows raw. */
  includeRecent?: boolean;
  /** Only this agent (checked: one the home knows; default every agent with hot memory). */
  agent?: string | undefined;
  onProgress?: (progress: { agent: string; done: number; total: number }) => void;
  /** Test hook: named steps of the reflect job. */
  onStep?: ((step: string) => void) | undefined;
}

/** Compress older observations into reflections, then rebuild the active memory of every agent that got one. */
export async function reflectMemory(home: MemoryHome, options: ReflectOptions = {}): Promise<ReflectNowResult> {
  const { paths, config } = home;
  if (options.agent !== undefined) await assertKnownAgents(home, [options.agent]);
  const { reflectNow } = await import('../jobs/reflect.js');
  return reflectNow({
    paths,
    config,
    env: home.env,
    logger: home.logger,
    now: home.now,
    force: options.force === true,
    includeRecent: options.includeRecent === true,
    agents: options.agent === undefined ? undefined : [options.agent],
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
}
