/**
 * What a memory home already holds: the files that make a folder someone's
 * memory (observations, reflections, active memory, the archive, job state, a
 * config). A command that writes sample data (`ocm-run demo`) asks this
 * before it touches a folder it was pointed at.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { HomePaths } from './home.js';

/** Written by the demo into its own homes: a demo home may be run again. */
export const DEMO_MARKER = 'demo-home';

export function demoMarkerPath(paths: HomePaths): string {
  return join(paths.machine, DEMO_MARKER);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The first Markdown file under `dir` (depth-first, bounded), if any. */
async function firstMarkdown(dir: string, depth = 4): Promise<string | undefined> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isFile() && e.name.endsWith('.md')) return join(dir, e.name);
  if (depth === 0) return undefined;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const found = await firstMarkdown(join(dir, e.name), depth - 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * A path (relative to the home) of something that shows the folder is a
 * memory home, or undefined for a missing or empty folder (or one that only
 * holds unrelated files). Memory files are looked for first, so the answer
 * names the most telling one.
 */
export async function memoryHeldBy(paths: HomePaths): Promise<string | undefined> {
  for (const dir of [paths.memory, paths.archive, paths.reflections]) {
    const md = await firstMarkdown(dir);
    if (md) return relative(paths.root, md);
  }
  const top = await readdir(paths.root).catch(() => [] as string[]);
  const active = top.find((name) => /^active_memory.*\.md$/.test(name));
  if (active) return active;
  for (const path of [paths.state, paths.index, paths.config]) if (await exists(path)) return relative(paths.root, path);
  return undefined;
}
