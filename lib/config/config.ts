/**
 * Loading, validating and editing config.yaml: YAML with `${ENV}` substitution
 * (from the process environment and the home's `.env`), validated against the
 * schema with the key path in every error.
 */
import * as v from 'valibot';
import { ConfigError, OcmError } from '../core/errors.js';
import { configSchema, type Config } from './config-schema.js';
import { hasEnvReferences, readConfigCache, schemaFingerprint, writeConfigCache } from './config-cache.js';
import { loadDotEnv, parseDotEnv } from '../platform/dotenv.js';
import { readConfigText } from './config-file.js';
import { readYaml, yamlDocuments } from '../core/yaml.js';

export { configSchema, type Config };
export { loadDotEnv, parseDotEnv };

/** Replace `${NAME}` and `${NAME:-default}` in every string of a plain value tree. */
export function substituteEnv(value: unknown, env: Record<string, string | undefined>, missing: Set<string> = new Set()): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => {
      const v = env[name];
      if (v !== undefined && v !== '') return v;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v) => substituteEnv(v, env, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, missing)]));
  }
  return value;
}

/** Values (scalars, lists, maps) the parsed config may expand to, counting every alias use. */
export const MAX_CONFIG_NODES = 100_000;
/** Issues listed in a validation error, and characters of each (the rest is counted, not echoed). */
const MAX_ISSUES_SHOWN = 20;
const MAX_ISSUE_CHARS = 200;

/**
 * YAML aliases let a few lines stand for billions of values (`a: &a [x, x]`,
 * `b: &b [*a, *a]`, …): harmless to parse, since each alias is one shared
 * object, but everything that walks the tree afterwards (substitution,
 * validation, the cache) would expand it. Count the values as a walk would
 * see them and stop at MAX_CONFIG_NODES.
 */
function assertBoundedTree(root: unknown, file: string): void {
  let seen = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (++seen > MAX_CONFIG_NODES) {
      throw new ConfigError(
        `${file} expands to more than ${MAX_CONFIG_NODES.toLocaleString('en-US')} values (YAML aliases \`*name\` nested inside each other).`,
        {
          hint: 'Write the settings out instead of repeating aliases; templates/config.yaml has every setting.',
        },
      );
    }
    if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
}

/** One issue line, bounded: a 50 MB value is not echoed back. */
function boundedIssue(line: string): string {
  return line.length <= MAX_ISSUE_CHARS
    ? line
    : `${line.slice(0, MAX_ISSUE_CHARS)}… (${(line.length - MAX_ISSUE_CHARS).toLocaleString('en-US')} more characters)`;
}

/** Turn schema issues into one ConfigError naming every key path. */
function toConfigError(issues: readonly v.BaseIssue<unknown>[], file: string): ConfigError {
  const all = issues.map((issue) => {
    const path = v.getDotPath(issue) ?? '(root)';
    if (issue.expected === 'never') return boundedIssue(`${path}: unknown setting`);
    return boundedIssue(`${path}: ${issue.message}`);
  });
  const lines = all.length > MAX_ISSUES_SHOWN ? [...all.slice(0, MAX_ISSUES_SHOWN), `… and ${all.length - MAX_ISSUES_SHOWN} more`] : all;
  const keyPath = issues[0] ? (v.getDotPath(issues[0]) ?? undefined) : undefined;
  return new ConfigError(`Invalid configuration in ${file}:\n  ${lines.join('\n  ')}`, {
    keyPath,
    hint: 'Fix the setting(s) named above (see the comments in templates/config.yaml), then run `ocm-run config validate`.',
    details: { issues: lines },
  });
}

/** Validate a plain object (already env-substituted) against the schema. */
export function validateConfig(raw: unknown, file = 'config.yaml'): Config {
  const result = v.safeParse(configSchema, raw ?? {});
  if (!result.success) throw toConfigError(result.issues, file);
  return result.output;
}

export interface LoadedConfig {
  config: Config;
  /** The config file path (may not exist: defaults were used). */
  file: string;
  /** Names referenced as ${NAME} with no value anywhere. */
  missingEnv: string[];
  /** The merged environment (process env over .env). */
  env: Record<string, string | undefined>;
}

/** Parse config YAML (lib/core/yaml.ts; loaded only when the parse cache does not answer). */
export function parseConfigText(text: string, file: string): unknown {
  try {
    const raw = readYaml(text, { filename: file }) ?? {};
    assertBoundedTree(raw, file);
    return raw;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const e = error as Error & { mark?: { line: number; column: number } };
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    throw new ConfigError(
      `config.yaml is not valid YAML (${file})${where}: ${boundedIssue((e as { reason?: string }).reason ?? e.message.split('\n')[0]!)}`,
      {
        hint: 'Fix the YAML syntax at the line shown (indentation, a missing colon or quote), then run `ocm-run config validate`.',
        cause: error,
      },
    );
  }
}

/**
 * Load config.yaml: .env, `${NAME}` substitution, validation. With `cacheFile`
 * the parsed YAML (and, for a config without references, the validated
 * config) is cached for the next process (config-cache.ts).
 */
