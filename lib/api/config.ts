/**
 * A home's config.yaml as a caller reads and changes it (`ocm-run config`,
 * and the commands that read the config without creating the home): read
 * as it is, one value shown with its secrets hidden, and one key set keeping
 * the file's comments. Each call loads the
 * config module (lib/config/) when it runs.
 */
import type { Config } from '../config/config-schema.js';
import type { LoadedConfig } from '../config/config.js';

export type { LoadedConfig } from '../config/config.js';

/** Where a home's config lives: config.yaml (or --config) and the .env beside it. */
export interface ConfigLocation {
  file: string;
  envFile: string;
  /** The environment `${NAME}` is read from (over the .env file). */
  env: NodeJS.ProcessEnv;
}

/**
 * config.yaml read and validated as it is (defaults when there is none); nothing is created. With `cacheFile`
 * (the home's config cache, lib/config/config-cache.ts), a cache that holds this very text validated by this
 * schema is read instead: the same config without parsing YAML and loading the schema library, and the cache
 * is only read, never written.
 */
export async function readConfig(location: ConfigLocation & { cacheFile?: string }): Promise<LoadedConfig> {
  if (location.cacheFile) {
    const { cachedConfig } = await import('../config/config-cache.js');
    const hit = await cachedConfig({ ...location, cacheFile: location.cacheFile });
    if (hit) return hit;
  }
  const { loadConfig } = await import('../config/config.js');
  return loadConfig(location);
}

export interface ConfigValueRequest {
  /** A dotted key (`active_memory.budget_tokens`); undefined: the whole config. */
  key?: string | undefined;
  /** API keys and tokens as they are, not `[hidden: set]`. */
  showSecrets: boolean;
}

/** `config get`: one value (or all), secrets hidden unless asked; as YAML text for people. */
export async function configValue(config: Config, request: ConfigValueRequest): Promise<{ value: unknown; text: string }> {
  const { getConfigValue, hideSecrets } = await import('../config/config.js');
  const raw = request.key ? getConfigValue(config, request.key) : config;
  const value = request.showSecrets ? raw : hideSecrets(raw, request.key ?? '');
  const { formatYaml } = await import('../core/yaml.js');
  return { value, text: typeof value === 'object' && value !== null ? formatYaml(value).trimEnd() : String(value) };
}

/** `config set`: one key of config.yaml set from its text (`3000`, `true`, `[a, b]`), comments and layout kept, checked against the schema. */
export async function setConfig(location: ConfigLocation & { key: string; text: string }): Promise<void> {
  const { parseCliValue, setConfigValue } = await import('../config/config.js');
  await setConfigValue({
    file: location.file,
    envFile: location.envFile,
    keyPath: location.key,
    value: parseCliValue(location.text, location.key),
    env: location.env,
  });
}
