/** `ocm-run integrate pi [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import { agentIntegrationOptions, type IntegrateFlags } from './integrate.js';
import { thisRunner } from '../runner.js';

export async function runPiIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const api = await import('../../lib/api/integrations.js');
  const { config } = await ctx.config();
  const request = agentIntegrationOptions('pi', action, options);
  if (request.kind === 'status') {
    const { extensionDir, installed } = await api.piStatus({ paths: ctx.paths, env: ctx.env });
    if (ctx.json) ctx.out(JSON.stringify({ extensionDir, installed, sourceEnabled: config.sources.pi.enabled }));
    else
      ctx.out(
        [
          `pi integration for ${ctx.paths.root}:`,
          `  ${installed ? '✅' : '❌'} extension in ${extensionDir}`,
          `  ${config.sources.pi.enabled ? '✅' : '❌'} pi transcripts observed (sources.pi.enabled)`,
        ].join('\n'),
      );
    return;
  }
  if (request.kind === 'print') {
    const { extensionDir, extensionSource, settings } = await api.piPreview({ paths: ctx.paths, env: ctx.env, runner: thisRunner() });
    ctx.out(
      [
        `Copy ${extensionSource} to ${extensionDir}/index.ts and write ${extensionDir}/oc-memory.json:`,
        '',
        JSON.stringify(settings, null, 2),
        '',
        'and turn on the transcript source: ocm-run config set sources.pi.enabled true',
        '(`ocm-run integrate pi` does all of this for you.)',
      ].join('\n'),
    );
    return;
  }
  if (request.kind === 'uninstall') {
    const r = await api.uninstallPi({ paths: ctx.paths, env: ctx.env, config, configFile: ctx.configFile });
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, ...r }));
    else
      ctx.out(
        r.changes.length
          ? ['Took OC-Memory out of pi:', ...r.changes.map((c) => `  ${c}`)].join('\n')
          : 'Nothing of OC-Memory was found in pi; nothing to do.',
      );
    return;
  }
  const { result, lines } = await api.installPi({ paths: ctx.paths, configFile: ctx.configFile, env: ctx.env, runner: thisRunner() });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...result }) : lines.join('\n'));
}
