/**
 * The schedule of one memory home: which node, CLI, home and log file the
 * scheduler runs, the templates from `cron/`, and whether ticks are arriving.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HomePaths } from '../../platform/home.js';
import { packagePath } from '../../platform/package-root.js';
import { readState } from '../../platform/state.js';
import type { ScheduleTarget } from './render.js';
import type { ScheduleTemplates } from './install.js';

export * from './render.js';
export * from './install.js';
export * from './crontab.js';
export * from './environment.js';

export function defaultHomeDir(userHome: string = homedir()): string {
  return join(userHome, '.openclaw', 'oc-memory');
}

/** The built CLI entry the scheduler runs. */
export function cliEntry(): string {
  return packagePath('dist', 'scripts', 'cli.js');
}

export function scheduleTarget(
  paths: HomePaths,
  everyMinutes: number,
  options: { node?: string; cli?: string; userHome?: string; environment?: ScheduleTarget['environment']; configFile?: string } = {},
): ScheduleTarget {
  return {
    ...(options.environment && options.environment.length > 0 ? { environment: options.environment } : {}),
    ...(options.configFile && options.configFile !== paths.config ? { configFile: options.configFile } : {}),
    node: options.node ?? process.execPath,
    cli: options.cli ?? cliEntry(),
    home: paths.root,
    log: join(paths.logs, 'schedule.log'),
    everyMinutes,
    defaultHome: paths.root === defaultHomeDir(options.userHome),
  };
}

export async function loadScheduleTemplates(): Promise<ScheduleTemplates> {
  const read = (name: string) => readFile(packagePath('cron', name), 'utf8');
  const [crontab, launchd, systemdService, systemdTimer, schtasks] = await Promise.all([
    read('crontab.txt'),
    read('launchd.plist'),
    read('systemd.service'),
    read('systemd.timer'),
    read('schtasks.xml'),
  ]);
  return { crontab, launchd, systemdService, systemdTimer, schtasks };
}

export interface TickHealth {
  lastRun?: string;
  lastSuccess?: string;
  /** A tick ran within twice the interval (plus a minute of slack). */
  ticking: boolean;
  minutesSinceLastRun?: number;
}

/** When the last tick ran, from state.json, and whether that is recent enough. */
export async function tickHealth(paths: HomePaths, everyMinutes: number, now: Date = new Date()): Promise<TickHealth> {
  const { state } = await readState(paths.state);
  const run = state.jobs.run;
  if (!run?.lastRun) return { ticking: false };
  const minutes = (now.getTime() - Date.parse(run.lastRun)) / 60000;
  return {
    lastRun: run.lastRun,
    lastSuccess: run.lastSuccess,
    ticking: minutes <= everyMinutes * 2 + 1,
    minutesSinceLastRun: Math.round(minutes * 10) / 10,
  };
}

export interface ScheduleInfo {
  platform: import('./render.js').Platform;
  installed: boolean;
  active?: boolean;
  everyMinutes: number;
  lastRun?: string;
  minutesSinceLastRun?: number;
  ticking: boolean;
}

/** The schedule's state for `status` and `doctor`: installed on the detected platform, and ticking. */
export async function collectScheduleInfo(
  paths: HomePaths,
  configuredEvery: number,
  env: {
    runner?: import('./install.js').CommandRunner;
    xdgConfigHome?: string | undefined;
    platform?: import('./render.js').Platform;
    now?: Date;
  } = {},
): Promise<ScheduleInfo> {
  const { defaultRunner, detectPlatform, scheduleStatus } = await import('./install.js');
  const runner = env.runner ?? defaultRunner;
  const platform = env.platform ?? (await detectPlatform(runner));
  const templates = await loadScheduleTemplates();
  const st = await scheduleStatus(platform, scheduleTarget(paths, configuredEvery), templates, {
    runner,
    xdgConfigHome: env.xdgConfigHome,
  });
  const every = st.everyMinutes ?? configuredEvery;
  const health = await tickHealth(paths, every, env.now);
  return {
    platform,
    installed: st.installed,
    active: st.active,
    everyMinutes: every,
    lastRun: health.lastRun,
    minutesSinceLastRun: health.minutesSinceLastRun,
    ticking: health.ticking,
  };
}
