/**
 * What went wrong with an LLM call, in classes a user (and the retry loop)
 * can act on: auth, rate limit, timeout, context length, server, connection,
 * a rejected request, or output the model got wrong (malformed).
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { maskSecrets } from '../masking/masking.js';

import type { LlmErrorClass } from '../core/llm-error.js';

export { LLM_ERROR_CLASSES, LlmError, type LlmErrorClass } from '../core/llm-error.js';

export interface ClassifiedError {
  errorClass: LlmErrorClass;
  /** Worth trying the same model again (after a delay). */
  retryable: boolean;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The server asked us to wait this long (ms), from retry-after(-ms). */
  retryAfterMs?: number;
  /** One line, secrets masked. */
  message: string;
}

/** The model answered, but not in the format we asked for. Retried like a server error. */
export class MalformedOutputError extends Error {
  constructor(
    message: string,
    /** The first characters of what came back (masked), for the log. */
    readonly sample: string,
  ) {
    super(message);
    this.name = 'MalformedOutputError';
  }
}

const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long|reduce the length|token limit/i;

/** Remove every configured secret (exact value) and anything that looks like one. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[REDACTED]');
  return maskSecrets(out).text;
}

/** Parse retry-after-ms / retry-after (seconds or HTTP date) into ms. */
export function retryAfterMs(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now()) : undefined;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Classify anything thrown by the openai SDK (or by our output validation). */
export function classifyLlmError(error: unknown, secrets: readonly string[] = []): ClassifiedError {
  const message = redact(firstLine(error instanceof Error ? error.message : String(error)), secrets);
  if (error instanceof MalformedOutputError) return { errorClass: 'malformed', retryable: true, message };
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return { errorClass: 'timeout', retryable: true, message: message || 'request timed out' };
  }
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return { errorClass: 'connection', retryable: true, message: redact(detail ? `${message} (${detail})` : message, secrets) };
  }
  if (error instanceof APIError) {
    const status = error.status;
    const code = String((error as { code?: unknown }).code ?? '');
    const base = { message, status };
    const wait = retryAfterMs(error.headers as Headers | undefined);
    if (status === 401 || status === 403) return { errorClass: 'auth', retryable: false, ...base };
    if (status === 429) {
      // An exhausted quota does not come back by waiting a few seconds.
      const quota = code === 'insufficient_quota' || /quota|billing|credit/i.test(message);
      return { errorClass: 'rate_limit', retryable: !quota, ...base, retryAfterMs: wait };
    }
    if (code === 'context_length_exceeded' || ((status === 400 || status === 413 || status === 422) && CONTEXT_LENGTH.test(message))) {
      return { errorClass: 'context_length', retryable: false, ...base };
    }
    if (status === 408) return { errorClass: 'timeout', retryable: true, ...base };
    if (status !== undefined && status >= 500) return { errorClass: 'server', retryable: true, ...base, retryAfterMs: wait };
    return { errorClass: 'request', retryable: false, ...base };
  }
  return { errorClass: 'server', retryable: true, message };
}

/** What a user should do about each class (the "what next" of the error). */
export function hintFor(errorClass: LlmErrorClass, role: string, providerName: string): string {
  switch (errorClass) {
    case 'auth':
      return `${providerName} rejected the API key. Set ${role}.api_key (e.g. \${OPENAI_API_KEY} with the key in <home>/.env) and check that the key is active.`;
    case 'rate_limit':
      return `${providerName} is rate-limiting (or the quota is used up). Nothing is lost: the next run retries the same messages. Check the account's limits/credit, raise ${role}.batch_tokens, or add a ${role}.fallback model.`;
    case 'timeout':
      return `The model did not answer within ${role}.timeout_ms. Raise it, or use a faster model; the next run retries.`;
    case 'context_length':
      return `The input was too long for the model. Lower observer.batch_tokens / reflector.threshold_tokens, or use a model with a larger context window.`;
    case 'server':
      return `${providerName} had a server error. Nothing is lost: the next run retries the same messages.`;
    case 'connection':
      return `Could not reach the endpoint. Check ${role}.api_base and the network (for Ollama / LM Studio: is the server running?).`;
    case 'request':
      return `The endpoint refused the request. Check ${role}.model (is it available at this endpoint?) and ${role}.api_base.`;
    case 'malformed':
      return `The model kept answering in the wrong format. Use a stronger model, or check a customised prompt in <home>/prompts/.`;
  }
}
