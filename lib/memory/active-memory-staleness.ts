/**
 * Which agents' active memory is out of step with the files and settings it is built from: directory
 * entries and mtimes only (an idle tick loads no Markdown parser or tokenizer for it).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { activeMemoryPath, type HomePaths } from '../platform/home.js';
import { listHotDayFiles } from './hot-files.js';

/**
 * The agents whose active memory is out of step: missing, older than one of the agent's hot day files
 * (a hand edit, a write by another program) or than the home's template, or built under other
 * settings or on another day (`key`: config.active_memory and today's date, so a changed budget and a
 * passed deadline apply on the next run). Reads directory entries and mtimes only.
 */
export async function staleActiveMemories(paths: HomePaths, key: string, builtKey: string | undefined): Promise<string[]> {
  const mtime = (path: string) =>
    stat(path).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
  const files = await listHotDayFiles(paths);
  const agents = [...new Set(files.map((f) => f.agent))].sort();
  if (builtKey !== key) return agents;
  const template = (await mtime(join(paths.root, 'templates', 'active_memory.md'))) ?? 0;
  const newest = new Map<string, number>();
  for (const f of files) newest.set(f.agent, Math.max(newest.get(f.agent) ?? 0, (await mtime(f.path)) ?? 0));
  const out: string[] = [];
  for (const agent of agents) {
    const built = await mtime(activeMemoryPath(paths, agent));
    if (built === undefined || built < Math.max(template, newest.get(agent) ?? 0)) out.push(agent);
  }
  return out;
}
