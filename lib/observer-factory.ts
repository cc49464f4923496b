/**
 * Which Observer a job uses: the heuristic (offline) one when the provider is
 * `heuristic` or no model is configured; otherwise the LLM Observer.
 */
import type { Config } from './config-schema.js';
import type { Observer } from './types.js';

export function observerKind(config: Config): 'heuristic' | 'llm' {
  return config.observer.provider === 'heuristic' || !config.observer.model ? 'heuristic' : 'llm';
}

/** Label shown by `status`, e.g. "heuristic (offline)". */
export function observerLabel(config: Config): string {
  return observerKind(config) === 'heuristic' ? 'heuristic (offline)' : `llm ${config.observer.provider}/${config.observer.model}`;
}

export async function createObserver(config: Config): Promise<Observer> {
  if (observerKind(config) === 'heuristic') {
    const { createHeuristicObserver } = await import('./observer/heuristic.js');
    return createHeuristicObserver();
  }
  const { OcmError } = await import('./errors.js');
  throw new OcmError('CONFIG_INVALID', `The LLM Observer (${config.observer.provider}) is not available in this build.`, {
    hint: 'Set observer.provider to heuristic (offline) for now.',
  });
}
