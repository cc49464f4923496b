/**
 * Encryption of what leaves the machine (encrypted sync, `export --encrypt`, backups), in the age format
 * (age-encryption.org/v1) through `age-encryption`, the TypeScript implementation by age's authors: a
 * file written here is decrypted by the `age` command line tool, with no OC-Memory involved.
 *
 * The secret is a *sync key*: an age X25519 identity (`AGE-SECRET-KEY-1…`). It comes from
 * - a key file (`sync.key_file`, owner-only, the format `age-keygen` writes), or
 * - a passphrase (`OCM_SYNC_PASSPHRASE`): the identity is then generated once and kept beside the
 *   ciphertext encrypted with the passphrase (age's scrypt recipient), so one slow key derivation
 *   unlocks every file. `age -d -i identity.age file.age` asks for the passphrase and decrypts.
 *
 * File names on a remote are a keyed hash of the path (`sealedName`): equal on every device holding the key,
 * meaningless to anyone else. Never logs or writes a secret.
 */
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { OcmError, fromSystemError, isNotFound } from '../core/errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { expandHome } from './home.js';

export interface SyncKey {
  /** `AGE-SECRET-KEY-1…` */
  identity: string;
  /** `age1…`: what files are encrypted to. */
  recipient: string;
  /** Keys the hash that names files on a remote. */
  nameKey: Buffer;
}

/** Where the secret comes from: a key file, or a passphrase that unlocks the identity kept with the ciphertext. */
export type SyncSecret = { kind: 'key_file'; path: string } | { kind: 'passphrase'; passphrase: string };

/** The environment variable holding the passphrase (the environment or the home's `.env`). */
export const PASSPHRASE_VARIABLE = 'OCM_SYNC_PASSPHRASE';

const IDENTITY_LINE = /^AGE-SECRET-KEY-1[0-9A-Z]+$/;

export async function keyFromIdentity(identity: string): Promise<SyncKey> {
  const recipient = await identityToRecipient(identity);
  const nameKey = Buffer.from(hkdfSync('sha256', Buffer.from(identity), Buffer.alloc(0), 'oc-memory sync file names', 32));
  return { identity, recipient, nameKey };
}

export async function generateSyncKey(): Promise<SyncKey> {
  return keyFromIdentity(await generateX25519Identity());
}

/** The secret the settings name: the key file first, else the passphrase; undefined when neither is set. */
export function syncSecret(keyFile: string, env: Record<string, string | undefined>): SyncSecret | undefined {
  if (keyFile.trim()) return { kind: 'key_file', path: expandHome(keyFile.trim()) };
  const passphrase = env[PASSPHRASE_VARIABLE];
  if (passphrase) return { kind: 'passphrase', passphrase };
  return undefined;
}

/** The identity of an age key file (comments and blank lines skipped); refuses a file others can read. */
export async function readKeyFile(path: string): Promise<SyncKey> {
  let text: string;
  try {
    const info = await stat(path);
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      throw new OcmError(
        'PERMISSION_DENIED',
        `The sync key file ${path} can be read by other users (mode ${(info.mode & 0o777).toString(8)}).`,
        {
          hint: `Make it yours alone: chmod 600 ${path}`,
        },
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof OcmError) throw error;
    if (isNotFound(error)) {
      throw new OcmError('CONFIG_INVALID', `The sync key file ${path} (sync.key_file) does not exist.`, {
        hint: `Create one with \`ocm-run sync --new-key ${path}\` (or \`age-keygen -o ${path}\`), or copy the key file of your other device there.`,
      });
    }
    throw fromSystemError(error, `read the sync key file ${path}`);
  }
  const identity = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => IDENTITY_LINE.test(l));
  if (!identity)
    throw new OcmError('CONFIG_INVALID', `${path} (sync.key_file) holds no age identity (a line AGE-SECRET-KEY-1…).`, {
      hint: 'Point sync.key_file at a file made by `ocm-run sync --new-key FILE` or `age-keygen`.',
    });
  return keyFromIdentity(identity);
}

/** Write a key file as age-keygen does (0600); refuses to replace one. */
export async function writeKeyFile(path: string, key: SyncKey, now: Date): Promise<void> {
  if (
    await stat(path).then(
      () => true,
      () => false,
    )
  ) {
    throw new OcmError('BAD_INPUT', `${path} exists already; a key file is never overwritten.`, {
      hint: 'Choose another path, or use that key (sync.key_file).',
    });
  }
  await writeFileAtomic(path, `# created: ${now.toISOString()}\n# public key: ${key.recipient}\n${key.identity}\n`, { mode: 0o600 });
}

