/**
 * The day files of the hot tier, per agent: directory entries only (no Markdown is read), so a tick
 * that only asks which files there are loads no parser.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { agentSlug, DEFAULT_AGENT, type HomePaths } from '../platform/home.js';
import type { Tier } from '../core/types.js';
import { isDayFileName } from '../core/day-name.js';
import { isNotFound } from '../core/errors.js';

export async function readdirSafe(dir: string): Promise<import('node:fs').Dirent[]> {
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
