import { defineCommand } from '../cli-context.js';
import { OcmError } from '../../lib/core/errors.js';

export const command = defineCommand({
  name: 'config [action] [key] [value]',
  description: 'Show or change settings: config get [key] | config set <key> <value> | config validate',
  flags: { showSecrets: { description: 'config get: print API keys and tokens instead of [hidden: set]' } },
  examples: [
    'ocm-run config get active_memory.budget_tokens',
    'ocm-run config set active_memory.budget_tokens 3000',
    'ocm-run config validate',
  ],
  // get and validate only read: a mistyped --home is an error, not a new home.
  homeMustExist: (args) => (args.action ?? 'get') !== 'set',
  async run(ctx, args, options) {
    const { action = 'get', key, value } = args;
    const { getConfigValue, hideSecrets, parseCliValue, setConfigValue } = await import('../../lib/config/config.js');
    const { formatYaml } = await import('../../lib/core/yaml.js');
    switch (action) {
      case 'get': {
        const { config } = await ctx.config();
        const raw = key ? getConfigValue(config, key) : config;
        const v = options.showSecrets ? raw : hideSecrets(raw, key ?? '');
        if (ctx.json) ctx.out(JSON.stringify(v, null, 2));
        else ctx.out(typeof v === 'object' && v !== null ? formatYaml(v).trimEnd() : String(v));
        return;
      }
      case 'set': {
        if (!key || value === undefined)
          throw new OcmError('BAD_INPUT', 'config set needs a key and a value.', {
            hint: 'Example: ocm-run config set active_memory.budget_tokens 3000',
          });
        await ctx.config();
        await setConfigValue({
          file: ctx.configFile,
          envFile: ctx.paths.env,
          keyPath: key,
          value: parseCliValue(value, key),
          env: ctx.env,
        });
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
