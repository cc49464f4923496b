/**
 * One lock per memory home (proper-lockfile), so two jobs never write the same
 * files at once. Who holds it is recorded beside it (pid, host, the OS's start
 * time of that process). A lock whose owner runs on this host is never taken
 * over while that process lives — however long a CPU-bound step keeps it from
 * refreshing the lock (a 2-minute reflect once lost its lock to the next tick:
 * two writers). It is recovered at once when that process is gone (or its PID
 * now names another process), and by age (not refreshed for `staleMs`) only
 * when its owner cannot be told: another host, or no owner record.
 */
import lockfile from 'proper-lockfile';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { fromSystemError, OcmError, errorCode } from '../core/errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { isAlive } from './process.js';

export interface LockOptions {
  /** How long to wait for another job to finish (ms). 0 = fail at once. */
  waitMs?: number;
  /** A lock not refreshed for this long is stale (ms). */
  staleMs?: number;
}

export type Release = () => Promise<void>;

/** How long a job waits for another one holding the home lock, unless it says otherwise (ms). */
export const HOME_LOCK_WAIT_MS = 30_000;

interface Owner {
  pid: number;
  host: string;
  since: string;
  /** processStartTime of the owner (absent in records of older versions). */
  processStart?: string;
}

/**
 * When process `pid` started, as the OS keeps it: on Linux field 22 of
 * /proc/<pid>/stat (clock ticks since boot), elsewhere `ps -o lstart=`.
 * Undefined when the process is gone or the OS cannot tell. A PID and its
 * start time name one process for certain, even after the PID is reused.
 */
export async function processStartTime(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses; fields count from after its last ")".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19] ? `linux:${fields[19]}` : undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((resolve, reject) =>
      execFile('ps', ['-o', 'lstart=', '-p', String(pid)], { timeout: 5000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    return out.trim() ? `ps:${out.trim()}` : undefined;
  } catch {
    return undefined;
  }
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

export { isAlive };

/** Never: staleness is judged here (ownerAllowsBreak), not by proper-lockfile, which goes by the folder's age alone. */
const NEVER_STALE = 2 ** 40;

/**
 * May this held lock be taken over? Yes when its owner on this host is gone
 * (or its PID now names a process started at another time); never while it
 * lives; by age (`staleMs`) when the owner cannot be told.
 */
async function mayBreak(target: string, staleMs: number): Promise<boolean> {
  const owner = await readOwner(target);
  if (owner && owner.host === hostname() && Number.isInteger(owner.pid) && owner.pid !== process.pid) {
    if (!isAlive(owner.pid)) return true;
    if (owner.processStart === undefined) return false;
    const now = await processStartTime(owner.pid);
    return now !== undefined && now !== owner.processStart;
  }
  try {
    const { mtimeMs } = await stat(lockDir(target));
    return mtimeMs < Date.now() - staleMs;
  } catch {
    return false; // gone meanwhile: the next try takes it
  }
}

async function tryLock(target: string, stale: number): Promise<() => Promise<void>> {
  return lockfile.lock(target, {
    stale: NEVER_STALE,
    update: Math.floor(stale / 3),
    retries: 0,
    realpath: false,
    onCompromised: () => {
      /* the lock folder was removed under us (by hand, or by a job on another host after we stalled); our writes are atomic, the next tick repairs */
    },
  });
}

async function readOwner(target: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(ownerFile(target), 'utf8')) as Owner;
    return owner && Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** The owner record, written whole (atomically): a reader never sees half of one. */
async function writeOwner(target: string): Promise<void> {
  const processStart = await processStartTime(process.pid);
  const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), processStart };
  // Not fsynced: the record lives no longer than this process.
  await writeFileAtomic(ownerFile(target), JSON.stringify(owner), { durable: false });
}

/** Take the home lock. `target` is a plain file that stands for the home. */
export async function acquireHomeLock(target: string, options: LockOptions = {}): Promise<Release> {
  try {
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, '', { flag: 'a', mode: 0o600 });
  } catch (error) {
    throw fromSystemError(error, "take the memory home's lock");
  }
  const waitMs = options.waitMs ?? HOME_LOCK_WAIT_MS;
  const stale = Math.max(options.staleMs ?? 15000, 5000);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const release = await tryLock(target, stale);
      await writeOwner(target).catch(() => undefined);
      return async () => {
        await rm(ownerFile(target), { force: true }).catch(() => undefined);
        try {
          await release();
        } catch {
          /* already released or compromised */
        }
      };
    } catch (error) {
      if (errorCode(error) !== 'ELOCKED') throw fromSystemError(error, "take the memory home's lock");
      if (await mayBreak(target, stale)) {
        await rm(lockDir(target), { recursive: true, force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        const owner = await readOwner(target);
        const who = owner ? ` (PID ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}, since ${owner.since})` : '';
        throw new OcmError('LOCKED', `Another OC-Memory job${who} is running on this memory home.`, {
          hint: `Wait for it to finish (cron ticks are short), or stop \`ocm-run watch\`. A lock left by a crashed job is recovered automatically; a job that hangs keeps it until it is stopped${owner ? ` (kill ${owner.pid})` : ''}.`,
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
