/**
 * The agents a home knows: `main`, the agents its sources file transcripts under (config), the
 * agents the integrations name by default, and every agent that has memory in the home (hot or
 * warm day files, an active memory). A command given an agent (`mcp --agent`, `search --agent`)
 * refuses one outside this list with the list, instead of serving or searching an empty memory.
 */
import { readdir } from 'node:fs/promises';
import { DEFAULT_AGENT, agentSlug, type HomePaths } from '../platform/home.js';
import type { Config } from '../config/config.js';
import { SOURCE_FOLDER_DEFAULTS } from '../config/source-defaults.js';
import { didYouMean } from '../core/did-you-mean.js';
import { OcmError, isNotFound } from '../core/errors.js';

async function names(dir: string): Promise<Array<{ name: string; dir: boolean }>> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Every agent the home knows, sorted, `main` first. */
export async function knownAgents(paths: HomePaths, config: Config): Promise<string[]> {
  const found = new Set<string>([DEFAULT_AGENT]);
  const { sources } = config;
  for (const agent of [SOURCE_FOLDER_DEFAULTS.claude_code.settings.agent, SOURCE_FOLDER_DEFAULTS.codex.settings.agent, 'pi'])
    found.add(agent);
  for (const agent of [sources.claude_code.agent, sources.codex.agent, ...sources.openclaw.agents, ...sources.generic.map((g) => g.agent)])
    if (agent) found.add(agent);
  for (const e of await names(paths.memory)) if (e.dir && !e.name.startsWith('.')) found.add(e.name);
  // archive/<year>/ is main's; archive/<agent>/<year>/ another agent's.
  for (const e of await names(paths.archive)) if (e.dir && !e.name.startsWith('.') && !/^\d{4}$/.test(e.name)) found.add(e.name);
  for (const e of await names(paths.root)) {
    const m = /^active_memory\.(.+)\.md$/.exec(e.name);
    if (!e.dir && m) found.add(m[1]!);
  }
  return [DEFAULT_AGENT, ...[...found].filter((a) => a !== DEFAULT_AGENT).sort()];
}

/** Whether `agent` is one of `known` (by name or by its folder name: a per-project agent is found by its slug). */
export function isKnownAgent(agent: string, known: readonly string[]): boolean {
  const slug = agentSlug(agent);
  return known.some((k) => k === agent || k === slug);
}

/** Throws BAD_INPUT naming the known agents (and the closest) when `agent` is not one of them. */
export function assertKnownAgent(agent: string, known: readonly string[], option = '--agent'): void {
  if (isKnownAgent(agent, known)) return;
  throw new OcmError('BAD_INPUT', `Unknown agent "${agent}" (${option}).${didYouMean(agent, known)}`, {
    hint: `Agents of this home: ${known.join(', ')}. An agent is known once its source is configured (sources.*.agent in config.yaml) or it has memory here.`,
    details: { agent, known: [...known] },
  });
}
