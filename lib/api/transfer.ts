/**
 * Memory in and out of a home, for people and other tools: an export of
 * every observation (JSON or CSV, sealed with age when asked), an import of
 * an export or a folder of Markdown notes, and an encrypted backup of the
 * whole home that a restore reads back. Each call is the job's own function
 * (tiers/export.ts, tiers/import.ts, tiers/backup.ts) under the home lock,
 * with the secret found as every sealed file finds it (platform/encryption.ts
 * requireFileSecret: the key file asked for, else sync.key_file, else the
 * passphrase in OCM_SYNC_PASSPHRASE).
 */
import { OcmError } from '../core/errors.js';
import type { Tier } from '../core/types.js';
import type { HomePaths } from '../platform/home.js';
import type { ExportFormat } from '../tiers/export.js';
import type { ImportResult } from '../tiers/import.js';
import type { RestoreResult } from '../tiers/backup.js';
import { underHomeLock, type MemoryHome } from './home.js';

export interface ExportOptions {
  format: ExportFormat;
  tiers: Tier[];
  /** An absolute path, written 0600 and logged in the audit log (undefined: the export is returned, for stdout). */
  output?: string | undefined;
  /** Seal it with age, for the key file or the passphrase. */
  encrypt?: boolean;
  /** With `encrypt`: seal for this age key file (default sync.key_file, else the passphrase). */
  keyFile?: string | undefined;
}

export interface Exported {
  /** Observations exported. */
  observations: number;
  /** The export itself (text, or the age file when encrypted). */
  data: string | Uint8Array;
  /** Where it was written (undefined: nowhere, `data` is for the caller). */
  output?: string;
  encrypted: boolean;
}

/** Every observation of `tiers` with its metadata and provenance, as JSON or CSV; written to `output` when given. */
export async function exportMemory(home: MemoryHome, options: ExportOptions): Promise<Exported> {
  const { paths, config } = home;
  const { collectExport, formatExport } = await import('../tiers/export.js');
  // Under the home lock: never read a day while a tier move is half done.
  const records = await underHomeLock(home, () => collectExport(paths, config, options.tiers));
  const plain = formatExport(records, options.format, home.now());
  const encrypted = options.encrypt === true;
  let data: string | Uint8Array = plain;
  if (encrypted) {
    const { requireFileSecret, sealForSecret } = await import('../platform/encryption.js');
    data = await sealForSecret(requireFileSecret(options.keyFile, config.sync.key_file, home.env, 'export --encrypt'), plain);
  }
  const { output } = options;
  if (!output) return { observations: records.length, data, encrypted };
  const [{ writeFileAtomic }, { appendAudit }] = await Promise.all([import('../platform/atomic-file.js'), import('../tiers/audit.js')]);
  await writeFileAtomic(output, data, { mode: 0o600 });
  await appendAudit(paths.audit, {
    time: home.now().toISOString(),
    action: 'export',
    format: options.format,
    tiers: options.tiers,
    output,
    ...(encrypted ? { encrypted: true } : {}),
    counts: { observations: records.length },
  });
  return { observations: records.length, data, output, encrypted };
}

export interface ImportOptions {
  /** An absolute path: an export file (JSON or CSV, sealed or not) or a folder of Markdown notes. */
  source: string;
  /** Markdown notes: the agent whose memory they become. */
  agent: string;
  /** Count only; write nothing. */
  dryRun?: boolean;
  /** A sealed export: the age key file (default sync.key_file, else the passphrase). */
  keyFile?: string | undefined;
}

/** Read memory back in: an export (ids kept, nothing twice) or a folder of notes (one observation per list item or paragraph). */
export async function importMemory(home: MemoryHome, options: ImportOptions): Promise<ImportResult> {
  const { stat } = await import('node:fs/promises');
  const { source } = options;
  const { paths, config } = home;
  const i = await import('../tiers/import.js');
  const info = await stat(source).catch(() => undefined);
  if (!info)
    throw new OcmError('NOT_FOUND', `Nothing to import at ${source}.`, {
      hint: 'Name an export file (ocm-run export --output FILE) or a folder of Markdown notes.',
    });
  const records = info.isDirectory()
    ? await i.markdownFolderRecords(source, { agent: options.agent })
    : i.parseExportText(await exportText(source, options.keyFile, config.sync.key_file, home.env));
  return underHomeLock(home, () => i.importRecords({ paths, config, records, dryRun: options.dryRun === true }));
}

