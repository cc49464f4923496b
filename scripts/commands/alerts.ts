import { defineCommand, type CommandContext } from '../cli-context.js';
import type { ArgsOf } from '../flags.js';

const ALERTS_USAGE = 'alerts [action]';

/** `alerts save`: where the endpoint is saved when the connection works; show and test save nothing. */
function alertsSaveTo(ctx: CommandContext, args: ArgsOf<typeof ALERTS_USAGE>): { file: string; envFile: string } | undefined {
  return (args.action ?? 'show') === 'save' ? { file: ctx.configFile, envFile: ctx.paths.env } : undefined;
}

export const command = defineCommand({
  name: ALERTS_USAGE,
  description: 'Where alerts go: show (default) the OpenClaw hooks endpoint and test the connection; save it to config; send a test alert',
  examples: ['ocm-run alerts', 'ocm-run alerts save', 'ocm-run alerts test'],
  // Showing and testing only read: a mistyped --home is an error, not a new home.
  homeMustExist: (args) => (args.action ?? 'show') !== 'save',
  async run(ctx, args) {
    const action = args.action ?? 'show';
    if (!['show', 'save', 'test'].includes(action)) {
      const { OcmError } = await import('../../lib/api/errors.js');
      throw new OcmError('BAD_INPUT', `Unknown alerts action "${action}".`, {
        hint: 'Use `ocm-run alerts`, `ocm-run alerts save` or `ocm-run alerts test`.',
      });
    }
    const { config, env } = await ctx.config();
    if (action === 'test') {
      const { sendTestAlert } = await import('../../lib/api/jobs.js');
      const outcome = await sendTestAlert({ config, paths: ctx.paths, env, logger: ctx.logger('alerts') });
      if (ctx.json) ctx.out(JSON.stringify(outcome));
      else if (outcome.sent.length > 0) ctx.out(`Test alert sent to: ${outcome.sent.join(', ')}.`);
      else ctx.out(`No alert sent (${outcome.skipped ?? 'every target failed'}).${outcome.errors.map((e) => `\n  ${e}`).join('')}`);
      return outcome.sent.length > 0 ? 0 : 1;
    }
    const { alertsEndpoint } = await import('../../lib/api/jobs.js');
    const saveTo = alertsSaveTo(ctx, args);
    const { endpoint, check, shown, saved } = await alertsEndpoint({ config, env, ...(saveTo ? { saveTo } : {}) });
    if (ctx.json) ctx.out(JSON.stringify({ ...shown, saved }));
    else {
      ctx.out(
        [
          `Alerts ${config.alerts.enabled ? 'on' : 'off'} (at most one per error class every ${config.alerts.min_interval_minutes} min)`,
          `OpenClaw gateway: ${endpoint.url} (from ${endpoint.urlSource}), hooks ${endpoint.url}${endpoint.hooksPath}/agent`,
          `Hooks token: ${shown.token}${endpoint.configPath ? ` · openclaw.json: ${endpoint.configPath}` : ''}`,
          ...(endpoint.warning ? [`Warning: ${endpoint.warning}`] : []),
          `Connection: ${check.ok ? 'OK' : 'failed'} — ${check.message}${check.hint ? `\n  → ${check.hint}` : ''}`,
          `Webhook URL: ${config.alerts.webhook_url || 'none'}`,
          ...(action === 'save'
            ? [
                saved
                  ? `Saved alerts.openclaw_url and alerts.openclaw_hooks_path to ${ctx.configFile} (the token stays in openclaw.json).`
                  : 'Not saved: the connection test failed.',
              ]
            : []),
        ].join('\n'),
      );
    }
    return action === 'save' && !saved ? 1 : 0;
  },
});
