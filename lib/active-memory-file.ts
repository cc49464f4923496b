/**
 * Rebuild active_memory.md (or active_memory.<agent>.md) from the hot day
 * files, the current task in state, and the reflections; written atomically, 0644.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildActiveMemory, type ActiveMemoryResult, type ReflectionRef } from './active-memory.js';
import { writeFileAtomic } from './atomic-file.js';
import { activeMemoryPath, type HomePaths } from './home.js';

export { activeMemoryPath };
import { listHotDayFiles, readObservations } from './memory-files.js';
import { packagePath } from './package-root.js';
import { readState } from './state.js';
import { localDateTime } from './time-zone.js';
import type { Config } from './config-schema.js';


/** The user's template in the home wins over the bundled one. */
export async function loadActiveMemoryTemplate(paths: HomePaths): Promise<string> {
  try {
    return await readFile(join(paths.root, 'templates', 'active_memory.md'), 'utf8');
  } catch {
    return readFile(packagePath('templates', 'active_memory.md'), 'utf8');
  }
}

export interface RebuildOptions {
  paths: HomePaths;
  config: Config;
  agent: string;
  timeZone: string;
  now: Date;
  reflections?: ReflectionRef[];
}

export async function rebuildActiveMemory(options: RebuildOptions): Promise<ActiveMemoryResult & { path: string }> {
  const { paths, config, agent } = options;
  const observations = await readObservations(await listHotDayFiles(paths, agent));
  const { state } = await readState(paths.state);
  const tasks = (state.extra.currentTask ?? {}) as Record<string, { text: string; at: string }>;
  const local = localDateTime(options.now, options.timeZone);
  const result = buildActiveMemory({
    template: await loadActiveMemoryTemplate(paths),
    agent,
    observations,
    ...(options.reflections ? { reflections: options.reflections } : {}),
    ...(tasks[agent] ? { currentTask: tasks[agent] } : {}),
    budgetTokens: config.active_memory.budget_tokens,
    recentDays: config.active_memory.recent_days,
    updatedAt: `${local.date} ${local.time} (${options.timeZone})`,
  });
  const path = activeMemoryPath(paths, agent);
  await writeFileAtomic(path, result.text, { mode: 0o644 });
  return { ...result, path };
}
