/**
 * Tombstones: the ids of forgotten observations, kept in `forgotten.md` at the root of the home so that a
 * forget travels with Git sync like the day files do (`merge=union`: each device's tombstones are kept).
 * After every pull, sync forgets on this device whatever the tombstones name and its files still hold — a
 * line another device forgot can never come back through a merge (lib/jobs/sync/git.ts). Ids only, never
 * the text: the file says what was forgotten no more than the audit log does.
 *
 *   # Forgotten observations
 *   - o-7f3a9c21e0 2026-02-12T10:00:00.000Z
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isNotFound } from '../core/errors.js';
import { writeFileAtomic } from '../platform/atomic-file.js';

/** The file, relative to the home. */
export const TOMBSTONES_FILE = 'forgotten.md';

const HEADER = `# Forgotten observations

<!-- Written by OC-Memory: the ids \`forget\` erased, on any device (no text). Sync erases them wherever
they come back. Removing a line here lets that observation be synced again. -->

`;

const LINE = /^- (o-[A-Za-z0-9-]+)(?: (\S+))?\s*$/;

/** The tombstoned ids in a home. */
export async function readTombstones(root: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(join(root, TOMBSTONES_FILE), 'utf8');
  } catch (error) {
    if (isNotFound(error)) return new Set();
    throw error;
  }
  return parseTombstones(text);
}

/** The ids of a tombstone file's text (a union merge may repeat or reorder lines). */
export function parseTombstones(text: string): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m) ids.add(m[1]!);
  }
  return ids;
}

/** Add tombstones for these ids (those not there yet). Idempotent: a forget completed again adds nothing. */
export async function recordTombstones(root: string, ids: readonly string[], at: Date): Promise<void> {
  const path = join(root, TOMBSTONES_FILE);
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const known = parseTombstones(text);
  const fresh = [...new Set(ids)].filter((id) => id.startsWith('o-') && !known.has(id));
  if (fresh.length === 0) return;
  const base = text === '' ? HEADER : text.endsWith('\n') ? text : `${text}\n`;
  await writeFileAtomic(path, base + fresh.map((id) => `- ${id} ${at.toISOString()}\n`).join(''), { mode: 0o600 });
}
