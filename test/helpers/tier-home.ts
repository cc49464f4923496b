/**
 * Memory homes for tier tests: real day files written with lib/memory/day-file/,
 * dated relative to an injected "today", plus helpers to read back every
 * observation id per tier and to hash a whole tree.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { appendObservations, createDayFile, formatDayFile, parseDayFile, type DayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, homePaths, type HomePaths } from '../../lib/platform/home.js';
import { observationId } from '../../lib/memory/observation-line.js';
import { validateConfig } from '../../lib/config/config.js';
import type { Config } from '../../lib/config/config-schema.js';
import { addDays } from '../../lib/tiers/age.js';
import { filesUnder } from './files-under.js';
import { listAllTierFiles } from '../../lib/tiers/locations.js';
import type { Observation, Priority, Tier } from '../../lib/core/types.js';

export const PRIORITIES: Priority[] = ['high', 'medium', 'low'];

export function makeObservation(i: number, date: string, extra: Partial<Observation> = {}): Observation {
  const agent = extra.agent ?? 'main';
  const text = extra.text ?? `Observation number ${i} about project ${['Atlas', 'Borealis', 'Cobalt', 'Dune'][i % 4]} and topic ${i % 17}.`;
  return {
    id: observationId({ agent, session: `s-${i % 7}`, category: 'fact', text, salt: String(i) }),
    date,
    time: `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    priority: PRIORITIES[i % 3]!,
    done: false,
    category: ['fact', 'decision', 'preference', 'task'][i % 4]!,
    text,
    tags: i % 5 === 0 ? ['project'] : [],
    agent,
    provenance: { source: 'openclaw', agent, session: `s-${i % 7}`, entryIds: [`e${i.toString(16).padStart(7, '0')}`] },
    ...extra,
  };
}

/** Write observations into hot day files (grouped by agent and date). */
export async function writeHot(paths: HomePaths, observations: Observation[], tier: Exclude<Tier, 'cold'> = 'hot'): Promise<void> {
  const groups = new Map<string, Observation[]>();
  for (const o of observations) {
    const p = dayFilePath(paths, tier, o.agent, o.date);
    groups.set(p, [...(groups.get(p) ?? []), o]);
  }
  for (const [p, list] of groups) {
    let file: DayFile;
    try {
      file = parseDayFile(await readFile(p, 'utf8'));
    } catch {
      file = createDayFile({ date: list[0]!.date, agent: list[0]!.agent, tier });
    }
    appendObservations(file, list, p);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, formatDayFile(file), { mode: 0o600 });
  }
}

/** Observations spread evenly over ages [minAge, maxAge] days before today. */
export function spread(count: number, minAge: number, maxAge: number, today: string, offset: number, agents = ['main']): Observation[] {
  const out: Observation[] = [];
  const span = maxAge - minAge + 1;
  for (let k = 0; k < count; k++) {
    const i = offset + k;
    const age = minAge + (k % span);
    out.push(makeObservation(i, addDays(today, -age), { agent: agents[i % agents.length]! }));
  }
  return out;
}

export function testConfig(overrides: Record<string, unknown> = {}): Config {
  const base: Record<string, unknown> = {
    timezone: 'UTC',
    sources: { openclaw: { enabled: false }, openclaw_db: { enabled: false } },
    ...overrides,
  };
  return validateConfig(base);
}

export async function newHome(dir: string): Promise<HomePaths> {
  const paths = homePaths(join(dir, 'home'));
  for (const d of [paths.memory, paths.archive, paths.reflections, paths.machine, paths.logs]) await mkdir(d, { recursive: true });
  return paths;
}

/** tier → list of observation ids found in that tier's files (with duplicates). */
export async function idsByTier(paths: HomePaths, vault: string): Promise<Record<Tier, string[]>> {
  const out: Record<Tier, string[]> = { hot: [], warm: [], cold: [] };
  for (const f of await listAllTierFiles(paths, vault)) {
    const day = parseDayFile(await readFile(f.path, 'utf8'));
    for (const seg of day.segments) if (seg.kind === 'obs' && seg.line.id) out[f.tier].push(seg.line.id);
  }
  return out;
}

/** sha256 and mode of every file under the given roots ("<root index>:<relative path>" → hash). Missing roots are empty. */
export async function hashTree(roots: string[], options: { skip?: (rel: string) => boolean } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [label, root] of roots.entries()) {
    const skip = options.skip ? (p: string) => options.skip!(relative(root, p)) : undefined;
    for (const file of await filesUnder(root, skip ? { skip } : {})) {
      const st = await stat(file);
      out[`${label}:${relative(root, file)}`] = `${createHash('sha256')
        .update(await readFile(file))
        .digest('hex')}:${(st.mode & 0o777).toString(8)}`;
    }
  }
  return out;
}

/** The keys whose values differ between two tree hashes (for short assertion messages). */
export function treeDiff(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).sort();
}
