/**
 * The demo (`ocm-run demo`): the whole pipeline offline on the bundled sample
 * transcripts, in a home of its own. `claimDemoHome` makes that home — a new
 * temporary folder (after removing this user's demo homes older than an
 * hour), or the folder asked for when it is new, empty or an earlier demo's:
 * the samples never go into someone's memory — and marks it as the demo's.
 * `runDemo` runs one tick on the samples (observe, reflect, active memory,
 * index: jobs/run-job.ts runTick) and reads the active memory it built.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { TickResult } from '../jobs/run-job.js';
import type { MemoryHome } from './home.js';

/** An earlier demo's home older than this is removed by the next demo (a younger one may still be in use). */
const OLD_DEMO_MS = 60 * 60 * 1000;

export interface DemoHomeOptions {
  /** The folder to run the demo in (default: a new one in the temp folder). */
  home?: string | undefined;
  /** The environment a home is resolved in (OCM_HOME). */
  env: NodeJS.ProcessEnv;
  /** ms since the epoch: what "an hour ago" is measured from. */
  now: number;
}

export interface DemoHome {
  /** The home as asked for, or the new temporary folder. */
  home: string;
  paths: HomePaths;
  /** Earlier demo homes removed from the temp folder. */
  removedDemoHomes: number;
}

/** The demo's home, made and marked; refused when the folder asked for holds memory. */
export async function claimDemoHome(options: DemoHomeOptions): Promise<DemoHome> {
  const { mkdir, mkdtemp, stat, writeFile } = await import('node:fs/promises');
  const [{ homePaths, resolveHomeDir }, { demoMarkerPath, memoryHeldBy }] = await Promise.all([
    import('../platform/home.js'),
    import('../platform/home-contents.js'),
  ]);
  // Never touch the user's real memory home unless asked to explicitly.
  const removedDemoHomes = options.home === undefined ? await removeOldDemoHomes(options.now) : 0;
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'ocm-demo-')));
  const paths = homePaths(resolveHomeDir(home, options.env));
  const marker = demoMarkerPath(paths);
  const isDemoHome = await stat(marker).then(
    () => true,
    () => false,
  );
  const held = isDemoHome ? undefined : await memoryHeldBy(paths);
  if (held !== undefined)
    throw new OcmError('BAD_INPUT', `${paths.root} already holds memory (${held}): the demo would mix its sample observations into it.`, {
      hint: 'Run `ocm-run demo` without --home (it makes a new temporary home), or give --home a new or empty folder.',
    });
  await mkdir(paths.machine, { recursive: true, mode: 0o700 });
  await writeFile(marker, 'This home was made by `ocm-run demo` and holds its sample memory.\n', { mode: 0o600 });
  return { home, paths, removedDemoHomes };
}

/**
 * The demo homes an earlier demo made in the temp folder (ocm-demo-*, with the demo's marker,
 * this user's) and left more than an hour ago: removed, so demos do not pile up. Returns how many.
 */
async function removeOldDemoHomes(now: number): Promise<number> {
  const { readdir, rm, stat } = await import('node:fs/promises');
  const [{ homePaths }, { demoMarkerPath }] = await Promise.all([import('../platform/home.js'), import('../platform/home-contents.js')]);
  let removed = 0;
  for (const e of await readdir(tmpdir(), { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory() || !e.name.startsWith('ocm-demo-')) continue;
    const root = join(tmpdir(), e.name);
    const marker = await stat(demoMarkerPath(homePaths(root))).catch(() => undefined);
    if (!marker || now - marker.mtimeMs < OLD_DEMO_MS || (process.getuid && marker.uid !== process.getuid())) continue;
    await rm(root, { recursive: true, force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

export interface DemoRun extends Pick<TickResult, 'observe' | 'activeMemory'> {
  /** The folder of the sample transcripts. */
  samples: string;
  /** active_memory.md as the tick wrote it. */
  activeMemoryText: string;
}

/** One tick on the bundled samples in the demo's home (claimed first): observe, reflect, active memory, index. */
export async function runDemo(home: MemoryHome): Promise<DemoRun> {
  const { paths, config, env, logger } = home;
  const [{ packagePath }, { runTick }, { createOpenClawFileSource }, { maskingOptions }, { readFile }] = await Promise.all([
    import('../platform/package-root.js'),
    import('../jobs/run-job.js'),
    import('../sources/openclaw-files.js'),
    import('../sources/registry.js'),
    import('node:fs/promises'),
  ]);
  const samples = packagePath('samples', 'openclaw');
  const result = await runTick({
    paths,
    config,
    env,
    logger,
    sources: [createOpenClawFileSource({ stateDirs: [samples], masking: maskingOptions(config), logger })],
    // The samples are dated in the past: the tier step would archive them at once, so the demo leaves ageing out.
    steps: ['observe', 'reflect', 'active_memory', 'index'],
  });
  const activeMemoryText = await readFile(paths.activeMemory, 'utf8');
  return { observe: result.observe, activeMemory: result.activeMemory, samples, activeMemoryText };
}
