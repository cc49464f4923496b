/**
 * The install's journal: every step that changes a file outside the home is
 * written down with its undo *before* it runs, and a failure anywhere replays
 * the undos newest first — so `integrate openclaw` either completes or leaves
 * OpenClaw's folder as it found it, byte for byte. The tier moves' journal
 * (lib/tiers/ops.ts) is the model: named steps a test can stop at, and the
 * exact old bytes kept for the way back (here in memory: an install takes
 * seconds and changes a few small files, and a killed one is repaired by
 * running it again, which re-reads what is there).
 */
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import { describeError, OcmError } from '../../core/errors.js';
import { fileMode, readBytesIfExists } from '../../tiers/files.js';

/** A way back from one step. */
export type Undo = () => Promise<void>;

export class InstallJournal<Step extends string> {
  private readonly undos: Array<{ step: Step; undo: Undo }> = [];

  /** `onStep`: called as each step is done (a test hook that may throw there, as a failure at that point would). */
  constructor(private readonly onStep?: (step: Step) => void | Promise<void>) {}

  /**
   * Run one step: its undos are recorded first (an action that fails half
   * way is undone too, so each undo must hold for a step never begun), then
   * the action, then the step's named point.
   */
  async step<T>(step: Step, undos: Undo[], action: () => Promise<T>): Promise<T> {
    for (const undo of undos) this.undos.push({ step, undo });
    const result = await action();
    await this.onStep?.(step);
    return result;
  }

  /**
   * Undo every recorded step, newest first. Each undo runs even when an
   * earlier one failed; what could not be put back is thrown, with the
   * failure that started the roll-back.
   */
  async rollBack(cause: unknown): Promise<never> {
    const failed: string[] = [];
    for (const { step, undo } of this.undos.reverse()) {
      try {
        await undo();
      } catch (error) {
        failed.push(`${step}: ${describeError(error).message}`);
      }
    }
    this.undos.length = 0;
    if (failed.length === 0) throw cause;
    throw new OcmError('IO_ERROR', `${describeError(cause).message}\nand undoing what was done failed (${failed.join('; ')}).`, {
      hint: 'The backup of openclaw.json (openclaw.json.oc-memory-backup-*) is the file as it was; `ocm-run integrate openclaw --uninstall` takes out what is left.',
      cause,
    });
  }

  /** Run `body` with this journal: on any failure, everything it did is undone before the failure is thrown. */
  async run<T>(body: (journal: this) => Promise<T>): Promise<T> {
    try {
      return await body(this);
    } catch (error) {
      return this.rollBack(error);
    }
  }
}

/** The undo that gives `path` back as it is now: its bytes and mode, or its absence. */
export async function keepFile(path: string): Promise<Undo> {
  const bytes = await readBytesIfExists(path);
  const mode = await fileMode(path);
  return async () => {
    if (bytes === undefined) await rm(path, { force: true });
    else await writeFileAtomic(path, bytes, { mode: mode ?? 0o600 });
  };
}

/**
 * The undo that gives the folder `dir` back as it is now: every file with its
 * bytes and mode, nothing that was not there, and no folder it had to create
 * (up to the first one that exists now).
 */
export async function keepFolder(dir: string): Promise<Undo> {
  const files = new Map<string, { bytes: Buffer; mode: number }>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else files.set(relative(dir, p), { bytes: (await readBytesIfExists(p))!, mode: (await fileMode(p)) ?? 0o600 });
    }
  };
  await walk(dir);
  let missing: string[] = [];
  for (let d = dir; (await fileMode(d)) === undefined && dirname(d) !== d; d = dirname(d)) missing = [...missing, d];
  return async () => {
    // What is there now and was not: out (deepest first, so folders empty before they go).
    const now: string[] = [];
    const list = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
        const p = join(d, e.name);
        if (e.isDirectory()) await list(p);
        now.push(p);
      }
    };
    await list(dir);
    for (const p of now) {
      const rel = relative(dir, p);
      if (files.has(rel) || [...files.keys()].some((k) => k.startsWith(`${rel}/`))) continue;
      await rm(p, { recursive: true, force: true });
    }
    for (const [rel, { bytes, mode }] of files) {
      await mkdir(dirname(join(dir, rel)), { recursive: true });
      await writeFileAtomic(join(dir, rel), bytes, { mode });
    }
    for (const d of missing) await rmdir(d).catch(() => undefined);
  };
}
