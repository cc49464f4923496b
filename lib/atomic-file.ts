/**
 * Atomic writes: temp file in the same folder, fsync, rename over the target,
 * fsync the folder. A reader (or a job killed mid-write) sees the old file or
 * the new one, never half of one.
 */
import { open, rename, unlink, mkdir, readdir } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromSystemError } from './errors.js';

export interface AtomicWriteOptions {
  mode?: number;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(tmp, 'w', options.mode ?? 0o600);
    try {
      await handle.chmod(options.mode ?? 0o600);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    await syncDir(dir);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw fromSystemError(error, `write ${path}`);
  }
}

async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* some file systems refuse fsync on directories; the rename is still atomic */
  }
}

const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove temp files left in `dir` by writers that were killed mid-write (their
 * pid is gone). The real files next to them are intact: the rename never happened.
 */
export async function removeStaleTempFiles(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
    removed++;
  }
  return removed;
}
