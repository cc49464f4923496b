/** `ocm-run integrate claude-code [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';

/** `claude mcp list` (it starts every server and checks it answers): how it sees oc-memory. */
async function validateWithClaude(claude: string, env: NodeJS.ProcessEnv): Promise<{ state: 'connected' | 'failed' | 'missing'; output: string }> {
  const { execa } = await import('execa');
  const r = await execa(claude, ['mcp', 'list'], { reject: false, timeout: 90_000, env: { ...env, CI: '1' }, stdin: 'ignore' });
  const output = `${String(r.stdout)}\n${String(r.stderr)}`.trim();
  const line = output.split('\n').find((l) => /^oc-memory:/.test(l.trim()));
  if (!line) return { state: 'missing', output };
  return { state: /connected|✓/i.test(line) && !/failed|✗/i.test(line) ? 'connected' : 'failed', output: line.trim() };
}

export async function runClaudeCodeIntegration(ctx: CommandContext, action: string | undefined, options: Record<string, unknown>): Promise<number | void> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/claude-code/integration.js');
  const { config } = await ctx.config();
  const agent = config.sources.claude_code.agent || 'claude-code';
  const runner = { node: process.execPath, cli: process.argv[1]! };
  const base = { paths: ctx.paths, runner, agent, perProject: Boolean(options.perProject) };

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
  if (action !== undefined) throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate claude-code.`, { hint: 'Use `ocm-run integrate claude-code`, `… status`, `… --print` or `… --uninstall`.' });

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
    const r = await i.uninstallClaudeCodeIntegration({ paths: ctx.paths, env: ctx.env, config: await configAccess(config, ctx.configFile, ctx.paths, ctx.env) });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, ...r }));
      return;
    }
    if (r.changes.length === 0 && r.deleted.length === 0) ctx.out('Nothing of OC-Memory was found in Claude Code; nothing to do.');
    else ctx.out([`Took OC-Memory out of Claude Code:`, ...r.changes.map((c) => `  ${c}`), ...r.deleted.map((d) => `  removed ${d} (created by the integration, nothing else in it)`)].join('\n'));
    return;
  }

  const { result: r, validated, lines } = await setUpClaudeCode({ paths: ctx.paths, configFile: ctx.configFile, env: ctx.env, perProject: Boolean(options.perProject) });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...r, validated }) : lines.join('\n'));
}

/** OC-Memory's config as the integration reads and changes it (changes keep the file's comments: config set). */
export async function configAccess(config: import('../../lib/config/config-schema.js').Config, file: string, paths: import('../../lib/platform/home.js').HomePaths, env: NodeJS.ProcessEnv): Promise<import('../../lib/integrations/claude-code/integration.js').ConfigAccess> {
  const { getConfigValue, setConfigValue } = await import('../../lib/config/config.js');
  return {
    get: (key) => getConfigValue(config, key),
    set: (key, value) => setConfigValue({ file, envFile: paths.env, keyPath: key, value, env }),
  };
}

export type Validation = 'connected' | 'failed' | 'missing' | 'not-installed';

/**
 * Install the integration for the home at `paths` (its config loaded from
 * `configFile`), check it with `claude mcp list` when `claude` is on PATH, and
 * say what was done. Shared by `integrate claude-code` and `setup`.
 */
export async function setUpClaudeCode(options: { paths: import('../../lib/platform/home.js').HomePaths; configFile: string; env: NodeJS.ProcessEnv; perProject: boolean }): Promise<{ result: import('../../lib/integrations/claude-code/integration.js').ClaudeCodeInstall; validated: Validation; lines: string[] }> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/claude-code/integration.js');
  const { loadConfig } = await import('../../lib/config/config.js');
  const { config } = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env });
  const agent = config.sources.claude_code.agent || 'claude-code';
  const access = await configAccess(config, options.configFile, options.paths, options.env);
  const result = await i.installClaudeCodeIntegration({ paths: options.paths, runner: { node: process.execPath, cli: process.argv[1]! }, agent, perProject: options.perProject, env: options.env, config: access });
  const { findOnPath } = await import('../../lib/integrations/codex/cli.js');
  const claude = await findOnPath('claude', options.env);
  let validated: Validation = 'not-installed';
  if (claude) {
    const v = await validateWithClaude(claude, options.env);
    validated = v.state;
    if (v.state === 'missing') {
      await i.uninstallClaudeCodeIntegration({ paths: options.paths, env: options.env, config: access });
      throw new OcmError('CONFIG_INVALID', 'Claude Code does not list the oc-memory MCP server after the edit, so it was taken out again.', {
        hint: `\`claude mcp list\` said: ${v.output.slice(0, 400)}. Add it by hand (\`ocm-run integrate claude-code --print\`).`,
      });
    }
  }
  const lines = [`Claude Code integration for ${options.paths.root} (memory of agent "${agent}"${options.perProject ? ', one per project' : ''}):`];
  if (result.changes.length === 0) lines.push('  everything was in place already.');
  for (const c of result.changes) lines.push(`  ${c}`);
  for (const b of result.backups) lines.push(`  backup of the original: ${b}`);
  if (validated === 'connected') lines.push('  `claude mcp list`: oc-memory connected.');
  else if (validated === 'failed') lines.push('  ⚠️ `claude mcp list` lists oc-memory but could not connect to it; run `ocm-run doctor`.');
  else lines.push('  (`claude` is not on PATH, so the result was not checked with `claude mcp list`.)');
  lines.push('New Claude Code sessions get it. Undo with: ocm-run integrate claude-code --uninstall');
  return { result, validated, lines };
}
