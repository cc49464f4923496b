import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { Tier } from '../../lib/api/index.js';
import type { ExportOptions } from '../../lib/api/transfer.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

const EXPORT_FLAGS = {
  format: { value: '<format>', description: 'json or csv', default: 'json' },
  tier: { value: '<tier>', description: 'hot, warm, cold or all (comma-separated for several)', default: 'all' },
  output: { value: '<file>', description: 'Write to this file (mode 0600) instead of stdout' },
  encrypt: {
    description: 'Encrypt it (age): for sync.key_file or --key-file, else the passphrase in OCM_SYNC_PASSPHRASE; `age -d` reads it back',
  },
  keyFile: { value: '<file>', description: 'With --encrypt: encrypt for this age key file' },
} as const satisfies Flags;

/** The command line as the export's options (checked: the format, then the tiers; the output file made absolute). */
function exportOptions(flags: FlagValues<typeof EXPORT_FLAGS>): ExportOptions {
  const { format } = flags;
  if (format !== 'json' && format !== 'csv')
    throw new OcmError('BAD_INPUT', `--format must be json or csv, not "${format}".`, {
      hint: 'For example: ocm-run export --format csv',
    });
  const tiers: Tier[] = flags.tier === 'all' ? ['hot', 'warm', 'cold'] : (flags.tier.split(',').map((t) => t.trim()) as Tier[]);
  for (const t of tiers)
    if (!['hot', 'warm', 'cold'].includes(t))
      throw new OcmError('BAD_INPUT', `--tier must be hot, warm, cold or all, not "${t}".`, { hint: 'For example: --tier warm,cold' });
  return { format, tiers, output: flags.output ? resolve(flags.output) : undefined, encrypt: flags.encrypt, keyFile: flags.keyFile };
}

export const command = defineCommand({
  name: 'export',
  description: 'Write every observation with its metadata and provenance as JSON or CSV (data portability)',
  homeMustExist: true,
  flags: EXPORT_FLAGS,
  examples: [
    'ocm-run export --format json --output memory.json',
    'ocm-run export --format csv --tier warm,cold > old.csv',
    'ocm-run export --encrypt --output memory.json.age',
  ],
  async run(ctx, _args, flags) {
    const options = exportOptions(flags);
    const { exportMemory } = await import('../../lib/api/transfer.js');
    const exported = await exportMemory(await memoryHome(ctx), options);
    if (exported.output)
      ctx.err(
        `Exported ${exported.observations} observation(s) to ${exported.output}${exported.encrypted ? ' (encrypted with age: `age -d` reads it back)' : ''}.`,
      );
    else process.stdout.write(exported.data);
  },
});
