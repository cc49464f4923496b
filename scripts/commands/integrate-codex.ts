/** `ocm-run integrate codex [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import type { IntegrateFlags } from './integrate.js';
import { configAccess, setUpCodex } from '../../lib/integrations/agent-setup.js';
import { thisRunner } from '../runner.js';

export async function runCodexIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/codex/integration.js');
  const { config } = await ctx.config();
  const agent = config.sources.codex.agent || 'codex';
  const base = { paths: ctx.paths, runner: thisRunner(), agent };

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
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate codex.`, {
      hint: 'Use `ocm-run integrate codex`, `… status`, `… --print` or `… --uninstall`.',
    });

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
    else
      ctx.out(
        [
          'Took OC-Memory out of Codex:',
          ...r.changes.map((c) => `  ${c}`),
          ...r.deleted.map((d) => `  removed ${d} (created by the integration, nothing else in it)`),
        ].join('\n'),
      );
    return;
  }

  const { result, validated, lines } = await setUpCodex({
    paths: ctx.paths,
    configFile: ctx.configFile,
    env: ctx.env,
    runner: thisRunner(),
  });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...result, validated }) : lines.join('\n'));
}
