/**
 * The home's record of an install (.ocm/openclaw-integration.json): where
 * the backup is, what was created and what was last written, so
 * `--uninstall` knows whether it may restore the backup byte for byte.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../../platform/home.js';

export interface IntegrationRecord {
  configPath: string;
  /** The copy of openclaw.json made before the first edit ('' when we created the file). */
  backup: string;
  createdConfig: boolean;
  /** sha256 of what we last wrote (restore the backup only while this matches). */
  writtenSha256: string;
  created: string[][];
  allowAdded: boolean;
  folders: string[];
  pluginDir: string;
  installedAt: string;
}

export function recordPath(paths: HomePaths): string {
  return join(paths.machine, 'openclaw-integration.json');
}

export async function readRecord(paths: HomePaths): Promise<IntegrationRecord | undefined> {
  try {
    return JSON.parse(await readFile(recordPath(paths), 'utf8')) as IntegrationRecord;
  } catch {
    return undefined;
  }
}
