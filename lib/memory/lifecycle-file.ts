/**
 * The lifecycle marks (lifecycle.ts) written into an agent's hot day files:
 * each marked line is re-formatted with its mark, every other byte of the
 * file stays as it was (lib/memory/day-file/). The caller holds the home lock.
 */
import type { HomePaths } from '../platform/home.js';
import { updateObservations } from './day-file/index.js';
import { lifecycleMarks, type LifecycleChange } from './lifecycle.js';
import { listHotDayFiles, readObservations } from './memory-files.js';

export interface LifecycleResult {
  /** Tasks marked done. */
  closed: number;
  /** Items marked superseded. */
  superseded: number;
  /** Files whose frontmatter is broken: not rewritten, their marks wait for the next run with a new observation. */
  skipped: string[];
}

/** Mark what the fresh observations close or supersede among the agent's hot observations. */
export async function applyLifecycle(
  paths: HomePaths,
  agent: string,
  fresh: ReadonlySet<string>,
  names: readonly string[] = [],
): Promise<LifecycleResult> {
  const result: LifecycleResult = { closed: 0, superseded: 0, skipped: [] };
  if (fresh.size === 0) return result;
  const observations = await readObservations(await listHotDayFiles(paths, agent));
  const changes = lifecycleMarks(observations, { fresh, names });
  if (changes.length === 0) return result;
  const pathOf = new Map(observations.map((o) => [o.id, o.path]));
  const byPath = new Map<string, LifecycleChange[]>();
  for (const c of changes) {
    const path = pathOf.get(c.id);
    if (!path) continue;
    if (!byPath.has(path)) byPath.set(path, []);
    byPath.get(path)!.push(c);
  }
  for (const [path, list] of byPath) {
    const done = await markInFile(path, list);
    if (done === undefined) {
      result.skipped.push(path);
      continue;
    }
    for (const c of done) c.mark?.kind === 'done' ? result.closed++ : result.superseded++;
  }
  return result;
}

/**
 * Set the marks in one day file (undefined mark: clear it). Returns the changes made, or undefined when
 * the file cannot be rewritten (its frontmatter is broken) or is gone.
 */
export async function markInFile(
  path: string,
  changes: ReadonlyArray<{ id: string; mark: LifecycleChange['mark'] | undefined }>,
): Promise<typeof changes | undefined> {
  // Written as observe writes a day file (day-file-buffer.ts): an editor's save made meanwhile is merged, never overwritten.
  const { editDayFile } = await import('./day-file-buffer.js');
  let made: Array<(typeof changes)[number]> = [];
  let read = false;
  await editDayFile(path, (file) => {
    read = true;
    made = updateObservations(file, changes, (c, line) => {
      // Clearing a mark clears the ✅ it stood for too; superseding leaves a ✅ a user set.
      const done = c.mark?.kind === 'done' ? true : c.mark === undefined && line.mark?.kind === 'done' ? false : line.done;
      return { mark: c.mark, done };
    });
    return made.length > 0 ? made : undefined;
  });
  // Not read: gone, or its frontmatter is broken.
  return read ? made : undefined;
}
