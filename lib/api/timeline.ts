/**
 * The timeline (the dashboard's first page, `MemoryHandle.timeline`):
 * observations of every tier by day (newest first) and agent, read straight
 * from the day files, with the `search` command's filters; and the day and
 * reflection files a page names, found only among the memory's own. A page reads days until it holds PAGE_OBSERVATIONS (whole days) or
 * has looked at MAX_DAYS_PER_PAGE days, so the first page of a home with
 * years of memory reads a few files, not all of them (bench/ui-bench.ts).
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { listObservations, parseDayFile, type LocatedObservation } from '../memory/day-file/index.js';
import type { HomePaths } from '../platform/home.js';
import type { SearchFilters } from '../search/types.js';
import { listAllTierFiles, type TierFile } from '../tiers/locations.js';
import { isPinned } from '../tiers/plan.js';
import type { Tier } from '../core/types.js';
import { readTextSteady } from '../platform/atomic-file.js';

export const PAGE_OBSERVATIONS = 100;
export const MAX_DAYS_PER_PAGE = 60;

export interface TimelineObservation extends LocatedObservation {
  tier: Tier;
  /** The file as the search index names it: relative to the home, absolute in the vault. */
  file: string;
  pinned: boolean;
  /** A hand-written line without a block id: shown, not editable here. */
  anonymous: boolean;
}

export interface TimelineDay {
  date: string;
  observations: TimelineObservation[];
}

/** Where a page starts: this day (and older ones), after the first `skip` matching observations of it. */
export interface TimelineCursor {
  day: string;
  skip: number;
}

export interface TimelinePage {
  days: TimelineDay[];
  /** Where the next page (older observations) starts, when there is one. */
  older?: TimelineCursor;
  agents: string[];
}

/** The name of a memory file the way the search index gives it (SearchDoc.path). */
export function fileRef(paths: HomePaths, absolutePath: string): string {
  const rel = relative(paths.root, absolutePath);
  return rel.startsWith('..') || isAbsolute(rel) ? absolutePath : rel;
}

/**
 * The day file a page names, if it is one of the memory's day files (any
 * other path — `../`, a config file — is not served or written).
 */
export async function findDayFile(paths: HomePaths, config: Config, ref: string): Promise<TierFile | undefined> {
  const wanted = isAbsolute(ref) ? resolve(ref) : resolve(paths.root, ref);
  return (await listAllTierFiles(paths, config.tiers.vault_path)).find((f) => resolve(f.path) === wanted);
}

/**
 * The reflection file a page names (search results link reflections to their line too), if it is a
 * Markdown file inside the home's reflections/ folder — links resolved first, so nothing outside is served.
 */
export async function findReflectionFile(paths: HomePaths, ref: string): Promise<string | undefined> {
  if (!ref.endsWith('.md')) return undefined;
  try {
    const wanted = await realpath(isAbsolute(ref) ? ref : resolve(paths.root, ref));
    const rel = relative(await realpath(paths.reflections), wanted);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
    return (await stat(wanted)).isFile() ? wanted : undefined;
  } catch {
    return undefined;
  }
}

export function matchesFilters(o: TimelineObservation, filters: SearchFilters): boolean {
  if (filters.since && o.date < filters.since) return false;
  if (filters.until && o.date > filters.until) return false;
  if (filters.priorities?.length && !filters.priorities.includes(o.priority)) return false;
  if (filters.categories?.length && !filters.categories.includes(o.category.toLowerCase())) return false;
  if (filters.tiers?.length && !filters.tiers.includes(o.tier)) return false;
  if (filters.agents?.length && !filters.agents.includes(o.agent)) return false;
  if (filters.tags?.length) {
    const tags = new Set(o.tags.map((t) => t.toLowerCase()));
    if (!filters.tags.every((t) => tags.has(t))) return false;
  }
  return true;
}

/** Every observation of one day file, located. */
export async function readDayObservations(paths: HomePaths, file: TierFile): Promise<TimelineObservation[]> {
  let text: string;
  try {
    text = await readTextSteady(file.path);
  } catch {
    return [];
  }
  const day = parseDayFile(text);
  const ids = new Set(day.segments.flatMap((s) => (s.kind === 'obs' && s.line.id ? [s.line.id] : [])));
  const ref = fileRef(paths, file.path);
  return listObservations(day, { date: file.date, agent: file.agent, tier: file.tier }).map((o) => ({
    ...o,
    tier: file.tier,
    file: ref,
    pinned: isPinned(o),
    anonymous: !ids.has(o.id),
  }));
}

export async function timelinePage(paths: HomePaths, config: Config, filters: SearchFilters, from?: TimelineCursor): Promise<TimelinePage> {
  const files = await listAllTierFiles(paths, config.tiers.vault_path);
  const agents = [...new Set(files.map((f) => f.agent))].sort();
  const byDate = new Map<string, TierFile[]>();
  for (const f of files) {
    if (from && f.date > from.day) continue;
    if (filters.since && f.date < filters.since) continue;
    if (filters.until && f.date > filters.until) continue;
    if (filters.tiers?.length && !filters.tiers.includes(f.tier)) continue;
    if (filters.agents?.length && !filters.agents.includes(f.agent)) continue;
    const list = byDate.get(f.date) ?? [];
    list.push(f);
    byDate.set(f.date, list);
  }
  const dates = [...byDate.keys()].sort().reverse();
  const days: TimelineDay[] = [];
  let shown = 0;
  for (let i = 0; i < dates.length; i++) {
    const date = dates[i]!;
    if (shown >= PAGE_OBSERVATIONS || i >= MAX_DAYS_PER_PAGE) return { days, older: { day: date, skip: 0 }, agents };
    const skip = from && date === from.day ? from.skip : 0;
    const room = PAGE_OBSERVATIONS - shown;
    // A day's files (one per agent) are read only until the page is full: parsing is most of a page's time.
    const matching: TimelineObservation[] = [];
    for (const f of byDate.get(date)!.sort((a, b) => a.agent.localeCompare(b.agent))) {
      if (matching.length > skip + room) break;
      for (const o of await readDayObservations(paths, f)) if (matchesFilters(o, filters)) matching.push(o);
    }
    const observations = matching.slice(skip, skip + room);
    if (observations.length) days.push({ date, observations });
    shown += observations.length;
    // A day with more than a page of observations goes on on the next page.
    if (skip + room < matching.length) return { days, older: { day: date, skip: skip + room }, agents };
  }
  return { days, agents };
}
