/** `ocm-run integrate codex [status] [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import { agentIntegrationOptions, type IntegrateFlags } from './integrate.js';
import { thisRunner } from '../runner.js';

export async function runCodexIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const api = await import('../../lib/api/integrations.js');
  const { config } = await ctx.config();
  const request = agentIntegrationOptions('codex', action, options);

  if (request.kind === 'status') {
    const s = await api.codexStatus({ paths: ctx.paths, env: ctx.env });
    if (ctx.json) {
      const { hooksToTrust: _hooksToTrust, ...status } = s;
      ctx.out(JSON.stringify({ ...status, sourceEnabled: config.sources.codex.enabled }));
      return;
    }
    const mark = (ok: boolean) => (ok ? '✅' : '❌');
    ctx.out(
      [
        `Codex integration for ${ctx.paths.root}:`,
        `  ${mark(s.mcpServer)} MCP server oc-memory in ${s.location.configPath}`,
        ...Object.entries(s.hooks).map(([event, ok]) => `  ${mark(ok)} ${event} hook in ${s.location.hooksPath}`),
        `  ${mark(s.trusted === s.hooksToTrust)} hooks trusted in ${s.location.configPath} (${s.trusted} of ${s.hooksToTrust}; Codex skips untrusted hooks silently — trust them in codex with /hooks)`,
        `  ${mark(config.sources.codex.enabled)} Codex transcripts observed (sources.codex.enabled)`,
      ].join('\n'),
    );
    return;
  }

  if (request.kind === 'print') {
    const { location, snippet } = await api.codexPreview({
      paths: ctx.paths,
      env: ctx.env,
      runner: thisRunner(),
      agent: config.sources.codex.agent || 'codex',
    });
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

  if (request.kind === 'uninstall') {
    const r = await api.uninstallCodex({ paths: ctx.paths, env: ctx.env, config, configFile: ctx.configFile });
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

  const { result, validated, lines } = await api.installCodex({
    paths: ctx.paths,
    configFile: ctx.configFile,
    env: ctx.env,
    runner: thisRunner(),
  });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...result, validated }) : lines.join('\n'));
}
