/**
 * The figures of `ocm-run stats` (features/stats.ts collectStats): storage
 * per tier, priority and category distributions, observations per day,
 * token efficiency, compression, LLM usage and cost, search times — and the
 * text they are shown as.
 */
import type { Stats } from '../features/stats.js';
import type { MemoryHome } from './home.js';

export interface StatsOptions {
  /** Also write the figures to this file (.json, or .csv as section/key/value rows; mode 0600). */
  exportTo?: string | undefined;
}

/** The figures of `ocm-run stats`: storage per tier, distributions, per day, tokens, compression, LLM usage, search times. */
export async function memoryStats(home: MemoryHome, options: StatsOptions = {}): Promise<Stats> {
  const { collectStats, writeStatsExport } = await import('../features/stats.js');
  const stats = await collectStats(home.paths, home.config, { now: home.now() });
  if (options.exportTo) await writeStatsExport(stats, options.exportTo);
  return stats;
}

/** The figures as `ocm-run stats` prints them (`detailed`: every day, every model, every reflection). */
export async function formatMemoryStats(stats: Stats, detailed: boolean): Promise<string> {
  const { formatStats } = await import('../features/stats.js');
  return formatStats(stats, detailed);
}
