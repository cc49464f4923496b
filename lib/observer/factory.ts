/**
 * Which Observer a job uses: the heuristic (offline) one when the provider is
 * `heuristic` or no model is configured; otherwise the LLM Observer (with the
 * fallback chain, retries and prompt from the home). There is no silent
 * switch from one to the other: an LLM that fails makes the job fail.
 */
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { Observer, ObserverBatch } from '../core/types.js';

export function observerKind(config: Config): 'heuristic' | 'llm' {
  return config.observer.provider === 'heuristic' || !config.observer.model ? 'heuristic' : 'llm';
}

/** Label shown by `status`, e.g. "heuristic (offline)". */
export function observerLabel(config: Config): string {
  return observerKind(config) === 'heuristic' ? 'heuristic (offline)' : `llm ${config.observer.provider}/${config.observer.model}`;
}

export interface ObserverDeps {
  /** Environment (process env merged with the home's .env) for API keys. */
  env?: Record<string, string | undefined>;
  /** The memory home, for prompt overrides in <home>/prompts/. */
  homeRoot?: string;
  logger?: Logger;
  /** For tests: a fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export async function createObserver(config: Config, deps: ObserverDeps = {}): Promise<Observer> {
  if (observerKind(config) === 'heuristic') {
    // On a worker thread once a batch is large (a backlog): the next chunk is read meanwhile.
    const { createThreadedHeuristicObserver } = await import('./heuristic-thread.js');
    const { user_name: user, assistant_name: assistant, infer_names: inferSpeakerNames } = config.observer;
    return createThreadedHeuristicObserver({
      ...(user || assistant ? { speakerNames: { ...(user ? { user } : {}), ...(assistant ? { assistant } : {}) } } : {}),
      inferSpeakerNames,
    });
  }
  const [{ createLlmClient }, { loadPrompt }, { createLlmObserver }, { createMemoryLogger }] = await Promise.all([
    import('../llm/client.js'),
    import('../llm/prompts.js'),
    import('./llm.js'),
    import('../platform/log.js'),
  ]);
  const logger = deps.logger ?? createMemoryLogger();
  const client = createLlmClient('observer', config.observer, deps.env ?? {}, { logger, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const prompt = await loadPrompt('observer', deps.homeRoot);
  return createLlmObserver({ client, prompt: prompt.text, logger });
}

/**
 * The same Observer, created on first use: a tick with nothing new never
 * loads the rules or the LLM SDK. Creation errors surface from observe().
 */
export function createLazyObserver(config: Config, deps: ObserverDeps = {}): Observer {
  let loading: Promise<Observer> | undefined;
  return {
    kind: observerKind(config),
    label: observerLabel(config),
    async observe(batch) {
      loading ??= createObserver(config, deps);
      return (await loading).observe(batch);
    },
    ...(observerKind(config) === 'llm'
      ? {
          async observeMany(batches: ObserverBatch[]) {
            loading ??= createObserver(config, deps);
            const observer = await loading;
            return observer.observeMany ? observer.observeMany(batches) : Promise.all(batches.map((b) => observer.observe(b)));
          },
        }
      : {}),
  };
}
