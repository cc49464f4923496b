import { defineCommand, type CommandContext } from '../cli-context.js';
import type { AgentIntegrationOptions } from '../../lib/api/integrations.js';
import { thisRunner } from '../runner.js';

/** What to point again: the home, its config, and this program (its Node and CLI) as the runner. */
async function repointOptions(ctx: CommandContext): Promise<AgentIntegrationOptions> {
  const { config } = await ctx.config();
  return { paths: ctx.paths, config, configFile: ctx.configFile, env: ctx.env, runner: thisRunner() };
}

export const command = defineCommand({
  name: 'repoint',
  description:
    'After an upgrade or a move: point every installed integration (Claude Code, Codex, pi, OpenClaw) and the schedule at the program running this command',
  examples: ['ocm-run repoint', 'ocm-run repoint --json'],
  async run(ctx) {
    const request = await repointOptions(ctx);
    const { repoint } = await import('../../lib/api/integrations.js');
    const { runner } = request;
    const r = await repoint(request);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, node: runner.node, cli: runner.cli, ...r }));
      return;
    }
    const lines = [`Pointing what is installed for ${ctx.paths.root} at ${runner.node} ${runner.cli}:`];
    if (r.repointed.length === 0) lines.push('  nothing is installed (no integration, no schedule); nothing to do.');
    for (const p of r.repointed) lines.push(...p.lines.map((l, i) => (i === 0 ? `  ${l}` : `    ${l.trim()}`)));
    if (r.notInstalled.length > 0) lines.push(`Not installed, left alone: ${r.notInstalled.join(', ')}.`);
    ctx.out(lines.join('\n'));
  },
});
