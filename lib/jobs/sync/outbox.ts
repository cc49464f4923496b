/**
 * The folder the sync command copies when sync.encrypt is on (`{encrypted}` in sync.command):
 * `.ocm/sync/outbox/`, the files of the last encrypted commit (the same layout as the encrypted Git
 * remote: ciphertext and hashed names only). Kept in step incrementally: only files whose blob changed
 * are rewritten, files gone from the commit are removed.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { isNotFound } from '../../core/errors.js';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import type { SealedRepository } from './sealed-repository.js';

export interface OutboxResult {
  dir: string;
  written: number;
  removed: number;
}

export function outboxDir(machineDir: string): string {
  return join(machineDir, 'sync', 'outbox');
}

export async function fillOutbox(repo: SealedRepository, commit: string, dir: string): Promise<OutboxResult> {
  const stateFile = `${dir}.json`;
  let known: Record<string, string> = {};
  try {
    known = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, string>;
  } catch (error) {
    if (!isNotFound(error) && !(error instanceof SyntaxError)) throw error;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tree = await repo.tree(commit);
  const present = new Set(await listFiles(dir));
  const stale = [...tree].filter(([path, blob]) => known[path] !== blob || !present.has(path));
  const blobs = await repo.blobs(stale.map(([, blob]) => blob));
  for (const [path, blob] of stale) {
    const abs = join(dir, ...path.split('/'));
    await mkdir(dirname(abs), { recursive: true, mode: 0o700 });
    await writeFileAtomic(abs, blobs.get(blob)!, { mode: 0o600 });
  }
  let removed = 0;
  for (const path of present) {
    if (tree.has(path)) continue;
    await rm(join(dir, ...path.split('/')), { force: true });
    removed++;
  }
  await writeFileAtomic(stateFile, JSON.stringify(Object.fromEntries(tree)), { mode: 0o600 });
  return { dir, written: stale.length, removed };
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && !e.name.endsWith('.tmp')) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  await walk(root);
  return out;
}
