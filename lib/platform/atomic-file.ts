/**
 * Atomic writes: temp file in the same folder, fsync, rename over the target,
 * fsync the folder. A reader (or a job killed mid-write) sees the old file or
 * the new one, never half of one.
 */
import { link, open, readFile, rename, unlink, mkdir, readdir, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromSystemError, isNotFound } from '../core/errors.js';
import { isAlive } from './process.js';

export interface AtomicWriteOptions {
  /** Default 0o600. */
  mode?: number;
  /**
   * fsync the temp file before the rename and the folder after it (default true). False for
   * files that are rebuilt when lost (the search index) or live no longer than their writer
   * (the lock's owner record): still never half a file, without the disk waits.
   */
  durable?: boolean;
  /** fsync the folder after the rename (default: `durable`). False when the caller fsyncs the folder once for many files. */
  syncFolder?: boolean;
  /** What a failure says was being written (default "write <path>"). */
  what?: string;
}

export interface AtomicFile {
  path: string;
  data: string | Uint8Array;
  /** Default 0o600. */
  mode?: number;
}

/** The one atomic write: temp file next to `path` (see tempPathFor), written (and fsynced), renamed over `path`. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomicWith(path, (handle) => handle.writeFile(data), options);
}

/** writeFileAtomic for a file too large to build in memory: `write` fills the open temp file. */
export async function writeFileAtomicWith(
  path: string,
  write: (handle: FileHandle) => Promise<void>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.durable !== false;
  const what = options.what ?? `write ${path}`;
  const tmp = await writeTemp(path, write, { mode: options.mode ?? 0o600, sync: durable, what });
  try {
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw fromSystemError(error, what);
  }
  if (options.syncFolder ?? durable) await fsyncPath(dirname(path));
}

/**
 * Several files, each written atomically as by writeFileAtomic, with the disk
 * waits shared: the temp files are written and fsynced concurrently, then
 * renamed in order, then each folder is fsynced once. Every file is the old
 * one or the new one, never half of one; when this throws, some may be new.
 */
export async function writeFilesAtomic(files: AtomicFile[]): Promise<void> {
  const written = await Promise.allSettled(
    files.map((f) =>
      writeTemp(f.path, (handle) => handle.writeFile(f.data), { mode: f.mode ?? 0o600, sync: true, what: `write ${f.path}` }),
    ),
  );
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
  await Promise.all([...new Set(files.map((f) => dirname(f.path)))].map(fsyncPath));
}

/**
 * What replaceFileSeeing found at `path` when it put the new file there: the bytes it moved aside
 * (undefined: there was no file), or `taken` when someone created the file in the instant between
 * (their file stays, the new one was not written; `aside`: the bytes of the file theirs replaced).
 */
export type Replaced = { kind: 'replaced'; old: Buffer | undefined } | { kind: 'taken'; aside: Buffer | undefined };

/** Named points of replaceFileSeeing, for tests that act at them (a test hook; awaited). */
export type ReplaceStep = 'written' | 'moved-aside' | 'read-aside';

/**
 * Put `data` at `path` and hand back exactly the bytes it replaced, so that a caller can tell whether
 * they were the ones it based `data` on — an editor may save in the instant between a check and a
 * plain rename, and that save would be lost unseen. The temp file is written and fsynced; the file at
 * `path` is renamed aside (whichever file is there at that moment: an editor's rename-save is caught
 * with it) and read (again until it looks whole, see `whole`); `merge` may then hand back new data
 * made with those bytes, written into the temp file instead (fsynced before the aside copy goes), so
 * that what is put at the path has every byte it replaced. The temp file is linked in place (link
 * never replaces: a file an editor created in the meantime wins, `taken`), the aside copy is looked at
 * once more through the open file (an editor that had it open and had not written yet writes into
 * it), and removed. The path is absent from the rename to the link (the merge's time, when there is
 * one); a run killed there leaves the aside copy, which restoreAsideCopy puts back, and a merge that
 * throws puts it back itself. Where the file system has no hard links, a plain rename.
 */
