import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';

const IMPORT_FLAGS = {
  agent: { value: '<name>', description: 'Markdown notes: the agent whose memory they become (default: main)' },
  dryRun: { description: 'Count what would be imported; write nothing' },
  keyFile: {
    value: '<file>',
    description: 'An encrypted export (`export --encrypt`): the age key file (default: sync.key_file, else OCM_SYNC_PASSPHRASE)',
  },
} as const satisfies Flags;

/** What to import from where: the source as an absolute path, the agent of Markdown notes, the key of a sealed export. */
interface ImportRequest {
  source: string;
  /** Count only; write nothing. */
  dryRun: boolean;
  agent: string;
  keyFile: string | undefined;
}

/** The command line as the import request. */
function importRequest(source: string, flags: FlagValues<typeof IMPORT_FLAGS>): ImportRequest {
  return { source: resolve(source), agent: flags.agent ?? 'main', dryRun: flags.dryRun, keyFile: flags.keyFile };
}

export const command = defineCommand({
  name: 'import <source>',
  description:
    'Read memory back in: an `ocm-run export` file (JSON or CSV; ids kept, nothing twice) or a folder of Markdown notes (one observation per list item or paragraph)',
  homeMustExist: true,
  flags: IMPORT_FLAGS,
  examples: ['ocm-run import memory.json', 'ocm-run import ~/Obsidian/Notes --agent main', 'ocm-run import old.csv --dry-run'],
  async run(ctx, args, options) {
    const { stat } = await import('node:fs/promises');
    const { OcmError } = await import('../../lib/core/errors.js');
    const { source, agent, dryRun, keyFile } = importRequest(args.source, options);
    const { config } = await ctx.config();
    const i = await import('../../lib/tiers/import.js');
    const info = await stat(source).catch(() => undefined);
    if (!info)
      throw new OcmError('NOT_FOUND', `Nothing to import at ${source}.`, {
        hint: 'Name an export file (ocm-run export --output FILE) or a folder of Markdown notes.',
      });
    const { underLock } = await import('../tier-context.js');
    const records = info.isDirectory()
      ? await i.markdownFolderRecords(source, { agent })
      : i.parseExportText(await exportText(source, keyFile, config.sync.key_file, (await ctx.config()).env));
    const r = await underLock(ctx, () => i.importRecords({ paths: ctx.paths, config, records, dryRun }));
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, dryRun, source, ...r }));
      return;
    }
    ctx.out(
      `${dryRun ? 'Dry run: would import' : 'Imported'} ${r.added} of ${r.read} observation(s) from ${source} into ${r.days} day file(s) of ${ctx.paths.root}; ${r.present} already there (same id) ${dryRun ? 'would be' : 'were'} left as they are.`,
    );
  },
});

/** An export file's text; an encrypted one (`export --encrypt`, age) is decrypted with the key file or the passphrase. */
async function exportText(
  file: string,
  keyFile: string | undefined,
  configKeyFile: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const data = await readFile(file);
  if (!data.subarray(0, 22).toString('latin1').startsWith('age-encryption.org/v1')) return data.toString('utf8');
  const { requireFileSecret, unsealForSecret } = await import('../../lib/platform/encryption.js');
  const secret = requireFileSecret(keyFile, configKeyFile, env, 'import of an encrypted export');
  return new TextDecoder().decode(await unsealForSecret(secret, data, `The encrypted export ${file}`));
}
