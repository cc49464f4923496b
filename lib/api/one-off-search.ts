/**
 * A search from a process that asks one question and exits (`ocm-run search`,
 * a script): the agents it filters on must be known to the home, the local
 * embedding model is not loaded for one query — a running `ocm-run mcp` on
 * the home lends the query's vector (integrations/vector-socket.ts), else the
 * search is full text — and its time goes to logs/search.log for `stats`.
 * The search itself is the handle's (api/memory.ts).
 */
import type { SearchRequest } from '../search/search.js';
import type { SearchResponse } from '../search/types.js';
import type { Embedder } from '../search/embedder.js';
import { assertKnownAgents, type MemoryHome } from './home.js';

export async function searchOnce(home: MemoryHome, request: SearchRequest): Promise<SearchResponse> {
  const { paths, config, logger } = home;
  if (request.filters?.agents) await assertKnownAgents(home, request.filters.agents);
  const { memoryOf } = await import('./memory.js');
  const started = performance.now();
  const embedder = request.mode === 'text' ? undefined : await borrowedEmbedder(home);
  const memory = memoryOf(paths.root, config, { logger, now: home.now, ...(embedder ? { embedder } : {}) });
  const response = await memory.search(request);
  // Timings for `stats` (average search time).
  logger.log('info', 'search.done', {
    ms: Math.round((performance.now() - started) * 10) / 10,
    results: response.results.length,
    mode: response.mode,
    cached: response.cached,
  });
  return response;
}

/** With the local model configured: an embedder that asks a running server on the home for the query's vector first. */
async function borrowedEmbedder(home: MemoryHome): Promise<Embedder | undefined> {
  const { embeddingSettings } = await import('../search/embeddings.js');
  const settings = embeddingSettings(home.config);
  if (settings?.provider !== 'local') return undefined;
  const [{ borrowingEmbedder, processEmbedder }, { askServerVectors }] = await Promise.all([
    import('../search/embedder.js'),
    import('../integrations/vector-socket.js'),
  ]);
  return borrowingEmbedder(processEmbedder(settings), (key, texts) => askServerVectors(home.paths.machine, key, texts));
}
