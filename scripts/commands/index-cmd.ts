import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'index',
  description: 'Update the search index (and embeddings) from changed memory files; --rebuild for all',
  examples: ['ocm-run index', 'ocm-run index --rebuild', 'ocm-run index --json'],
  flags: { rebuild: { description: 'Rebuild every index segment (cached embeddings are reused)' } },
  async run(ctx, _args, options) {
    const { config } = await ctx.config();
    const { withHomeLock } = await import('../../lib/platform/lock.js');
    const { updateIndex } = await import('../../lib/search/indexer.js');
    const { embeddingSettings } = await import('../../lib/search/embeddings.js');
    const { createProgress, etaText } = await import('../progress.js');
    const embedding = embeddingSettings(config);
    // On a terminal, a live line: each file of the total with an ETA, then the embeddings; otherwise only the summary line below.
    const live = createProgress(ctx.isTTY && !ctx.json);
    const started = Date.now();
    const onFileProgress = (done: number, total: number, path: string) =>
      live.update(
        `Indexing file ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} · ${path}${etaText((done - 1) / total, started, Date.now())}`,
      );
    let embedStarted: number | undefined;
    const onEmbedProgress = (done: number, total: number) => {
      embedStarted ??= Date.now();
      live.update(
        `Embedding ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} documents${etaText(done / total, embedStarted, Date.now()) || '…'}`,
      );
    };
    const result = await withHomeLock(ctx.paths.lock, () =>
      updateIndex(ctx.paths, config, {
        logger: ctx.logger('index'),
        now: () => ctx.now(),
        rebuild: options.rebuild,
        onFileProgress,
        onEmbedProgress: ctx.json ? undefined : onEmbedProgress,
      }),
    );
    live.done();
    if (ctx.json) {
      ctx.out(JSON.stringify(result));
      return;
    }
    for (const w of result.warnings) ctx.err(`ocm-run: ${w}`);
    const embedded = embedding
      ? ` · ${result.embedded} embedded (${embedding.provider === 'local' ? 'local model' : embedding.model}), ${result.embeddingCacheHits} from cache`
      : '';
    ctx.out(
      `Indexed ${result.files} files (${result.documents} documents): ${result.added} added, ${result.changed} changed, ${result.removed} removed, ${result.unchanged} unchanged${embedded} · ${result.mode} search · ${result.durationMs} ms`,
    );
  },
});
