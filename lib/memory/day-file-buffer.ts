/**
 * The day files one observe job touches, parsed once and changed in memory.
 *
 * A long transcript is read in many chunks, and one day's file receives
 * observations from several of them. Appending to the file and rewriting it
 * after every chunk re-formats and re-writes (with two fsyncs) a file that
 * grows to a megabyte, again and again. Here `add` appends new observations
 * (ids neither in the file nor earlier in the job) to the file in memory, as
 * each chunk's observations arrive, so that the work overlaps the Observer's;
 * `flush` writes every changed file once, atomically.
 * Under the home lock no other job writes these files; a person may, in an
 * editor, while a long job runs, and an editor saves either in place
 * (truncate, then write) or by rename. Nothing they write is lost
 * (docs/architecture.md, "Day files and editors"):
 *   - before writing, `flush` compares the file on disk with the bytes it read
 *     (or last wrote); if they differ it reads the new version and appends the
 *     unsaved lines to it, so the edit is kept;
 *   - a version that looks half-written (its frontmatter, heading, provenance
 *     block or final newline gone since) is read again until it settles, and
 *     is never written back: if it does not settle, that file is left for the
 *     next run and flush throws, so no cursor moves past its observations;
 *   - the write itself hands back the bytes it replaced
 *     (lib/platform/atomic-file.ts, replaceFileSeeing): a save that came in
 *     the instant between the check and the write is seen there, and merged
 *     the same way, in a loop until the file written is the one replaced.
 *
 * The caller decides when to flush, and must flush before it writes a cursor
 * past the observations (observe-job.ts: JobOutput.save()).
 */
import { readFile } from 'node:fs/promises';
import { replaceFileSeeing, restoreAsideCopy, type ReplaceStep } from '../platform/atomic-file.js';
import { dayFilePath, type HomePaths } from '../platform/home.js';
import type { Observation } from '../core/types.js';
import { isNotFound, OcmError } from '../core/errors.js';

/** Named points of a day file's write, for tests that act as an editor at them (awaited). */
export type DayFileStep = 'before-check' | 'unsettled' | ReplaceStep;

export interface DayFileBufferOptions {
  /** Called at every named point of a write (test hook; awaited). */
  onStep?: ((step: DayFileStep, path: string) => Promise<void> | void) | undefined;
  /** How long a half-written file may take to settle before it is left for the next run (ms; default 2000). */
  settleMs?: number | undefined;
}

/** How often a half-written file is read again while it settles (ms). */
const SETTLE_POLL_MS = 40;
/** Merges after a write that replaced an edit, before the file is left for the next run. */
const MAX_WRITE_ROUNDS = 20;

type DayFileModule = typeof import('./day-file/index.js');
type DayFile = import('./day-file/index.js').DayFile;
type DayFileAppender = import('./day-file/index.js').DayFileAppender;

interface BufferedDayFile {
  /** The file in memory, with every observation added so far. */
  appender: DayFileAppender;
  /**
   * How many of the file's lines are not on disk yet: its last ones (an append goes after the last line).
   * The lines themselves are the record of them, rather than the observations they came from, which
   * would stay in memory (tens of MB on a long backlog) until the write.
   */
  unsaved: number;
  /** The first of those lines' observation (its date and agent fill in a new file if this one is removed meanwhile). */
  firstUnsaved: Observation | undefined;
  /** The file's bytes as read or last written (undefined: it did not exist). */
  base: Buffer | undefined;
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.equals(b));
}

async function readBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Does `text` (a new version of a day file whose last known version was `base`) look like an editor's
 * save caught halfway — truncated, or written up to some point? Its frontmatter, its first heading, its
 * provenance block or its final newline, all there before, are gone; or it is empty. A user may delete
 * any of those on purpose: such a file is left for the next run, which reads it afresh.
 */
export function looksHalfWritten(text: string, base: string | undefined): boolean {
  if (text === '') return base === undefined || base !== '';
  if (unclosedFrontmatter(text) || unclosedProvenance(text)) return true;
  if (base === undefined) return false;
  if (base.startsWith('---\n') && !text.startsWith('---\n')) return true;
  const heading = /^#{1,6} .*$/m.exec(base)?.[0];
  if (heading !== undefined && !text.includes(heading)) return true;
  if (base.includes(PROVENANCE_OPEN) && !text.includes(PROVENANCE_OPEN)) return true;
  return base.endsWith('\n') && !text.endsWith('\n');
}

