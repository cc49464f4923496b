/**
 * `watch`: the tick, triggered by file-system events on the transcript
 * locations instead of a clock. Events are debounced (a burst of appended
 * lines becomes one tick), a tick never overlaps another, and an event that
 * arrives during a tick schedules one more right after it. A slow periodic
 * tick still runs (idle sessions get flushed, missed events are caught up).
 *
 * chokidar rather than fs.watch: Node 20 has no recursive fs.watch on Linux,
 * and the transcript trees gain new agent and session folders over time.
 */
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { SourceWatchTarget } from '../sources/descriptors.js';
import { describeError } from '../core/errors.js';
import type { Logger } from '../platform/log.js';

/** A folder to watch, how many folder levels below it matter, and which source it belongs to (for logs). */
export type WatchTarget = SourceWatchTarget;

/** The folders the configured sources read from (each source descriptor says where it reads). */
export async function watchTargetsFromConfig(
  config: Config,
  env: Record<string, string | undefined>,
  userHome: string,
): Promise<WatchTarget[]> {
  const { SOURCES } = await import('../sources/descriptors.js');
  const targets: WatchTarget[] = [];
  for (const d of SOURCES) targets.push(...(await d.watchTargets({ config, env, home: userHome })));
  // One watcher per folder, the deepest depth wins.
  const byDir = new Map<string, WatchTarget>();
  for (const t of targets) {
    const dir = resolve(t.dir);
    const prev = byDir.get(dir);
    if (!prev || prev.depth < t.depth) byDir.set(dir, { ...t, dir });
  }
  return [...byDir.values()];
}

export interface WatchOptions {
  targets: WatchTarget[];
  /** Paths (and everything below) never to react to, e.g. the memory home. */
  ignore: string[];
  /** Run one tick (the caller takes the home lock, e.g. runTick). */
  tick: (reason: TickReason) => Promise<unknown>;
  logger: Logger;
  /** Quiet time after the last event before a tick (ms). */
  debounceMs?: number;
  /** Longest wait from the first event of a burst (ms). */
  maxWaitMs?: number;
  /** A tick at least this often even without events (ms); 0 = never. */
  periodicMs?: number;
  /** How often missing folders are looked for (ms). */
  rescanMs?: number;
  /** Run a tick at start (catch up on what happened while not watching). */
  initialTick?: boolean;
  /** Every tick's outcome (tests, bench, the terminal). */
  onTick?: (event: TickEvent) => void;
  /** Every file event that will lead to a tick. */
  onFileEvent?: (path: string) => void;
}

export type TickReason = 'start' | 'change' | 'periodic';

export interface TickEvent {
  reason: TickReason;
  /** When the first event of the burst arrived (ms since epoch), for change ticks. */
  firstEventAt?: number;
  startedAt: number;
  endedAt: number;
  result?: unknown;
  error?: { message: string; code: string };
}

export interface Watcher {
  /** Resolves when every existing target is being watched. */
  ready: Promise<void>;
  /** Folders being watched now. */
  watching(): string[];
  /** Stop watching; waits for a running tick to end. */
  close(): Promise<void>;
}

