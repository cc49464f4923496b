/**
 * Where encrypted sync merges: on plaintext, in the home, one file at a time, against the version both
 * devices last agreed on (the base). The remote holds ciphertext only and never merges.
 *
 * - Decide (`decide`): a file changed on one side only takes that side (a deletion too); changed on both,
 *   it is merged. A file deleted on one side and changed on the other keeps the change — nothing is lost.
 * - Merge (`mergeTexts`), by kind (synced-files.ts `mergeKindOf`):
 *   - day files: Git's union merge (`git merge-file --union`), then the day file is recounted and an
 *     observation that arrived twice kept once (union-repair.ts), as plain Git sync does;
 *   - line logs (the audit log, `forgotten.md`): union, each line once;
 *   - any other text (reflections, notes): a three-way merge; when both changed the same lines, this
 *     device's version stays and the other's is kept beside it as `<name>.sync-conflict-<n>.md`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Git } from './git-process.js';
import { repairUnionMerged } from './union-repair.js';
import type { MergeKind } from './synced-files.js';

/** What sync does with one file. */
export type Decision = { action: 'keep' } | { action: 'take' } | { action: 'merge' };

/**
 * Sha-256 of the file's plaintext on each side (undefined: absent). `keep`: this device's version (or its
 * absence) is the result; `take`: the other side's; `merge`: both changed.
 */
export function decide(base: string | undefined, ours: string | undefined, theirs: string | undefined): Decision {
  if (theirs === base || theirs === ours) return { action: 'keep' };
  if (ours === base) return { action: 'take' };
  if (ours === undefined) return { action: 'take' }; // deleted here, changed there: keep the change
  if (theirs === undefined) return { action: 'keep' }; // deleted there, changed here
  return { action: 'merge' };
}

export interface MergedText {
  text: Buffer;
  /** The other side's version, to keep beside this one when both changed the same lines. */
  conflict?: Buffer;
}

export async function mergeTexts(kind: MergeKind, base: Buffer, ours: Buffer, theirs: Buffer, tmpParent: string): Promise<MergedText> {
  const dir = await mkdtemp(join(tmpParent, 'merge-'));
  try {
    const files = { ours: join(dir, 'ours'), base: join(dir, 'base'), theirs: join(dir, 'theirs') };
    await Promise.all([
      writeFile(files.ours, ours, { mode: 0o600 }),
      writeFile(files.base, base, { mode: 0o600 }),
      writeFile(files.theirs, theirs, { mode: 0o600 }),
    ]);
    const git = new Git(dir, 60_000);
    const union = kind !== 'text';
    const r = await git.runBytes(['merge-file', '-p', ...(union ? ['--union'] : []), files.ours, files.base, files.theirs], undefined, {
      allowFail: true,
    });
    if (r.code < 0 || r.code > 127) throw new Error(`git merge-file failed: ${r.stderr}`);
    if (kind === 'day') {
      const text = r.stdout.toString('utf8');
      return { text: Buffer.from(repairUnionMerged(text) ?? text) };
    }
    if (kind === 'lines') return { text: Buffer.from(uniqueLines(r.stdout.toString('utf8'))) };
    if (r.code === 0) return { text: r.stdout };
    return { text: ours, conflict: theirs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each non-blank line once, in the order first seen. */
function uniqueLines(text: string): string {
  const seen = new Set<string>();
  return text
    .split('\n')
    .filter((line) => {
      if (line.trim() === '') return true;
      if (seen.has(line)) return false;
      seen.add(line);
      return true;
    })
    .join('\n');
}

/** A free name beside `path` for the other side's version of a conflicting file. */
export function conflictPath(path: string, taken: (p: string) => boolean): string {
  const stem = path.replace(/\.md$/, '');
  for (let n = 1; ; n++) {
    const candidate = `${stem}.sync-conflict-${n}.md`;
    if (!taken(candidate)) return candidate;
  }
}
