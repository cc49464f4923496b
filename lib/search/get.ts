/**
 * `get`: one observation by id (from the index, with its provenance), or a
 * line range of a memory file — the shape of OpenClaw's `memory_get`
 * (`path[:from[:lines]]`, 1-based `from`). Paths outside the memory roots
 * (hot, warm, reflections, the vault's OC-Memory folder, active_memory.md) are
 * refused, symlinks included.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { OcmError, isNotFound } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import { memoryRoots } from './roots.js';
import { TIERS } from './manifest.js';
import { IndexUnavailable, type Engine } from './engine.js';
import { openEngine } from './open-engine.js';
import { refreshIfStale, searchMemory, type SearchConfig, type SearchDeps } from './search.js';
import type { SearchResult } from './types.js';
import { readTextSteady } from '../platform/atomic-file.js';

export interface LineRange {
  kind: 'lines';
  path: string;
  from: number;
  lines: number;
  totalLines: number;
  text: string;
}

export type GetResult = ({ kind: 'observation' } & SearchResult) | LineRange;

const ID = /^[or]-[A-Za-z0-9-]{4,}$/;

/** `memory/2026-02-12.md:10:5` → path, from, lines (Windows drive letters survive). */
export function parseTarget(target: string): { path: string; from?: number; lines?: number } {
  const m = /^(.*?)(?::(\d+))?(?::(\d+))?$/.exec(target.trim());
  const path = m?.[1] ?? target;
  const from = m?.[2] !== undefined ? Number(m[2]) : undefined;
  const lines = m?.[3] !== undefined ? Number(m[3]) : undefined;
  return { path, from, lines };
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

async function real(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

function outside(target: string): OcmError {
  return new OcmError('PATH_OUTSIDE_ROOTS', `Refusing to read ${target}: it is not inside the memory folders.`, {
    hint: "get reads memory files only: memory/…, archive/…, reflections/…, active_memory.md, or the vault's OC-Memory folder. Use a path from `ocm-run search` results.",
  });
}

/** Resolve and check a memory file path; returns the absolute path. */
export async function resolveMemoryPath(paths: HomePaths, vaultPath: string, target: string): Promise<string> {
  const roots = memoryRoots(paths, vaultPath).map((r) => r.dir);
  const absolute = isAbsolute(target) ? resolve(target) : resolve(paths.root, target);
  const lexicalOk = roots.some((r) => inside(absolute, resolve(r))) || absolute === resolve(paths.activeMemory);
  if (!lexicalOk || !absolute.endsWith('.md')) throw outside(target);
  const realTarget = await real(absolute);
  const realRoots = await Promise.all(roots.map(real));
  const realOk = realRoots.some((r) => inside(realTarget, r)) || realTarget === (await real(paths.activeMemory));
  if (!realOk) throw outside(target);
  return realTarget;
}

export async function readLineRange(paths: HomePaths, vaultPath: string, target: string): Promise<LineRange> {
  const { path, from, lines } = parseTarget(target);
  const file = await resolveMemoryPath(paths, vaultPath, path);
  let text: string;
  try {
    text = await readTextSteady(file);
  } catch (error) {
    if (isNotFound(error)) {
      throw new OcmError('NOT_FOUND', `${path} does not exist.`, {
        hint: 'Use a path from `ocm-run search` results (memory/YYYY-MM-DD.md).',
      });
    }
    throw error;
  }
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  const start = Math.max(1, from ?? 1);
  const count = lines !== undefined ? Math.max(0, lines) : all.length - start + 1;
  const slice = all.slice(start - 1, start - 1 + count);
  return { kind: 'lines', path, from: start, lines: slice.length, totalLines: all.length, text: slice.join('\n') };
}

/** Find an observation by id in the index (rebuilt first if it is missing or broken). */
export async function getObservation(
  paths: HomePaths,
  config: SearchConfig,
  id: string,
  deps: SearchDeps = {},
): Promise<SearchResult | undefined> {
  const engine: Engine = openEngine(paths.index);
  // What was just written is found too: an index behind the files is updated first.
  await refreshIfStale(paths, config, TIERS, deps);
  for (let attempt = 0; attempt < 2; attempt++) {
    let broken = false;
    for (const tier of TIERS) {
      try {
        const found = engine.find(id, tier);
        if (found) return found;
      } catch (error) {
        if (!(error instanceof IndexUnavailable)) throw error;
        broken = true;
      }
    }
    if (!broken || attempt > 0) break;
    // A missing or broken index: an empty search rebuilds it, then look again.
    await searchMemory(paths, config, { query: '', cache: false }, deps);
  }
  return undefined;
}

/**
 * An id as the user may paste it: `o-373b9ef913`, the block id `^o-373b9ef913`
 * copied from a day file, or the bare hash `373b9ef913`.
 */
export function normaliseIdTarget(target: string): string {
  const t = target.trim().replace(/^\^(?=[or]-)/, '');
  return /^[0-9a-f]{10}$/i.test(t) ? `o-${t.toLowerCase()}` : t;
}

export async function getMemory(paths: HomePaths, config: SearchConfig, target: string, deps: SearchDeps = {}): Promise<GetResult> {
  const t = normaliseIdTarget(target);
  if (ID.test(t)) {
    const found = await getObservation(paths, config, t, deps);
    if (!found) {
      throw new OcmError('NOT_FOUND', `No observation with id ${t}.`, {
        hint: 'Ids look like o-7f3a9c21e0 (the ^o-… block id at the end of a line). Run `ocm-run index` if the file was just edited.',
      });
    }
    return { kind: 'observation', ...found };
  }
  return readLineRange(paths, config.tiers.vault_path, t);
}
