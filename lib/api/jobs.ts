/**
 * The jobs as a caller runs them: observe now, one scheduled tick, the
 * background watcher, the schedule that runs the tick, an agent's after-turn
 * round, and alerts — each a typed call onto the job that does it
 * (lib/jobs/, lib/observe/), loaded on the call that needs it, so a process
 * that imports this module pays for none of them.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { TickOptions, TickResult } from '../jobs/run-job.js';
import type { ObserveJobResult, ObserveProgress } from '../observe/job.js';
import type { StartResult, StopResult } from '../jobs/daemon.js';
import type { Platform } from '../jobs/schedule/index.js';
import type { HomeScheduleReport, InstallHomeScheduleResult, UninstallHomeScheduleResult } from '../jobs/schedule/home-schedule.js';
import type { AlertOutcome, AlertsEndpointReport } from '../jobs/alerts.js';
import type { StartAfterTurnJobOptions } from '../jobs/after-turn.js';

export type { TickResult, TickStep } from '../jobs/run-job.js';
export type { ObserveJobResult, ObserveProgress, StreamFailure } from '../observe/job.js';
export type { DaemonStatus, StartResult, StopResult } from '../jobs/daemon.js';
export type { Platform, ScheduleInfo, ScheduleTarget } from '../jobs/schedule/index.js';
export type { HomeScheduleReport, InstallHomeScheduleResult, UninstallHomeScheduleResult } from '../jobs/schedule/home-schedule.js';
export type { AlertOutcome, AlertsEndpointReport } from '../jobs/alerts.js';
export type { StartAfterTurnJobOptions } from '../jobs/after-turn.js';

/** What every job runs on: the home, its config and environment, and where it logs. */
export interface JobContext {
  paths: HomePaths;
  config: Config;
  /** The environment `${NAME}` and the sources' locations are read from. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export interface ObserveOptions extends JobContext {
  /** LLM Observer: observe what still waits for a full batch now. */
  flush: boolean;
  onProgress?: (progress: ObserveProgress) => void;
  /** Named points of the observe step's saves (test hook). */
  onObserveStep?: TickOptions['onObserveStep'];
}

/** A run of a job with the exit code it asks for (1: a stream or a step failed). */
export interface JobRun<R> {
  result: R;
  exitCode: number;
}

