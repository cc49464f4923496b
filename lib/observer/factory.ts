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
    const { createThreadedHeuristicObserver } = await import('./heuristic/thread.js');
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
  const client = createLlmClient('observer', config.observer, deps.env ?? {}, { logger, fetch: deps.fetch });
  const prompt = await loadPrompt('observer', deps.homeRoot);
  return createLlmObserver({ client, prompt: prompt.text, logger });
}

/** An Observer created on first use (createLazyObserver). */
export interface LazyObserver extends Observer {
  /** The Observer itself, created now if no call has created it yet. */
  created(): Promise<Observer>;
}

/**
 * The same Observer, created on first use: a tick with nothing new never
 * loads the rules or the LLM SDK. Creation errors surface from observe().
 * Every optional method of the Observer is forwarded: `prepare()` starts the
 * heuristic Observer's worker thread before a backlog's first chunk is read.
 */
export function createLazyObserver(config: Config, deps: ObserverDeps = {}): LazyObserver {
  let loading: Promise<Observer> | undefined;
  const created = (): Promise<Observer> => (loading ??= createObserver(config, deps));
  const lazy: LazyObserver = {
    kind: observerKind(config),
    label: observerLabel(config),
    created,
    async observe(batch) {
      return (await created()).observe(batch);
    },
    prepare() {
      // Only a hint: a creation error is observe()'s to report.
      created().then(
        (observer) => observer.prepare?.(),
        () => undefined,
      );
    },
  };
  if (observerKind(config) === 'llm') {
    lazy.observeMany = async (batches: ObserverBatch[]) => {
      const observer = await created();
      return observer.observeMany ? observer.observeMany(batches) : Promise.all(batches.map((b) => observer.observe(b)));
    };
  }
  return lazy;
}
