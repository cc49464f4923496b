/**
 * Estimated cost of LLM calls: list prices in USD per million tokens for
 * common models (checked 2026-Q1; prices change — the figure is an estimate,
 * labelled as such wherever it is shown). Local providers cost nothing; a
 * model not in the table has an unknown cost (null), never a guessed one.
 */

export interface ModelPrice {
  /** USD per 1M input tokens. */
  input: number;
  /** USD per 1M output tokens. */
  output: number;
}

/** Longest matching prefix wins; model names are compared without a "vendor/" prefix. */
const PRICES: Array<[prefix: string, price: ModelPrice]> = [
  ['gpt-5-nano', { input: 0.05, output: 0.4 }],
  ['gpt-5-mini', { input: 0.25, output: 2 }],
  ['gpt-5', { input: 1.25, output: 10 }],
  ['gpt-4.1-nano', { input: 0.1, output: 0.4 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6 }],
  ['gpt-4.1', { input: 2, output: 8 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['o4-mini', { input: 1.1, output: 4.4 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['gemini-2.0-flash-lite', { input: 0.075, output: 0.3 }],
  ['gemini-2.0-flash', { input: 0.1, output: 0.4 }],
  ['gemini-2.5-flash-lite', { input: 0.1, output: 0.4 }],
  ['gemini-2.5-flash', { input: 0.3, output: 2.5 }],
  ['gemini-2.5-pro', { input: 1.25, output: 10 }],
  ['deepseek-chat', { input: 0.27, output: 1.1 }],
];

export function modelPrice(provider: string, model: string): ModelPrice | null {
  if (provider === 'ollama' || provider === 'lmstudio') return { input: 0, output: 0 };
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: [string, ModelPrice] | undefined;
  for (const entry of PRICES) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : null;
}

/** Estimated USD for a number of tokens, or null when the model's price is unknown. */
export function estimateCost(provider: string, model: string, inputTokens: number, outputTokens: number): number | null {
  const price = modelPrice(provider, model);
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
