/**
 * The Reflector's contract: compress a period of observations into fewer,
 * denser lines (docs/architecture.md, "A tick"). Implemented by the offline heuristic
 * Reflector and the LLM Reflector; both produce the same reflection files.
 */
import type { LlmUsage, Observation, Priority } from '../core/types.js';

/** One line of a reflection, dated (the reflection keeps the time line). */
export interface ReflectionLine {
  date: string;
  priority: Priority;
  done: boolean;
  category: string;
  text: string;
  tags: string[];
}

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
