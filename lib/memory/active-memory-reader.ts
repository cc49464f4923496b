/**
 * Reading an agent's active memory to hand it to a model (the MCP tool
 * active_memory, the session-start hook). Apart from active-memory-file.ts,
 * which builds the file and loads the day-file machinery: a hook that only
 * reads it must start fast.
 */
import { readFile } from 'node:fs/promises';
import { activeMemoryPath, DEFAULT_AGENT, type HomePaths } from '../platform/home.js';
import { isNotFound } from '../core/errors.js';
import { withoutSuspiciousLines } from './suspicious.js';

/**
 * The active memory of the first of `agents` that has one (active_memory.<agent>.md;
 * main's when none of them has one yet), cut to about `budgetTokens`.
 * Undefined when there is none at all.
 */
export async function readActiveMemory(
  paths: HomePaths,
  agents: string | readonly string[],
  budgetTokens: number,
): Promise<{ agent: string; path: string; text: string } | undefined> {
  const candidates = [...new Set([...(typeof agents === 'string' ? [agents] : agents), DEFAULT_AGENT])];
  for (const who of candidates) {
    const path = activeMemoryPath(paths, who);
    let text: string;
    try {
      // What is held for review never reaches a model, even from a file an older release wrote (memory/suspicious.ts).
      text = withoutSuspiciousLines(await readFile(path, 'utf8')).trim();
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    if (!text) continue;
    // About four characters a token; the file is built within the budget already, this only bounds a hand-edited one.
    const max = Math.max(800, budgetTokens * 4);
    return { agent: who, path, text: text.length <= max ? text : `${text.slice(0, max - 1)}…` };
  }
  return undefined;
}
