/**
 * The day files one observe job touches, parsed once and changed in memory.
 *
 * A long transcript is read in many chunks, and one day's file receives
 * observations from several of them. Appending to the file and rewriting it
 * after every chunk re-formats and re-writes (with two fsyncs) a file that
 * grows to a megabyte, again and again. Here `add` only dedupes new
 * observations against the file (and each other) and queues them; `flush`
 * appends each file's queue and writes every changed file once, atomically.
 * Under the home lock no other job writes these files; a person may, in an
 * editor, while a long job runs: before writing a file, `flush` checks that
 * it is still the file that was read (or last written), and if it changed
 * reads it again and appends the unsaved observations to the edited text, so
 * the edit is kept.
 *
 * The caller decides when to flush, and must flush before it writes a cursor
 * past the observations (observe-job.ts: JobOutput.save()).
 */
import { readFile, stat } from 'node:fs/promises';
import { writeFilesAtomic } from './atomic-file.js';
import { dayFilePath, type HomePaths } from './home.js';
import type { Observation } from './types.js';

type DayFileModule = typeof import('./day-file.js');
type DayFile = import('./day-file.js').DayFile;

interface BufferedDayFile {
  file: DayFile;
  /** Ids in the file or queued for it. */
  ids: Set<string>;
  /** New observations, in arrival order, not yet appended to `file` (replaced, never changed in place). */
  queued: Observation[];
  /** Observations appended to `file` but not on disk yet (a write failed; replaced, never changed in place). */
  unsaved: Observation[];
  /** `file` holds observations that are not on disk yet. */
  dirty: boolean;
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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
    const { packagePath } = await import('./package-root.js');
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

/**
 * Queue the observations whose ids are neither in the file nor queued (nor earlier in `list`);
 * returns how many. Throws, queueing nothing, when the file would change but cannot be written.
 * (Queues are replaced, never pushed to: a new `[]` holds small integers, and its first push of
 * an observation changed its map and deoptimised this loop for every new day file.)
 */
function queueNew(dayFile: DayFileModule, entry: BufferedDayFile, list: Observation[], path: string): number {
  const fresh = list.filter((o) => !entry.ids.has(o.id));
  if (fresh.length === 0) return 0;
  // Checked before the ids are taken: a file that cannot be written must not swallow them.
  dayFile.assertWritable(entry.file, path);
  const queued = fresh.filter((o) => !entry.ids.has(o.id) && (entry.ids.add(o.id), true));
  entry.queued = entry.queued.length === 0 ? queued : entry.queued.concat(queued);
  return queued.length;
}

export class DayFileBuffer {
  private readonly files = new Map<string, BufferedDayFile>();

  constructor(private readonly paths: HomePaths) {}

  /** Some observations are not on disk yet. */
  get pending(): boolean {
    for (const entry of this.files.values()) if (entry.dirty || entry.queued.length > 0) return true;
    return false;
  }

  /**
   * Queue observations for their day files (by agent and date). Returns how
   * many are new (ids neither in the file nor queued). Throws, queueing nothing
   * for that file, when a file that would change has a broken frontmatter.
   */
  async add(observations: Observation[]): Promise<number> {
    if (observations.length === 0) return 0;
    // Loaded here, not at start-up: a tick with nothing new never parses Markdown.
    const dayFile = await import('./day-file.js');
    let added = 0;
    for (const [path, list] of groupByDayFile(this.paths, observations)) {
      const entry = this.files.get(path) ?? (await this.load(dayFile, path, list[0]!));
      added += queueNew(dayFile, entry, list, path);
    }
    return added;
  }

  /** Append the queued observations and write every changed file (atomically, fsyncs in parallel). */
  async flush(): Promise<void> {
    if (this.files.size === 0) return;
    const dayFile = await import('./day-file.js');
    const changed: Array<[BufferedDayFile, string]> = [];
    for (const [path, entry] of this.files) {
      if (entry.queued.length === 0 && !entry.dirty) continue;
      // Edited (or removed) on disk since it was read: start again from what is there now.
      if (!sameStamp(entry.stamp, await stampOf(path))) await this.reload(dayFile, path, entry);
      if (entry.queued.length > 0) {
        // One append of everything queued gives the same file as one append per chunk.
        dayFile.appendObservations(entry.file, entry.queued, path);
        entry.unsaved = entry.unsaved.length === 0 ? entry.queued : entry.unsaved.concat(entry.queued);
        entry.queued = [];
        entry.dirty = true;
      }
      if (entry.dirty) changed.push([entry, path]);
    }
    if (changed.length === 0) return;
    await writeFilesAtomic(changed.map(([entry, path]) => ({ path, data: dayFile.formatDayFile(entry.file), mode: 0o600 })));
    for (const [entry, path] of changed) {
      entry.dirty = false;
      entry.unsaved = [];
      entry.stamp = await stampOf(path);
    }
  }

  /** Re-read a file that changed on disk; what was queued or unsaved for it is queued again. */
  private async reload(dayFile: DayFileModule, path: string, entry: BufferedDayFile): Promise<void> {
    const pending = [...entry.unsaved, ...entry.queued];
    const fresh = await this.read(dayFile, path, pending[0]);
    entry.file = fresh.file;
    entry.ids = dayFile.observationIds(fresh.file);
    entry.stamp = fresh.stamp;
    entry.unsaved = [];
    entry.dirty = false;
    entry.queued = pending.filter((o) => !entry.ids.has(o.id) && (entry.ids.add(o.id), true));
    // The edited file may not be writable any more (a broken frontmatter): fail before anything is lost.
    if (entry.queued.length > 0) dayFile.assertWritable(entry.file, path);
  }

  /** add() then flush(): for callers that write as they go (the LLM Observer's journal). */
  async write(observations: Observation[]): Promise<number> {
    const added = await this.add(observations);
    await this.flush();
    return added;
  }

  private async load(dayFile: DayFileModule, path: string, first: Observation): Promise<BufferedDayFile> {
    const { file, stamp } = await this.read(dayFile, path, first);
    const entry: BufferedDayFile = { file, ids: dayFile.observationIds(file), queued: [], unsaved: [], dirty: false, stamp };
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
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const file =
      text === undefined
        ? dayFile.createDayFile({ date: first?.date || dayFile.dateFromFileName(path) || '', agent: first?.agent ?? '', tier: 'hot', template: await dailyTemplate(this.paths) })
        : dayFile.parseDayFile(text);
    return { file, stamp: text === undefined ? undefined : stamp };
  }
}
