import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { BackupOptions } from '../../lib/api/transfer.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

const BACKUP_FLAGS = {
  output: { value: '<file>', description: 'The backup file to write (mode 0600), e.g. oc-memory.tar.age' },
  keyFile: {
    value: '<file>',
    description: 'Encrypt for this age key file (default: sync.key_file, else the passphrase in OCM_SYNC_PASSPHRASE)',
  },
} as const satisfies Flags;

/** The command line as the backup's options (checked: --output is given; made absolute). */
function backupOptions(flags: FlagValues<typeof BACKUP_FLAGS>): BackupOptions {
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
  async run(ctx, _args, flags) {
    const options = backupOptions(flags);
    const { backupHome } = await import('../../lib/api/transfer.js');
    const b = await backupHome(await memoryHome(ctx), options);
    ctx.out(
      `Backed up ${b.files} file(s) (${b.bytes} bytes before encryption) to ${b.output}, encrypted with age (${b.sealedFor.kind === 'key_file' ? `key file ${b.sealedFor.path}` : 'the passphrase in OCM_SYNC_PASSPHRASE'}). A lost key means this backup is lost.`,
    );
    return 0;
  },
});
