/**
 * Finding and reading day files of a tier, per agent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';
import { dateFromFileName, listObservations, parseDayFile, type LocatedObservation } from './day-file/index.js';
import type { Tier } from '../core/types.js';
import { isMisnamedDayFile, isRealDate } from '../core/day-name.js';
import { listHotDayFiles, readdirSafe, type DayFileRef } from './hot-files.js';

export { listHotDayFiles, type DayFileRef };
import { isNotFound } from '../core/errors.js';

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
      for (const f of await readdirSafe(join(paths.memory, e.name)))
        if (f.isFile() && isMisnamedDayFile(f.name)) out.push(join(paths.memory, e.name, f.name));
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