/** age ciphertext of `data` for this key. */
export async function seal(key: SyncKey, data: Uint8Array | string): Promise<Uint8Array> {
  const e = new Encrypter();
  e.addRecipient(key.recipient);
  return e.encrypt(data);
}

/** The plaintext of age ciphertext; a file this key cannot open is a WRONG_KEY error. */
export async function unseal(key: SyncKey, data: Uint8Array, what: string): Promise<Uint8Array> {
  const d = new Decrypter();
  d.addIdentity(key.identity);
  try {
    return await d.decrypt(data);
  } catch (error) {
    throw decryptError(error, what, 'key');
  }
}

/** age ciphertext of `data` for a passphrase (scrypt). `workFactor` is log2 of scrypt's N (age's default 18). */
export async function sealWithPassphrase(passphrase: string, data: Uint8Array | string, workFactor?: number): Promise<Uint8Array> {
  const e = new Encrypter();
  e.setPassphrase(passphrase);
  if (workFactor !== undefined) e.setScryptWorkFactor(workFactor);
  return e.encrypt(data);
}

export async function unsealWithPassphrase(passphrase: string, data: Uint8Array, what: string): Promise<Uint8Array> {
  const d = new Decrypter();
  d.addPassphrase(passphrase);
  try {
    return await d.decrypt(data);
  } catch (error) {
    throw decryptError(error, what, 'passphrase');
  }
}

/** The sync key a passphrase unlocks from its encrypted identity file. */
export async function keyFromSealedIdentity(passphrase: string, sealed: Uint8Array, what: string): Promise<SyncKey> {
  const identity = new TextDecoder().decode(await unsealWithPassphrase(passphrase, sealed, what)).trim();
  if (!IDENTITY_LINE.test(identity))
    throw new OcmError('BAD_INPUT', `${what} does not hold an age identity.`, {
      hint: 'It was not written by OC-Memory; check the remote.',
    });
  return keyFromIdentity(identity);
}

/** The name a path gets where others can see it: a keyed hash, the same on every device with this key. */
export function sealedName(key: SyncKey, path: string): string {
  return createHmac('sha256', key.nameKey).update(path).digest('hex').slice(0, 32);
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function decryptError(error: unknown, what: string, kind: 'key' | 'passphrase'): OcmError {
  const message = (error as Error).message ?? String(error);
  const wrong = /no identity matched|incorrect passphrase/i.test(message);
  if (!wrong)
    return new OcmError('BAD_INPUT', `${what} is not a readable age file: ${message}`, {
      hint: 'It may be damaged or not written by OC-Memory.',
    });
  return new OcmError(
    'WRONG_KEY',
    `${what} cannot be decrypted with this ${kind === 'key' ? 'key (sync.key_file)' : `passphrase (${PASSPHRASE_VARIABLE})`}.`,
    {
      hint:
        kind === 'key'
          ? 'Use the key file the other devices use (copy it, mode 0600, and point sync.key_file at it). Nothing was changed here or on the remote.'
          : `Set ${PASSPHRASE_VARIABLE} (environment or the home's .env) to the passphrase the other devices use. Nothing was changed here or on the remote.`,
    },
  );
}

/** One file for a person to keep (an export, a backup): for the key file's key, or for the passphrase itself (age -d asks it). */
export async function sealForSecret(secret: SyncSecret, data: Uint8Array | string): Promise<Uint8Array> {
  return secret.kind === 'key_file' ? seal(await readKeyFile(secret.path), data) : sealWithPassphrase(secret.passphrase, data);
}

export async function unsealForSecret(secret: SyncSecret, data: Uint8Array, what: string): Promise<Uint8Array> {
  return secret.kind === 'key_file'
    ? unseal(await readKeyFile(secret.path), data, what)
    : unsealWithPassphrase(secret.passphrase, data, what);
}

/** The secret for a file a person keeps: `--key-file`, else sync.key_file, else the passphrase; a hint when there is none. */
export function requireFileSecret(
  flagKeyFile: string | undefined,
  configKeyFile: string,
  env: Record<string, string | undefined>,
  what: string,
): SyncSecret {
  const secret = syncSecret(flagKeyFile ?? configKeyFile, env);
  if (secret) return secret;
  throw new OcmError('CONFIG_MISSING', `${what} needs a key: none of --key-file, sync.key_file or ${PASSPHRASE_VARIABLE} is set.`, {
    hint: `Set ${PASSPHRASE_VARIABLE} (environment or the home's .env), or pass --key-file FILE (make one with \`ocm-run sync --new-key FILE\`).`,
  });
}
