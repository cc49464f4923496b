import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { ArgsOf, Flags, FlagValues } from '../flags.js';
import type { ConfigValueRequest } from '../../lib/api/config.js';

const CONFIG_USAGE = 'config [action] [key] [value]';

const CONFIG_FLAGS = {
  showSecrets: { description: 'config get: print API keys and tokens instead of [hidden: set]' },
} as const satisfies Flags;

/** `config get [key]` as the value asked for. */
function configValueOptions(args: ArgsOf<typeof CONFIG_USAGE>, flags: FlagValues<typeof CONFIG_FLAGS>): ConfigValueRequest {
  return { key: args.key, showSecrets: flags.showSecrets };
}

export const command = defineCommand({
  name: CONFIG_USAGE,
  description: 'Show or change settings: config get [key] | config set <key> <value> | config validate',
  flags: CONFIG_FLAGS,
  examples: [
    'ocm-run config get active_memory.budget_tokens',
    'ocm-run config set active_memory.budget_tokens 3000',
    'ocm-run config validate',
  ],
  // get and validate only read: a mistyped --home is an error, not a new home.
  homeMustExist: (args) => (args.action ?? 'get') !== 'set',
  async run(ctx, args, options) {
    const { action = 'get', key, value } = args;
    const api = await import('../../lib/api/config.js');
    switch (action) {
      case 'get': {
        const { config } = await ctx.config();
        const shown = await api.configValue(config, configValueOptions(args, options));
        ctx.out(ctx.json ? JSON.stringify(shown.value, null, 2) : shown.text);
        return;
      }
      case 'set': {
        if (!key || value === undefined)
          throw new OcmError('BAD_INPUT', 'config set needs a key and a value.', {
            hint: 'Example: ocm-run config set active_memory.budget_tokens 3000',
          });
        await ctx.config();
        await api.setConfig({ file: ctx.configFile, envFile: ctx.paths.env, env: ctx.env, key, text: value });
        ctx.out(ctx.json ? JSON.stringify({ ok: true, key }) : `Set ${key} in ${ctx.configFile}.`);
        return;
      }
      case 'validate': {
        const loaded = await ctx.config();
        if (ctx.json) ctx.out(JSON.stringify({ ok: true, file: loaded.file, missingEnv: loaded.missingEnv }));
        else {
          ctx.out(`✅ ${loaded.file} is valid.`);
          for (const name of loaded.missingEnv)
            ctx.out(`⚠️  \${${name}} is referenced but not set (in the environment or ${ctx.paths.env}).`);
        }
        return;
      }
      default:
        throw new OcmError('BAD_INPUT', `Unknown config action "${action}".`, {
          hint: 'Use config get [key], config set <key> <value> or config validate.',
        });
    }
  },
});
