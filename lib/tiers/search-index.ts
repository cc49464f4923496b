/**
 * Keeping the search index in step with tier moves and `forget`: after files
 * change, run the search module's incremental update (lib/search: it finds
 * changed and deleted files by content hash and re-indexes only those). The
 * index is rebuildable, so a failed update never fails a move: it is logged
 * and the next `ocm-run index` (or tick) repairs it.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';

export type IndexUpdater = (changed: string[]) => Promise<void>;

export function searchIndexUpdater(options: { paths: HomePaths; config: Config; logger: Logger; now: () => Date }): IndexUpdater {
  return async (changed) => {
    try {
      const { updateIndex } = await import('../search/index.js');
      await updateIndex(options.paths, options.config, { logger: options.logger, now: options.now });
    } catch (error) {
      options.logger.log('warn', 'index.update_failed', {
        error: error instanceof Error ? error.message : String(error),
        files: changed.length,
      });
    }
  };
}
