import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import type { RestoreOptions } from '../../lib/api/transfer.js';
import type { Flags, FlagValues } from '../flags.js';

const RESTORE_FLAGS = {
  keyFile: { value: '<file>', description: 'The age key file the backup was made for (default: the passphrase in OCM_SYNC_PASSPHRASE)' },
  vault: { value: '<dir>', description: "Restore the cold tier into this vault (default: the vault the backup's config names)" },
} as const satisfies Flags;

/** The command line as the restore's options: the backup made absolute, its key file, the vault for the cold tier. */
function restoreOptions(file: string, flags: FlagValues<typeof RESTORE_FLAGS>): RestoreOptions {
  return { file: resolve(file), keyFile: flags.keyFile, vault: flags.vault };
}

export const command = defineCommand({
  name: 'restore <file>',
  description: 'Restore a home from an encrypted backup (`ocm-run backup`) into a home that holds no memory yet',
  flags: RESTORE_FLAGS,
  examples: ['ocm-run restore ~/oc-memory.tar.age --home ~/.openclaw/oc-memory', 'OCM_SYNC_PASSPHRASE=… ocm-run restore oc-memory.tar.age'],
  async run(ctx, args, flags) {
    const { restoreHome } = await import('../../lib/api/transfer.js');
    // The home may not exist yet: no config is read, and the passphrase comes from the environment.
    const r = await restoreHome(ctx.paths, ctx.env, restoreOptions(args.file, flags));
    ctx.out(
      `Restored ${r.files} file(s) (${r.bytes} bytes) from the backup of ${r.created} into ${ctx.paths.root}${r.vault ? ` and ${r.vault}` : ''}.`,
    );
    ctx.out(`Next: ocm-run doctor --home ${JSON.stringify(ctx.paths.root)}   (the search index is rebuilt by the next tick if needed)`);
    return 0;
  },
});
