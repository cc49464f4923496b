import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import type { RestoreOptions } from '../../lib/tiers/backup.js';
import type { Flags, FlagValues } from '../flags.js';
import { OcmError } from '../../lib/core/errors.js';

const RESTORE_FLAGS = {
  keyFile: { value: '<file>', description: 'The age key file the backup was made for (default: the passphrase in OCM_SYNC_PASSPHRASE)' },
  vault: { value: '<dir>', description: "Restore the cold tier into this vault (default: the vault the backup's config names)" },
} as const satisfies Flags;

/** The backup to read (an absolute path), the key file it was sealed for, and restoreBackup's options. */
interface RestoreRequest {
  file: string;
  keyFile: string | undefined;
  options: RestoreOptions;
}

/** The command line as the restore request. */
function restoreRequest(file: string, flags: FlagValues<typeof RESTORE_FLAGS>): RestoreRequest {
  return { file: resolve(file), keyFile: flags.keyFile, options: flags.vault === undefined ? {} : { vaultOverride: flags.vault } };
}

export const command = defineCommand({
  name: 'restore <file>',
  description: 'Restore a home from an encrypted backup (`ocm-run backup`) into a home that holds no memory yet',
  flags: RESTORE_FLAGS,
  examples: ['ocm-run restore ~/oc-memory.tar.age --home ~/.openclaw/oc-memory', 'OCM_SYNC_PASSPHRASE=… ocm-run restore oc-memory.tar.age'],
  async run(ctx, args, options) {
    const { file, keyFile, options: restoreOptions } = restoreRequest(args.file, options);
    const { readFile } = await import('node:fs/promises');
    const { fromSystemError } = await import('../../lib/core/errors.js');
    const { requireFileSecret } = await import('../../lib/platform/encryption.js');
    const sealed = await readFile(file).catch((error: unknown) => {
      throw fromSystemError(error, `read the backup ${file}`);
    });
    // The home may not exist yet: its .env cannot hold the passphrase, the environment does.
    const secret = requireFileSecret(keyFile, '', ctx.env, 'restore');
    const { restoreBackup } = await import('../../lib/tiers/backup.js');
    const r = await restoreBackup(ctx.paths, sealed, secret, restoreOptions);
    if (r.files === 0) throw new OcmError('BAD_INPUT', 'The backup holds no files.', { hint: 'Check that it is the file you meant.' });
    ctx.out(
      `Restored ${r.files} file(s) (${r.bytes} bytes) from the backup of ${r.created} into ${ctx.paths.root}${r.vault ? ` and ${r.vault}` : ''}.`,
    );
    ctx.out(`Next: ocm-run doctor --home ${JSON.stringify(ctx.paths.root)}   (the search index is rebuilt by the next tick if needed)`);
    return 0;
  },
});
