/** `ocm-run integrate pi [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import type { IntegrateFlags } from './integrate.js';
import { OcmError } from '../../lib/api/errors.js';
import { thisRunner } from '../runner.js';

/** What `integrate pi` does. */
type PiRequest = { kind: 'status' } | { kind: 'print' } | { kind: 'uninstall' } | { kind: 'install' };

/** The action and flags as the request (an unknown action: BAD_INPUT). */
function piOptions(action: string | undefined, flags: IntegrateFlags): PiRequest {
  if (action === 'status') return { kind: 'status' };
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate pi.`, {
      hint: 'Use `ocm-run integrate pi`, `… status`, `… --print` or `… --uninstall`.',
    });
  if (flags.print) return { kind: 'print' };
  if (flags.uninstall) return { kind: 'uninstall' };
  return { kind: 'install' };
}

export async function runPiIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const api = await import('../../lib/api/integrations.js');
  const { config } = await ctx.config();
  const request = piOptions(action, options);
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
