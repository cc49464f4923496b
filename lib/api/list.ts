/**
 * Every observation of every tier, newest first, with `search`'s filters and
 * a page (offset, limit): what a client lists without a question (the REST
 * API's GET /api/v1/memories). Read straight from the day files, so it sees
 * exactly what an editor sees; a page reads the newest files until it holds
 * one more than it returns (that one says there is a next page), and files
 * outside the date, tier and agent filters are not read at all.
 */
import { relative } from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { Tier } from '../core/types.js';
import { listObservations, parseDayFile, type LocatedObservation } from '../memory/day-file/index.js';
import type { HomePaths } from '../platform/home.js';
import type { SearchFilters } from '../search/types.js';
import { listAllTierFiles } from '../tiers/locations.js';
import { readTextSteady } from '../platform/atomic-file.js';

export interface ListedObservation extends LocatedObservation {
  tier: Tier;
  /** The day file, relative to the home (absolute when outside it: a vault). */
  path: string;
}

export interface ListPage {
  items: ListedObservation[];
  /** The offset of the next page; undefined: this is the last. */
  nextOffset?: number;
}

function keep(o: LocatedObservation, filters: SearchFilters): boolean {
  if (filters.priorities?.length && !filters.priorities.includes(o.priority)) return false;
  if (filters.categories?.length && !filters.categories.includes(o.category.toLowerCase())) return false;
  if (filters.tags?.length) {
    const tags = new Set(o.tags.map((t) => t.toLowerCase()));
    if (!filters.tags.every((t) => tags.has(t.toLowerCase()))) return false;
  }
  // Only what is current: not a done task, not a superseded decision or fact.
  if (filters.current && (o.done || o.mark !== undefined)) return false;
  return true;
}

export async function listMemories(
  paths: HomePaths,
  config: Config,
  filters: SearchFilters,
  page: { offset: number; limit: number },
): Promise<ListPage> {
  const files = (await listAllTierFiles(paths, config.tiers.vault_path))
    .filter((f) => (!filters.since || f.date >= filters.since) && (!filters.until || f.date <= filters.until))
    .filter(
      (f) => (!filters.tiers?.length || filters.tiers.includes(f.tier)) && (!filters.agents?.length || filters.agents.includes(f.agent)),
    )
    .sort((a, b) => (a.date === b.date ? a.agent.localeCompare(b.agent) : a.date < b.date ? 1 : -1));
  const wanted = page.offset + page.limit + 1;
  const found: ListedObservation[] = [];
  for (const file of files) {
    if (found.length >= wanted) break;
    const text = await readTextSteady(file.path).catch(() => undefined);
    if (text === undefined) continue;
    const rel = relative(paths.root, file.path);
    const shown = rel.startsWith('..') ? file.path : rel;
    const observations = listObservations(parseDayFile(text), { date: file.date, agent: file.agent, tier: file.tier })
      // Observations the program can name (an id); a hand-written line without one has none to get or change.
      .filter((o) => !o.id.startsWith('line-') && keep(o, filters))
      .reverse();
    for (const o of observations) found.push({ ...o, tier: file.tier, path: shown });
  }
  const items = found.slice(page.offset, page.offset + page.limit);
  return found.length > page.offset + page.limit ? { items, nextOffset: page.offset + page.limit } : { items };
}
