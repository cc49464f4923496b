/**
 * Finding and reading day files of a tier, per agent.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentSlug, DEFAULT_AGENT, type HomePaths } from '../platform/home.js';
import { dateFromFileName, listObservations, parseDayFile, type LocatedObservation } from './day-file/index.js';
import type { Tier } from '../core/types.js';
import { isDayFileName, isMisnamedDayFile, isRealDate } from '../core/day-name.js';
import { isNotFound } from '../core/errors.js';

async function readdirSafe(dir: string): Promise<import('node:fs').Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

export interface DayFileRef {
  path: string;
  agent: string;
  date: string;
  tier: Exclude<Tier, 'cold'>;
}

/**
 * Day files of the hot tier. Agent `main` lives in memory/ itself, every other
 * agent in memory/<agent>/ (see dayFilePath).
 */
export async function listHotDayFiles(paths: HomePaths, agent?: string): Promise<DayFileRef[]> {
  const out: DayFileRef[] = [];
  const entries = await readdirSafe(paths.memory);
  const wantMain = agent === undefined || agent === DEFAULT_AGENT;
  for (const e of entries) {
    if (e.isFile() && isDayFileName(e.name) && wantMain) {
      out.push({ path: join(paths.memory, e.name), agent: DEFAULT_AGENT, date: e.name.slice(0, 10), tier: 'hot' });
    } else if (e.isDirectory() && !e.name.startsWith('.')) {
      if (agent !== undefined && agentSlug(agent) !== e.name) continue;
      for (const f of await readdirSafe(join(paths.memory, e.name))) {
        if (f.isFile() && isDayFileName(f.name)) {
          out.push({ path: join(paths.memory, e.name, f.name), agent: agent ?? e.name, date: f.name.slice(0, 10), tier: 'hot' });
        }
      }
    }
  }
  return out.sort((a, b) => (a.date === b.date ? a.path.localeCompare(b.path) : a.date.localeCompare(b.date)));
}

/** Every observation in the given day files (hand-broken files are read as far as they go). */
export async function readObservations(files: DayFileRef[]): Promise<Array<LocatedObservation & { path: string; tier: Tier }>> {
  const out: Array<LocatedObservation & { path: string; tier: Tier }> = [];
  for (const ref of files) {
    let text: string;
    try {
      text = await readFile(ref.path, 'utf8');
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    const file = parseDayFile(text);
    for (const o of listObservations(file, { date: dateFromFileName(ref.path) ?? ref.date, agent: ref.agent, tier: ref.tier })) {
      // A hand-edited frontmatter date that is no real day (2026-13-45): the file's own date stands.
      out.push({ ...o, ...(isRealDate(o.date) ? {} : { date: ref.date }), path: ref.path, tier: ref.tier });
    }
  }
  return out;
}

/** Files in the hot tier shaped like day files but named for no real day (`2026-13-45.md`): not read; tell the user. */
export async function misnamedDayFiles(paths: HomePaths): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdirSafe(paths.memory)) {
    if (e.isFile() && isMisnamedDayFile(e.name)) out.push(join(paths.memory, e.name));
    else if (e.isDirectory() && !e.name.startsWith('.')) {
      for (const f of await readdirSafe(join(paths.memory, e.name))) if (f.isFile() && isMisnamedDayFile(f.name)) out.push(join(paths.memory, e.name, f.name));
    }
  }
  return out.sort();
}

/** Agents that have hot memory. */
export async function listHotAgents(paths: HomePaths): Promise<string[]> {
  const agents = new Set<string>();
  for (const ref of await listHotDayFiles(paths)) agents.add(ref.agent);
  return [...agents].sort();
}
