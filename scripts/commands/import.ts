import type { CommandSpec } from '../cli-context.js';

export const command: CommandSpec = {
  name: 'import <source>',
  description: 'Read memory back in: an `ocm-run export` file (JSON or CSV; ids kept, nothing twice) or a folder of Markdown notes (one observation per list item or paragraph)',
  homeMustExist: true,
  options: [
    ['--agent <name>', 'Markdown notes: the agent whose memory they become (default: main)'],
    ['--dry-run', 'Count what would be imported; write nothing'],
  ],
  examples: ['ocm-run import memory.json', 'ocm-run import ~/Obsidian/Notes --agent main', 'ocm-run import old.csv --dry-run'],
  async run(ctx, args, options) {
    const { resolve } = await import('node:path');
    const { stat, readFile } = await import('node:fs/promises');
    const { OcmError } = await import('../../lib/core/errors.js');
    const source = resolve(String(args[0]));
    const { config } = await ctx.config();
    const i = await import('../../lib/tiers/import.js');
    const info = await stat(source).catch(() => undefined);
    if (!info) throw new OcmError('NOT_FOUND', `Nothing to import at ${source}.`, { hint: 'Name an export file (ocm-run export --output FILE) or a folder of Markdown notes.' });
    const dryRun = Boolean(options.dryRun);
    const agent = options.agent === undefined ? 'main' : String(options.agent);
    const { underLock } = await import('../tier-context.js');
    const records = info.isDirectory() ? await i.markdownFolderRecords(source, { agent }) : i.parseExportText(await readFile(source, 'utf8'));
    const r = await underLock(ctx, () => i.importRecords({ paths: ctx.paths, config, records, dryRun }));
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, dryRun, source, ...r }));
      return;
    }
    ctx.out(`${dryRun ? 'Dry run: would import' : 'Imported'} ${r.added} of ${r.read} observation(s) from ${source} into ${r.days} day file(s) of ${ctx.paths.root}; ${r.present} already there (same id) ${dryRun ? 'would be' : 'were'} left as they are.`);
  },
};
