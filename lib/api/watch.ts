/**
 * Watch a memory home's sources (`ocm-run watch`, `ocm-run start`): claim the
 * watcher's pidfile, run a tick (jobs/run-job.ts runTick, under the home
 * lock) on file-system events in the folders the configured sources read and
 * periodically, with one embedding worker kept for every tick; `stop`
 * releases everything. The watching itself is jobs/watch.ts startWatch.
 */
import type { TickEvent } from '../jobs/watch.js';
import type { MemoryHome } from './home.js';

export type { TickEvent } from '../jobs/watch.js';

export interface WatchHomeOptions {
  /** How the watcher was started: in a terminal, or in the background by `start --daemon` (the pidfile says which). */
  mode: 'foreground' | 'daemon';
  /** The user's home, where the sources' folders are found (default os.homedir()). */
  userHome?: string;
  /** Every tick's outcome. */
  onTick?: (event: TickEvent) => void;
}

export interface Watching {
  /** The folders of the configured sources. */
  targets: string[];
  /** Those not there yet (picked up when created). */
  missing: string[];
  /** Stop watching (a running tick ends first) and release the pidfile; `signal` is logged. */
  stop(signal: string): Promise<void>;
}

/** Start watching the home's sources; resolves once every existing folder is watched. */
export async function watchHome(home: MemoryHome, options: WatchHomeOptions): Promise<Watching> {
  const { paths, config, env, logger } = home;
  const { homedir } = await import('node:os');
  const [{ runTick }, { startWatch, watchTargetsFromConfig }, { claimPidfile }] = await Promise.all([
    import('../jobs/run-job.js'),
    import('../jobs/watch.js'),
    import('../jobs/daemon.js'),
  ]);
  const release = await claimPidfile(paths, options.mode, home.now());
  const targets = await watchTargetsFromConfig(config, env, options.userHome ?? homedir());
  // One embedding worker for every tick, its model kept loaded for five minutes after the last batch.
  const [{ embeddingSettings }, { createEmbedder }] = await Promise.all([
    import('../search/embeddings.js'),
    import('../search/embedder.js'),
  ]);
  const embedding = embeddingSettings(config);
  const embedder = embedding && createEmbedder(embedding, { thread: true, idleMs: 5 * 60_000 });
  const watcher = startWatch({
    targets,
    ignore: [paths.root],
    logger,
    periodicMs: config.schedule.every_minutes * 60_000,
    tick: () => runTick({ paths, config, env, logger, lockWaitMs: 60_000, ...(embedder ? { embedder } : {}) }),
    ...(options.onTick ? { onTick: options.onTick } : {}),
  });
  await watcher.ready;
  const dirs = targets.map((t) => t.dir);
  return {
    targets: dirs,
    missing: dirs.filter((dir) => !watcher.watching().includes(dir)),
    async stop(signal) {
      logger.log('info', 'watch.stopping', { signal });
      await watcher.close();
      await release();
    },
  };
}
