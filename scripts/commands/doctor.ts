import { defineCommand } from '../cli-context.js';

export const command = defineCommand({
  name: 'doctor',
  description:
    'Check everything OC-Memory needs (config, API key, paths, permissions, OpenClaw, schedule, Claude Code / Codex / pi integrations, index, disk): ✅ / ⚠️ / ❌ with the fix',
  homeMustExist: true,
  flags: { offline: { description: 'Do not make the live API-key call' } },
  examples: ['ocm-run doctor', 'ocm-run doctor --json'],
  async run(ctx, _args, options) {
    const { homedir } = await import('node:os');
    const { assertMemoryHome } = await import('../cli-context.js');
    await assertMemoryHome(ctx.paths);
    const { runDoctor, formatChecks } = await import('../../lib/features/doctor.js');
    const checks = await runDoctor({
      paths: ctx.paths,
      configFile: ctx.configFile,
      env: ctx.env,
      userHome: homedir(),
      now: ctx.now(),
      offline: options.offline,
    });
    const failed = checks.some((c) => c.status === 'fail');
    if (ctx.json) ctx.out(JSON.stringify({ ok: !failed, checks }, null, 2));
    else ctx.out(formatChecks(checks));
    return failed ? 1 : 0;
  },
});
