/**
 * The forget journal: a `forget` is written down before it changes anything,
 * so a run killed at any moment is completed by the next one (lib/tiers/forget.ts
 * completeForget; the move journal in lib/tiers/ops.ts is the model).
 *
 *   .ocm/forget/<fg-id>.json   what to forget (ids, files, texts) and the counts so far
 *
 * It holds the forgotten texts — every later step needs them to find quoted
 * lines in reflections, logs and caches — so it is owner-only (0600) and
 * deleted as the last step, after the audit entry. Reading it needs no
 * Markdown parser: every tick asks hasPendingForgets cheaply.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { HomePaths } from '../platform/home.js';
import type { Priority, Tier } from '../core/types.js';

export interface ForgetJournalTarget {
  id: string;
  path: string;
  tier: Tier;
  date: string;
  agent: string;
  priority: Priority;
  text: string;
  /** A hand-written line without a block id: found again by its text. */
  anonymous: boolean;
}

export interface ForgetCounts {
  observations: number;
  files: number;
  filesRemoved: number;
  copiesScrubbed: number;
  reflectionsEdited: number;
  logsEdited: number;
}

export interface ForgetJournal {
  version: 1;
  id: string;
  createdAt: string;
  selector: { kind: 'all' | 'ids' | 'query'; since?: string; until?: string };
  targets: ForgetJournalTarget[];
  byTier: Record<Tier, number>;
  notFound: string[];
  /** Files the forget changed so far (day files, reflections): the audit lists them. */
  changed: string[];
  counts: ForgetCounts;
}

const ID = /^fg-[0-9A-Za-z-]+$/;

export function forgetJournalDir(paths: HomePaths): string {
  return join(paths.machine, 'forget');
}

export function newForgetId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `fg-${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function writeForgetJournal(paths: HomePaths, journal: ForgetJournal): Promise<void> {
  await writeFileAtomic(join(forgetJournalDir(paths), `${journal.id}.json`), `${JSON.stringify(journal)}\n`, { mode: 0o600 });
}

export async function removeForgetJournal(paths: HomePaths, id: string): Promise<void> {
  await rm(join(forgetJournalDir(paths), `${id}.json`), { force: true });
}

/** Journals of forgets not completed, oldest first. One that does not parse was torn before it was in place (atomic write): nothing had changed. */
export async function readForgetJournals(paths: HomePaths): Promise<ForgetJournal[]> {
  const out: ForgetJournal[] = [];
  for (const name of await journalNames(paths)) {
    try {
      const j = JSON.parse(await readFile(join(forgetJournalDir(paths), name), 'utf8')) as ForgetJournal;
      if (j && j.version === 1 && ID.test(j.id) && Array.isArray(j.targets)) out.push(j);
    } catch {
      /* unreadable: see hasPendingForgets */
    }
  }
  return out;
}

export async function hasPendingForgets(paths: HomePaths): Promise<boolean> {
  return (await journalNames(paths)).length > 0;
}

async function journalNames(paths: HomePaths): Promise<string[]> {
  try {
    return (await readdir(forgetJournalDir(paths))).filter((n) => n.startsWith('fg-') && n.endsWith('.json')).sort();
  } catch {
    return [];
  }
}
