/**
 * Which files of a home travel with encrypted sync, and how they merge. Each has a *synced path*, the
 * same on every device (always `/`-separated):
 *
 *   memory/…, archive/…, reflections/…, forgotten.md, templates/…, any other Markdown of the home
 *   .ocm/audit.log                 the audit log (every device's lines)
 *   vault/OC-Memory/…              the cold tier, when this device has a vault (tiers.vault_path)
 *
 * Never: `.env`, `config.yaml` (each device's own settings: its sources, vault path, key file), the
 * rest of `.ocm/` (index, vectors, cursors, journals: rebuilt or per device), `logs/`, and
 * `active_memory*.md` (rebuilt from the files above on every device).
 */
import { join, relative, sep } from 'node:path';
import { expandHome, type HomePaths } from '../../platform/home.js';
import { filesUnder } from '../../platform/files-under.js';
import { VAULT_FOLDER } from '../../tiers/locations.js';

export const AUDIT_PATH = '.ocm/audit.log';
const VAULT_PREFIX = `vault/${VAULT_FOLDER}/`;

/** How two devices' versions of a file merge. */
export type MergeKind = 'day' | 'lines' | 'text';

export interface SyncedFiles {
  /** Synced path → absolute path on this device. */
  local: Map<string, string>;
  /** The absolute path of a synced path on this device; undefined when it has no place here (a cold file without a vault). */
  place(path: string): string | undefined;
}

export async function listSyncedFiles(paths: HomePaths, vaultPath: string): Promise<SyncedFiles> {
  const vault = vaultPath.trim() ? join(expandHome(vaultPath.trim()), VAULT_FOLDER) : '';
  const local = new Map<string, string>();
  const toSynced = (root: string, abs: string) => relative(root, abs).split(sep).join('/');
  for (const abs of await filesUnder(paths.root, { suffix: '.md', skipDotFolders: true })) {
    const rel = toSynced(paths.root, abs);
    if (rel.startsWith('logs/') || /^active_memory(\..+)?\.md$/.test(rel) || rel.startsWith('node_modules/')) continue;
    local.set(rel, abs);
  }
  for (const abs of await filesUnder(paths.machine, { suffix: '.log' })) if (abs === paths.audit) local.set(AUDIT_PATH, abs);
  if (vault)
    for (const abs of await filesUnder(vault, { suffix: '.md', skipDotFolders: true })) local.set(VAULT_PREFIX + toSynced(vault, abs), abs);
  return {
    local,
    place(path) {
      if (path === AUDIT_PATH) return paths.audit;
      if (path.startsWith(VAULT_PREFIX)) return vault ? join(vault, ...path.slice(VAULT_PREFIX.length).split('/')) : undefined;
      if (!isSafeSyncedPath(path) || path.startsWith('.') || path.startsWith('logs/') || /^active_memory/.test(path)) return undefined;
      return join(paths.root, ...path.split('/'));
    },
  };
}

/** A path read from a remote places a file inside the home or vault only: no `..`, no absolute paths. */
export function isSafeSyncedPath(path: string): boolean {
  if (!(path.endsWith('.md') || path === AUDIT_PATH)) return false;
  return !path.includes('\\') && !path.split('/').some((p) => p === '' || p === '.' || p === '..');
}

export function mergeKindOf(path: string): MergeKind {
  if (/^(memory|archive|vault\/OC-Memory)\/(.+\/)?\d{4}-\d{2}-\d{2}\.md$/.test(path)) return 'day';
  if (path === AUDIT_PATH || path === 'forgotten.md') return 'lines';
  return 'text';
}