function isUnder(path: string, root: string): boolean {
  const p = resolve(path);
  const r = resolve(root);
  return p === r || p.startsWith(r.endsWith(sep) ? r : r + sep);
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export function startWatch(options: WatchOptions): Watcher {
  const debounceMs = options.debounceMs ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 500;
  const rescanMs = options.rescanMs ?? 5000;
  const { logger } = options;
  let closed = false;
  let running: Promise<void> | undefined;
  let pendingReason: TickReason | undefined;
  let firstEventAt: number | undefined;
  let debounceTimer: NodeJS.Timeout | undefined;
  let burstTimer: NodeJS.Timeout | undefined;
  const active = new Set<string>();
  const missing = new Set(options.targets.map((t) => t.dir));
  // chokidar's depth is per watcher: the deepest target's.
  const depth = Math.max(0, ...options.targets.map((t) => t.depth));

  const clearTimers = () => {
    if (debounceTimer) clearTimeout(debounceTimer);
    if (burstTimer) clearTimeout(burstTimer);
    debounceTimer = burstTimer = undefined;
  };

  const runNow = (reason: TickReason) => {
    clearTimers();
    if (closed) return;
    if (running) {
      pendingReason ??= reason;
      return;
    }
    const burstStart = firstEventAt;
    firstEventAt = undefined;
    const startedAt = Date.now();
    running = (async () => {
      let result: unknown;
      let error: TickEvent['error'];
      try {
        result = await options.tick(reason);
      } catch (e) {
        const d = describeError(e);
        error = { message: d.message, code: d.code };
        logger.log(d.code === 'LOCKED' ? 'warn' : 'error', 'watch.tick_failed', { reason, ...error });
      }
      const endedAt = Date.now();
      options.onTick?.({ reason, firstEventAt: burstStart, startedAt, endedAt, result, error });
    })().finally(() => {
      running = undefined;
      if (pendingReason && !closed) {
        const next = pendingReason;
        pendingReason = undefined;
        runNow(next);
      } else if (firstEventAt !== undefined && !closed && !debounceTimer) {
        runNow('change');
      }
    });
  };

  const onEvent = (path: string) => {
    if (closed) return;
    if (options.ignore.some((root) => isUnder(path, root))) return;
    options.onFileEvent?.(path);
    if (running) {
      // Lines written during a tick may have been read after its cursor: go again right after.
      pendingReason ??= 'change';
      firstEventAt ??= Date.now();
      return;
    }
    firstEventAt ??= Date.now();
    if (debounceTimer) clearTimeout(debounceTimer);
    debounceTimer = setTimeout(() => runNow('change'), debounceMs);
    burstTimer ??= setTimeout(() => runNow('change'), maxWaitMs);
  };

  let chokidar: import('chokidar').FSWatcher | undefined;
  const addDir = async (dir: string) => {
    if (closed || active.has(dir) || !(await isDir(dir))) return false;
    const { watch } = await import('chokidar');
    if (closed) return false;
    active.add(dir);
    missing.delete(dir);
    if (!chokidar) {
      chokidar = watch([], {
        ignoreInitial: true,
        persistent: true,
        depth,
        // The home may sit inside a watched tree (~/.openclaw/oc-memory): never react to our own writes.
        ignored: (path: string) => options.ignore.some((root) => isUnder(path, root)),
      });
      chokidar.on('add', onEvent).on('change', onEvent).on('unlink', onEvent);
      chokidar.on('error', (e: unknown) => logger.log('warn', 'watch.error', { message: describeError(e).message }));
    }
    chokidar.add(dir);
    logger.log('info', 'watch.watching', { dir, depth });
    return true;
  };

  const ready = (async () => {
    for (const t of options.targets) await addDir(t.dir);
    if (chokidar) await new Promise<void>((resolveReady) => chokidar!.once('ready', () => resolveReady()));
    if (options.initialTick !== false) runNow('start');
  })();

  // Folders that do not exist yet (OpenClaw not run yet, a new source): look for them now and then.
  const rescan = setInterval(() => {
    void (async () => {
      for (const dir of [...missing]) {
        if (await addDir(dir)) onEvent(dir);
      }
    })();
  }, rescanMs);
  rescan.unref();
  const periodic = options.periodicMs && options.periodicMs > 0 ? setInterval(() => runNow('periodic'), options.periodicMs) : undefined;
  periodic?.unref();

  return {
    ready,
    watching: () => [...active],
    async close() {
      closed = true;
      clearTimers();
      clearInterval(rescan);
      if (periodic) clearInterval(periodic);
      await ready.catch(() => undefined);
      await chokidar?.close();
      await running;
    },
  };
}
