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
 * editor, while a long job runs: before writing a file, `flush` checks that
 * it is still the file that was read (or last written), and if it changed
 * reads it again and appends the unsaved lines to the edited text, so the
 * edit is kept.
 *
 * The caller decides when to flush, and must flush before it writes a cursor
 * past the observations (observe-job.ts: JobOutput.save()).
 */
import { readFile, stat } from 'node:fs/promises';
import { writeFilesAtomic } from '../platform/atomic-file.js';
import { dayFilePath, type HomePaths } from '../platform/home.js';
import type { Observation } from '../core/types.js';
import { isNotFound } from '../core/errors.js';

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
  /** Size and mtime of the file as read or last written (undefined: it did not exist). */
  stamp: FileStamp | undefined;
}

interface FileStamp {
  size: number;
  mtimeMs: number;
}

async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const st = await stat(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs);
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

  /** Write every file with unsaved lines (atomically, fsyncs in parallel). */
  async flush(): Promise<void> {
    if (this.files.size === 0) return;
    const dayFile = await import('./day-file/index.js');
    const changed: Array<[BufferedDayFile, string]> = [];
    for (const [path, entry] of this.files) {
      if (entry.unsaved === 0) continue;
      // Edited (or removed) on disk since it was read: start again from what is there now.
      if (!sameStamp(entry.stamp, await stampOf(path))) await this.reload(dayFile, path, entry);
      if (entry.unsaved > 0) changed.push([entry, path]);
    }
    if (changed.length === 0) return;
    await writeFilesAtomic(changed.map(([entry, path]) => ({ path, data: dayFile.formatDayFile(entry.appender.file), mode: 0o600 })));
    for (const [entry, path] of changed) {
      entry.unsaved = 0;
      entry.firstUnsaved = undefined;
      entry.stamp = await stampOf(path);
    }
  }

  /**
   * Re-read a file that changed on disk, and append to it the unsaved lines it does not have.
   * Throws, before anything is lost, when the edited file cannot be written any more (a broken frontmatter).
   */
  private async reload(dayFile: DayFileModule, path: string, entry: BufferedDayFile): Promise<void> {
    const fresh = await this.read(dayFile, path, entry.firstUnsaved);
    const appender = new dayFile.DayFileAppender(fresh.file);
    const unsaved = appender.appendLastLinesOf(entry.appender.file, entry.unsaved, path);
    entry.appender = appender;
    entry.unsaved = unsaved;
    entry.stamp = fresh.stamp;
  }

  /** add() then flush(): for callers that write as they go (the LLM Observer's journal). */
  async write(observations: Observation[]): Promise<number> {
    const added = await this.add(observations);
    await this.flush();
    return added;
  }

  private async load(dayFile: DayFileModule, path: string, first: Observation): Promise<BufferedDayFile> {
    const { file, stamp } = await this.read(dayFile, path, first);
    const entry: BufferedDayFile = { appender: new dayFile.DayFileAppender(file), unsaved: 0, firstUnsaved: undefined, stamp };
    this.files.set(path, entry);
    return entry;
  }

  /** The file as it is on disk (a new one from the template when there is none), with its stamp. */
  private async read(dayFile: DayFileModule, path: string, first: Observation | undefined): Promise<{ file: DayFile; stamp: FileStamp | undefined }> {
    const stamp = await stampOf(path);
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const file =
      text === undefined
        ? dayFile.createDayFile({ date: first?.date || dayFile.dateFromFileName(path) || '', agent: first?.agent ?? '', tier: 'hot', template: await dailyTemplate(this.paths), ...(first?.zone ? { zone: first.zone } : {}) })
        : dayFile.parseDayFile(text);
    return { file, stamp: text === undefined ? undefined : stamp };
  }
}
