/**
 * The config cache (<home>/.ocm/config-cache.json). Every cron tick and every
 * `search` process reads config.yaml, and parsing its YAML and loading the
 * schema library are a good part of a fresh process's start-up. Keyed by
 * config.yaml's text, the cache keeps:
 *   - `raw`: the parsed YAML, `${NAME}` references as written (never their values);
 *   - `checked`: the validated config with the fingerprint of the schema that
 *     validated it — only when config.yaml references no `${NAME}`, so it holds
 *     what config.yaml holds plus the schema's defaults, never a value from
 *     .env or the environment.
 * A changed config.yaml or schema misses; a missing or unreadable cache is a
 * miss. Written 0600 under .ocm/.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Config } from './config-schema.js';
import { readConfigText } from './config-file.js';
import type { LoadedConfig } from './config.js';
import { loadDotEnv } from '../platform/dotenv.js';

const CACHE_VERSION = 2;

export interface ConfigCacheEntry {
  text: string;
  raw: unknown;
  checked?: { schema: string; config: Config };
}

export async function readConfigCache(file: string): Promise<ConfigCacheEntry | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as (ConfigCacheEntry & { v?: number }) | null;
    if (data && data.v === CACHE_VERSION && typeof data.text === 'string') return data;
  } catch {
    /* no cache yet, or unreadable: a miss */
  }
  return undefined;
}

export async function writeConfigCache(file: string, entry: ConfigCacheEntry): Promise<void> {
  try {
    const { writeFileAtomic } = await import('../platform/atomic-file.js');
    await writeFileAtomic(file, JSON.stringify({ v: CACHE_VERSION, ...entry }), { mode: 0o600 });
  } catch {
    /* a cache only */
  }
}

/** Whether a string of a parsed config contains `${` (a value substituted from .env or the environment). */
export function hasEnvReferences(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (Array.isArray(value)) return value.some(hasEnvReferences);
  if (value && typeof value === 'object') return Object.values(value).some(hasEnvReferences);
  return false;
}

/** cyrb53: a fast 53-bit string hash (no crypto module to load). */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

let fingerprint: Promise<string> | undefined;

/** Identity of what validates config: the schema module's source (with the source-folder defaults its sections come from) and the schema library's package.json. */
export function schemaFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const schema =
      (await readFile(fileURLToPath(import.meta.resolve('./config-schema.js')), 'utf8')) +
      (await readFile(fileURLToPath(import.meta.resolve('./source-defaults.js')), 'utf8'));
    const library = await readFile(fileURLToPath(new URL('../package.json', import.meta.resolve('valibot'))), 'utf8');
    return `${hash53(schema)}.${hash53(library)}`;
  })();
  return fingerprint;
}

/**
 * The validated config from the cache, when config.yaml is unchanged, refers
 * to no `${NAME}` and the schema is the same; undefined otherwise.
 */
export async function cachedConfig(options: {
  file: string;
  envFile: string;
  env?: NodeJS.ProcessEnv;
  cacheFile: string;
}): Promise<LoadedConfig | undefined> {
  let text: string | undefined;
  try {
    text = await readConfigText(options.file);
  } catch {
    return undefined; // loadConfig reports it
  }
  if (text === undefined) return undefined; // loadConfig uses the defaults
  const cached = await readConfigCache(options.cacheFile);
  if (!cached?.checked || cached.text !== text) return undefined;
  try {
    if (cached.checked.schema !== (await schemaFingerprint())) return undefined;
  } catch {
    return undefined;
  }
  const dotenv = await loadDotEnv(options.envFile);
  return { config: cached.checked.config, file: options.file, missingEnv: [], env: { ...dotenv, ...(options.env ?? process.env) } };
}

/** Load config.yaml through the cache: the validated config when it hits, else `loadConfig` (which fills the cache). */
export async function loadConfigCached(options: {
  file: string;
  envFile: string;
  env?: NodeJS.ProcessEnv;
  cacheFile: string;
}): Promise<LoadedConfig> {
  const hit = await cachedConfig(options);
  if (hit) return hit;
  const { loadConfig } = await import('./config.js');
  return loadConfig(options);
}
