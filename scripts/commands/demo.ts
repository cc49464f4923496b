import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, defineCommand } from '../cli-context.js';
import type { DemoHomeOptions } from '../../lib/api/demo.js';
import type { GlobalFlagValues } from '../flags.js';
import { memoryHome } from '../memory-home.js';

/** The command line as the demo home's options: --home, or a new temporary folder. */
function demoOptions(flags: Pick<GlobalFlagValues, 'home'>, env: NodeJS.ProcessEnv): DemoHomeOptions {
  return { home: flags.home, env, now: Date.now() };
}

export const command = defineCommand({
  name: 'demo',
  description: `Run the whole pipeline offline on the bundled sample transcripts and show the result, in a new home ${join(tmpdir(), 'ocm-demo-…')} (or --home); demo homes older than an hour are removed`,
  homeHelp: `Memory home (default: a new folder ${join(tmpdir(), 'ocm-demo-…')}; never $OCM_HOME or ~/.openclaw/oc-memory)`,
  examples: ['ocm-run demo', `ocm-run demo --home ${join(tmpdir(), 'my-demo')}`],
  // --home must be a new or empty folder (or an earlier demo's home): the samples never go into someone's memory.
  async run(ctx0, _args, flags) {
    const { relative } = await import('node:path');
    const { claimDemoHome, runDemo } = await import('../../lib/api/demo.js');
    const { home, removedDemoHomes: removedDemos } = await claimDemoHome(demoOptions(flags, process.env));
    const ctx = createContext({ home, config: flags.config, verbose: ctx0.verbose, json: ctx0.json });
    const result = await runDemo(await memoryHome(ctx, 'demo'));
    await ctx.flush();
    const active = result.activeMemoryText;
    const { samples } = result;
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
