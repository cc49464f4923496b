import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';
import type { Flags, FlagValues } from '../flags.js';

const BACKUP_FLAGS = {
  output: { value: '<file>', description: 'The backup file to write (mode 0600), e.g. oc-memory.tar.age' },
  keyFile: {
    value: '<file>',
    description: 'Encrypt for this age key file (default: sync.key_file, else the passphrase in OCM_SYNC_PASSPHRASE)',
  },
} as const satisfies Flags;

/** Where to write the backup (an absolute path) and the key file to seal it for. */
interface BackupRequest {
  output: string;
  keyFile: string | undefined;
}

/** The command line as the backup request (checked: --output is given). */
function backupRequest(flags: FlagValues<typeof BACKUP_FLAGS>): BackupRequest {
  if (!flags.output)
    throw new OcmError('BAD_INPUT', 'backup needs --output FILE.', { hint: 'For example: ocm-run backup --output ~/oc-memory.tar.age' });
  return { output: resolve(flags.output), keyFile: flags.keyFile };
}

export const command = defineCommand({
  name: 'backup',
  description: "Write the whole home (and the vault's cold tier) into one encrypted file (age); `ocm-run restore` reads it back",
  homeMustExist: true,
  flags: BACKUP_FLAGS,
  examples: ['ocm-run backup --output ~/oc-memory-2026-12-01.tar.age', 'age -d oc-memory.tar.age | tar x   # without OC-Memory'],
  async run(ctx, _args, options) {
    const { output: out, keyFile } = backupRequest(options);
    const { config, env } = await ctx.config();
    const { requireFileSecret } = await import('../../lib/platform/encryption.js');
    const secret = requireFileSecret(keyFile, config.sync.key_file, env, 'backup');
    const { createBackup } = await import('../../lib/tiers/backup.js');
    const { underLock } = await import('../tier-context.js');
    if (out.startsWith(`${ctx.paths.root}/`))
      throw new OcmError('BAD_INPUT', 'The backup cannot be written inside the home it backs up.', {
        hint: 'Choose a path outside the home.',
      });
    const backup = await underLock(ctx, () => createBackup(ctx.paths, config.tiers.vault_path, secret, ctx.now()));
    const { writeFileAtomic } = await import('../../lib/platform/atomic-file.js');
    await writeFileAtomic(out, backup.data, { mode: 0o600 });
    ctx.out(
      `Backed up ${backup.files} file(s) (${backup.bytes} bytes before encryption) to ${out}, encrypted with age (${secret.kind === 'key_file' ? `key file ${secret.path}` : 'the passphrase in OCM_SYNC_PASSPHRASE'}). A lost key means this backup is lost.`,
    );
    return 0;
  },
});