const PROVENANCE_OPEN = '<!-- oc-memory provenance';
function unclosedFrontmatter(text: string): boolean {
  return text.startsWith('---\n') && !/\n---\r?\n/.test(text.slice(3));
}
function unclosedProvenance(text: string): boolean {
  const at = text.lastIndexOf(PROVENANCE_OPEN);
  return at !== -1 && !/\n-->[ \t]*(?:\r?\n|$)/.test(text.slice(at));
}

const dailyTemplates = new Map<string, Promise<string>>();
/** templates/daily.md: the user's copy in <home>/templates/ wins over the bundled one. */
function dailyTemplate(paths: HomePaths): Promise<string> {
  let text = dailyTemplates.get(paths.root);
  if (text) return text;
  text = (async () => {
    const { join } = await import('node:path');
    const { packagePath } = await import('../platform/package-root.js');
    for (const candidate of [join(paths.root, 'templates', 'daily.md'), packagePath('templates', 'daily.md')]) {
      try {
        return await readFile(candidate, 'utf8');
      } catch {
        /* next */
      }
    }
    return '# {{date}}\n';
  })();
  dailyTemplates.set(paths.root, text);
  return text;
}

/**
 * Observations by day file (agent and date), in arrival order. A chunk has thousands of
 * observations, in runs of a few (agent, date) pairs: a path is built per run.
 */
function groupByDayFile(paths: HomePaths, observations: Observation[]): Map<string, Observation[]> {
  const groups = new Map<string, Observation[]>();
  let agent: string | undefined;
  let date: string | undefined;
  let list: Observation[] | undefined;
  for (const o of observations) {
    if (list === undefined || o.agent !== agent || o.date !== date) {
      agent = o.agent;
      date = o.date;
      const path = dayFilePath(paths, 'hot', agent, date);
      list = groups.get(path);
      if (list === undefined) {
        // [o], not []: an empty array holds small integers until its first push of an object.
        groups.set(path, (list = [o]));
        continue;
      }
    }
    list.push(o);
  }
  return groups;
}

export class DayFileBuffer {
  private readonly files = new Map<string, BufferedDayFile>();

  /** `zone`: the time zone of observations that do not say theirs (the job's): a new day file records it. */
  constructor(
    private readonly paths: HomePaths,
    private readonly zone?: string,
    private readonly options: DayFileBufferOptions = {},
  ) {}

  /** Some observations are not on disk yet. */
  get pending(): boolean {
    for (const entry of this.files.values()) if (entry.unsaved > 0) return true;
    return false;
  }

  /**
   * Append observations to their day files (by agent and date), in memory.
   * Returns how many are new (ids neither in the file nor added before).
   * Throws, adding nothing to that file, when a file that would change has a
   * broken frontmatter.
   */
  async add(observations: Observation[]): Promise<number> {
    if (observations.length === 0) return 0;
    if (this.zone !== undefined) for (const o of observations) o.zone ??= this.zone;
    // Loaded here, not at start-up: a tick with nothing new never parses Markdown.
    const dayFile = await import('./day-file/index.js');
    let added = 0;
    for (const [path, list] of groupByDayFile(this.paths, observations)) {
      const entry = this.files.get(path) ?? (await this.load(dayFile, path, list[0]!));
      if (entry.unsaved === 0) entry.firstUnsaved = list.find((o) => !entry.appender.ids.has(o.id));
      const n = entry.appender.append(list, path);
      entry.unsaved += n;
      added += n;
    }
    return added;
  }

