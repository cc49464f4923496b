/**
 * Keeping the search index in step with tier moves and `forget`: after files
 * change, call the search module's incremental update (it finds changed and
 * deleted files by content hash). The index is rebuildable, so a failed
 * update never fails a move: it is logged and `ocm-run index` repairs it.
 */
import type { Config } from '../config-schema.js';
import type { HomePaths } from '../home.js';
import type { Logger } from '../log.js';

export type IndexUpdater = (changed: string[]) => Promise<void>;

interface SearchModule {
  updateIndex?: (paths: HomePaths, config: Config, options: { logger: Logger; now: () => Date; changed?: string[] }) => Promise<unknown>;
}

// Resolved at run time: the search module is loaded only when files changed.
const SEARCH_MODULE = '../search/index.js';

export async function loadSearchModule(): Promise<SearchModule | undefined> {
  try {
    return (await import(SEARCH_MODULE)) as SearchModule;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

export function searchIndexUpdater(options: { paths: HomePaths; config: Config; logger: Logger; now: () => Date }): IndexUpdater {
  return async (changed) => {
    try {
      const mod = await loadSearchModule();
      if (!mod?.updateIndex) return;
      await mod.updateIndex(options.paths, options.config, { logger: options.logger, now: options.now, changed });
    } catch (error) {
      options.logger.log('warn', 'index.update_failed', { error: error instanceof Error ? error.message : String(error), files: changed.length });
    }
  };
}
