/**
 * One lock per memory home (proper-lockfile), so two jobs never write the same
 * files at once. A lock left by a killed process is recovered: at once when
 * its owner (pid recorded inside the lock) is gone from this host, otherwise
 * when it goes stale (not refreshed for `staleMs`).
 */
import lockfile from 'proper-lockfile';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { fromSystemError, OcmError } from './errors.js';

export interface LockOptions {
  /** How long to wait for another job to finish (ms). 0 = fail at once. */
  waitMs?: number;
  /** A lock not refreshed for this long is stale (ms). */
  staleMs?: number;
}

export type Release = () => Promise<void>;

interface Owner {
  pid: number;
  host: string;
  since: string;
}

function lockDir(target: string): string {
  return `${target}.lock`;
}

/**
 * Who holds the lock. Beside the lock folder, not in it: proper-lockfile
 * watches the folder's mtime, and a file written inside it changes that mtime,
 * so the lock counted as compromised at its first refresh (5 s), was never
 * removed on release, and the next job waited the full stale time (15 s).
 */
function ownerFile(target: string): string {
  return `${target}.owner.json`;
}

/** The process exists (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove the lock when its recorded owner is a dead process on this host. */
async function breakDeadOwnerLock(target: string): Promise<boolean> {
  let owner: Owner;
  try {
    owner = JSON.parse(await readFile(ownerFile(target), 'utf8')) as Owner;
  } catch {
    return false;
  }
  if (owner.host !== hostname() || owner.pid === process.pid || isAlive(owner.pid)) return false;
  await rm(lockDir(target), { recursive: true, force: true });
  return true;
}

async function tryLock(target: string, stale: number): Promise<() => Promise<void>> {
  return lockfile.lock(target, {
    stale,
    update: Math.floor(stale / 3),
    retries: 0,
    realpath: false,
    onCompromised: () => {
      /* another process took the lock over after we stalled; our writes are atomic, the next tick repairs */
    },
  });
}

/** Take the home lock. `target` is a plain file that stands for the home. */
export async function acquireHomeLock(target: string, options: LockOptions = {}): Promise<Release> {
  try {
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, '', { flag: 'a', mode: 0o600 });
  } catch (error) {
    throw fromSystemError(error, "take the memory home's lock");
  }
  const waitMs = options.waitMs ?? 30000;
  const stale = Math.max(options.staleMs ?? 15000, 5000);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const release = await tryLock(target, stale);
      const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
      await writeFile(ownerFile(target), JSON.stringify(owner), { mode: 0o600 }).catch(() => undefined);
      return async () => {
        await rm(ownerFile(target), { force: true }).catch(() => undefined);
        try {
          await release();
        } catch {
          /* already released or compromised */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw fromSystemError(error, "take the memory home's lock");
      if (await breakDeadOwnerLock(target)) continue;
      if (Date.now() >= deadline) {
        throw new OcmError('LOCKED', 'Another OC-Memory job is running on this memory home.', {
          hint: 'Wait for it to finish (cron ticks are short), or stop `ocm-run watch`. A lock left by a crashed job is recovered automatically.',
          cause: error,
        });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Run `fn` under the home lock. */
export async function withHomeLock<T>(target: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquireHomeLock(target, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}