  /**
   * Write every file with unsaved lines, each atomically and seeing what it replaces (see the header).
   * Throws, after writing the others, when a file was left for the next run (half-written by another
   * program, or one the program must not rewrite); the caller then writes no cursor.
   */
  async flush(): Promise<void> {
    if (this.files.size === 0) return;
    const dayFile = await import('./day-file/index.js');
    // Each file on its own (their disk waits overlap); a file that fails leaves the others written.
    const writes = [...this.files].filter(([, entry]) => entry.unsaved > 0).map(([path, entry]) => this.writeOne(dayFile, path, entry));
    const failed = (await Promise.allSettled(writes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** One file's write: check, merge, write, and again while what it replaced was not what it read. */
  private async writeOne(dayFile: DayFileModule, path: string, entry: BufferedDayFile): Promise<void> {
    const step = (name: DayFileStep) => this.options.onStep?.(name, path);
    await step('before-check');
    const current = await this.settled(path, entry.base);
    // Edited (or removed) on disk since it was read: start again from what is there now.
    if (!sameBytes(entry.base, current)) await this.reload(dayFile, path, entry, current);
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      if (entry.unsaved === 0) return;
      const data = dayFile.encodeSavedBytes(dayFile.formatDayFile(entry.appender.file));
      const base = entry.base?.toString('utf8');
      const replaced = await replaceFileSeeing(path, data, {
        mode: 0o600,
        onStep: (name) => step(name),
        whole: (old) => sameBytes(old, entry.base) || !looksHalfWritten(old.toString('utf8'), base),
        settleMs: this.options.settleMs ?? 2000,
      });
      if (replaced.kind === 'replaced' && sameBytes(replaced.old, entry.base)) {
        entry.unsaved = 0;
        entry.firstUnsaved = undefined;
        entry.base = data;
        return;
      }
      // An editor saved in the instant before the write. Taken: their file is at the path, ours was not
      // written. Replaced: ours is there now, and their bytes were aside: merge into theirs and write again.
      const theirs = replaced.kind === 'taken' ? await this.settled(path, entry.base) : replaced.old;
      // Half of an editor's save that never became whole: it is not merged (the next run reads the file afresh).
      if (theirs !== undefined && looksHalfWritten(theirs.toString('utf8'), base)) throw busy(path, 'another program was saving it in place when it was written');
      await this.reload(dayFile, path, entry, theirs);
      entry.base = replaced.kind === 'taken' ? theirs : data;
    }
    throw busy(path, 'it kept changing while the program wrote it');
  }

  /** The file's bytes once they no longer look half-written (see looksHalfWritten); throws when they do not settle in time. */
  private async settled(path: string, base: Buffer | undefined): Promise<Buffer | undefined> {
    const deadline = performance.now() + (this.options.settleMs ?? 2000);
    for (;;) {
      const bytes = await readBytes(path);
      if (bytes === undefined || sameBytes(bytes, base) || !looksHalfWritten(bytes.toString('utf8'), base?.toString('utf8'))) return bytes;
      await this.options.onStep?.('unsettled', path);
      if (performance.now() >= deadline) throw busy(path, 'it looks half-written (another program is saving it)');
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * Take `current` (the file's bytes on disk now, undefined: removed) as the file, and append to it the
   * unsaved lines it does not have. Throws, before anything is lost, when the edited file cannot be written
   * any more (a broken frontmatter, a Git conflict).
   */
  private async reload(dayFile: DayFileModule, path: string, entry: BufferedDayFile, current: Buffer | undefined): Promise<void> {
    const file = await this.fileOf(dayFile, path, current, entry.firstUnsaved);
    const appender = new dayFile.DayFileAppender(file);
    const unsaved = appender.appendLastLinesOf(entry.appender.file, entry.unsaved, path);
    entry.appender = appender;
    entry.unsaved = unsaved;
    entry.base = current;
  }

  /** add() then flush(): for callers that write as they go (the LLM Observer's journal). */
  async write(observations: Observation[]): Promise<number> {
    const added = await this.add(observations);
    await this.flush();
    return added;
  }

  private async load(dayFile: DayFileModule, path: string, first: Observation): Promise<BufferedDayFile> {
    let bytes = await this.settled(path, undefined);
    // A run killed in the instant its write had the file aside: the file is put back first.
    if (bytes === undefined && (await restoreAsideCopy(path))) bytes = await this.settled(path, undefined);
    const file = await this.fileOf(dayFile, path, bytes, first);
    const entry: BufferedDayFile = { appender: new dayFile.DayFileAppender(file), unsaved: 0, firstUnsaved: undefined, base: bytes };
    this.files.set(path, entry);
    return entry;
  }

  /** The day file these bytes hold (a new one from the template when there are none). */
  private async fileOf(dayFile: DayFileModule, path: string, bytes: Buffer | undefined, first: Observation | undefined): Promise<DayFile> {
    if (bytes !== undefined) return dayFile.parseDayFile(dayFile.decodeSavedBytes(bytes));
    return dayFile.createDayFile({ date: first?.date || dayFile.dateFromFileName(path) || '', agent: first?.agent ?? '', tier: 'hot', template: await dailyTemplate(this.paths), ...(first?.zone ? { zone: first.zone } : {}) });
  }
}

/** A day file left for the next run. */
function busy(path: string, why: string): OcmError {
  return new OcmError('LOCKED', `${path} was not written: ${why}.`, {
    hint: 'Its new observations are written on the next run; nothing is lost. If it stays so, close the program that holds it open.',
    details: { path },
  });
}