/** An export file's text; an encrypted one (`export --encrypt`, age) is decrypted with the key file or the passphrase. */
async function exportText(
  file: string,
  keyFile: string | undefined,
  configKeyFile: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const data = await readFile(file);
  if (!data.subarray(0, 22).toString('latin1').startsWith('age-encryption.org/v1')) return data.toString('utf8');
  const { requireFileSecret, unsealForSecret } = await import('../platform/encryption.js');
  const secret = requireFileSecret(keyFile, configKeyFile, env, 'import of an encrypted export');
  return new TextDecoder().decode(await unsealForSecret(secret, data, `The encrypted export ${file}`));
}

/** What a backup or an export was sealed for: a key file, or the passphrase (never the passphrase itself). */
export type SealedFor = { kind: 'key_file'; path: string } | { kind: 'passphrase' };

export interface BackupOptions {
  /** The backup file to write (an absolute path outside the home; mode 0600). */
  output: string;
  /** Seal for this age key file (default sync.key_file, else the passphrase). */
  keyFile?: string | undefined;
}

export interface BackedUp {
  output: string;
  files: number;
  /** Plaintext bytes in the archive. */
  bytes: number;
  sealedFor: SealedFor;
}

/** The whole home (and the vault's cold tier) in one file encrypted with age; `restoreHome` reads it back. */
export async function backupHome(home: MemoryHome, options: BackupOptions): Promise<BackedUp> {
  const { paths, config, env } = home;
  const { requireFileSecret } = await import('../platform/encryption.js');
  const secret = requireFileSecret(options.keyFile, config.sync.key_file, env, 'backup');
  const { createBackup } = await import('../tiers/backup.js');
  const { output } = options;
  if (output.startsWith(`${paths.root}/`))
    throw new OcmError('BAD_INPUT', 'The backup cannot be written inside the home it backs up.', {
      hint: 'Choose a path outside the home.',
    });
  const backup = await underHomeLock(home, () => createBackup(paths, config.tiers.vault_path, secret, home.now()));
  const { writeFileAtomic } = await import('../platform/atomic-file.js');
  await writeFileAtomic(output, backup.data, { mode: 0o600 });
  const sealedFor: SealedFor = secret.kind === 'key_file' ? { kind: 'key_file', path: secret.path } : { kind: 'passphrase' };
  return { output, files: backup.files, bytes: backup.bytes, sealedFor };
}

export interface RestoreOptions {
  /** The backup (an absolute path). */
  file: string;
  /** The age key file it was made for (default: the passphrase in OCM_SYNC_PASSPHRASE). */
  keyFile?: string | undefined;
  /** Restore the cold tier into this vault (default: the vault the backup's config names). */
  vault?: string | undefined;
}

/**
 * Restore a backup (`backupHome`) into `paths`, a home that holds no memory yet. The home may not exist:
 * its .env cannot hold the passphrase, `env` does.
 */
export async function restoreHome(paths: HomePaths, env: NodeJS.ProcessEnv, options: RestoreOptions): Promise<RestoreResult> {
  const [{ readFile }, { fromSystemError }, { requireFileSecret }] = await Promise.all([
    import('node:fs/promises'),
    import('../core/errors.js'),
    import('../platform/encryption.js'),
  ]);
  const sealed = await readFile(options.file).catch((error: unknown) => {
    throw fromSystemError(error, `read the backup ${options.file}`);
  });
  const secret = requireFileSecret(options.keyFile, '', env, 'restore');
  const { restoreBackup } = await import('../tiers/backup.js');
  const restored = await restoreBackup(paths, sealed, secret, options.vault === undefined ? {} : { vaultOverride: options.vault });
  if (restored.files === 0) throw new OcmError('BAD_INPUT', 'The backup holds no files.', { hint: 'Check that it is the file you meant.' });
  return restored;
}
