import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, defineCommand } from '../cli-context.js';

/** An earlier demo's home older than this is removed by the next demo (a younger one may still be in use). */
const OLD_DEMO_MS = 60 * 60 * 1000;

/**
 * The demo homes an earlier `ocm-run demo` made in the temp folder (ocm-demo-*, with the demo's marker,
 * this user's) and left more than an hour ago: removed, so demos do not pile up. Returns how many.
 */
async function removeOldDemoHomes(now: number): Promise<number> {
  const { readdir, rm, stat } = await import('node:fs/promises');
  const { homePaths } = await import('../../lib/platform/home.js');
  const { demoMarkerPath } = await import('../../lib/platform/home-contents.js');
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

export const command = defineCommand({
  name: 'demo',
  description: `Run the whole pipeline offline on the bundled sample transcripts and show the result, in a new home ${join(tmpdir(), 'ocm-demo-…')} (or --home); demo homes older than an hour are removed`,
  homeHelp: `Memory home (default: a new folder ${join(tmpdir(), 'ocm-demo-…')}; never $OCM_HOME or ~/.openclaw/oc-memory)`,
  examples: ['ocm-run demo', `ocm-run demo --home ${join(tmpdir(), 'my-demo')}`],
  // --home must be a new or empty folder (or an earlier demo's home): the samples never go into someone's memory.
  async run(ctx0, _args, options) {
    const { mkdtemp } = await import('node:fs/promises');
    const { relative } = await import('node:path');
    // Never touch the user's real memory home unless asked to explicitly.
    const removedDemos = options.home === undefined ? await removeOldDemoHomes(Date.now()) : 0;
    const home = options.home ?? (await mkdtemp(join(tmpdir(), 'ocm-demo-')));
    const ctx = createContext({ home, config: options.config, verbose: ctx0.verbose, json: ctx0.json });
    const { demoMarkerPath, memoryHeldBy } = await import('../../lib/platform/home-contents.js');
    const { mkdir, stat, writeFile } = await import('node:fs/promises');
    const marker = demoMarkerPath(ctx.paths);
    const isDemoHome = await stat(marker).then(
      () => true,
      () => false,
    );
    const held = isDemoHome ? undefined : await memoryHeldBy(ctx.paths);
    if (held !== undefined) {
      const { OcmError } = await import('../../lib/core/errors.js');
      throw new OcmError(
        'BAD_INPUT',
        `${ctx.paths.root} already holds memory (${held}): the demo would mix its sample observations into it.`,
        {
          hint: 'Run `ocm-run demo` without --home (it makes a new temporary home), or give --home a new or empty folder.',
        },
      );
    }
    await mkdir(ctx.paths.machine, { recursive: true, mode: 0o700 });
    await writeFile(marker, 'This home was made by `ocm-run demo` and holds its sample memory.\n', { mode: 0o600 });
    const { config, env } = await ctx.config();
    const { packagePath } = await import('../../lib/platform/package-root.js');
    const { runTick } = await import('../../lib/jobs/run-job.js');
    const { createOpenClawFileSource } = await import('../../lib/sources/openclaw-files.js');
    const { maskingOptions } = await import('../../lib/sources/registry.js');
    const { readFile } = await import('node:fs/promises');
    const logger = ctx.logger('demo');
    const samples = packagePath('samples', 'openclaw');
    const result = await runTick({
      paths: ctx.paths,
      config,
      env,
      logger,
      sources: [createOpenClawFileSource({ stateDirs: [samples], masking: maskingOptions(config), logger })],
      // The samples are dated in the past: the tier step would archive them at once, so the demo leaves ageing out.
      steps: ['observe', 'reflect', 'active_memory', 'index'],
    });
    await ctx.flush();
    const active = await readFile(ctx.paths.activeMemory, 'utf8');
    if (ctx.json) {
      ctx.out(JSON.stringify({ home, observe: result.observe, activeMemory: result.activeMemory, removedDemoHomes: removedDemos }));
      return;
    }
    const o = result.observe!;
    const lines = [
      `OC-Memory demo — offline, heuristic observer, sample transcripts from ${samples}`,
      '',
      `Read ${o.messages} messages from ${o.streams} transcript files → ${o.observations} observations${o.malformed ? ` (${o.malformed} malformed lines skipped)` : ''}.`,
      '',
      `Memory home: ${home}`,
      `  ${relative(home, ctx.paths.memory)}/        daily observation files (Markdown)`,
      `  active_memory.md  what the agent loads every turn`,
      ...result.activeMemory.filter((a) => a.agent !== 'main').map((a) => `  ${relative(home, a.path)}  (agent ${a.agent})`),
      `  logs/             JSON-lines logs`,
      '',
      `Try: ocm-run status --home ${home}`,
      ...(removedDemos > 0 ? [`(Removed ${removedDemos} earlier demo home(s) from ${tmpdir()}, older than an hour.)`] : []),
      '',
      '──── active_memory.md ────',
      active.trimEnd(),
    ];
    ctx.out(lines.join('\n'));
  },
});