/** `observe`: read the new transcript lines, write observations, refresh active memory and the index (what was observed is searchable at once). */
export async function observe(options: ObserveOptions): Promise<JobRun<TickResult & { observe: ObserveJobResult }>> {
  const { runTick } = await import('../jobs/run-job.js');
  const { observeExitCode } = await import('../observe/job.js');
  const result = await runTick({
    paths: options.paths,
    config: options.config,
    env: options.env,
    logger: options.logger,
    steps: ['observe', 'active_memory', 'index'],
    flush: options.flush,
    ...(options.onObserveStep ? { onObserveStep: options.onObserveStep } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const observed = result.observe!;
  return { result: { ...result, observe: observed }, exitCode: observeExitCode(observed) };
}

/** `run`: one scheduled tick, every job that is due, under one lock (what cron calls); the scheduler's log is kept bounded. */
export async function tick(options: JobContext): Promise<JobRun<TickResult>> {
  // cron appends the tick's output to schedule.log (lib/jobs/schedule): rotated like the logs the jobs write.
  const { rotateLogIfLarge } = await import('../platform/log.js');
  const { join } = await import('node:path');
  await rotateLogIfLarge(join(options.paths.logs, 'schedule.log'));
  const { runTick } = await import('../jobs/run-job.js');
  const { observeExitCode } = await import('../observe/job.js');
  const result = await runTick({ paths: options.paths, config: options.config, env: options.env, logger: options.logger });
  const failures = [...(result.observe?.failures ?? []), ...(result.reflectError ? [result.reflectError] : [])];
  return { result, exitCode: observeExitCode({ failures }) };
}

export interface StartWatcherOptions {
  paths: HomePaths;
  /** The config file the watcher reads when it is not the home's config.yaml (--config). */
  configFile?: string;
  env: NodeJS.ProcessEnv;
  /** The Node that runs it (default this process's). */
  node?: string;
}

/** `start --daemon`: `watch` detached, its pidfile and log under the home (already running: said, not started twice). */
export async function startWatcher(options: StartWatcherOptions): Promise<StartResult> {
  const { startDaemon } = await import('../jobs/daemon.js');
  const { cliEntry } = await import('../jobs/schedule/index.js');
  return startDaemon({
    paths: options.paths,
    node: options.node ?? process.execPath,
    cli: cliEntry(),
    args: options.configFile !== undefined ? ['--config', options.configFile] : [],
    env: options.env,
  });
}

export interface StopWatcherOptions {
  /** SIGKILL when SIGTERM did not stop it in time. */
  force: boolean;
  /** How long to wait after SIGTERM (ms; default the daemon's own). */
  timeoutMs?: number;
}

/** `stop`: the background watcher ended (DAEMON_NOT_RUNNING, exit 3, when none runs). */
export async function stopWatcher(paths: HomePaths, options: StopWatcherOptions): Promise<StopResult> {
  const { stopDaemon } = await import('../jobs/daemon.js');
  return stopDaemon(paths, { force: options.force, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
}

/** "3 h 12 min": how long a watcher has been up. */
export async function uptimeText(seconds: number): Promise<string> {
  const { formatUptime } = await import('../jobs/daemon.js');
  return formatUptime(seconds);
}

export interface ScheduleOptions {
  paths: HomePaths;
  env: NodeJS.ProcessEnv;
  /** Minutes between ticks (1–1440; checked by the caller's flags). */
  everyMinutes: number;
  /** The scheduler (default: the one this machine uses). */
  platform?: Platform;
  /** The config file the tick reads (--config): a tick of another than the home's config.yaml is told it. */
  configFile: string;
}

/** A scheduler's name, checked: cron, launchd, systemd or schtasks. */
export async function isSchedulePlatform(name: string): Promise<boolean> {
  const { isPlatform } = await import('../jobs/schedule/index.js');
  return isPlatform(name);
}

/** `schedule install`: the tick on the platform's scheduler (dryRun: what would be written and run, nothing changed). */
export async function installSchedule(options: ScheduleOptions & { config: Config; dryRun: boolean }): Promise<InstallHomeScheduleResult> {
  const { installHomeSchedule } = await import('../jobs/schedule/home-schedule.js');
  return installHomeSchedule(options);
}

/** `schedule uninstall`: the tick taken off the scheduler again. */
export async function uninstallSchedule(options: ScheduleOptions & { dryRun: boolean }): Promise<UninstallHomeScheduleResult> {
  const { uninstallHomeSchedule } = await import('../jobs/schedule/home-schedule.js');
  return uninstallHomeSchedule(options);
}

/** `schedule status`: installed or not, and when the tick last ran. */
export async function scheduleStatus(options: ScheduleOptions & { now: () => Date }): Promise<HomeScheduleReport> {
  const { homeScheduleStatus } = await import('../jobs/schedule/home-schedule.js');
  return homeScheduleStatus(options);
}

/** `hook after-turn`: start the observe + index job detached (or ask the running one to go round again), and return at once. */
export async function startAfterTurnJob(options: StartAfterTurnJobOptions): Promise<void> {
  const { startAfterTurnJob: start } = await import('../jobs/after-turn.js');
  await start(options);
}

/** `hook after-turn --background`: observe + active memory + index, again while turns keep ending; never throws. */
export async function runAfterTurn(options: JobContext & { agent: string }): Promise<void> {
  const { runAfterTurnTicks } = await import('../jobs/after-turn.js');
  await runAfterTurnTicks(options);
}

/** `alerts test`: one test alert to every configured target. */
export async function sendTestAlert(options: JobContext): Promise<AlertOutcome> {
  const { sendTestAlert: send } = await import('../jobs/alerts.js');
  return send(options);
}

/** `alerts [show|save]`: where alerts go, the connection tested, saved to config.yaml when asked and it works. */
export async function alertsEndpoint(options: {
  config: Config;
  env: NodeJS.ProcessEnv;
  saveTo?: { file: string; envFile: string };
}): Promise<AlertsEndpointReport> {
  const { checkAlertsEndpoint } = await import('../jobs/alerts.js');
  return checkAlertsEndpoint(options);
}
