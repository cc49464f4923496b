/** `ocm-run integrate claude-code [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import { agentIntegrationOptions, type IntegrateFlags } from './integrate.js';
import { thisRunner } from '../runner.js';

export async function runClaudeCodeIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const api = await import('../../lib/api/integrations.js');
  const { config } = await ctx.config();
  const request = agentIntegrationOptions('claude-code', action, options);
  const runner = thisRunner();

  if (request.kind === 'status') {
    const s = await api.claudeCodeStatus({ paths: ctx.paths, env: ctx.env });
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

  if (request.kind === 'print') {
    const { location, snippet, mcpArgs } = await api.claudeCodePreview({
      paths: ctx.paths,
      env: ctx.env,
      runner,
      agent: config.sources.claude_code.agent || 'claude-code',
      perProject: options.perProject,
    });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...location, ...snippet }, null, 2));
      return;
    }
    ctx.out(
      [
        `Add to ${location.mcpConfigPath} (or run: claude mcp add --scope user oc-memory -- ${[runner.node, ...mcpArgs].join(' ')}):`,
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

  if (request.kind === 'uninstall') {
    const r = await api.uninstallClaudeCode({ paths: ctx.paths, env: ctx.env, config, configFile: ctx.configFile });
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
  } = await api.installClaudeCode({
    paths: ctx.paths,
    configFile: ctx.configFile,
    env: ctx.env,
    runner,
    perProject: options.perProject,
  });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...r, validated }) : lines.join('\n'));
}
