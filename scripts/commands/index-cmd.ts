import type { CommandSpec } from '../cli-context.js';

export const command: CommandSpec = {
  name: 'index',
  description: 'Update the search index (and embeddings) from changed memory files; --rebuild for all',
  examples: ['ocm-run index', 'ocm-run index --rebuild', 'ocm-run index --json'],
  options: [['--rebuild', 'Rebuild every index segment (cached embeddings are reused)']],
  async run(ctx, _args, options) {
    const { config } = await ctx.config();
    const { withHomeLock } = await import('../../lib/platform/lock.js');
    const { updateIndex } = await import('../../lib/search/indexer.js');
    const result = await withHomeLock(ctx.paths.lock, () =>
      updateIndex(ctx.paths, config, { logger: ctx.logger('index'), now: () => ctx.now(), rebuild: Boolean(options.rebuild) }),
    );
    if (ctx.json) {
      ctx.out(JSON.stringify(result));
      return;
    }
    for (const w of result.warnings) ctx.err(`ocm-run: ${w}`);
    const embedded = config.embeddings.enabled ? ` · ${result.embedded} embedded, ${result.embeddingCacheHits} from cache` : '';
    ctx.out(
      `Indexed ${result.files} files (${result.documents} documents): ${result.added} added, ${result.changed} changed, ${result.removed} removed, ${result.unchanged} unchanged${embedded} · ${result.mode} search · ${result.durationMs} ms`,
    );
  },
};
