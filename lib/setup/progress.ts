/**
 * Setup answers saved after every step, so an interrupted wizard (Ctrl-C, a
 * closed terminal, a crash) resumes where it stopped. Kept outside the home —
 * the home itself is one of the answers — under the user's state folder,
 * one file per starting home. Never holds the API key.
 */
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { SetupAnswers, Step } from './answers.js';

export interface SetupProgress {
  version: 1;
  /** The home setup started with (the key of this file). */
  startedFor: string;
  mode: 'new' | 'reconfigure';
  /** Steps answered so far, in order. */
  done: Step[];
  answers: Partial<SetupAnswers>;
  updatedAt: string;
}

export function progressPath(startHome: string, env: Record<string, string | undefined>, userHome: string = homedir()): string {
  const base =
    process.platform === 'win32'
      ? join(env.LOCALAPPDATA || join(userHome, 'AppData', 'Local'), 'oc-memory')
      : join(env.XDG_STATE_HOME || join(userHome, '.local', 'state'), 'oc-memory');
  return join(base, `setup-${createHash('sha256').update(startHome).digest('hex').slice(0, 12)}.json`);
}

export async function readProgress(path: string): Promise<SetupProgress | undefined> {
  try {
    const p = JSON.parse(await readFile(path, 'utf8')) as SetupProgress;
    return p && p.version === 1 && Array.isArray(p.done) ? p : undefined;
  } catch {
    return undefined;
  }
}

export async function saveProgress(path: string, progress: SetupProgress): Promise<void> {
  // Belt and braces: a key must never land here.
  const clean = JSON.parse(
    JSON.stringify(progress, (k, v: unknown) => (/key$/i.test(k) && k !== 'keyEnv' ? undefined : v)),
  ) as SetupProgress;
  await writeFileAtomic(path, `${JSON.stringify(clean, null, 2)}\n`, { mode: 0o600 });
}

export async function clearProgress(path: string): Promise<void> {
  await rm(path, { force: true });
}
