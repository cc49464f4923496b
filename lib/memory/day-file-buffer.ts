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
 *   - before writing, `flush` compares the file on disk with the bytes it last
 *     knew there; if they differ, the new version and the job's are merged
 *     three ways (day-file/merge.ts) against the known version the new one
 *     differs least from;
 *   - a version that looks half-written (its frontmatter, heading, provenance
 *     block or final newline gone since) is read again until it settles, and
 *     is never written back: if it does not settle, that file is left for the
 *     next run and flush throws, so no cursor moves past its observations;
 *   - the write itself takes the file aside and hands back its bytes
 *     (lib/platform/atomic-file.ts, replaceFileSeeing): a save that came in
 *     the instant between the check and the write is merged then, before the
 *     new file is put in place, so no version lacking it is ever on disk.
 * `edit` (editDayFile) writes one change to an existing file the same way.
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
  /** The versions known to have been on disk before `base`, newest last (a few). */
  earlier: Buffer[];
  /**
   * The file's text when a merge made it newer than `appender` (parsed on the next append: parsing a
   * file a person edited takes remark, tens of milliseconds, which would widen the window in which
   * the next save lands between the job's check and its write).
   */
  merged: string | undefined;
}

/** How many versions before the last known one are kept as possible bases of an editor's save. */
const EARLIER_VERSIONS = 2;

