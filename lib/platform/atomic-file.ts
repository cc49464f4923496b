/**
 * Atomic writes: temp file in the same folder, fsync, rename over the target,
 * fsync the folder. A reader (or a job killed mid-write) sees the old file or
 * the new one, never half of one.
 */
import { open, rename, unlink, mkdir, readdir } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromSystemError } from '../core/errors.js';

export interface AtomicWriteOptions {
  mode?: number;
}

export interface AtomicFile {
  path: string;
  data: string | Uint8Array;
  /** Default 0o600. */
  mode?: number;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFilesAtomic([{ path, data, ...(options.mode !== undefined ? { mode: options.mode } : {}) }]);
}

/**
 * Several files, each written atomically as by writeFileAtomic, with the disk
 * waits shared: the temp files are written and fsynced concurrently, then
 * renamed in order, then each folder is fsynced once. Every file is the old
 * one or the new one, never half of one; when this throws, some may be new.
 */
export async function writeFilesAtomic(files: AtomicFile[]): Promise<void> {
  const written = await Promise.allSettled(files.map((f) => writeTemp(f)));
  const temps = written.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  const failed = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  let next = 0;
  try {
    if (failed) throw failed.reason;
    for (; next < files.length; next++) {
      const { path } = files[next]!;
      try {
        await rename(temps[next]!, path);
      } catch (error) {
        throw fromSystemError(error, `write ${path}`);
      }
    }
  } catch (error) {
    await Promise.all(temps.slice(next).map((tmp) => (tmp ? unlink(tmp).catch(() => undefined) : undefined)));
    throw error;
  }
  await Promise.all([...new Set(files.map((f) => dirname(f.path)))].map(syncDir));
}

/** The data in a fsynced temp file next to `path`; returns the temp file's path. */
export async function writeTemp({ path, data, mode = 0o600 }: AtomicFile): Promise<string> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(tmp, 'w', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
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
