/**
 * The LLM client: one chat-completions call through the `openai` SDK against
 * any OpenAI-compatible endpoint, with our own retry loop (the SDK's retries
 * are off so every attempt is logged with its error class), backoff from
 * `retry_delays_ms` (honouring retry-after), validation of the answer by the
 * caller (a malformed answer is retried like a server error), and a fallback
 * chain of further models/endpoints tried in order. Usage is counted for
 * every call that returned, failed or not.
 *
 * API keys live only inside the SDK client; every message that leaves this
 * module (logs, errors) goes through `redact`.
 */
import OpenAI from 'openai';
import type { Config } from '../config/config-schema.js';
import { ConfigError } from '../core/errors.js';
import type { Logger } from '../platform/log.js';
import type { LlmUsage } from '../core/types.js';
import { estimateTokens } from '../core/tokens.js';
import { classifyLlmError, hintFor, LlmError, MalformedOutputError, redact, type LlmErrorClass } from './errors.js';
import { isLlmProvider, PROVIDER_PRESETS, type LlmProvider } from './presets.js';

/** The settings of one role (observer or reflector) as they are in config.yaml. */
export type LlmRoleConfig = Pick<
  Config['observer'],
  'provider' | 'model' | 'api_base' | 'api_key' | 'temperature' | 'max_tokens' | 'timeout_ms' | 'fallback' | 'retry_delays_ms'
>;

export interface LlmEndpoint {
  provider: LlmProvider;
  model: string;
  baseURL: string;
  apiKey: string;
  /** "provider/model", used in logs, usage and status. */
  label: string;
}

export interface LlmSettings {
  role: 'observer' | 'reflector';
  endpoints: LlmEndpoint[];
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
  retryDelaysMs: number[];
}

/** Longest wait we accept from a retry-after header. */
const MAX_RETRY_AFTER_MS = 60_000;

function resolveEndpoint(
  role: string,
  keyPath: string,
  entry: { provider: string; model: string; api_base: string; api_key: string },
  env: Record<string, string | undefined>,
  inheritKey: string,
): LlmEndpoint {
  if (!isLlmProvider(entry.provider)) {
    throw new ConfigError(`${keyPath}.provider "${entry.provider}" is not an LLM provider.`, {
      keyPath: `${keyPath}.provider`,
      hint: 'Use openai, openrouter, gemini, anthropic, ollama, lmstudio or custom.',
    });
  }
  const preset = PROVIDER_PRESETS[entry.provider];
  if (!entry.model) {
    throw new ConfigError(`${keyPath}.model is empty.`, {
      keyPath: `${keyPath}.model`,
      hint: `Name the model to use, e.g. \`ocm-run config set ${role}.model gpt-4o-mini\`.`,
    });
  }
  const baseURL = entry.api_base || preset.baseURL;
  if (!baseURL) {
    throw new ConfigError(`${keyPath}.api_base is needed for provider "custom".`, {
      keyPath: `${keyPath}.api_base`,
      hint: 'Set the base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1.',
    });
  }
  let apiKey = entry.api_key || inheritKey;
  if (!apiKey)
    for (const name of preset.keyEnv)
      if (env[name]) {
        apiKey = env[name]!;
        break;
      }
  if (!apiKey && preset.needsKey) {
    throw new ConfigError(`No API key for ${preset.name} (${keyPath}).`, {
      keyPath: `${keyPath}.api_key`,
      hint: `Put the key in <home>/.env as ${preset.keyEnv[0]}=… (it is read from there), or set ${keyPath}.api_key to \${${preset.keyEnv[0]}}.`,
    });
  }
  // The SDK insists on a key; local servers ignore it.
  return {
    provider: entry.provider,
    model: entry.model,
    baseURL,
    apiKey: apiKey || 'not-needed',
    label: `${entry.provider}/${entry.model}`,
  };
}

/** Turn a role's config into endpoints (primary, then fallbacks). Throws ConfigError when unusable. */
export function resolveLlmSettings(
  role: 'observer' | 'reflector',
  config: LlmRoleConfig,
  env: Record<string, string | undefined>,
): LlmSettings {
  const primary = resolveEndpoint(role, role, config, env, '');
  const endpoints = [primary];
  config.fallback.forEach((f, i) => {
    endpoints.push(
      resolveEndpoint(role, `${role}.fallback[${i}]`, f, env, f.provider === config.provider && !f.api_base ? config.api_key || '' : ''),
    );
  });
  return {
    role,
    endpoints,
    temperature: config.temperature,
    maxTokens: config.max_tokens,
    timeoutMs: config.timeout_ms,
    retryDelaysMs: config.retry_delays_ms,
  };
}

export interface ChatRequest<T> {
  system: string;
  user: string;
  /** Validate/convert the answer; throw MalformedOutputError to have it retried. */
  parse: (text: string) => T;
  /** Overrides the role's max_tokens. */
  maxTokens?: number;
}

export interface ChatResult<T> {
  value: T;
  text: string;
  endpoint: string;
  /** Tokens of every call that got an answer, failed validation or not. */
  usage: LlmUsage[];
  attempts: number;
}

