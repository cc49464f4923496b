/**
 * Which Reflector a job uses: the heuristic (offline) one when
 * reflector.provider is `heuristic` or no model is set; otherwise the LLM
 * Reflector. As for the Observer, an LLM that fails is an error, never a
 * silent switch to the heuristic.
 */
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { Reflector } from './types.js';

export function reflectorKind(config: Config): 'heuristic' | 'llm' {
  return config.reflector.provider === 'heuristic' || !config.reflector.model ? 'heuristic' : 'llm';
}

export function reflectorLabel(config: Config): string {
  return reflectorKind(config) === 'heuristic' ? 'heuristic (offline)' : `llm ${config.reflector.provider}/${config.reflector.model}`;
}

export async function createReflector(
  config: Config,
  deps: { env?: Record<string, string | undefined>; homeRoot?: string; logger?: Logger; fetch?: typeof fetch } = {},
): Promise<Reflector> {
  if (reflectorKind(config) === 'heuristic') {
    const { createHeuristicReflector } = await import('./heuristic.js');
    return createHeuristicReflector();
  }
  const [{ createLlmClient }, { loadPrompt }, { createLlmReflector }, { createMemoryLogger }] = await Promise.all([
    import('../llm/client.js'),
    import('../llm/prompts.js'),
    import('./llm.js'),
    import('../platform/log.js'),
  ]);
  const logger = deps.logger ?? createMemoryLogger();
  const client = createLlmClient('reflector', config.reflector, deps.env ?? {}, { logger, fetch: deps.fetch });
  const prompt = await loadPrompt('reflector', deps.homeRoot);
  return createLlmReflector({ client, prompt: prompt.text, logger });
}
