/** `ocm-run integrate claude-code [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';

/** `claude` on PATH, or undefined. */
async function findClaude(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { access, constants } = await import('node:fs/promises');
  const { delimiter, join } = await import('node:path');
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'claude');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

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
  const { OcmError } = await import('../../lib/errors.js');
  const i = await import('../../lib/claude-code-integration.js');
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

  const { getConfigValue, setConfigValue } = await import('../../lib/config.js');
  const configAccess = {
    get: (key: string) => getConfigValue(config, key),
    set: (key: string, value: unknown) => setConfigValue({ file: ctx.configFile, envFile: ctx.paths.env, keyPath: key, value, env: ctx.env }),
  };

  if (options.uninstall) {
    const r = await i.uninstallClaudeCodeIntegration({ paths: ctx.paths, env: ctx.env, config: configAccess });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, ...r }));
      return;
    }
    if (r.changes.length === 0 && r.deleted.length === 0) ctx.out('Nothing of OC-Memory was found in Claude Code; nothing to do.');
    else ctx.out([`Took OC-Memory out of Claude Code:`, ...r.changes.map((c) => `  ${c}`), ...r.deleted.map((d) => `  removed ${d} (created by the integration, nothing else in it)`)].join('\n'));
    return;
  }

  const r = await i.installClaudeCodeIntegration({
    ...base,
    env: ctx.env,
    config: configAccess,
  });
  const claude = await findClaude(ctx.env);
  let validated: 'connected' | 'failed' | 'missing' | 'not-installed' = 'not-installed';
  if (claude) {
    const v = await validateWithClaude(claude, ctx.env);
    validated = v.state;
    if (v.state === 'missing') {
      await i.uninstallClaudeCodeIntegration({ paths: ctx.paths, env: ctx.env, config: configAccess });
      throw new OcmError('CONFIG_INVALID', 'Claude Code does not list the oc-memory MCP server after the edit, so it was taken out again.', {
        hint: `\`claude mcp list\` said: ${v.output.slice(0, 400)}. Add it by hand (\`ocm-run integrate claude-code --print\`).`,
      });
    }
  }
  if (ctx.json) {
    ctx.out(JSON.stringify({ ok: true, ...r, validated }));
    return;
  }
  const lines = [`Claude Code integration for ${ctx.paths.root} (memory of agent "${agent}"):`];
  if (r.changes.length === 0) lines.push('  everything was in place already.');
  for (const c of r.changes) lines.push(`  ${c}`);
  for (const b of r.backups) lines.push(`  backup of the original: ${b}`);
  if (validated === 'connected') lines.push('  `claude mcp list`: oc-memory connected.');
  else if (validated === 'failed') lines.push('  ⚠️ `claude mcp list` lists oc-memory but could not connect to it; run `ocm-run doctor`.');
  else lines.push('  (`claude` is not on PATH, so the result was not checked with `claude mcp list`.)');
  lines.push('New Claude Code sessions get it. Undo with: ocm-run integrate claude-code --uninstall');
  ctx.out(lines.join('\n'));
}
