/**
 * Sync the memory now (`ocm-run sync`): Git and/or sync.command, encrypted
 * when sync.encrypt is on, under the home lock — the sync job's own run
 * (jobs/sync/index.ts runSync); a failure is queued and retried by `run`.
 * With a key rotation the remote is re-encrypted for a new key file (made
 * when missing, and named in config.yaml once the remote is re-encrypted) or
 * for the passphrase in OCM_SYNC_NEW_PASSPHRASE. A new key file alone is
 * `newSyncKey`.
 */
import { OcmError } from '../core/errors.js';
import type { SyncSecret } from '../platform/encryption.js';
import type { SyncResult } from '../jobs/sync/index.js';
import { underHomeLock, type MemoryHome } from './home.js';
import type { SealedFor } from './transfer.js';

/** The environment variable a key rotation reads the new passphrase from. */
export const NEW_PASSPHRASE = 'OCM_SYNC_NEW_PASSPHRASE';

export interface SyncNowOptions {
  /** Re-encrypt the remote for a new key: this key file (absolute; undefined: the passphrase in OCM_SYNC_NEW_PASSPHRASE). */
  rotate?: { keyFile: string | undefined };
  /** The config file sync.key_file is set in after a rotation to a key file. */
  configFile: string;
  /** A rotation's key file did not exist and was written now (0600). */
  onNewKeyFile?: (file: string) => void;
  /** Test hook: named points of an encrypted run (jobs/sync/encrypted.ts). */
  onStep?: ((step: string) => void) | undefined;
}

export interface Synced {
  result: SyncResult;
  /** A rotation: what the remote is encrypted for now (when `result.encrypted.rotated`). */
  rotatedTo?: SealedFor;
}

/** Sync now, under the home lock; with `rotate`, re-encrypt the remote for the new secret. */
export async function syncNow(home: MemoryHome, options: SyncNowOptions): Promise<Synced> {
  const { paths, config, env } = home;
  const rotateTo = options.rotate ? await rotationSecret(home, options.rotate.keyFile, options.onNewKeyFile) : undefined;
  const { runSync } = await import('../jobs/sync/index.js');
  const { onStep } = options;
  const result = await underHomeLock(home, () =>
    runSync(
      { paths, config, env, logger: home.logger, now: home.now, ...(rotateTo ? { rotateTo } : {}), ...(onStep ? { onStep } : {}) },
      'manual',
    ),
  );
  if (!rotateTo) return { result };
  if (rotateTo.kind === 'key_file' && result.encrypted?.rotated) {
    const { setConfigValue } = await import('../config/config.js');
    await setConfigValue({ file: options.configFile, envFile: paths.env, keyPath: 'sync.key_file', value: rotateTo.path, env });
  }
  return { result, rotatedTo: rotateTo.kind === 'key_file' ? { kind: 'key_file', path: rotateTo.path } : { kind: 'passphrase' } };
}

/** The new secret of a key rotation: the key file (written when missing), else OCM_SYNC_NEW_PASSPHRASE. */
async function rotationSecret(
  home: MemoryHome,
  keyFile: string | undefined,
  onNewKeyFile: ((file: string) => void) | undefined,
): Promise<SyncSecret> {
  if (!home.config.sync.encrypt)
    throw new OcmError('CONFIG_INVALID', '--rotate-key re-encrypts an encrypted remote, and sync.encrypt is off.', {
      hint: 'Turn it on first: ocm-run config set sync.encrypt true',
    });
  if (keyFile) {
    const { exists } = await import('../platform/home.js');
    if (!(await exists(keyFile))) {
      await newSyncKey(keyFile, home.now());
      onNewKeyFile?.(keyFile);
    }
    return { kind: 'key_file', path: keyFile };
  }
  const passphrase = home.env[NEW_PASSPHRASE];
  if (passphrase) return { kind: 'passphrase', passphrase };
  throw new OcmError('BAD_INPUT', `--rotate-key needs the new secret: --new-key-file FILE, or ${NEW_PASSPHRASE} in the environment.`, {
    hint: `For example: ${NEW_PASSPHRASE}='a new long passphrase' ocm-run sync --rotate-key`,
  });
}

/** Write a new sync key file (age format, mode 0600) at `file`; its public key is `recipient`. */
export async function newSyncKey(file: string, now: Date): Promise<{ file: string; recipient: string }> {
  const { generateSyncKey, writeKeyFile } = await import('../platform/encryption.js');
  const key = await generateSyncKey();
  await writeKeyFile(file, key, now);
  return { file, recipient: key.recipient };
}
