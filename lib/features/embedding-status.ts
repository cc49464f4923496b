/**
 * Which embeddings are in use, for `status` and `doctor`: the provider
 * (`embeddings.provider`; OCM_LOCAL_EMBEDDINGS=off), the model, and for the bundled
 * model whether its files are all there (`status` only looks at them;
 * `doctor` loads the model, checkLocalModel).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { embeddingProvider, embeddingSettings, EmbeddingError, LOCAL_MODEL, type EmbeddingProvider } from '../search/embeddings.js';

export interface EmbeddingStatus {
  provider: EmbeddingProvider;
  /** One line for a person: what embeds, and what it means for search. */
  label: string;
  /** The vector space's key (index/embeddings/<key>.rows), when embeddings are on. */
  key?: string;
  /** What is wrong with the local model's files, when something is. */
  problem?: string;
}

/** The local model's files that are missing or empty in `dir` (undefined: all there; `doctor` checks their bytes). */
export function localModelFilesProblem(dir: string, names: readonly string[]): string | undefined {
  const missing = names.filter((name) => {
    try {
      return statSync(join(dir, name)).size === 0;
    } catch {
      return true;
    }
  });
  return missing.length > 0 ? `missing in ${dir}: ${missing.join(', ')}` : undefined;
}

export async function collectEmbeddingStatus(config: Pick<Config, 'embeddings'>): Promise<EmbeddingStatus> {
  const provider = embeddingProvider(config);
  const settings = embeddingSettings(config);
  if (!settings) {
    const why =
      config.embeddings.enabled === false
        ? 'embeddings.enabled: false'
        : config.embeddings.provider === 'none'
          ? 'embeddings.provider: none'
          : 'OCM_LOCAL_EMBEDDINGS=off';
    return { provider, label: `none (${why}): full-text search only` };
  }
  if (provider === 'openai') {
    return {
      provider,
      key: settings.key,
      label: `${settings.model} at ${settings.apiBase || '(no api_base)'} (embeddings.provider: ${settings.provider})`,
    };
  }
  const label = `local model ${LOCAL_MODEL.package}@${LOCAL_MODEL.version} (Universal Sentence Encoder Lite, ${LOCAL_MODEL.dims}-d, offline; English — Korean text is searched by its words)`;
  const { localModelDir, LOCAL_MODEL_FILES } = await import('../search/local-model.js');
  let problem: string | undefined;
  try {
    problem = localModelFilesProblem(localModelDir(), LOCAL_MODEL_FILES);
  } catch (error) {
    if (!(error instanceof EmbeddingError)) throw error;
    problem = error.message;
  }
  return { provider, key: settings.key, label, ...(problem ? { problem: `${problem} — search falls back to full text` } : {}) };
}
