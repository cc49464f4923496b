/** `ocm-run integrate codex [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import { configAccess } from './integrate-claude-code.js';

export async function runCodexIntegration(ctx: CommandContext, action: string | undefined, options: Record<string, unknown>): Promise<number | void> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/codex/integration.js');
  const { config } = await ctx.config();
  const agent = config.sources.codex.agent || 'codex';
  const base = { paths: ctx.paths, runner: { node: process.execPath, cli: process.argv[1]! }, agent };

  if (action === 'status') {
    const s = await i.codexStatus({ paths: ctx.paths, env: ctx.env });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...s, sourceEnabled: config.sources.codex.enabled }));
      return;
    }
    const mark = (ok: boolean) => (ok ? '✅' : '❌');
    ctx.out(
      [
        `Codex integration for ${ctx.paths.root}:`,
        `  ${mark(s.mcpServer)} MCP server oc-memory in ${s.location.configPath}`,
        ...Object.entries(s.hooks).map(([event, ok]) => `  ${mark(ok)} ${event} hook in ${s.location.hooksPath}`),
        `  ${mark(s.trusted === i.CODEX_HOOK_WIRING.events.length)} hooks trusted in ${s.location.configPath} (${s.trusted} of ${i.CODEX_HOOK_WIRING.events.length}; Codex skips untrusted hooks silently — trust them in codex with /hooks)`,
        `  ${mark(config.sources.codex.enabled)} Codex transcripts observed (sources.codex.enabled)`,
      ].join('\n'),
    );
    return;
  }
  if (action !== undefined) throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate codex.`, { hint: 'Use `ocm-run integrate codex`, `… status`, `… --print` or `… --uninstall`.' });

  if (options.print) {
    const location = i.locateCodex(ctx.env);
    const snippet = i.codexSnippet(base);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...location, ...snippet }, null, 2));
      return;
    }
    ctx.out(
      [
        `Add to ${location.configPath}:`,
        '',
        snippet.configToml.trim(),
        '',
        `and to ${location.hooksPath}:`,
        '',
        snippet.hooksJson.trim(),
        '',
        'then open codex and trust the three hooks with /hooks (Codex skips untrusted hooks without a word),',
        'and turn on the transcript source: ocm-run config set sources.codex.enabled true',
        '(`ocm-run integrate codex` does all of this for you, with backups, and trusts the hooks when `codex` is on PATH.)',
      ].join('\n'),
    );
    return;
  }

  const access = await configAccess(config, ctx.configFile, ctx.paths, ctx.env);
  if (options.uninstall) {
    const r = await i.uninstallCodexIntegration({ paths: ctx.paths, env: ctx.env, config: access });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ok: true, ...r }));
      return;
    }
    if (r.changes.length === 0 && r.deleted.length === 0) ctx.out('Nothing of OC-Memory was found in Codex; nothing to do.');
    else ctx.out(['Took OC-Memory out of Codex:', ...r.changes.map((c) => `  ${c}`), ...r.deleted.map((d) => `  removed ${d} (created by the integration, nothing else in it)`)].join('\n'));
    return;
  }

  const { result, validated, lines } = await setUpCodex({ paths: ctx.paths, configFile: ctx.configFile, env: ctx.env });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...result, validated }) : lines.join('\n'));
}

/**
 * Install the integration for the home at `paths` (its config loaded from
 * `configFile`), have Codex trust its hooks and check the MCP server with
 * `codex mcp list` when `codex` is on PATH, and say what was done. Shared by
 * `integrate codex` and `setup`.
 */
export async function setUpCodex(options: { paths: import('../../lib/platform/home.js').HomePaths; configFile: string; env: NodeJS.ProcessEnv }): Promise<{ result: import('../../lib/integrations/codex/integration.js').CodexInstall; validated: string; lines: string[] }> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/codex/integration.js');
  const cli = await import('../../lib/integrations/codex/cli.js');
  const { loadConfig } = await import('../../lib/config/config.js');
  const { config } = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env });
  const agent = config.sources.codex.agent || 'codex';
  const access = await configAccess(config, options.configFile, options.paths, options.env);
  const codex = await cli.findOnPath('codex', options.env);
  const result = await i.installCodexIntegration({
    paths: options.paths,
    runner: { node: process.execPath, cli: process.argv[1]! },
    agent,
    env: options.env,
    config: access,
    listHooks: async () => (codex ? cli.listCodexHooks(codex, options.env, process.cwd()) : undefined),
  });
  let validated = 'not-installed';
  if (codex) {
    const v = await cli.codexListsMcpServer(codex, options.env);
    validated = v.state;
    if (v.state === 'missing') {
      await i.uninstallCodexIntegration({ paths: options.paths, env: options.env, config: access });
      throw new OcmError('CONFIG_INVALID', 'Codex does not list the oc-memory MCP server after the edit, so it was taken out again.', {
        hint: `\`codex mcp list\` said: ${v.output.slice(0, 400)}. Add it by hand (\`ocm-run integrate codex --print\`).`,
      });
    }
  }
  const lines = [`Codex integration for ${options.paths.root} (memory of agent "${agent}"):`];
  if (result.changes.length === 0) lines.push('  everything was in place already.');
  for (const c of result.changes) lines.push(`  ${c}`);
  for (const b of result.backups) lines.push(`  backup of the original: ${b}`);
  if (result.trust === 'trusted') lines.push('  hooks trusted with the hashes Codex itself computed (codex app-server hooks/list).');
  else if (result.trust === 'no-codex') lines.push('  ⚠️ `codex` is not on PATH, so the hooks could not be trusted: Codex skips untrusted hooks silently. Open codex and trust them with /hooks (or run this command again with codex on PATH).');
  else lines.push('  ⚠️ Codex did not report all of the oc-memory hooks, so not all are trusted; open codex and check /hooks.');
  if (validated === 'listed') lines.push('  `codex mcp list`: oc-memory enabled.');
  else if (validated === 'failed') lines.push('  ⚠️ `codex mcp list` did not show oc-memory as enabled; run `codex mcp list`.');
  else lines.push('  (`codex` is not on PATH, so the result was not checked with `codex mcp list`.)');
  lines.push('New Codex sessions get it. Undo with: ocm-run integrate codex --uninstall');
  return { result, validated, lines };
}
