/**
 * One lock per memory home (proper-lockfile), so two jobs never write the same
 * files at once. A lock left by a killed process goes stale and is taken over.
 */
import lockfile from 'proper-lockfile';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OcmError } from './errors.js';

export interface LockOptions {
  /** How long to wait for another job to finish (ms). 0 = fail at once. */
  waitMs?: number;
  /** A lock not refreshed for this long is stale (ms). */
  staleMs?: number;
}

export type Release = () => Promise<void>;

/** Take the home lock. `target` is a plain file that stands for the home. */
export async function acquireHomeLock(target: string, options: LockOptions = {}): Promise<Release> {
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await writeFile(target, '', { flag: 'a', mode: 0o600 });
  const waitMs = options.waitMs ?? 30000;
  const stale = Math.max(options.staleMs ?? 15000, 5000);
  const retries = waitMs <= 0 ? 0 : { retries: Math.ceil(waitMs / 200), factor: 1, minTimeout: 200, maxTimeout: 200 };
  try {
    const release = await lockfile.lock(target, {
      stale,
      update: Math.floor(stale / 3),
      retries,
      realpath: false,
      onCompromised: () => {
        /* another process took the lock over after we stalled; our writes are atomic, the next tick repairs */
      },
    });
    return async () => {
      try {
        await release();
      } catch {
        /* already released or compromised */
      }
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new OcmError('LOCKED', 'Another OC-Memory job is running on this memory home.', {
        hint: 'Wait for it to finish (cron ticks are short), or stop `ocm-run watch`. A lock left by a crashed job expires by itself within seconds.',
        cause: error,
      });
    }
    throw error;
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
