/**
 * Is an LLM endpoint usable with this key and model? One tiny live call
 * (a one-token chat completion, no retries) through the same client the
 * Observer uses, so what passes here works in a tick. Used by `setup` before
 * it saves a key and by `doctor`.
 */
import type { Config } from '../config/config-schema.js';
import { ConfigError } from '../core/errors.js';
import { createMemoryLogger } from '../platform/log.js';

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
      { logger: createMemoryLogger(), ...(options.fetch ? { fetch: options.fetch } : {}) },
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
        return { outcome: 'model', message: `the endpoint refused the request (is the model "${role.model}" available there?): ${message}`, endpoint };
      case 'connection':
      case 'timeout':
        return { outcome: 'unreachable', message: `could not reach ${endpoint}: ${message}`, endpoint };
      default:
        return { outcome: 'error', message: `${error.errorClass.replace('_', ' ')}: ${message}`, endpoint };
    }
  }
}
