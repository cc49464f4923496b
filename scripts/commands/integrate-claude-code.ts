/** `ocm-run integrate claude-code [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import type { IntegrateFlags } from './integrate.js';
import { configAccess, setUpClaudeCode } from '../../lib/integrations/agent-setup.js';
import { thisRunner } from '../runner.js';

export async function runClaudeCodeIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/claude-code/integration.js');
  const { config } = await ctx.config();
  const agent = config.sources.claude_code.agent || 'claude-code';
  const runner = thisRunner();
  const base = { paths: ctx.paths, runner, agent, perProject: options.perProject };

  if (action === 'status') {
    const s = await i.claudeCodeStatus({ paths: ctx.paths, env: ctx.env });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...s, sourceEnabled: config.sources.claude_code.enabled }));
      return;
    }
    const mark = (ok: boolean) => (ok ? '✅' : '❌');
    ctx.out(
      [
        `Claude Code integration for ${ctx.paths.root}:`,
        `  ${mark(s.mcpServer)} MCP server oc-memory in ${s.location.mcpConfigPath}`,
        ...Object.entries(s.hooks).map(([event, ok]) => `  ${mark(ok)} ${event} hook in ${s.location.settingsPath}`),
        `  ${mark(config.sources.claude_code.enabled)} Claude Code transcripts observed (sources.claude_code.enabled)`,
      ].join('\n'),
    );
    return;
  }
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate claude-code.`, {
      hint: 'Use `ocm-run integrate claude-code`, `… status`, `… --print` or `… --uninstall`.',
    });

  if (options.print) {
    const location = i.locateClaudeCode(ctx.env);
    const snippet = i.claudeCodeSnippet(base);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...location, ...snippet }, null, 2));
      return;
    }
    ctx.out(
      [
        `Add to ${location.mcpConfigPath} (or run: claude mcp add --scope user oc-memory -- ${[runner.node, ...i.mcpServerEntry(base).args].join(' ')}):`,
        '',
        JSON.stringify({ mcpServers: snippet.mcpServers }, null, 2),
        '',
        `and to ${location.settingsPath}:`,
        '',
        JSON.stringify({ hooks: snippet.hooks, permissions: snippet.permissions }, null, 2),
        '',
        'and turn on the transcript source: ocm-run config set sources.claude_code.enabled true',
        '(`ocm-run integrate claude-code` does all of this for you, with backups.)',
      ].join('\n'),
    );
    return;
  }

  if (options.uninstall) {
    const r = await i.uninstallClaudeCodeIntegration({
      paths: ctx.paths,
      env: ctx.env,
      config: await configAccess(config, ctx.configFile, ctx.paths, ctx.env),
    });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, ...r }));
      return;
    }
    if (r.changes.length === 0 && r.deleted.length === 0) ctx.out('Nothing of OC-Memory was found in Claude Code; nothing to do.');
    else
      ctx.out(
        [
          `Took OC-Memory out of Claude Code:`,
          ...r.changes.map((c) => `  ${c}`),
          ...r.deleted.map((d) => `  removed ${d} (created by the integration, nothing else in it)`),
        ].join('\n'),
      );
    return;
  }

  const {
    result: r,
    validated,
    lines,
  } = await setUpClaudeCode({
    paths: ctx.paths,
    configFile: ctx.configFile,
    env: ctx.env,
    runner: thisRunner(),
    perProject: options.perProject,
  });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...r, validated }) : lines.join('\n'));
}