export interface LlmClientOptions {
  logger: Logger;
  /** For tests: a fetch to use instead of the global one. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

interface EndpointState {
  endpoint: LlmEndpoint;
  client: OpenAI;
  /** Adapted to what this endpoint accepts (newer OpenAI models). */
  useMaxCompletionTokens: boolean;
  sendTemperature: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class LlmClient {
  private readonly states: EndpointState[];
  private readonly secrets: string[];
  constructor(
    readonly settings: LlmSettings,
    private readonly options: LlmClientOptions,
  ) {
    this.secrets = settings.endpoints.map((e) => e.apiKey).filter((k) => k !== 'not-needed');
    this.states = settings.endpoints.map((endpoint) => ({
      endpoint,
      client: new OpenAI({
        apiKey: endpoint.apiKey,
        baseURL: endpoint.baseURL,
        timeout: settings.timeoutMs,
        maxRetries: 0,
        fetch: options.fetch,
        defaultHeaders: endpoint.provider === 'openrouter' ? { 'X-Title': 'OC-Memory' } : {},
      }),
      useMaxCompletionTokens: endpoint.provider === 'openai' && /^(o\d|gpt-5)/.test(endpoint.model),
      sendTemperature: !(endpoint.provider === 'openai' && /^(o\d|gpt-5)/.test(endpoint.model)),
    }));
  }

  /** "provider/model" of the primary endpoint. */
  get label(): string {
    return this.settings.endpoints[0]!.label;
  }

  /** Redact configured keys (and anything secret-looking) from a text. */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  async chat<T>(request: ChatRequest<T>): Promise<ChatResult<T>> {
    const { logger } = this.options;
    const sleep = this.options.sleep ?? defaultSleep;
    const role = this.settings.role;
    const usage = new Map<string, LlmUsage>();
    const count = (label: string, input: number, output: number) => {
      const u = usage.get(label) ?? { model: label, inputTokens: 0, outputTokens: 0, calls: 0 };
      u.inputTokens += input;
      u.outputTokens += output;
      u.calls += 1;
      usage.set(label, u);
    };
    const tried: LlmError['attempts'] = [];
    let attemptNo = 0;
    let last: { errorClass: LlmErrorClass; message: string } | undefined;
    for (const [index, state] of this.states.entries()) {
      const { endpoint } = state;
      if (index > 0) logger.log('warn', 'llm.fallback', { role, endpoint: endpoint.label, after: this.states[index - 1]!.endpoint.label });
      const maxAttempts = 1 + this.settings.retryDelaysMs.length;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        attemptNo++;
        const started = Date.now();
        let text: string | undefined;
        try {
          const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
            model: endpoint.model,
            messages: [
              { role: 'system', content: request.system },
              { role: 'user', content: request.user },
            ],
          };
          const maxTokens = request.maxTokens ?? this.settings.maxTokens;
          if (state.useMaxCompletionTokens) body.max_completion_tokens = maxTokens;
          else body.max_tokens = maxTokens;
          if (state.sendTemperature) body.temperature = this.settings.temperature;
          const response = await state.client.chat.completions.create(body);
          text = response.choices?.[0]?.message?.content ?? '';
          const input = response.usage?.prompt_tokens ?? estimateTokens(request.system) + estimateTokens(request.user);
          const output = response.usage?.completion_tokens ?? estimateTokens(text);
          count(endpoint.label, input, output);
          if (!text.trim()) throw new MalformedOutputError('the model returned an empty answer', '');
          const value = request.parse(text);
          logger.log('info', 'llm.call', {
            role,
            endpoint: endpoint.label,
            attempt,
            inputTokens: input,
            outputTokens: output,
            ms: Date.now() - started,
          });
          return { value, text, endpoint: endpoint.label, usage: [...usage.values()], attempts: attemptNo };
        } catch (error) {
          const c = classifyLlmError(error, this.secrets);
          // Newer OpenAI models reject max_tokens / temperature: adapt once and go again at once.
          if (c.errorClass === 'request' && /max_tokens/.test(c.message) && !state.useMaxCompletionTokens) {
            state.useMaxCompletionTokens = true;
            attempt--;
            attemptNo--;
            continue;
          }
          if (c.errorClass === 'request' && /temperature/.test(c.message) && state.sendTemperature) {
            state.sendTemperature = false;
            attempt--;
            attemptNo--;
            continue;
          }
          last = { errorClass: c.errorClass, message: c.message };
          tried.push({ endpoint: endpoint.label, errorClass: c.errorClass, message: c.message, status: c.status });
          const willRetry = c.retryable && attempt < maxAttempts;
          const scheduled = this.settings.retryDelaysMs[attempt - 1] ?? 0;
          const delay = willRetry ? Math.max(scheduled, Math.min(c.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)) : 0;
          logger.log('warn', 'llm.attempt_failed', {
            role,
            endpoint: endpoint.label,
            attempt,
            of: maxAttempts,
            errorClass: c.errorClass,
            status: c.status,
            message: c.message,
            sample: error instanceof MalformedOutputError && error.sample ? this.redact(error.sample) : undefined,
            ...(willRetry ? { retryInMs: delay } : { next: index + 1 < this.states.length ? 'fallback' : 'give up' }),
            ms: Date.now() - started,
          });
          if (!willRetry) break;
          await sleep(delay);
        }
      }
    }
    const lastClass = last?.errorClass ?? 'server';
    const primary = this.settings.endpoints[0]!;
    const providerName = PROVIDER_PRESETS[primary.provider].name;
    const models = [...new Set(tried.map((t) => t.endpoint))].join(', ');
    throw new LlmError(
      `The ${role} LLM call failed after ${tried.length} attempt${tried.length === 1 ? '' : 's'} (${models}): ` +
        `${lastClass.replace('_', ' ')} — ${last?.message ?? 'unknown error'}`,
      {
        errorClass: lastClass,
        hint: hintFor(lastClass, role, providerName),
        attempts: tried,
        usage: [...usage.values()],
        role,
      },
    );
  }
}

export function createLlmClient(
  role: 'observer' | 'reflector',
  config: LlmRoleConfig,
  env: Record<string, string | undefined>,
  options: LlmClientOptions,
): LlmClient {
  return new LlmClient(resolveLlmSettings(role, config, env), options);
}
