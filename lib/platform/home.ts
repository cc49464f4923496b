/**
 * The memory home: where it is, what lives where (README, "The memory home"), and creating it
 * with the right permissions on first use.
 */
import { mkdir, chmod, lstat, readdir, stat, writeFile, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fromSystemError, OcmError, isNotFound, errorCode } from '../core/errors.js';
import type { Tier } from '../core/types.js';

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

/** An agent name that is already a safe folder name (and so its own slug). */
const SAFE_AGENT = /^[\p{L}\p{N}_~-][\p{L}\p{N}._~-]*$/u;

/**
 * A file-system-safe agent folder name, different for different agents: a
 * name that is safe already is kept; any other gets its unsafe characters
 * replaced and `~` plus a hash of the full name appended, so `team x` and
 * `team_x` (or `a/b` and `a:b`) never share files. A name longer than
 * AGENT_SLUG_BYTES is cut to fit, with the same hash (a 240-character agent id
 * is a folder and files of its own, not ENAMETOOLONG). A slug is its own slug
 * (folder names read back as agents map to the same folder).
 */
export function agentSlug(agent: string): string {
  if (SAFE_AGENT.test(agent) && Buffer.byteLength(agent) <= AGENT_SLUG_BYTES) return agent;
  let readable = agent.replace(/[^\p{L}\p{N}._~-]+/gu, '_').replace(/^\.+/, '_') || '_';
  // A name too long for a file name (active_memory.<slug>.md and its temp file must fit in 255 bytes): its start and the hash.
  while (Buffer.byteLength(readable) > AGENT_SLUG_BYTES - 9) readable = [...readable].slice(0, -1).join('');
  return `${readable}~${createHash('sha256').update(agent).digest('hex').slice(0, 8)}`;
}

/**
 * The longest agent slug, in UTF-8 bytes: the longest name made from it, the temp file of an atomic write
 * of `active_memory.<slug>.md` (`.active_memory.<slug>.md.<pid>.<8 hex>.tmp`), then stays well under
 * the 255 bytes a file name may have.
 */
const AGENT_SLUG_BYTES = 120;

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

/**
 * Whether `root` is a memory home already: a folder holding config.yaml, the machine folder (.ocm) or
 * memory/. A folder that is missing, empty or something else is not one, so a command that only reads
 * never takes a mistyped --home for a new, empty memory.
 */
export async function isMemoryHome(root: string): Promise<boolean> {
  const paths = homePaths(root);
  for (const path of [paths.config, paths.machine, paths.memory]) if (await exists(path)) return true;
  return false;
}

/** Create the home tree (0700 dirs), or make an existing one owner-only (see secureHome). Returns true when it was created now. */
export async function ensureHome(paths: HomePaths, configTemplate: () => Promise<string>): Promise<boolean> {
  let created = false;
  await secureHome(paths.root);
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
      await writeFile(paths.env, '# Secrets for OC-Memory (mode 0600). KEY=value, one a line; referenced from config.yaml as ${KEY}.\n', {
        mode: 0o600,
        flag: 'wx',
      }).catch(ignoreExists);
      await chmod(paths.env, 0o600);
    }
  } catch (error) {
    throw fromSystemError(error, `create the memory home at ${paths.root}`);
  }
  return created;
}

/** Permission bits for anyone but the owner. */
const GROUP_OR_OTHER = 0o077;

/**
 * Everything the memory home holds is the owner's alone (README "The memory home"): an existing home that
 * other users may enter (0755, a tmpfs root's 1777) is made 0700, and what it holds loses its
 * group/other bits, once, when that is found. A home that belongs to another user is not ours to
 * change: refused with a hint. No-op where there are no POSIX owners (Windows).
 */
export async function secureHome(root: string): Promise<void> {
  const uid = process.getuid?.();
  if (uid === undefined || process.platform === 'win32') return;
  let info: import('node:fs').Stats;
  try {
    info = await stat(root);
  } catch (error) {
    if (isNotFound(error)) return; // created 0700 by ensureHome
    throw fromSystemError(error, `read the memory home ${root}`);
  }
  if (!info.isDirectory()) {
    throw new OcmError('BAD_INPUT', `The memory home ${root} is not a folder.`, {
      hint: 'Point --home (or OCM_HOME) at a folder, or remove that file.',
      details: { path: root },
    });
  }
  if ((info.mode & (GROUP_OR_OTHER | 0o7000)) === 0) return;
  if (info.uid !== uid) {
    throw new OcmError(
      'PERMISSION_DENIED',
      `The memory home ${root} can be read by other users (mode ${(info.mode & 0o7777).toString(8)}) and belongs to ` +
        `user ${info.uid}, not to you (${uid}): memory would not be private there.`,
      {
        hint: `Use a folder of your own (--home or OCM_HOME, e.g. ${join(root, 'oc-memory')}), or have its owner run: chmod 700 ${root}`,
        details: { path: root },
      },
    );
  }
  try {
    await chmod(root, 0o700);
    await tightenTree(root);
  } catch (error) {
    throw fromSystemError(error, `make the memory home ${root} private (chmod 700)`);
  }
}

/** Drop group/other permission bits from everything under `dir` (symbolic links are not followed). */
async function tightenTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const info = await lstat(path);
    if ((info.mode & GROUP_OR_OTHER) !== 0) await chmod(path, info.mode & 0o700);
    if (entry.isDirectory()) await tightenTree(path);
  }
}

function ignoreExists(error: unknown): void {
  if (errorCode(error) !== 'EEXIST') throw error;
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
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
