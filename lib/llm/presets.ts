/**
 * Endpoint presets for the OpenAI-compatible providers OC-Memory knows: where
 * each one's chat-completions API lives, which environment variable usually
 * holds its key, and whether it needs one at all (local servers do not).
 */
import type { LLM_PROVIDERS } from '../config/config-schema.js';

export type LlmProvider = Exclude<(typeof LLM_PROVIDERS)[number], 'heuristic'>;

export interface ProviderPreset {
  /** Base URL of the OpenAI-compatible API ('' = must be configured). */
  baseURL: string;
  /** Environment variables tried, in order, when no api_key is configured. */
  keyEnv: string[];
  /** A key is required (hosted services); local servers accept any. */
  needsKey: boolean;
  /** Runs on this machine: no cost, no data leaves it. */
  local: boolean;
  /** Human name for messages. */
  name: string;
}

export const PROVIDER_PRESETS: Record<LlmProvider, ProviderPreset> = {
  openai: { name: 'OpenAI', baseURL: 'https://api.openai.com/v1', keyEnv: ['OPENAI_API_KEY'], needsKey: true, local: false },
  openrouter: { name: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', keyEnv: ['OPENROUTER_API_KEY'], needsKey: true, local: false },
  gemini: {
    name: 'Google Gemini',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    needsKey: true,
    local: false,
  },
  anthropic: { name: 'Anthropic', baseURL: 'https://api.anthropic.com/v1/', keyEnv: ['ANTHROPIC_API_KEY'], needsKey: true, local: false },
  ollama: { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', keyEnv: ['OLLAMA_API_KEY'], needsKey: false, local: true },
  lmstudio: { name: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', keyEnv: ['LMSTUDIO_API_KEY'], needsKey: false, local: true },
  custom: { name: 'OpenAI-compatible endpoint', baseURL: '', keyEnv: ['OCM_LLM_API_KEY'], needsKey: false, local: false },
};

export function isLlmProvider(value: string): value is LlmProvider {
  return Object.hasOwn(PROVIDER_PRESETS, value);
}
