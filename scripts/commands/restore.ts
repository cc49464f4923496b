import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';

export const command = defineCommand({
  name: 'restore <file>',
  description: 'Restore a home from an encrypted backup (`ocm-run backup`) into a home that holds no memory yet',
  flags: {
    keyFile: { value: '<file>', description: 'The age key file the backup was made for (default: the passphrase in OCM_SYNC_PASSPHRASE)' },
    vault: { value: '<dir>', description: "Restore the cold tier into this vault (default: the vault the backup's config names)" },
  },
  examples: ['ocm-run restore ~/oc-memory.tar.age --home ~/.openclaw/oc-memory', 'OCM_SYNC_PASSPHRASE=… ocm-run restore oc-memory.tar.age'],
  async run(ctx, args, options) {
    const { resolve } = await import('node:path');
    const { readFile } = await import('node:fs/promises');
    const { fromSystemError } = await import('../../lib/core/errors.js');
    const { requireFileSecret } = await import('../../lib/platform/encryption.js');
    const file = resolve(args.file);
    const sealed = await readFile(file).catch((error: unknown) => {
      throw fromSystemError(error, `read the backup ${file}`);
    });
    // The home may not exist yet: its .env cannot hold the passphrase, the environment does.
    const secret = requireFileSecret(options.keyFile === undefined ? undefined : String(options.keyFile), '', ctx.env, 'restore');
    const { restoreBackup } = await import('../../lib/tiers/backup.js');
    const r = await restoreBackup(ctx.paths, sealed, secret, options.vault === undefined ? {} : { vaultOverride: String(options.vault) });
    if (r.files === 0) throw new OcmError('BAD_INPUT', 'The backup holds no files.', { hint: 'Check that it is the file you meant.' });
    ctx.out(
      `Restored ${r.files} file(s) (${r.bytes} bytes) from the backup of ${r.created} into ${ctx.paths.root}${r.vault ? ` and ${r.vault}` : ''}.`,
    );
    ctx.out(`Next: ocm-run doctor --home ${JSON.stringify(ctx.paths.root)}   (the search index is rebuilt by the next tick if needed)`);
    return 0;
  },
});
