/**
 * Whether the memory files may have changed since a long-lived process last
 * compared them with the index (search/freshness.ts). That comparison lists
 * and stats every memory file — most of the CPU a lookup of the OpenClaw
 * plugin used (docs/running.md) — while between two prompts usually nothing
 * was written. A recursive file-system watch on the memory home (and on the
 * vault's OC-Memory folder, when there is one) says "something changed under
 * memory/, reflections/ or archive/"; without such an event since the last
 * clean comparison it is skipped. When a watch cannot be set up or reports an
 * error, every lookup compares again: the watch is only ever a shortcut.
 */
import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';

/** Folders of the home whose changes matter (the rest — .ocm/, logs/ — changes all the time). */
const MEMORY_FOLDERS = ['memory', 'reflections', 'archive'];

export class ChangeWatch {
  private readonly watchers: FSWatcher[] = [];
  /** Something may have changed since markClean(). */
  private dirty = true;
  private broken = false;

  /** `home`: the memory home; `others`: folders outside it whose every change counts (the cold tier). */
  constructor(home: string, others: readonly string[] = []) {
    this.add(home, (name) => {
      const first = name.split(sep)[0] ?? '';
      return MEMORY_FOLDERS.includes(first);
    });
    for (const dir of others) this.add(dir, () => true);
  }

  private add(dir: string, counts: (name: string) => boolean): void {
    try {
      const watcher = watch(dir, { recursive: true, persistent: false }, (_event, name) => {
        if (name === null || counts(String(name))) this.dirty = true;
      });
      watcher.on('error', () => {
        this.broken = true;
      });
      this.watchers.push(watcher);
    } catch {
      // A folder that does not exist (yet), or a platform without recursive watches.
      this.broken = true;
    }
  }

  /** The files may differ from what the last clean comparison saw. */
  mayHaveChanged(): boolean {
    return this.dirty || this.broken;
  }

  /** Call before comparing: a change made while the comparison runs counts for the next lookup. */
  markClean(): void {
    this.dirty = false;
  }

  /** The comparison failed or did not finish: compare again next time. */
  markDirty(): void {
    this.dirty = true;
  }

  close(): void {
    for (const w of this.watchers) w.close();
    this.watchers.length = 0;
  }
}
