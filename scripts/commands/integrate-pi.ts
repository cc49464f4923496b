/** `ocm-run integrate pi [--print] [--uninstall]` (dispatched from integrate.ts). */
import type { CommandContext } from '../cli-context.js';
import type { IntegrateFlags } from './integrate.js';
import { configAccess, setUpPi } from '../../lib/integrations/agent-setup.js';
import { thisRunner } from '../runner.js';

export async function runPiIntegration(
  ctx: CommandContext,
  action: string | undefined,
  options: IntegrateFlags,
): Promise<number | undefined> {
  const { OcmError } = await import('../../lib/core/errors.js');
  const i = await import('../../lib/integrations/pi/integration.js');
  const { config } = await ctx.config();
  const base = { paths: ctx.paths, runner: thisRunner(), agent: 'pi' };
  if (action === 'status') {
    const { exists } = await import('../../lib/platform/home.js');
    const { join } = await import('node:path');
    const { extensionDir } = i.locatePi(ctx.env);
    const installed = await exists(join(extensionDir, 'oc-memory.json'));
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
  if (action !== undefined)
    throw new OcmError('BAD_INPUT', `Unknown action "${action}" for integrate pi.`, {
      hint: 'Use `ocm-run integrate pi`, `… status`, `… --print` or `… --uninstall`.',
    });
  if (options.print) {
    const { extensionDir } = i.locatePi(ctx.env);
    const { packagePath } = await import('../../lib/platform/package-root.js');
    ctx.out(
      [
        `Copy ${packagePath('templates', 'pi-extension', 'index.ts')} to ${extensionDir}/index.ts and write ${extensionDir}/oc-memory.json:`,
        '',
        JSON.stringify(i.piExtensionSettings(base), null, 2),
        '',
        'and turn on the transcript source: ocm-run config set sources.pi.enabled true',
        '(`ocm-run integrate pi` does all of this for you.)',
      ].join('\n'),
    );
    return;
  }
  const access = await configAccess(config, ctx.configFile, ctx.paths, ctx.env);
  if (options.uninstall) {
    const r = await i.uninstallPiIntegration({ paths: ctx.paths, env: ctx.env, config: access });
    if (ctx.json) ctx.out(JSON.stringify({ ok: true, ...r }));
    else
      ctx.out(
        r.changes.length
          ? ['Took OC-Memory out of pi:', ...r.changes.map((c) => `  ${c}`)].join('\n')
          : 'Nothing of OC-Memory was found in pi; nothing to do.',
      );
    return;
  }
  const { result, lines } = await setUpPi({ paths: ctx.paths, configFile: ctx.configFile, env: ctx.env, runner: thisRunner() });
  ctx.out(ctx.json ? JSON.stringify({ ok: true, ...result }) : lines.join('\n'));
}
