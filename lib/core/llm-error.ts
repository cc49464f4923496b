/**
 * The error an LLM call ends with after every retry and fallback (exit code 5), and its
 * classes. In core, without the `openai` SDK: the jobs that record a failure (observe,
 * reflect) recognise it without loading the SDK; lib/llm/errors.ts classifies the SDK's
 * errors into these classes.
 */
import { OcmError } from './errors.js';
import type { LlmUsage } from './types.js';

export type LlmErrorClass = 'auth' | 'rate_limit' | 'timeout' | 'context_length' | 'server' | 'connection' | 'request' | 'malformed';

export const LLM_ERROR_CLASSES: readonly LlmErrorClass[] = [
  'auth',
  'rate_limit',
  'timeout',
  'context_length',
  'server',
  'connection',
  'request',
  'malformed',
];

/** The last failure of an LLM call after every retry and fallback: exit code 5. */
export class LlmError extends OcmError {
  readonly errorClass: LlmErrorClass;
  /** Every attempt made (model, class), oldest first. */
  readonly attempts: Array<{ endpoint: string; errorClass: LlmErrorClass; message: string; status?: number }>;
  /** Tokens spent on the failed attempts (malformed answers still cost). */
  readonly usage: LlmUsage[];
  constructor(
    message: string,
    options: {
      errorClass: LlmErrorClass;
      hint: string;
      attempts: LlmError['attempts'];
      usage?: LlmUsage[];
      role: string;
    },
  ) {
    super('LLM_ERROR', message, {
      hint: options.hint,
      details: { errorClass: options.errorClass, role: options.role, attempts: options.attempts },
    });
    this.name = 'LlmError';
    this.errorClass = options.errorClass;
    this.attempts = options.attempts;
    this.usage = options.usage ?? [];
  }
}
