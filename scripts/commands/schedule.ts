import { defineCommand, type CommandContext } from '../cli-context.js';
import { OcmError } from '../../lib/api/errors.js';
import type { Flags, FlagValues } from '../flags.js';
import type { Platform, ScheduleOptions, ScheduleTarget } from '../../lib/api/jobs.js';

/** What of the user's shell the tick keeps (a scheduler starts it with a bare environment). */
function keptLines(target: ScheduleTarget): string[] {
  const lines: string[] = [];
  const environment = target.environment ?? [];
  if (environment.length > 0)
    lines.push(`The tick keeps what your shell sets for the sources: ${environment.map(([n, v]) => `${n}=${v}`).join(', ')}.`);
  else
    lines.push(
      'No source location is set in your shell (OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR, CODEX_HOME, PI_CODING_AGENT_DIR, …): the tick reads the default folders and config.yaml.',
    );
  if (target.configFile) lines.push(`The tick reads the config ${target.configFile} (--config).`);
  return lines;
}

const SCHEDULE_FLAGS = {
  platform: { value: '<name>', description: 'cron | launchd | systemd | schtasks (default: detected)' },
  every: { value: '<minutes>', description: 'Minutes between ticks (default: schedule.every_minutes)' },
  dryRun: { description: 'Print what would be written and run, change nothing' },
} as const satisfies Flags;

/** The command line as the schedule's options (checked: the platform's name, whole minutes from 1 to 1440). */
async function scheduleOptions(
  ctx: CommandContext,
  flags: FlagValues<typeof SCHEDULE_FLAGS>,
  defaultEveryMinutes: number,
): Promise<ScheduleOptions> {
  let platform: Platform | undefined;
  if (flags.platform !== undefined) {
    const p = flags.platform;
    const { isSchedulePlatform } = await import('../../lib/api/jobs.js');
    if (!(await isSchedulePlatform(p)))
      throw new OcmError('BAD_INPUT', `Unknown platform "${p}".`, { hint: 'Use cron, launchd, systemd or schtasks.' });
    platform = p as Platform;
  }
  const every = flags.every !== undefined ? Number(flags.every) : defaultEveryMinutes;
  if (!Number.isInteger(every) || every < 1 || every > 1440) {
    throw new OcmError('BAD_INPUT', `--every must be a whole number of minutes from 1 to 1440 (got ${flags.every}).`);
  }
  return { paths: ctx.paths, env: ctx.env, everyMinutes: every, platform, configFile: ctx.configFile };
}

export const command = defineCommand({
  name: 'schedule [action]',
  description: 'Run `ocm-run run` on a schedule: schedule install | uninstall | status (cron, launchd, systemd, Windows Task Scheduler)',
  flags: SCHEDULE_FLAGS,
  examples: [
    'ocm-run schedule install',
    'ocm-run schedule install --every 5 --dry-run',
    'ocm-run schedule status --json',
    'ocm-run schedule uninstall',
  ],
  async run(ctx, args, options) {
    const action = args.action ?? 'status';
    if (!['install', 'uninstall', 'status'].includes(action)) {
      throw new OcmError('BAD_INPUT', `Unknown schedule action "${action}".`, {
        hint: 'Use schedule install, schedule uninstall or schedule status.',
      });
    }
    const { dryRun } = options;
    // Only a real install creates the home (the tick's log goes there); status and dry runs change nothing.
    const { readConfig } = await import('../../lib/api/config.js');
    const { config } =
      action === 'install' && !dryRun
        ? await ctx.config()
        : await readConfig({ file: ctx.configFile, envFile: ctx.paths.env, env: ctx.env });
    const request = await scheduleOptions(ctx, options, config.schedule.every_minutes);
    const every = request.everyMinutes;
    const s = await import('../../lib/api/jobs.js');

    if (action === 'install') {
      const { platform, target, plan, installed } = await s.installSchedule({ ...request, config, dryRun });
      if (!installed) {
        if (ctx.json) {
          ctx.out(
            JSON.stringify(
              {
                dryRun: true,
                platform,
                name: plan.name,
                environment: Object.fromEntries(target.environment ?? []),
                configFile: target.configFile ?? null,
                cronBlock: plan.cronBlock,
                files: plan.files.map((f) => ({ path: f.path, content: f.content })),
                commands: plan.commands,
              },
              null,
              2,
            ),
          );
          return;
        }
        const lines = [
          `Dry run: schedule for ${ctx.paths.root} with ${platform}, every ${every} minute(s). Nothing was changed.`,
          ...keptLines(target),
          '',
        ];
        if (plan.cronBlock) lines.push('Would add to your crontab (other lines untouched):', '', plan.cronBlock, '');
        for (const f of plan.files) lines.push(`Would write ${f.path}:`, '', f.content.trimEnd(), '');
        lines.push('Would run:', ...plan.commands.map((c) => `  ${c.join(' ')}`));
        ctx.out(lines.join('\n'));
        return;
      }
      if (ctx.json)
        ctx.out(
          JSON.stringify({
            ok: true,
            platform,
            name: plan.name,
            unchanged: installed.unchanged,
            everyMinutes: every,
            log: target.log,
            environment: Object.fromEntries(target.environment ?? []),
            configFile: target.configFile ?? null,
          }),
        );
      else {
        ctx.out(
          `${installed.unchanged ? 'Already installed' : 'Installed'}: ${platform} runs \`ocm-run run\` every ${every} minute(s) for ${ctx.paths.root} (${plan.name}).`,
        );
        for (const line of keptLines(target)) ctx.out(line);
        ctx.out(`Output goes to ${target.log}. Check with: ocm-run schedule status`);
      }
      return;
    }

    if (action === 'uninstall') {
      const { platform, ...r } = await s.uninstallSchedule({ ...request, dryRun });
      if (ctx.json)
        ctx.out(JSON.stringify({ ok: true, dryRun, platform, found: r.found, removedFiles: r.removedFiles, commands: r.commands }));
      else if (!r.found) ctx.out(`No ${platform} schedule is installed for ${ctx.paths.root}; nothing to do.`);
      else {
        const verb = dryRun ? 'Would remove' : 'Removed';
        ctx.out(`${verb} the ${platform} schedule for ${ctx.paths.root}.`);
        for (const f of r.removedFiles) ctx.out(`  ${dryRun ? 'would delete' : 'deleted'} ${f}`);
        for (const c of r.commands) ctx.out(`  ${dryRun ? 'would run' : 'ran'} ${c.join(' ')}`);
      }
      return;
    }

    const { platform, status: st, health } = await s.scheduleStatus({ ...request, now: () => ctx.now() });
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...st, ...health }, null, 2));
      return;
    }
    const lines = [
      `Schedule (${platform}, ${st.name}): ${st.installed ? 'installed' : 'not installed'}${st.active === undefined ? '' : st.active ? ', active' : ', not active'}${st.everyMinutes ? `, every ${st.everyMinutes} minute(s)` : ''}`,
      `Last tick: ${health.lastRun ? `${health.lastRun.slice(0, 19).replace('T', ' ')} UTC (${health.minutesSinceLastRun} min ago)${health.ticking ? '' : ' — late'}` : 'never'}`,
    ];
    if (!st.installed) lines.push('Install with: ocm-run schedule install');
    ctx.out(lines.join('\n'));
  },
});
