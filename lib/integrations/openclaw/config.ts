/**
 * Where OpenClaw's gateway and its webhook endpoint are, for alerts
 * (docs/llm-observer-reflector.md, "Alerts"): read-only discovery from `openclaw.json` (JSON5; `OPENCLAW_CONFIG_PATH`,
 * else `$OPENCLAW_STATE_DIR/openclaw.json`, else `~/.openclaw/openclaw.json`)
 * for `hooks.enabled/token/path` and `gateway.port`; then
 * `OPENCLAW_GATEWAY_PORT`, `OPENCLAW_API_URL`, and finally
 * http://127.0.0.1:18789. A non-intrusive connection test, and saving what
 * was found to our config.yaml.
 *
 * The hooks token is a secret: it is read from openclaw.json when needed and
 * never copied into our config, logs or alerts.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import type { Config } from '../../config/config-schema.js';
import { errorCode } from '../../core/errors.js';
import { openClawHomeDir } from '../../sources/openclaw-files.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:18789';
export const DEFAULT_HOOKS_PATH = '/hooks';

export interface OpenClawEndpoint {
  /** Gateway base URL, no trailing slash. */
  url: string;
  /** Hooks base path, e.g. "/hooks". */
  hooksPath: string;
  /** hooks.enabled in openclaw.json (undefined: not found / not said). */
  hooksEnabled: boolean | undefined;
  /** Bearer token for the hooks (secret; undefined when none is known). */
  token: string | undefined;
  /** Where the URL came from. */
  urlSource: 'config' | 'OPENCLAW_GATEWAY_PORT' | 'openclaw.json' | 'OPENCLAW_API_URL' | 'default';
  tokenSource: 'config' | 'openclaw.json' | 'OPENCLAW_HOOKS_TOKEN' | 'none';
  /** The openclaw.json that was read, if any. */
  configPath: string | undefined;
  /** A problem reading openclaw.json (it is then ignored). */
  warning?: string;
}

/** The openclaw.json OpenClaw itself would use. */
export function openClawConfigPath(env: Record<string, string | undefined>, home: string = homedir()): string {
  if (env.OPENCLAW_CONFIG_PATH) return env.OPENCLAW_CONFIG_PATH;
  if (env.OPENCLAW_STATE_DIR) return join(env.OPENCLAW_STATE_DIR, 'openclaw.json');
  // OpenClaw's own home: $OPENCLAW_HOME when set, as OpenClaw resolves it (its state and openclaw.json live there).
  return join(openClawHomeDir(env, home), '.openclaw', 'openclaw.json');
}

export interface OpenClawJson {
  gateway?: { port?: unknown };
  hooks?: { enabled?: unknown; token?: unknown; path?: unknown };
  [key: string]: unknown;
}

/** Read openclaw.json (JSON5). Missing: undefined; unreadable: a warning, never a throw. */
export async function readOpenClawJson(path: string): Promise<{ data?: OpenClawJson; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    return code === 'ENOENT' ? {} : { warning: `could not read ${path} (${code ?? 'error'})` };
  }
  try {
    const data = JSON5.parse(text) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { warning: `${path} is not a JSON5 object` };
    return { data: data as OpenClawJson };
  } catch (error) {
    return { warning: `${path} is not valid JSON5: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** OpenClaw config values may be `${VAR}` references. */
function resolveRef(value: unknown, env: Record<string, string | undefined>): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value.trim());
  return m ? env[m[1]!] || undefined : value;
}

function validPort(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

function normalisePath(path: string): string {
  const p = path.trim() || DEFAULT_HOOKS_PATH;
  return `/${p.replace(/^\/+|\/+$/g, '')}`;
}

export interface DiscoverOptions {
  env: Record<string, string | undefined>;
  /** Our alerts settings (a configured URL/token/path wins). */
  alerts?: Pick<Config['alerts'], 'openclaw_url' | 'openclaw_token' | 'openclaw_hooks_path'>;
  homeDir?: string;
}

export async function discoverOpenClawEndpoint(options: DiscoverOptions): Promise<OpenClawEndpoint> {
  const { env } = options;
  const configPath = openClawConfigPath(env, options.homeDir);
  const { data, warning } = await readOpenClawJson(configPath);
  const hooks = data?.hooks && typeof data.hooks === 'object' ? data.hooks : undefined;
  const hooksEnabled = typeof hooks?.enabled === 'boolean' ? hooks.enabled : undefined;

  let url: string;
  let urlSource: OpenClawEndpoint['urlSource'];
  const envPort = validPort(env.OPENCLAW_GATEWAY_PORT);
  const jsonPort = validPort(data?.gateway && typeof data.gateway === 'object' ? data.gateway.port : undefined);
  if (options.alerts?.openclaw_url) {
    url = options.alerts.openclaw_url;
    urlSource = 'config';
  } else if (envPort) {
    url = `http://127.0.0.1:${envPort}`;
    urlSource = 'OPENCLAW_GATEWAY_PORT';
  } else if (jsonPort) {
    url = `http://127.0.0.1:${jsonPort}`;
    urlSource = 'openclaw.json';
  } else if (env.OPENCLAW_API_URL) {
    url = env.OPENCLAW_API_URL;
    urlSource = 'OPENCLAW_API_URL';
  } else {
    url = DEFAULT_GATEWAY_URL;
    urlSource = 'default';
  }

  let token: string | undefined;
  let tokenSource: OpenClawEndpoint['tokenSource'] = 'none';
  const jsonToken = hooksEnabled === false ? undefined : resolveRef(hooks?.token, env);
  if (options.alerts?.openclaw_token) {
    token = options.alerts.openclaw_token;
    tokenSource = 'config';
  } else if (jsonToken) {
    token = jsonToken;
    tokenSource = 'openclaw.json';
  } else if (env.OPENCLAW_HOOKS_TOKEN) {
    token = env.OPENCLAW_HOOKS_TOKEN;
    tokenSource = 'OPENCLAW_HOOKS_TOKEN';
  }

  const configured = options.alerts?.openclaw_hooks_path;
  const jsonPath = typeof hooks?.path === 'string' ? hooks.path : undefined;
  const hooksPath = normalisePath(
    configured && configured !== DEFAULT_HOOKS_PATH ? configured : (jsonPath ?? configured ?? DEFAULT_HOOKS_PATH),
  );

  return {
    url: url.replace(/\/+$/, ''),
    hooksPath,
    hooksEnabled,
    token,
    urlSource,
    tokenSource,
    configPath: data ? configPath : undefined,
    warning,
  };
}

