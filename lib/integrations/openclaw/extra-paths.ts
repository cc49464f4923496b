/**
 * Which of OC-Memory's folders each OpenClaw agent searches, and under which
 * keys of openclaw.json: the shared extra-paths keys of both eras, the
 * per-agent ones, and the agents the file configures.
 */
import { join } from 'node:path';
import { JsonArrayNode, JsonObjectNode } from '@croct/json5-parser';
import { agentSlug, DEFAULT_AGENT, type HomePaths } from '../../platform/home.js';
import { getAt } from './json5-tree.js';

export const CURRENT_KEY = ['memory', 'search', 'extraPaths'];
export const LEGACY_KEY = ['agents', 'defaults', 'memorySearch', 'extraPaths'];

/** The folders OpenClaw's memory search should index. */
export function memoryFolders(paths: HomePaths): string[] {
  return [paths.memory, paths.reflections];
}

/**
 * One entry of OpenClaw's extraPaths: a folder or file, or (2026.9 only) a
 * folder with a glob its files must match relative to it
 * (normalizeConfiguredMemoryExtraPaths / matchesExtraMemoryPathEntry in
 * OpenClaw's memory host; 2026.2 takes plain strings only).
 */
export type ExtraPath = string | { path: string; pattern: string };
export const extraPathKey = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
export const describeExtraPath = (value: ExtraPath): string => (typeof value === 'string' ? value : `${value.path} (${value.pattern})`);

/** Per-agent extra-paths keys, below an agent's entry: 2026.9 `memory.search`, 2026.2 `memorySearch`. */
export const AGENT_CURRENT_KEY = ['memory', 'search', 'extraPaths'];
export const AGENT_LEGACY_KEY = ['memorySearch', 'extraPaths'];

/**
 * What one OpenClaw agent should search of OC-Memory's folders (`roots`:
 * memory/ and reflections/). Agent main's files lie at a root's top, every
 * other agent's in <root>/<agentSlug> (lib/platform/home.ts, dayFilePath), and
 * OpenClaw walks a folder recursively: main gets the root limited to its top
 * files by the glob `*.md` (path.posix.matchesGlob: `*` never crosses a `/`)
 * where OpenClaw supports patterns, and nothing where it does not (2026.2),
 * since the bare root would show it every agent's folder.
 */
export function agentExtraPaths(roots: string[], agentId: string, patterns: boolean): ExtraPath[] {
  if (agentId !== DEFAULT_AGENT) return roots.map((root) => join(root, agentSlug(agentId)));
  return patterns ? roots.map((root) => ({ path: root, pattern: '*.md' })) : [];
}

/**
 * The shared extraPaths when openclaw.json configures no agents (only agent
 * main runs): main's own files where OpenClaw supports patterns (2026.9),
 * since the bare roots would also show it the folders Claude Code, Codex or
 * pi write into the same home; the roots themselves where it does not
 * (2026.2: plain paths only, and main would otherwise see none of its memory).
 */
export function sharedExtraPaths(roots: string[], patterns: boolean): ExtraPath[] {
  return patterns ? agentExtraPaths(roots, DEFAULT_AGENT, true) : roots;
}

/** Every form in which an install of ours may have put the roots into the shared key (to take out again). */
export const sharedForms = (roots: string[]): ExtraPath[] => [...sharedExtraPaths(roots, false), ...sharedExtraPaths(roots, true)];

/** The agents openclaw.json configures, as OpenClaw lists them (`agents.entries` by id, else `agents.list`). */
export function configuredAgents(root: JsonObjectNode): Array<{ id: string; path: string[]; node: JsonObjectNode }> {
  const entries = getAt(root, ['agents', 'entries']);
  if (entries instanceof JsonObjectNode) {
    return entries.properties.flatMap((p) => {
      const id = String(p.key.toJSON());
      const node = entries.get(id);
      return node instanceof JsonObjectNode ? [{ id, path: ['agents', 'entries', id], node }] : [];
    });
  }
  const list = getAt(root, ['agents', 'list']);
  if (!(list instanceof JsonArrayNode)) return [];
  return list.elements.flatMap((node, i) => {
    if (!(node instanceof JsonObjectNode) || !node.has('id')) return [];
    const id = node.get('id').toJSON();
    return typeof id === 'string' && id.trim() ? [{ id: id.trim(), path: ['agents', 'list', String(i)], node }] : [];
  });
}
