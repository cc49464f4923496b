/**
 * The memory home: where it is, what lives where (DESIGN §2), and creating it
 * with the right permissions on first use.
 */
import { mkdir, chmod, stat, writeFile, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fromSystemError } from './errors.js';
import type { Tier } from './types.js';

/** The agent whose files live directly in memory/ (others get memory/<agent>/). */
export const DEFAULT_AGENT = 'main';

export interface HomePaths {
  root: string;
  config: string;
  env: string;
  activeMemory: string;
  memory: string;
  reflections: string;
  archive: string;
  machine: string;
  state: string;
  index: string;
  audit: string;
  approvals: string;
  logs: string;
  lock: string;
}

/** Expand a leading `~` to the user's home directory. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2));
  return path;
}

/** --home, then OCM_HOME, then ~/.openclaw/oc-memory. */
export function resolveHomeDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag || env.OCM_HOME || join(homedir(), '.openclaw', 'oc-memory');
  return resolve(expandHome(chosen));
}

export function homePaths(root: string): HomePaths {
  const machine = join(root, '.ocm');
  return {
    root,
    config: join(root, 'config.yaml'),
    env: join(root, '.env'),
    activeMemory: join(root, 'active_memory.md'),
    memory: join(root, 'memory'),
    reflections: join(root, 'reflections'),
    archive: join(root, 'archive'),
    machine,
    state: join(machine, 'state.json'),
    index: join(machine, 'index'),
    audit: join(machine, 'audit.log'),
    approvals: join(machine, 'approvals.json'),
    logs: join(root, 'logs'),
    lock: join(machine, 'home'),
  };
}

/** A file-system-safe agent folder name. */
export function agentSlug(agent: string): string {
  return agent.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^\.+/, '_') || '_';
}

/**
 * Path of a day file. Agent `main` lives directly in the tier folder, other
 * agents in a sub-folder named after them; warm files are grouped by year.
 *   hot:  memory/2026-02-12.md, memory/work/2026-02-12.md
 *   warm: archive/2026/2026-02-12.md, archive/work/2026/2026-02-12.md
 */
export function dayFilePath(paths: HomePaths, tier: Exclude<Tier, 'cold'>, agent: string, date: string): string {
  const base = tier === 'hot' ? paths.memory : paths.archive;
  const parts = [base];
  if (agent !== DEFAULT_AGENT) parts.push(agentSlug(agent));
  if (tier === 'warm') parts.push(date.slice(0, 4));
  parts.push(`${date}.md`);
  return join(...parts);
}

/** active_memory.md for agent main, active_memory.<agent>.md for the others. */
export function activeMemoryPath(paths: HomePaths, agent: string): string {
  return agent === DEFAULT_AGENT ? paths.activeMemory : join(paths.root, `active_memory.${agentSlug(agent)}.md`);
}

/** Create the home tree (0700 dirs). Returns true when it was created now. */
export async function ensureHome(paths: HomePaths, configTemplate: () => Promise<string>): Promise<boolean> {
  let created = false;
  try {
    for (const dir of [paths.root, paths.memory, paths.reflections, paths.archive, paths.machine, paths.index, paths.logs]) {
      try {
        await stat(dir);
      } catch {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await chmod(dir, 0o700);
        created = true;
      }
    }
    if (!(await exists(paths.config))) {
      await writeFile(paths.config, await configTemplate(), { mode: 0o600, flag: 'wx' }).catch(ignoreExists);
      await chmod(paths.config, 0o600);
    }
    if (!(await exists(paths.env))) {
      await writeFile(
        paths.env,
        '# Secrets for OC-Memory (mode 0600). KEY=value, one a line; referenced from config.yaml as ${KEY}.\n',
        { mode: 0o600, flag: 'wx' },
      ).catch(ignoreExists);
      await chmod(paths.env, 0o600);
    }
  } catch (error) {
    throw fromSystemError(error, `create the memory home at ${paths.root}`);
  }
  return created;
}

function ignoreExists(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
