/**
 * Is an LLM endpoint usable with this key and model? One tiny live call
 * (a one-token chat completion, no retries) through the same client the
 * Observer uses, so what passes here works in a tick. Used by `setup` before
 * it saves a key and by `doctor`.
 */
import type { Config } from '../config/config-schema.js';
import { ConfigError, OcmError } from '../core/errors.js';
import { loadDotEnv } from '../platform/dotenv.js';
import { createMemoryLogger } from '../platform/log.js';
import { keyEnvName, needsKey, validate, type SetupProvider } from './answers.js';

export type KeyCheckOutcome = 'accepted' | 'rejected' | 'no-key' | 'model' | 'unreachable' | 'error';

export interface KeyCheck {
  outcome: KeyCheckOutcome;
  /** What happened, safe to show (keys redacted). */
  message: string;
  endpoint?: string;
}

export async function checkLlmKey(
  role: Pick<Config['observer'], 'provider' | 'model' | 'api_base' | 'api_key'>,
  env: Record<string, string | undefined>,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<KeyCheck> {
  if (role.provider === 'heuristic') return { outcome: 'accepted', message: 'the heuristic observer needs no key' };
  const [{ createLlmClient }, { LlmError }] = await Promise.all([import('../llm/client.js'), import('../llm/errors.js')]);
  let client;
  try {
    client = createLlmClient(
      'observer',
      { ...role, temperature: 0, max_tokens: 1, timeout_ms: options.timeoutMs ?? 15_000, fallback: [], retry_delays_ms: [] },
      env,
      { logger: createMemoryLogger(), fetch: options.fetch },
    );
  } catch (error) {
    if (error instanceof ConfigError) return { outcome: /No API key/.test(error.message) ? 'no-key' : 'error', message: error.message };
    throw error;
  }
  const endpoint = client.settings.endpoints[0]!.baseURL;
  try {
    await client.chat({ system: 'Reply with the single word OK.', user: 'ping', parse: (t) => t, maxTokens: 1 });
    return { outcome: 'accepted', message: `${client.label} answered`, endpoint };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    const message = error.attempts[error.attempts.length - 1]?.message ?? error.message;
    switch (error.errorClass) {
      case 'malformed':
        // It answered (an empty or odd one-token reply): the key and model work.
        return { outcome: 'accepted', message: `${client.label} answered`, endpoint };
      case 'auth':
        return { outcome: 'rejected', message: `the key was rejected: ${message}`, endpoint };
      case 'request':
        return {
          outcome: 'model',
          message: `the endpoint refused the request (is the model "${role.model}" available there?): ${message}`,
          endpoint,
        };
      case 'connection':
      case 'timeout':
        return { outcome: 'unreachable', message: `could not reach ${endpoint}: ${message}`, endpoint };
      default:
        return { outcome: 'error', message: `${error.errorClass.replace('_', ' ')}: ${message}`, endpoint };
    }
  }
}

export interface SetupKeyOptions {
  llm: { provider: SetupProvider; model: string; apiBase: string };
  /** `--api-key`: the key itself. */
  apiKey?: string | undefined;
  /** `--api-key-env`: the variable that holds it. */
  apiKeyEnv?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** The home's .env file (a key saved there before counts as known). */
  envFile: string;
  /** `--skip-key-check`: save the key without trying it. */
  skipCheck: boolean;
  timeoutMs?: number;
}

/**
 * The key `setup --yes` saves to .env (undefined: none was given — one in the
 * environment or in .env is used, or the provider needs none), tried with a
 * live call unless `skipCheck`. Throws, before anything is written, when a
 * key is missing, malformed or refused.
 */
export async function settleSetupKey(options: SetupKeyOptions): Promise<string | undefined> {
  const { provider } = options.llm;
  const envName = keyEnvName(provider);
  const key = options.apiKey ?? (options.apiKeyEnv !== undefined ? options.env[options.apiKeyEnv] : undefined);
  if (options.apiKeyEnv !== undefined && !key)
    throw new OcmError('BAD_INPUT', `--api-key-env ${options.apiKeyEnv}: that variable is not set.`);
  if (key !== undefined) {
    const reason = validate.apiKey(key);
    if (reason) throw new OcmError('BAD_INPUT', `--api-key: ${reason}.`);
  }
  const dotenv = await loadDotEnv(options.envFile);
  const known = key ?? (envName ? options.env[envName] || dotenv[envName] : undefined);
  if (needsKey(provider) && !known) {
    throw new OcmError('CONFIG_INVALID', `${provider} needs an API key.`, {
      hint: `Pass --api-key-env ${envName} (with the key in that variable) or --api-key, or choose --provider heuristic / ollama.`,
    });
  }
  if (provider !== 'heuristic' && !options.skipCheck) {
    const probeEnv: Record<string, string | undefined> = { ...dotenv, ...options.env };
    if (key && envName) probeEnv[envName] = key;
    const r = await checkLlmKey({ provider, model: options.llm.model, api_base: options.llm.apiBase, api_key: key ?? '' }, probeEnv, {
      timeoutMs: options.timeoutMs ?? 20_000,
    });
    if (r.outcome !== 'accepted') {
      throw new OcmError('LLM_ERROR', `The ${provider} check failed: ${r.message}. Nothing was written.`, {
        hint: 'Fix the key, model or endpoint and run setup again, or pass --skip-key-check to save it anyway.',
      });
    }
  }
  return key;
}