export interface ConnectionTest {
  ok: boolean;
  /** reachable + token accepted | bad token | hooks off or wrong path | not running | other */
  result: 'ok' | 'unauthorized' | 'not_found' | 'unreachable' | 'no_token' | 'unexpected';
  status?: number;
  message: string;
  hint?: string;
}

/**
 * Check that the gateway answers and accepts our token, without making the
 * agent do anything: POST `<hooks>/agent` with an empty payload. OpenClaw
 * checks the token first (401), then the payload (400: `message` is
 * required), so a 400 means "reachable, token accepted", and no turn runs.
 */
export async function testOpenClawConnection(
  endpoint: OpenClawEndpoint,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<ConnectionTest> {
  if (!endpoint.token) {
    return {
      ok: false,
      result: 'no_token',
      message: 'No OpenClaw hooks token is known.',
      hint: 'Enable hooks in openclaw.json (hooks.enabled: true, hooks.token: "<long random>"), or set alerts.openclaw_token to ${OPENCLAW_HOOKS_TOKEN} with the token in <home>/.env.',
    };
  }
  const doFetch = options.fetch ?? fetch;
  const target = `${endpoint.url}${endpoint.hooksPath}/agent`;
  let response: Response;
  try {
    response = await doFetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.token}` },
      body: '{}',
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    await response.arrayBuffer().catch(() => undefined);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return {
      ok: false,
      result: 'unreachable',
      message: `OpenClaw's gateway does not answer at ${endpoint.url} (${cause}).`,
      hint: 'Start the gateway (`openclaw gateway start`), or set alerts.openclaw_url / OPENCLAW_GATEWAY_PORT to where it listens.',
    };
  }
  const status = response.status;
  if (status === 400 || (status >= 200 && status < 300)) {
    return { ok: true, result: 'ok', status, message: `OpenClaw hooks reachable at ${target}; token accepted.` };
  }
  if (status === 401 || status === 403) {
    return {
      ok: false,
      result: 'unauthorized',
      status,
      message: `OpenClaw refused the hooks token (${status}).`,
      hint: 'Use the hooks.token from openclaw.json (not the gateway password).',
    };
  }
  if (status === 404 || status === 405) {
    return {
      ok: false,
      result: 'not_found',
      status,
      message: `No hook endpoint at ${target} (${status}).`,
      hint: 'Enable hooks in openclaw.json (hooks.enabled: true) and check hooks.path; restart the gateway after editing.',
    };
  }
  return { ok: false, result: 'unexpected', status, message: `OpenClaw answered ${status} at ${target}.` };
}

/** Remember the discovered gateway in config.yaml (URL and hooks path; never the token). */
export async function saveOpenClawEndpoint(options: {
  file: string;
  envFile: string;
  endpoint: OpenClawEndpoint;
  env?: NodeJS.ProcessEnv;
}): Promise<void> {
  const { setConfigValue } = await import('../../config/config.js');
  await setConfigValue({
    file: options.file,
    envFile: options.envFile,
    keyPath: 'alerts.openclaw_url',
    value: options.endpoint.url,
    env: options.env,
  });
  await setConfigValue({
    file: options.file,
    envFile: options.envFile,
    keyPath: 'alerts.openclaw_hooks_path',
    value: options.endpoint.hooksPath,
    env: options.env,
  });
}