export async function loadConfig(options: {
  file: string;
  envFile: string;
  env?: NodeJS.ProcessEnv /** e.g. <home>/.ocm/config-cache.json */;
  cacheFile?: string;
}): Promise<LoadedConfig> {
  const dotenv = await loadDotEnv(options.envFile);
  const env: Record<string, string | undefined> = { ...dotenv, ...(options.env ?? process.env) };
  const text = await readConfigText(options.file);
  const cached = text !== undefined && options.cacheFile ? await readConfigCache(options.cacheFile) : undefined;
  const raw = text === undefined ? {} : cached?.text === text ? cached.raw : parseConfigText(text, options.file);
  const missing = new Set<string>();
  const substituted = substituteEnv(raw, env, missing);
  const config = validateConfig(substituted, options.file);
  if (text !== undefined && options.cacheFile) {
    const schema = hasEnvReferences(raw) ? undefined : await schemaFingerprint().catch(() => undefined);
    if (cached?.text !== text || cached.checked?.schema !== schema) {
      await writeConfigCache(options.cacheFile, { text, raw, checked: schema ? { schema, config } : undefined });
    }
  }
  return { config, file: options.file, missingEnv: [...missing], env };
}

/** Read a value by dotted path from a config object. */
export function getConfigValue(config: Config, keyPath: string): unknown {
  let node: unknown = config;
  for (const part of keyPath.split('.').filter(Boolean)) {
    if (node && typeof node === 'object' && part in (node as object)) node = (node as Record<string, unknown>)[part];
    else
      throw new OcmError('CONFIG_KEY_UNKNOWN', `Unknown setting "${keyPath}".`, {
        hint: 'Run `ocm-run config get` to list every setting.',
      });
  }
  return node;
}

/** The schema of one key path ('observer.user_name'), through optional wrappers and sections; undefined when unknown. */
function schemaAt(keyPath: string): v.GenericSchema | undefined {
  let schema: unknown = configSchema;
  for (const key of keyPath.split('.').filter(Boolean)) {
    while (schema && typeof schema === 'object' && 'wrapped' in schema) schema = (schema as { wrapped: unknown }).wrapped;
    const entries =
      schema && typeof schema === 'object' && 'entries' in schema ? (schema as { entries: Record<string, unknown> }).entries : undefined;
    if (!entries || !Object.hasOwn(entries, key)) return undefined;
    schema = entries[key];
  }
  while (schema && typeof schema === 'object' && 'wrapped' in schema) schema = (schema as { wrapped: unknown }).wrapped;
  return schema as v.GenericSchema;
}

/**
 * Parse a CLI value for a key: text as typed where the schema wants text
 * (`observer.user_name 007` stays "007", `""` stays empty), otherwise YAML
 * scalar/flow syntax (numbers, booleans, [lists], {maps}), else a string.
 */
export function parseCliValue(text: string, keyPath?: string): unknown {
  const type = keyPath === undefined ? undefined : schemaAt(keyPath)?.type;
  if (type === 'string' || type === 'picklist') return text;
  try {
    return readYaml(text) ?? text;
  } catch {
    return text;
  }
}

/**
 * Set a value in config.yaml keeping the user's comments and layout, after
 * checking that the result is valid. Writes atomically, mode 0600.
 */
export async function setConfigValue(options: {
  file: string;
  envFile: string;
  keyPath: string;
  value: unknown;
  env?: NodeJS.ProcessEnv;
}): Promise<void> {
  const text = (await readConfigText(options.file)) ?? '';
  // The Document API keeps the user's comments and layout.
  const { parseDocument, isMap, isScalar } = yamlDocuments();
  const doc = parseDocument(text);
  if (doc.errors.length > 0) parseConfigText(text, options.file); // throws the friendly error
  const path = options.keyPath.split('.').filter(Boolean);
  if (path.length === 0)
    throw new OcmError('BAD_INPUT', 'config set needs a key, e.g. `ocm-run config set active_memory.budget_tokens 3000`.');
  if (!isMap(doc.contents) && !(doc.contents === null || isScalar(doc.contents))) {
    throw new ConfigError(`${options.file} is not a YAML mapping.`, { hint: 'Restore it from templates/config.yaml.' });
  }
  // In place where the edit is a value (the file's layout stays); else through the Document API (comments stay).
  const { setYamlInPlace } = await import('./yaml-edit.js');
  let next = setYamlInPlace(text, path, options.value);
  if (next === undefined) {
    doc.setIn(path, options.value);
    next = doc.toString();
  }
  // Validate the result (with env substitution) before writing anything.
  const dotenv = await loadDotEnv(options.envFile);
  validateConfig(substituteEnv(parseConfigText(next, options.file), { ...dotenv, ...(options.env ?? process.env) }), options.file);
  const { writeFileAtomic } = await import('../platform/atomic-file.js');
  await writeFileAtomic(options.file, next);
}

const SECRET_KEY = /(^|_)(api_key|token|secret|password)$/;

/**
 * A copy of a config value with secrets hidden: any key named *api_key,
 * *token, *secret or *password shows as "[hidden: set]" (or '' when empty),
 * so `config get` never prints a key that came from .env.
 */
export function hideSecrets(value: unknown, keyPath = ''): unknown {
  const last = keyPath.split('.').pop() ?? '';
  if (typeof value === 'string') return SECRET_KEY.test(last) && value ? '[hidden: set]' : value;
  if (Array.isArray(value)) return value.map((v, i) => hideSecrets(v, `${keyPath}.${i}`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideSecrets(v, keyPath ? `${keyPath}.${k}` : k)]));
  }
  return value;
}
