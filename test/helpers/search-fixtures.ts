/** Helpers for the search tests: temp homes with real day files. */
import { mkdir, writeFile } from 'node:fs/promises';
import { tempDirUntilExit } from './cli.js';
import { dirname } from 'node:path';
import { appendObservations, createDayFile, formatDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, homePaths, type HomePaths } from '../../lib/platform/home.js';
import { observationId } from '../../lib/memory/observation-line.js';
import { validateConfig, type Config } from '../../lib/config/config.js';
import type { Observation, Priority, Tier } from '../../lib/core/types.js';

export interface Obs {
  text: string;
  time?: string;
  priority?: Priority;
  category?: string;
  tags?: string[];
  done?: boolean;
  entryIds?: string[];
}

export async function tempHome(): Promise<HomePaths> {
  return homePaths(await tempDirUntilExit('ocm-search-'));
}

export function observation(date: string, agent: string, o: Obs, i = 0): Observation {
  const category = o.category ?? 'fact';
  return {
    id: observationId({ agent, session: 'sess-1', category, text: o.text, salt: `${date}:${i}` }),
    date,
    time: o.time ?? `09:${String(10 + i).padStart(2, '0')}`,
    priority: o.priority ?? 'medium',
    done: o.done ?? false,
    category,
    text: o.text,
    tags: o.tags ?? [],
    agent,
    provenance: { source: 'openclaw', agent, session: 'sess-1', entryIds: o.entryIds ?? [`e${i}aaaaaa`.slice(0, 8)] },
  };
}

export function dayText(date: string, agent: string, observations: Obs[], tier: Tier = 'hot'): { text: string; ids: string[] } {
  const file = createDayFile({ date, agent, tier });
  const list = observations.map((o, i) => observation(date, agent, o, i));
  appendObservations(file, list);
  return { text: formatDayFile(file), ids: list.map((o) => o.id) };
}

/** Write a day file of the hot or warm tier (dayFilePath layout). Returns its path and ids. */
export async function writeDay(
  paths: HomePaths,
  date: string,
  observations: Obs[],
  options: { agent?: string; tier?: 'hot' | 'warm' } = {},
): Promise<{ path: string; ids: string[] }> {
  const agent = options.agent ?? 'main';
  const tier = options.tier ?? 'hot';
  const path = dayFilePath(paths, tier, agent, date);
  const { text, ids } = dayText(date, agent, observations, tier);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return { path, ids };
}

export function testConfig(overrides: Record<string, unknown> = {}): Config {
  return validateConfig(overrides);
}
