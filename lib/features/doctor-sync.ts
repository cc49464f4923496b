/**
 * doctor's sync checks: sync that sends the memory in clear is a warning; with sync.encrypt, a missing
 * or unreadable key, or a sync command handed plain files, is a failure (the next sync would fail).
 * Reads the key file to check it, never prints it.
 */
import type { Config } from '../config/config-schema.js';
import { describeError } from '../core/errors.js';
import type { Check } from './doctor.js';

export async function checkSync(config: Config, env: Record<string, string | undefined>): Promise<Check[]> {
  const git = config.sync.git.enabled;
  const command = config.sync.command.trim();
  if (!git && !command) return [];
  const where = [git ? `Git ${config.sync.git.remote || '(local commits only)'}` : '', command ? 'sync.command' : '']
    .filter(Boolean)
    .join(' and ');
  const title = 'Sync';
  if (!config.sync.encrypt) {
    return [
      {
        id: 'sync.encrypt',
        status: 'warn',
        title,
        detail: `sync is on (${where}) and sends your memory in clear: whoever holds the remote reads it`,
        fix: "Encrypt it: put OCM_SYNC_PASSPHRASE=<a long passphrase> in the home's .env (the same on every device), then `ocm-run config set sync.encrypt true`",
      },
    ];
  }
  const { syncSecret, readKeyFile, PASSPHRASE_VARIABLE } = await import('../platform/encryption.js');
  const secret = syncSecret(config.sync.key_file, env);
  if (!secret) {
    return [
      {
        id: 'sync.encrypt',
        status: 'fail',
        title,
        detail: `sync.encrypt is on but there is no key (sync.key_file or ${PASSPHRASE_VARIABLE})`,
        fix: `Put ${PASSPHRASE_VARIABLE}=… in the home's .env, or \`ocm-run sync --new-key FILE\` and set sync.key_file`,
      },
    ];
  }
  if (secret.kind === 'key_file') {
    try {
      await readKeyFile(secret.path);
    } catch (error) {
      const d = describeError(error);
      return [{ id: 'sync.encrypt', status: 'fail', title, detail: d.message, fix: d.hint ?? 'Fix sync.key_file.' }];
    }
  }
  if (command && /\{(home|vault|cold)\}|<(home|vault|cold)>/.test(command)) {
    return [
      {
        id: 'sync.encrypt',
        status: 'fail',
        title,
        detail: 'sync.command names plain files ({home}, {vault} or {cold}) while sync.encrypt is on: it is refused',
        fix: 'Use {encrypted}, e.g. `rclone sync {encrypted} remote:OC-Memory`',
      },
    ];
  }
  return [
    {
      id: 'sync.encrypt',
      status: 'ok',
      title,
      detail: `${where}, encrypted (age) with ${secret.kind === 'key_file' ? `the key file ${secret.path}` : `the passphrase in ${PASSPHRASE_VARIABLE}`}`,
    },
  ];
}
