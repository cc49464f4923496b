import { defineCommand, type CommandContext } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';
import type { DoctorRunOptions } from '../../lib/api/setup.js';

const DOCTOR_FLAGS = { offline: { description: 'Do not make the live API-key call' } } as const satisfies Flags;

/** The checks' options: the home, its config file, the user's home folder, and --offline. */
async function doctorOptions(ctx: CommandContext, flags: FlagValues<typeof DOCTOR_FLAGS>): Promise<DoctorRunOptions> {
  const { homedir } = await import('node:os');
  return { paths: ctx.paths, configFile: ctx.configFile, env: ctx.env, userHome: homedir(), now: ctx.now(), offline: flags.offline };
}

export const command = defineCommand({
  name: 'doctor',
  description:
    'Check everything OC-Memory needs (config, API key, paths, permissions, OpenClaw, schedule, Claude Code / Codex / pi integrations, index, disk): ✅ / ⚠️ / ❌ with the fix',
  homeMustExist: true,
  flags: DOCTOR_FLAGS,
  examples: ['ocm-run doctor', 'ocm-run doctor --json'],
  async run(ctx, _args, options) {
    const request = await doctorOptions(ctx, options);
    const { assertMemoryHome } = await import('../cli-context.js');
    await assertMemoryHome(ctx.paths);
    const { runDoctor } = await import('../../lib/api/setup.js');
    const { checks, failed, text } = await runDoctor(request);
    if (ctx.json) ctx.out(JSON.stringify({ ok: !failed, checks }, null, 2));
    else ctx.out(text);
    return failed ? 1 : 0;
  },
});
