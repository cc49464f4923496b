/**
 * Rebuild active_memory.md (or active_memory.<agent>.md) from the hot day
 * files, the current task in state, and the reflections; written atomically, 0600 (owner-only, like everything in the home).
 */
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { buildActiveMemory, type ActiveMemoryInput, type ActiveMemoryResult, type ReflectionRef } from './active-memory.js';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { activeMemoryPath, type HomePaths } from '../platform/home.js';

export { activeMemoryPath };
import { listHotDayFiles, readObservations } from './memory-files.js';
import { packagePath } from '../platform/package-root.js';
import { readState } from '../platform/state.js';
import { localDateTime } from '../platform/time-zone.js';
import type { Config } from '../config/config-schema.js';

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

/** Where each reflection line ranks against raw observations: priority first, then recency. */
const REFLECTION_BASE: Record<'high' | 'medium' | 'low', number> = { high: 240, medium: 140, low: 40 };

/**
 * Reflections stand in for the older observations they cover: those are left
 * out of the raw list (observations of the recent window always stay raw),
 * and the reflections' lines come in instead, newest and most important first.
 */
export async function reflectionInputs(
  paths: HomePaths,
  agent: string,
  observations: Array<{ id: string; date: string }>,
  recentDays: number,
): Promise<{ keep: Set<string>; lines: NonNullable<ActiveMemoryInput['reflectionLines']>; refs: ReflectionRef[] }> {
  const { listReflections } = await import('./reflection-file.js');
  const reflections = await listReflections(paths, agent);
  const keep = new Set(observations.map((o) => o.id));
  if (reflections.length === 0) return { keep, lines: [], refs: [] };
  const dates = observations
    .map((o) => o.date)
    .filter(Boolean)
    .sort();
  const newest = dates[dates.length - 1];
  const windowStart = newest ? new Date(Date.parse(`${newest}T00:00:00Z`) - (recentDays - 1) * 86_400_000).toISOString().slice(0, 10) : '';
  const covered = new Set<string>();
  for (const r of reflections) for (const id of r.meta.sourceObservations) covered.add(id);
  for (const o of observations) if (covered.has(o.id) && o.date < windowStart) keep.delete(o.id);
  const all = reflections.flatMap((r) => r.lines).sort((a, b) => b.date.localeCompare(a.date));
  const lines = all.map((l, i) => ({
    text: l.text,
    priority: l.priority,
    period: l.date,
    rank: REFLECTION_BASE[l.priority] - Math.min(i, 99) * 0.5,
  }));
  // Links are short and lead to everything else: the newest ones rank above most lines.
  const refs = [...reflections].reverse().map((r, i) => ({
    rank: 300 - Math.min(i, 99),
    path: relative(paths.root, r.path).split(sep).join('/'),
    periodStart: r.meta.periodStart,
    periodEnd: r.meta.periodEnd,
    title: `Reflection ${r.meta.periodStart} → ${r.meta.periodEnd} (${r.meta.sourceObservations.length} observations, ${r.meta.compressionRatio}:1)`,
  }));
  return { keep, lines, refs };
}

export async function rebuildActiveMemory(options: RebuildOptions): Promise<ActiveMemoryResult & { path: string }> {
  const { paths, config, agent } = options;
  const all = await readObservations(await listHotDayFiles(paths, agent));
  const reflected = await reflectionInputs(paths, agent, all, config.active_memory.recent_days);
  const observations = all.filter((o) => reflected.keep.has(o.id));
  const { state } = await readState(paths.state);
  const tasks = state.extra.currentTask ?? {};
  const local = localDateTime(options.now, options.timeZone);
  const task = tasks[agent];
  const taskSeen = task && Number.isFinite(Date.parse(task.at)) ? localDateTime(new Date(task.at), options.timeZone) : undefined;
  const result = buildActiveMemory({
    template: await loadActiveMemoryTemplate(paths),
    agent,
    observations,
    reflections: options.reflections ?? reflected.refs,
    reflectionLines: reflected.lines,
    currentTask: task && { ...task, local: taskSeen ? `${taskSeen.date} ${taskSeen.time}` : undefined },
    today: local.date,
    activeTaskMaxAgeDays: config.active_memory.active_task_max_age_days,
    budgetTokens: config.active_memory.budget_tokens,
    recentDays: config.active_memory.recent_days,
    updatedAt: `${local.date} ${local.time} (${options.timeZone})`,
    timeZone: options.timeZone,
  });
  const path = activeMemoryPath(paths, agent);
  await writeFileAtomic(path, result.text, { mode: 0o600 });
  return { ...result, path };
}
