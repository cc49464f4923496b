/**
 * The memory roots of a home (hot memory/, reflections/, warm archive/, the
 * vault's OC-Memory/ for cold) and how files in them are named. Light: no
 * parsers, so `search` and `get` start fast.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { DEFAULT_AGENT, expandHome, type HomePaths } from '../platform/home.js';
import type { Tier } from '../core/types.js';

/** The kinds of memory file, each with its own root and parser. */
export type SourceKind = 'hot' | 'reflection' | 'warm' | 'cold';

export interface MemoryRoot {
  kind: SourceKind;
  /** Tier the documents belong to (reflections are hot). */
  tier: Tier;
  dir: string;
  /** What is not memory under dir: a file (`README.md`) or a folder and its content (`Reflections/**`); see listMarkdown. */
  ignore?: string[];
}

/** The memory roots of a home (the cold root only when a vault is configured). */
export function memoryRoots(paths: HomePaths, vaultPath: string): MemoryRoot[] {
  const roots: MemoryRoot[] = [
    { kind: 'hot', tier: 'hot', dir: paths.memory },
    { kind: 'reflection', tier: 'hot', dir: paths.reflections },
    { kind: 'warm', tier: 'warm', dir: paths.archive },
  ];
  // The vault folder also holds its README note and copies of reflections (indexed from reflections/ already).
  if (vaultPath.trim())
    roots.push({
      kind: 'cold',
      tier: 'cold',
      dir: join(expandHome(vaultPath.trim()), 'OC-Memory'),
      ignore: ['README.md', 'Reflections/**'],
    });
  return roots;
}

/** How a file is named in results: relative to the home when inside it, absolute otherwise. */
export function displayPath(paths: HomePaths, file: string): string {
  const rel = relative(paths.root, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return file;
  return rel.split(sep).join('/');
}

/** Agent of a day file from where it lives: memory/<agent>/…, archive/<agent>/<YYYY>/…; main otherwise. */
export function agentFromPath(root: MemoryRoot, file: string): string {
  const parts = relative(root.dir, file).split(sep);
  if (parts.length < 2) return DEFAULT_AGENT;
  const first = parts[0]!;
  if (root.kind === 'hot') return first;
  if (/^\d{4}$/.test(first)) return DEFAULT_AGENT;
  return first;
}
