import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'repoint',
  description:
    'After an upgrade or a move: point every installed integration (Claude Code, Codex, pi, OpenClaw) and the schedule at the program running this command',
  examples: ['ocm-run repoint', 'ocm-run repoint --json'],
  async run(ctx) {
    const { config } = await ctx.config();
    const { repointIntegrations } = await import('../../lib/jobs/repoint.js');
    const { cliEntry } = await import('../../lib/jobs/schedule/index.js');
    const { thisRunner } = await import('../runner.js');
    const runner = thisRunner();
    const r = await repointIntegrations({
      paths: ctx.paths,
      config,
      configFile: ctx.configFile,
      env: ctx.env,
      runner,
      cliEntry: cliEntry(),
    });
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
