import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';
import type { Tier } from '../../lib/core/types.js';

export const command = defineCommand({
  name: 'export',
  description: 'Write every observation with its metadata and provenance as JSON or CSV (data portability)',
  homeMustExist: true,
  flags: {
    format: { value: '<format>', description: 'json or csv', default: 'json' },
    tier: { value: '<tier>', description: 'hot, warm, cold or all (comma-separated for several)', default: 'all' },
    output: { value: '<file>', description: 'Write to this file (mode 0600) instead of stdout' },
    encrypt: {
      description: 'Encrypt it (age): for sync.key_file or --key-file, else the passphrase in OCM_SYNC_PASSPHRASE; `age -d` reads it back',
    },
    keyFile: { value: '<file>', description: 'With --encrypt: encrypt for this age key file' },
  },
  examples: [
    'ocm-run export --format json --output memory.json',
    'ocm-run export --format csv --tier warm,cold > old.csv',
    'ocm-run export --encrypt --output memory.json.age',
  ],
  async run(ctx, _args, options) {
    const format = String(options.format ?? 'json');
    if (format !== 'json' && format !== 'csv')
      throw new OcmError('BAD_INPUT', `--format must be json or csv, not "${format}".`, {
        hint: 'For example: ocm-run export --format csv',
      });
    const tierArg = String(options.tier ?? 'all');
    const tiers: Tier[] = tierArg === 'all' ? ['hot', 'warm', 'cold'] : (tierArg.split(',').map((t) => t.trim()) as Tier[]);
    for (const t of tiers)
      if (!['hot', 'warm', 'cold'].includes(t))
        throw new OcmError('BAD_INPUT', `--tier must be hot, warm, cold or all, not "${t}".`, { hint: 'For example: --tier warm,cold' });
    const { config } = await ctx.config();
    const { collectExport, formatExport } = await import('../../lib/tiers/export.js');
    // Under the home lock: never read a day while a tier move is half done.
    const { underLock } = await import('../tier-context.js');
    const records = await underLock(ctx, () => collectExport(ctx.paths, config, tiers));
    const plain = formatExport(records, format, ctx.now());
    let text: string | Uint8Array = plain;
    if (options.encrypt) {
      const { requireFileSecret, sealForSecret } = await import('../../lib/platform/encryption.js');
      const { env } = await ctx.config();
      text = await sealForSecret(
        requireFileSecret(
          options.keyFile === undefined ? undefined : String(options.keyFile),
          config.sync.key_file,
          env,
          'export --encrypt',
        ),
        plain,
      );
    }
    if (options.output) {
      const { resolve } = await import('node:path');
      const { writeFileAtomic } = await import('../../lib/platform/atomic-file.js');
      const { appendAudit } = await import('../../lib/tiers/audit.js');
      const out = resolve(String(options.output));
      await writeFileAtomic(out, text, { mode: 0o600 });
      await appendAudit(ctx.paths.audit, {
        time: ctx.now().toISOString(),
        action: 'export',
        format,
        tiers,
        output: out,
        ...(options.encrypt ? { encrypted: true } : {}),
        counts: { observations: records.length },
      });
      ctx.err(
        `Exported ${records.length} observation(s) to ${out}${options.encrypt ? ' (encrypted with age: `age -d` reads it back)' : ''}.`,
      );
    } else {
      process.stdout.write(text);
    }
  },
});
