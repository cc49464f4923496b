/**
 * The Reflector's contract: compress a period of observations into fewer,
 * denser lines (docs/architecture.md, "A tick"). Implemented by the offline heuristic
 * Reflector and the LLM Reflector; both produce the same reflection files.
 */
import type { LlmUsage, Observation } from '../core/types.js';
import type { ReflectionLine } from '../memory/reflection-text.js';

export type { ReflectionLine };

export interface ReflectionInput {
  agent: string;
  periodStart: string;
  periodEnd: string;
  /** Sorted by date and time. */
  observations: Observation[];
}

export interface ReflectionDraft {
  lines: ReflectionLine[];
  usage?: LlmUsage[];
}

export interface Reflector {
  readonly kind: 'heuristic' | 'llm';
  readonly label: string;
  reflect(input: ReflectionInput): Promise<ReflectionDraft>;
}