/** `bytes` is now the last version known to be on disk. */
function moveBase(entry: BufferedDayFile, bytes: Buffer | undefined): void {
  if (sameBytes(entry.base, bytes)) return;
  if (entry.base !== undefined) entry.earlier = [...entry.earlier, entry.base].slice(-EARLIER_VERSIONS);
  entry.base = bytes;
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
  /** `paths` undefined: a buffer that only edits files that exist (editDayFile). */
  constructor(
    private readonly paths: HomePaths | undefined,
    private readonly zone?: string,
    private readonly options: DayFileBufferOptions = {},
  ) {}

  private home(): HomePaths {
    if (this.paths === undefined) throw new Error('DayFileBuffer: observations are added only with a home');
    return this.paths;
  }

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
    for (const [path, list] of groupByDayFile(this.home(), observations)) {
      const entry = this.files.get(path) ?? (await this.load(dayFile, path, list[0]!));
      this.parseMerged(dayFile, path, entry);
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
    // Edited (or removed) on disk since it was read: merged into what is there now.
    if (!sameBytes(entry.base, current)) await this.merge(dayFile, path, entry, entry.base, current);
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      if (entry.unsaved === 0) return;
      const data = dayFile.encodeSavedBytes(entry.merged ?? dayFile.formatDayFile(entry.appender.file));
      const whole = (bytes: Buffer) =>
        sameBytes(bytes, entry.base) || !looksHalfWritten(bytes.toString('utf8'), entry.base?.toString('utf8'));
      // What was at the path when it was taken aside: when it is not what the job read, an editor saved
      // meanwhile, and the merge with it is what is put at the path instead.
      const merge = async (old: Buffer | undefined) => {
        if (sameBytes(old, entry.base)) return undefined;
        // Half of an editor's save that never became whole is not merged (it is put back; the next run reads the file afresh).
        if (old !== undefined && !whole(old)) throw busy(path, 'another program was saving it in place when it was written');
        await this.merge(dayFile, path, entry, entry.base, old);
        return dayFile.encodeSavedBytes(entry.merged ?? dayFile.formatDayFile(entry.appender.file));
      };
      const replaced = await replaceFileSeeing(path, data, {
        mode: 0o600,
        onStep: (name) => step(name),
        merge,
        whole,
        settleMs: this.options.settleMs ?? 2000,
      });
      const written = Buffer.from(replaced.data);
      if (replaced.kind === 'replaced' && sameBytes(replaced.old, entry.base)) {
        moveBase(entry, written);
        // A merge is written as merged; its owned frontmatter keys (the count, the tags) are counted
        // again now, out of the instant the file was aside, and written in one more round when the
        // editor's change made them differ.
        if (entry.merged !== undefined) {
          this.parseMerged(dayFile, path, entry);
          if (!written.equals(dayFile.encodeSavedBytes(dayFile.formatDayFile(entry.appender.file)))) continue;
        }
        entry.unsaved = 0;
        entry.firstUnsaved = undefined;
        return;
      }
      if (replaced.kind === 'taken') {
        // An editor created the file in the instant it was absent: ours was not written, theirs is at
        // the path, made over what it had read. What was aside is merged already, or changed after its
        // first read (an editor that had it open wrote into it): merged too.
        if (replaced.aside !== undefined && !sameBytes(replaced.aside, entry.base)) {
          if (!whole(replaced.aside)) throw busy(path, 'another program was saving it in place when it was written');
          await this.merge(dayFile, path, entry, entry.base, replaced.aside);
        }
        const theirs = await this.settled(path, entry.base);
        await this.merge(dayFile, path, entry, entry.base, theirs);
        continue;
      }
      // Ours is at the path, but an editor that had the file open wrote into the copy aside after it was
      // read: merged, and written again. The path holds ours since the link, so it is the next write's base.
      if (replaced.old !== undefined && !whole(replaced.old))
        throw busy(path, 'another program was saving it in place when it was written');
      await this.merge(dayFile, path, entry, entry.base, replaced.old);
      moveBase(entry, written);
      entry.unsaved = Math.max(entry.unsaved, 1);
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
   * Take `theirs` (a version another program saved over `base`; undefined: the file was removed) as the
   * file, with the job's changes since `base` merged in (day-file/merge.ts: a three-way merge, so that an
   * edit the job had merged before and the editor's newer save lacks, the editor having saved over the
   * job's write, is kept). A file created or removed meanwhile takes the job's unsaved lines alone.
   * Throws, before anything is lost, when the edited file cannot be written any more (a broken
   * frontmatter, a Git conflict).
   */
  private async merge(
    dayFile: DayFileModule,
    path: string,
    entry: BufferedDayFile,
    base: Buffer | undefined,
    theirs: Buffer | undefined,
  ): Promise<void> {
    if (base === undefined || theirs === undefined) {
      this.parseMerged(dayFile, path, entry);
      // An edit of a file that is gone now (edit()) is dropped with it.
      if (this.paths === undefined) {
        entry.unsaved = 0;
        moveBase(entry, theirs);
        return;
      }
      const file = await this.fileOf(dayFile, path, theirs, entry.firstUnsaved);
      const appender = new dayFile.DayFileAppender(file);
      entry.unsaved = appender.appendLastLinesOf(entry.appender.file, entry.unsaved, path);
      entry.appender = appender;
      moveBase(entry, theirs);
      return;
    }
    const { closestBase, mergeDayFileText } = await import('./day-file/merge.js');
    const ours = entry.merged ?? dayFile.formatDayFile(entry.appender.file);
    const their = dayFile.decodeSavedBytes(theirs);
    // Their save was made over one of the versions that were on disk: the job's last write as a rule,
    // or the one before it when an editor's check passed just before the job's write and its save came
    // right after (a plain save, over a file it no longer sees). The version it differs least from.
    const from = closestBase(
      [base, ...entry.earlier].map((b) => dayFile.decodeSavedBytes(b)),
      their,
    );
    const text = mergeDayFileText(from, ours, their);
    dayFile.assertTextWritable(text, path);
    entry.merged = text;
    entry.unsaved = Math.max(entry.unsaved, 1);
    moveBase(entry, theirs);
  }

  /**
   * A merged text parsed into the appender, its owned frontmatter keys counted again (they describe
   * the merged lines). Throws, before anything is lost, when it cannot be written (a broken frontmatter).
   */
  private parseMerged(dayFile: DayFileModule, path: string, entry: BufferedDayFile): void {
    if (entry.merged === undefined) return;
    const file = dayFile.parseDayFile(entry.merged);
    dayFile.assertWritable(file, path);
    dayFile.refreshOwnedFrontmatter(file);
    entry.appender = new dayFile.DayFileAppender(file);
    entry.merged = undefined;
  }

  /**
   * One change to a day file that exists (a lifecycle mark, …), written as observations are (see the
   * header: checked, merged with an editor's save, never over a half-written file). `change` edits the
   * parsed file and returns undefined when it changed nothing. Undefined when the file is gone or its
   * frontmatter is broken (nothing written).
   */
  async edit<T>(path: string, change: (file: DayFile) => T | undefined): Promise<T | undefined> {
    const dayFile = await import('./day-file/index.js');
    let bytes = await this.settled(path, undefined);
    if (bytes === undefined && (await restoreAsideCopy(path))) bytes = await this.settled(path, undefined);
    if (bytes === undefined) return undefined;
    const file = dayFile.parseDayFile(dayFile.decodeSavedBytes(bytes));
    if (file.frontmatter.error !== undefined) return undefined;
    const made = change(file);
    if (made === undefined) return made;
    const entry: BufferedDayFile = {
      appender: new dayFile.DayFileAppender(file),
      unsaved: 1,
      firstUnsaved: undefined,
      base: bytes,
      earlier: [],
      merged: undefined,
    };
    this.files.set(path, entry);
    await this.writeOne(dayFile, path, entry);
    return made;
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
    const entry: BufferedDayFile = {
      appender: new dayFile.DayFileAppender(file),
      unsaved: 0,
      firstUnsaved: undefined,
      base: bytes,
      earlier: [],
      merged: undefined,
    };
    this.files.set(path, entry);
    return entry;
  }

  /** The day file these bytes hold (a new one from the template when there are none). */
  private async fileOf(dayFile: DayFileModule, path: string, bytes: Buffer | undefined, first: Observation | undefined): Promise<DayFile> {
    if (bytes !== undefined) return dayFile.parseDayFile(dayFile.decodeSavedBytes(bytes));
    return dayFile.createDayFile({
      date: first?.date || dayFile.dateFromFileName(path) || '',
      agent: first?.agent ?? '',
      tier: 'hot',
      template: this.paths ? await dailyTemplate(this.paths) : '# {{date}}\n',
      ...(first?.zone ? { zone: first.zone } : {}),
    });
  }
}

/** DayFileBuffer.edit for one file, outside an observe job (lifecycle marks, `mark`). */
export function editDayFile<T>(
  path: string,
  change: (file: DayFile) => T | undefined,
  options: DayFileBufferOptions = {},
): Promise<T | undefined> {
  return new DayFileBuffer(undefined, undefined, options).edit(path, change);
}

/** A day file left for the next run. */
function busy(path: string, why: string): OcmError {
  return new OcmError('LOCKED', `${path} was not written: ${why}.`, {
    hint: 'Its new observations are written on the next run; nothing is lost. If it stays so, close the program that holds it open.',
    details: { path },
  });
}
