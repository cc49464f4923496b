import { defineCommand } from '../cli-context.js';
import type { IndexUpdateOptions } from '../../lib/api/maintenance.js';
import type { Flags, FlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

const INDEX_FLAGS = { rebuild: { description: 'Rebuild every index segment (cached embeddings are reused)' } } as const satisfies Flags;

/** The command line as the index update's options. */
function indexOptions(flags: FlagValues<typeof INDEX_FLAGS>): IndexUpdateOptions {
  return { rebuild: flags.rebuild };
}

export const command = defineCommand({
  name: 'index',
  description: 'Update the search index (and embeddings) from changed memory files; --rebuild for all',
  examples: ['ocm-run index', 'ocm-run index --rebuild', 'ocm-run index --json'],
  flags: INDEX_FLAGS,
  async run(ctx, _args, flags) {
    const options = indexOptions(flags);
    const home = await memoryHome(ctx, 'index');
    const { updateSearchIndex } = await import('../../lib/api/maintenance.js');
    const { createProgress, etaText } = await import('../progress.js');
    // On a terminal, a live line: each file of the total with an ETA, then the embeddings; otherwise only the summary line below.
    const live = createProgress(ctx.isTTY && !ctx.json);
    const started = Date.now();
    const onFileProgress = (done: number, total: number, path: string) =>
      live.update(
        () =>
          `Indexing file ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} · ${path}${etaText((done - 1) / total, started, Date.now())}`,
      );
    let embedStarted: number | undefined;
    const onEmbedProgress = (done: number, total: number) => {
      const since = (embedStarted ??= Date.now());
      live.update(
        () =>
          `Embedding ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} documents${etaText(done / total, since, Date.now()) || '…'}`,
      );
    };
    const { index: result, embeddings: embedding } = await updateSearchIndex(home, {
      ...options,
      onFileProgress,
      ...(ctx.json ? {} : { onEmbedProgress }),
    });
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
