import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';
import type { Tier } from '../../lib/core/types.js';
import type { ExportFormat } from '../../lib/tiers/export.js';
import type { Flags, FlagValues } from '../flags.js';

const EXPORT_FLAGS = {
  format: { value: '<format>', description: 'json or csv', default: 'json' },
  tier: { value: '<tier>', description: 'hot, warm, cold or all (comma-separated for several)', default: 'all' },
  output: { value: '<file>', description: 'Write to this file (mode 0600) instead of stdout' },
  encrypt: {
    description: 'Encrypt it (age): for sync.key_file or --key-file, else the passphrase in OCM_SYNC_PASSPHRASE; `age -d` reads it back',
  },
  keyFile: { value: '<file>', description: 'With --encrypt: encrypt for this age key file' },
} as const satisfies Flags;

/** What to export, in which format, where, and whether sealed. */
interface ExportRequest {
  format: ExportFormat;
  tiers: Tier[];
  /** Undefined: stdout. */
  output: string | undefined;
  encrypt: boolean;
  keyFile: string | undefined;
}

/** The command line as the export request (checked: the format, then the tiers). */
function exportRequest(flags: FlagValues<typeof EXPORT_FLAGS>): ExportRequest {
  const { format } = flags;
  if (format !== 'json' && format !== 'csv')
    throw new OcmError('BAD_INPUT', `--format must be json or csv, not "${format}".`, {
      hint: 'For example: ocm-run export --format csv',
    });
  const tiers: Tier[] = flags.tier === 'all' ? ['hot', 'warm', 'cold'] : (flags.tier.split(',').map((t) => t.trim()) as Tier[]);
  for (const t of tiers)
    if (!['hot', 'warm', 'cold'].includes(t))
      throw new OcmError('BAD_INPUT', `--tier must be hot, warm, cold or all, not "${t}".`, { hint: 'For example: --tier warm,cold' });
  return { format, tiers, output: flags.output || undefined, encrypt: flags.encrypt, keyFile: flags.keyFile };
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
  async run(ctx, _args, options) {
    const { format, tiers, output, encrypt, keyFile } = exportRequest(options);
    const { config } = await ctx.config();
    const { collectExport, formatExport } = await import('../../lib/tiers/export.js');
    // Under the home lock: never read a day while a tier move is half done.
    const { underLock } = await import('../tier-context.js');
    const records = await underLock(ctx, () => collectExport(ctx.paths, config, tiers));
    const plain = formatExport(records, format, ctx.now());
    let text: string | Uint8Array = plain;
    if (encrypt) {
      const { requireFileSecret, sealForSecret } = await import('../../lib/platform/encryption.js');
      const { env } = await ctx.config();
      text = await sealForSecret(requireFileSecret(keyFile, config.sync.key_file, env, 'export --encrypt'), plain);
    }
    if (output) {
      const { resolve } = await import('node:path');
      const { writeFileAtomic } = await import('../../lib/platform/atomic-file.js');
      const { appendAudit } = await import('../../lib/tiers/audit.js');
      const out = resolve(output);
      await writeFileAtomic(out, text, { mode: 0o600 });
      await appendAudit(ctx.paths.audit, {
        time: ctx.now().toISOString(),
        action: 'export',
        format,
        tiers,
        output: out,
        ...(encrypt ? { encrypted: true } : {}),
        counts: { observations: records.length },
      });
      ctx.err(`Exported ${records.length} observation(s) to ${out}${encrypt ? ' (encrypted with age: `age -d` reads it back)' : ''}.`);
    } else {
      process.stdout.write(text);
    }
  },
});
