/**
 * Where each tier keeps its day files (README, "The memory home"), and listing them:
 *
 *   hot   <home>/memory/[<agent>/]YYYY-MM-DD.md
 *   warm  <home>/archive/[<agent>/]YYYY/YYYY-MM-DD.md
 *   cold  <vault>/OC-Memory/[<agent>/]YYYY/YYYY-MM-DD.md
 *
 * Agent `main` lives directly in the tier folder, every other agent in a
 * sub-folder named by `agentSlug`. The search index scans the same places.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { agentSlug, dayFilePath, DEFAULT_AGENT, expandHome, type HomePaths } from '../platform/home.js';
import { listHotDayFiles } from '../memory/memory-files.js';
import type { Tier } from '../core/types.js';
import { isDayFileName } from '../core/day-name.js';
import { errorCode } from '../core/errors.js';

/** Folder of OC-Memory inside the user's vault. */
export const VAULT_FOLDER = 'OC-Memory';
/** Copies of reflections that cold notes link to, inside the vault folder. */
export const VAULT_REFLECTIONS = 'Reflections';

const YEAR = /^\d{4}$/;

export interface TierFile {
  path: string;
  tier: Tier;
  /** Folder name of the agent (agentSlug); 'main' for files directly in the tier folder. */
  agent: string;
  date: string;
}

/** The vault folder of the cold tier, or undefined when none is configured. */
export function coldRoot(vaultPath: string): string | undefined {
  if (!vaultPath.trim()) return undefined;
  return join(expandHome(vaultPath.trim()), VAULT_FOLDER);
}

export function tierFilePath(paths: HomePaths, vaultPath: string, tier: Tier, agent: string, date: string): string {
  if (tier !== 'cold') return dayFilePath(paths, tier, agent, date);
  const root = coldRoot(vaultPath);
  if (!root) throw new Error('No vault configured for the cold tier (tiers.vault_path).');
  const parts = [root];
  if (agent !== DEFAULT_AGENT) parts.push(agentSlug(agent));
  parts.push(date.slice(0, 4), `${date}.md`);
  return join(...parts);
}

async function entries(dir: string): Promise<import('node:fs').Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** Day files under <base>/YYYY/ and <base>/<agent>/YYYY/ (warm and cold layout). */
async function listYearLayout(base: string, tier: Tier, skip: Set<string> = new Set()): Promise<TierFile[]> {
  const out: TierFile[] = [];
  const collect = async (dir: string, agent: string) => {
    for (const y of await entries(dir)) {
      if (!y.isDirectory() || !YEAR.test(y.name)) continue;
      for (const f of await entries(join(dir, y.name))) {
        if (f.isFile() && isDayFileName(f.name)) out.push({ path: join(dir, y.name, f.name), tier, agent, date: f.name.slice(0, 10) });
      }
    }
  };
  await collect(base, DEFAULT_AGENT);
  for (const e of await entries(base)) {
    if (!e.isDirectory() || YEAR.test(e.name) || e.name.startsWith('.') || skip.has(e.name)) continue;
    await collect(join(base, e.name), e.name);
  }
  return out;
}

function byDate(a: TierFile, b: TierFile): number {
  return a.date === b.date ? a.path.localeCompare(b.path) : a.date.localeCompare(b.date);
}

export async function listTierFiles(paths: HomePaths, vaultPath: string, tier: Tier): Promise<TierFile[]> {
  if (tier === 'hot') {
    return (await listHotDayFiles(paths)).map((r) => ({ path: r.path, tier: 'hot' as const, agent: r.agent, date: r.date })).sort(byDate);
  }
  if (tier === 'warm') return (await listYearLayout(paths.archive, 'warm')).sort(byDate);
  const root = coldRoot(vaultPath);
  if (!root) return [];
  return (await listYearLayout(root, 'cold', new Set([VAULT_REFLECTIONS]))).sort(byDate);
}

export async function listAllTierFiles(paths: HomePaths, vaultPath: string, tiers: Tier[] = ['hot', 'warm', 'cold']): Promise<TierFile[]> {
  const out: TierFile[] = [];
  for (const t of tiers) out.push(...(await listTierFiles(paths, vaultPath, t)));
  return out;
}