export async function replaceFileSeeing(
  path: string,
  data: string | Uint8Array,
  options: {
    mode?: number;
    onStep?: (step: ReplaceStep) => Promise<void> | void;
    /** With the bytes moved aside (undefined: there was no file): undefined to go on, or the data to write instead. */
    merge?: (old: Buffer | undefined) => Promise<string | Uint8Array | undefined>;
    /**
     * Are the bytes moved aside a whole file? An editor that saves in place and was halfway through
     * still writes into the file aside, which has no name once removed: it is read again (every 40 ms,
     * up to `settleMs`, default 2000) until it looks whole.
     */
    whole?: (old: Buffer) => boolean;
    settleMs?: number;
  } = {},
): Promise<Replaced & { data: string | Uint8Array }> {
  const what = `write ${path}`;
  const mode = options.mode ?? 0o600;
  const settleMs = options.settleMs ?? 2000;
  const tmp = await writeTemp(path, (handle) => handle.writeFile(data), { mode, sync: true, what });
  let aside: { path: string; handle: FileHandle } | undefined;
  try {
    await options.onStep?.('written');
    const asidePath = asidePathFor(path);
    try {
      await rename(path, asidePath);
      aside = { path: asidePath, handle: await open(asidePath, 'r') };
    } catch (error) {
      if (!isNotFound(error)) throw fromSystemError(error, what);
    }
    if (aside) await options.onStep?.('moved-aside');
    const seen = aside && (await aside.handle.stat());
    let old = aside ? await readSettled(aside.path, options.whole, settleMs) : undefined;
    if (aside) await options.onStep?.('read-aside');
    let synced = true;
    try {
      const next = await options.merge?.(old);
      if (next !== undefined) {
        data = next;
        await writeTempAt(tmp, next, mode, what);
        synced = false;
      }
    } catch (error) {
      if (aside) {
        await aside.handle.close().catch(() => undefined);
        await putBack(aside.path, path);
        aside = undefined;
      }
      throw error;
    }
    let linked = true;
    try {
      await link(tmp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Someone saved the file in that instant: theirs is the newest; what was aside is older than it.
      if (code === 'EEXIST')
        return { kind: 'taken', aside: aside ? await changedSince(aside, seen!, old!, options.whole, settleMs) : undefined, data };
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw fromSystemError(error, what);
      await rename(tmp, path).catch((e: unknown) => {
        throw fromSystemError(e, what);
      });
      linked = false;
    }
    // The aside copy goes only once the new file is on disk: a power cut before leaves it to restore.
    if (!synced) await fsyncPath(linked ? tmp : path);
    await fsyncPath(dirname(path));
    if (aside) old = await changedSince(aside, seen!, old!, options.whole, settleMs);
    return { kind: 'replaced', old, data };
  } finally {
    if (aside) {
      await aside.handle.close().catch(() => undefined);
      await unlink(aside.path).catch(() => undefined);
    }
    await unlink(tmp).catch(() => undefined);
  }
}

/** The aside copy's bytes: `old`, or read again when it changed since `seen` (written into by an editor that had it open). */
async function changedSince(
  aside: { path: string; handle: FileHandle },
  seen: Stats,
  old: Buffer,
  whole: ((bytes: Buffer) => boolean) | undefined,
  settleMs: number,
): Promise<Buffer> {
  const now = await aside.handle.stat();
  if (now.mtimeMs === seen.mtimeMs && now.size === seen.size && now.ctimeMs === seen.ctimeMs) return old;
  return readSettled(aside.path, whole, settleMs);
}

/** The aside copy back at `path`, unless a new file is there (then it is newer, and the copy goes). */
async function putBack(asidePath: string, path: string): Promise<void> {
  await link(asidePath, path).catch(() => undefined);
  await unlink(asidePath).catch(() => undefined);
}

/** The temp file written again with `data` (no fsync: see replaceFileSeeing). */
async function writeTempAt(tmp: string, data: string | Uint8Array, mode: number, what: string): Promise<void> {
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fromSystemError(error, what);
  }
}

