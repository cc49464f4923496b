/**
 * `ocm-run schedule install | uninstall | status` for one memory home: pick
 * the platform (detected unless given), build the target from the home, and
 * run the action. The command maps its flags onto these options and prints
 * the typed result (docs/architecture.md, "Add a command").
 */
import type { Config } from '../../config/config-schema.js';
import type { HomePaths } from '../../platform/home.js';
import {
  defaultRunner,
  detectPlatform,
  installSchedule,
  loadScheduleTemplates,
  planSchedule,
  scheduleStatus,
  scheduleEnvironment,
  scheduleTarget,
  tickHealth,
  uninstallSchedule,
  type InstallResult,
  type Platform,
  type ScheduleEnv,
  type SchedulePlan,
  type ScheduleStatus,
  type ScheduleTarget,
  type ScheduleTemplates,
  type TickHealth,
  type UninstallResult,
} from './index.js';

export interface HomeScheduleOptions {
  paths: HomePaths;
  /** The process environment (XDG_CONFIG_HOME for systemd's user units). */
  env: NodeJS.ProcessEnv;
  /** The scheduler to use (default: the one this machine uses). */
  platform?: Platform;
  /** Minutes between ticks, already checked to be 1–1440. */
  everyMinutes: number;
  /** The config file the command uses (--config / OCM_CONFIG): a tick of another than the home's config.yaml is told it. */
  configFile?: string;
}

interface Resolved {
  platform: Platform;
  target: ScheduleTarget;
  templates: ScheduleTemplates;
  env: ScheduleEnv;
}

async function resolve(options: HomeScheduleOptions): Promise<Resolved> {
  const env = { runner: defaultRunner, xdgConfigHome: options.env.XDG_CONFIG_HOME };
  const platform = options.platform ?? (await detectPlatform(defaultRunner));
  // The sources' variables of the user's shell go into the schedule (environment.ts).
  const target = scheduleTarget(options.paths, options.everyMinutes, {
    environment: scheduleEnvironment(options.env),
    configFile: options.configFile,
  });
  const templates = await loadScheduleTemplates();
  return { platform, target, templates, env };
}

export interface InstallHomeScheduleOptions extends HomeScheduleOptions {
  config: Config;
  /** config.yaml: an interval other than schedule.every_minutes is saved there after a real install. */
  configFile: string;
  /** Plan only: write and run nothing. */
  dryRun: boolean;
}

export interface InstallHomeScheduleResult {
  platform: Platform;
  target: ScheduleTarget;
  plan: SchedulePlan;
  /** What the install did (absent on a dry run). */
  installed?: InstallResult;
}

export async function installHomeSchedule(options: InstallHomeScheduleOptions): Promise<InstallHomeScheduleResult> {
  const { platform, target, templates, env } = await resolve(options);
  const plan = planSchedule(platform, target, templates, env);
  if (options.dryRun) return { platform, target, plan };
  const installed = await installSchedule(plan, target, env);
  if (options.everyMinutes !== options.config.schedule.every_minutes) {
    const { setConfigValue } = await import('../../config/config.js');
    await setConfigValue({
      file: options.configFile,
      envFile: options.paths.env,
      keyPath: 'schedule.every_minutes',
      value: options.everyMinutes,
      env: options.env,
    });
  }
  return { platform, target, plan, installed };
}

export interface UninstallHomeScheduleResult extends UninstallResult {
  platform: Platform;
}

export async function uninstallHomeSchedule(options: HomeScheduleOptions & { dryRun: boolean }): Promise<UninstallHomeScheduleResult> {
  const { platform, target, templates, env } = await resolve(options);
  const r = await uninstallSchedule(platform, target, templates, env, options.dryRun);
  return { platform, ...r };
}

export interface HomeScheduleReport {
  platform: Platform;
  status: ScheduleStatus;
  health: TickHealth;
}

/** Whether the schedule is installed and whether ticks arrive (judged against its own interval when it has one). */
export async function homeScheduleStatus(options: HomeScheduleOptions & { now: () => Date }): Promise<HomeScheduleReport> {
  const { platform, target, templates, env } = await resolve(options);
  const status = await scheduleStatus(platform, target, templates, env);
  const health = await tickHealth(options.paths, status.everyMinutes ?? options.everyMinutes, options.now());
  return { platform, status, health };
}
