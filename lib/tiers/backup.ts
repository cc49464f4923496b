/**
 * A backup of the whole home in one encrypted file, and its restore. The file is age ciphertext
 * (lib/platform/encryption.ts) of a tar archive (tar-stream: long names as pax headers):
 *
 *   oc-memory-backup/MANIFEST.json    {format, created, files: {path: sha256}}
 *   oc-memory-backup/home/…           every regular file of the home (config, .env, day files, reflections,
 *                                     active memory, .ocm state, index, audit, logs) but the encrypted-sync
 *                                     cache (.ocm/sync/: fetched again from the remote), locks and temp files
 *   oc-memory-backup/vault/OC-Memory/… the cold tier, when there is a vault
 *
 * Without OC-Memory: `age -d backup.tar.age | tar x`. Restore checks every file's hash and writes
 * nothing when one fails, when the target home already holds memory, or when a vault file would replace
 * a different one.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import tar from 'tar-stream';
import { OcmError } from '../core/errors.js';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { sealForSecret, sha256, unsealForSecret, type SyncSecret } from '../platform/encryption.js';
import { exists, expandHome, type HomePaths } from '../platform/home.js';
import { VAULT_FOLDER } from './locations.js';
import { filesUnder } from '../platform/files-under.js';

/** Every regular file under a folder (symbolic links left out). */
const ANY_FILE = { suffix: '' };

const ROOT = 'oc-memory-backup';
const FORMAT = 'oc-memory-backup/1';

interface Manifest {
  format: string;
  created: string;
  files: Record<string, string>;
}

export interface BackupSummary {
  files: number;
  /** Plaintext bytes in the archive. */
  bytes: number;
}

/** The encrypted archive of a home (and its vault's cold tier). The caller holds the home lock. */
export async function createBackup(
  paths: HomePaths,
  vaultPath: string,
  secret: SyncSecret,
  now: Date,
): Promise<{ data: Uint8Array } & BackupSummary> {
  const files = new Map<string, string>();
  for (const abs of await filesUnder(paths.root, ANY_FILE)) {
    const rel = relative(paths.root, abs).split(sep).join('/');
    if (rel.startsWith('.ocm/sync/') || rel.endsWith('.tmp') || /(^|\/)[^/]+\.lock(\/|$)/.test(rel)) continue;
    files.set(`home/${rel}`, abs);
  }
  const vault = vaultPath.trim() ? join(expandHome(vaultPath.trim()), VAULT_FOLDER) : '';
  if (vault)
    for (const abs of await filesUnder(vault, ANY_FILE))
      files.set(`vault/${VAULT_FOLDER}/${relative(vault, abs).split(sep).join('/')}`, abs);
  const manifest: Manifest = { format: FORMAT, created: now.toISOString(), files: {} };
  const contents = new Map<string, Buffer>();
  let bytes = 0;
  for (const [name, abs] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const data = await readFile(abs);
    contents.set(name, data);
    manifest.files[name] = sha256(data);
    bytes += data.length;
  }
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  pack.entry({ name: `${ROOT}/MANIFEST.json`, mode: 0o600, mtime: now }, JSON.stringify(manifest, null, 1));
  for (const [name, data] of contents) pack.entry({ name: `${ROOT}/${name}`, mode: 0o600, mtime: now }, data);
  pack.finalize();
  await ended;
  return { data: await sealForSecret(secret, Buffer.concat(chunks)), files: contents.size, bytes };
}

export interface RestoreResult extends BackupSummary {
  created: string;
  vault?: string;
}

export interface RestoreOptions {
  /** Restore the cold tier into this vault instead of the one the backup's config names. */
  vaultOverride?: string;
}

/**
 * Restore a backup into `paths` (a home that does not exist yet or holds no memory). Cold files go to the
 * vault the restored config names, or `vaultOverride`.
 */
export async function restoreBackup(
  paths: HomePaths,
  sealed: Uint8Array,
  secret: SyncSecret,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const archive = await unsealForSecret(secret, sealed, 'The backup');
  const entries = await readTar(Buffer.from(archive));
  const manifestData = entries.get(`${ROOT}/MANIFEST.json`);
  if (!manifestData)
    throw new OcmError('BAD_INPUT', 'This file is not an OC-Memory backup (no MANIFEST.json).', {
      hint: 'Restore a file made by `ocm-run backup`.',
    });
  const manifest = JSON.parse(manifestData.toString('utf8')) as Manifest;
  if (manifest.format !== FORMAT)
    throw new OcmError('BAD_INPUT', `The backup is in format ${manifest.format}, which this version does not read.`, {
      hint: 'Update OC-Memory.',
    });
  for (const [name, sum] of Object.entries(manifest.files)) {
    const data = entries.get(`${ROOT}/${name}`);
    if (!data || sha256(data) !== sum || name.split('/').some((p) => p === '..' || p === '')) {
      throw new OcmError('BAD_INPUT', `The backup is damaged: ${name} is missing or does not match its hash.`, {
        hint: 'Nothing was restored. Use another copy of the backup.',
      });
    }
  }
  if (await holdsMemory(paths)) {
    throw new OcmError('BAD_INPUT', `${paths.root} already holds memory; a restore never overwrites a home.`, {
      hint: 'Restore into a new folder (--home DIR), or move this one away first.',
    });
  }
  const configText = entries.get(`${ROOT}/home/config.yaml`)?.toString('utf8') ?? '';
  const vaultRoot = options.vaultOverride ?? /^\s+vault_path:\s*"?([^"\n#]+?)"?\s*(?:#.*)?$/m.exec(configText)?.[1]?.trim() ?? '';
  const vault = vaultRoot ? join(expandHome(vaultRoot), VAULT_FOLDER) : '';
  const targets: Array<[string, Buffer]> = [];
  for (const name of Object.keys(manifest.files)) {
    const data = entries.get(`${ROOT}/${name}`)!;
    if (name.startsWith('home/')) targets.push([join(paths.root, ...name.slice(5).split('/')), data]);
    else if (name.startsWith(`vault/${VAULT_FOLDER}/`)) {
      if (!vault)
        throw new OcmError('BAD_INPUT', 'The backup holds a cold tier, and no vault is named to restore it into.', {
          hint: 'Pass --vault DIR.',
        });
      const abs = join(vault, ...name.slice(`vault/${VAULT_FOLDER}/`.length).split('/'));
      if ((await exists(abs)) && sha256(await readFile(abs)) !== manifest.files[name]) {
        throw new OcmError('BAD_INPUT', `${abs} exists and differs from the backup's copy; nothing was restored.`, {
          hint: 'Restore into another vault (--vault DIR), or move that file away.',
        });
      }
      targets.push([abs, data]);
    }
  }
  let bytes = 0;
  for (const [abs, data] of targets) {
    await mkdir(dirname(abs), { recursive: true, mode: 0o700 });
    await writeFileAtomic(abs, data, { mode: 0o600 });
    bytes += data.length;
  }
  return { files: targets.length, bytes, created: manifest.created, ...(vault ? { vault } : {}) };
}

/** A home holds memory once it has a day file, a reflection or an audit log. */
async function holdsMemory(paths: HomePaths): Promise<boolean> {
  for (const dir of [paths.memory, paths.archive, paths.reflections]) if ((await filesUnder(dir, ANY_FILE)).length > 0) return true;
  return exists(paths.audit);
}

async function readTar(data: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      if (header.type === 'file') out.set(header.name, Buffer.concat(chunks));
      next();
    });
    stream.resume();
  });
  extract.end(data);
  await done;
  return out;
}