/** A file's bytes, read again while `whole` says they are not whole yet, up to `settleMs`. */
async function readSettled(path: string, whole: ((bytes: Buffer) => boolean) | undefined, settleMs: number): Promise<Buffer> {
  const deadline = performance.now() + settleMs;
  for (;;) {
    const bytes = await readFile(path);
    if (!whole || whole(bytes) || performance.now() >= deadline) return bytes;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** The aside copy replaceFileSeeing keeps of `path` for an instant (hidden, next to it, named after the writer's pid). */
function asidePathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.aside`);
}

const ASIDE_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.aside$/;

/**
 * A file replaceFileSeeing had moved aside when its run was killed, before the new one was linked in:
 * put back when `path` is missing (its writer is gone). Returns whether one was.
 */
export async function restoreAsideCopy(path: string): Promise<boolean> {
  for (const aside of await asideCopies(path)) {
    if (isAlive(aside.pid)) continue;
    try {
      await link(aside.path, path);
    } catch {
      return false;
    }
    await unlink(aside.path).catch(() => undefined);
    return true;
  }
  return false;
}

/** How long readFileSteady waits for a writer that has the file aside (its merge and settle time, with room). */
const STEADY_WAIT_MS = 5000;
const STEADY_POLL_MS = 15;

/**
 * A file another process may be replacing with replaceFileSeeing, read as a person would see it: the
 * path is absent for the instant that writer has the file aside (a day file while `observe` writes
 * it), so a read that finds nothing while a live writer's aside copy is there waits for the new file
 * (polling, up to 5 s) and reads it; if the writer takes longer, the aside copy (the version it is
 * replacing, whole) is read. No aside copy: the file is really missing, and the error is the read's.
 */
export async function readFileSteady(path: string): Promise<Buffer> {
  const deadline = performance.now() + STEADY_WAIT_MS;
  for (;;) {
    try {
      return await readFile(path);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      const aside = await liveAsideCopy(path);
      if (!aside) throw error;
      if (performance.now() >= deadline) {
        try {
          return await readFile(aside);
        } catch {
          throw error;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, STEADY_POLL_MS));
    }
  }
}

/** readFileSteady, as UTF-8 text. */
export async function readTextSteady(path: string): Promise<string> {
  return (await readFileSteady(path)).toString('utf8');
}

/** The aside copy of `path` a live writer holds now, if any. */
async function liveAsideCopy(path: string): Promise<string | undefined> {
  return (await asideCopies(path)).find((aside) => isAlive(aside.pid))?.path;
}

/** The aside copies of `path` in its folder, with the pid of the writer that made each. */
async function asideCopies(path: string): Promise<Array<{ path: string; pid: number }>> {
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return [];
  }
  const out: Array<{ path: string; pid: number }> = [];
  for (const name of names) {
    const m = ASIDE_NAME.exec(name);
    if (m && m[1] === basename(path)) out.push({ path: join(dirname(path), name), pid: Number(m[2]) });
  }
  return out;
}

/** The temp file a write of `path` uses: hidden, next to it, named after the writer's pid (see removeStaleTempFiles). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** A temp file next to `path` filled by `write` (and fsynced when `sync`); returns its path. */
async function writeTemp(
  path: string,
  write: (handle: FileHandle) => Promise<void>,
  options: { mode: number; sync: boolean; what: string },
): Promise<string> {
  const dir = dirname(path);
  const tmp = tempPathFor(path);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(tmp, 'w', options.mode);
    try {
      await handle.chmod(options.mode);
      await write(handle);
      if (options.sync) await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw fromSystemError(error, options.what);
  }
}

/** fsync a file or a folder (a folder: so that a rename or an unlink in it is on disk). */
export async function fsyncPath(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* some file systems refuse fsync on directories; renames and unlinks are still atomic and ordered */
  }
}

const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

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
    if (!m || isAlive(Number(m[1]))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
    removed++;
  }
  return removed;
}
