import { resolve } from 'node:path';
import { defineCommand } from '../cli-context.js';
import type { ImportOptions } from '../../lib/api/transfer.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

const IMPORT_FLAGS = {
  agent: { value: '<name>', description: 'Markdown notes: the agent whose memory they become (default: main)' },
  dryRun: { description: 'Count what would be imported; write nothing' },
  keyFile: {
    value: '<file>',
    description: 'An encrypted export (`export --encrypt`): the age key file (default: sync.key_file, else OCM_SYNC_PASSPHRASE)',
  },
} as const satisfies Flags;

/** The command line as the import's options: the source made absolute, the agent of Markdown notes, the key of a sealed export. */
function importOptions(source: string, flags: FlagValues<typeof IMPORT_FLAGS>): ImportOptions {
  return { source: resolve(source), agent: flags.agent ?? 'main', dryRun: flags.dryRun, keyFile: flags.keyFile };
}

export const command = defineCommand({
  name: 'import <source>',
  description:
    'Read memory back in: an `ocm-run export` file (JSON or CSV; ids kept, nothing twice) or a folder of Markdown notes (one observation per list item or paragraph)',
  homeMustExist: true,
  flags: IMPORT_FLAGS,
  examples: ['ocm-run import memory.json', 'ocm-run import ~/Obsidian/Notes --agent main', 'ocm-run import old.csv --dry-run'],
  async run(ctx, args, flags) {
    const options = importOptions(args.source, flags);
    const { source, dryRun } = options;
    const { importMemory } = await import('../../lib/api/transfer.js');
    const r = await importMemory(await memoryHome(ctx), options);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, dryRun, source, ...r }));
      return;
    }
    ctx.out(
      `${dryRun ? 'Dry run: would import' : 'Imported'} ${r.added} of ${r.read} observation(s) from ${source} into ${r.days} day file(s) of ${ctx.paths.root}; ${r.present} already there (same id) ${dryRun ? 'would be' : 'were'} left as they are.`,
    );
  },
});
