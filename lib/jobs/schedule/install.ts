/**
 * Installing, removing and inspecting the schedule on each platform:
 * crontab (`crontab -l` / `crontab -`), a launchd agent (`launchctl
 * bootstrap`), a systemd user timer (`systemctl --user enable --now`) and a
 * Windows scheduled task (`schtasks /Create /XML`). Every external command
 * goes through a runner that is passed in; `dryRun` plans without touching
 * anything.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { OcmError, fromSystemError, isNotFound } from '../../core/errors.js';
import { exists } from '../../platform/home.js';
import { findCronBlock, removeCronBlock, upsertCronBlock } from './crontab.js';
import {
  encodeUtf16le,
  renderCronBlock,
  renderLaunchdPlist,
  renderSchtasksXml,
  renderSystemdUnits,
  scheduleNames,
  type Platform,
  type ScheduleTarget,
} from './render.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an external command; code 127 when it is not installed. */
export type CommandRunner = (command: string, args: string[], options?: { input?: string }) => Promise<RunResult>;

export const defaultRunner: CommandRunner = async (command, args, options = {}) => {
  const { execa } = await import('execa');
  try {
    const r = await execa(command, args, {
      reject: false,
      stripFinalNewline: false,
      timeout: 30_000,
      ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
    });
    if (isNotFound(r)) return { code: 127, stdout: '', stderr: `${command}: not found` };
    return { code: r.exitCode ?? 1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  } catch (error) {
    return { code: 127, stdout: '', stderr: String((error as Error).message) };
  }
};

/** Templates of cron/, read by the caller (packagePath('cron', …)). */
export interface ScheduleTemplates {
  crontab: string;
  launchd: string;
  systemdService: string;
  systemdTimer: string;
  schtasks: string;
}

export interface ScheduleEnv {
  runner: CommandRunner;
  /** The user's home directory (~). */
  userHome?: string;
  /** $XDG_CONFIG_HOME, when set. */
  xdgConfigHome?: string | undefined;
  uid?: number;
  now?: Date;
}

export interface PlannedFile {
  path: string;
  content: string;
  /** Bytes to write when they differ from `content` (UTF-16 XML). */
  bytes?: Buffer;
}

export interface SchedulePlan {
  platform: Platform;
  name: string;
  files: PlannedFile[];
  /** External commands that install will run, in order. */
  commands: string[][];
  /** cron: the block put in the crontab. */
  cronBlock?: string;
}

/** Which scheduler this machine uses by default. */
export async function detectPlatform(runner: CommandRunner, platform: NodeJS.Platform = process.platform): Promise<Platform> {
  if (platform === 'darwin') return 'launchd';
  if (platform === 'win32') return 'schtasks';
  const systemd = await runner('systemctl', ['--user', 'show-environment']);
  if (systemd.code === 0) return 'systemd';
  return 'cron';
}

function userHomeOf(env: ScheduleEnv): string {
  return env.userHome ?? homedir();
}

function launchdPath(target: ScheduleTarget, env: ScheduleEnv): string {
  return join(userHomeOf(env), 'Library', 'LaunchAgents', `${scheduleNames(target).label}.plist`);
}

function systemdDir(env: ScheduleEnv): string {
  return join(env.xdgConfigHome || join(userHomeOf(env), '.config'), 'systemd', 'user');
}

function schtasksXmlPath(target: ScheduleTarget): string {
  return join(target.home, '.ocm', 'schedule', `${scheduleNames(target).task}.xml`);
}

function uidOf(env: ScheduleEnv): number {
  return env.uid ?? (typeof process.getuid === 'function' ? process.getuid() : 0);
}

/** What install would write and run. */
export function planSchedule(platform: Platform, target: ScheduleTarget, templates: ScheduleTemplates, env: ScheduleEnv): SchedulePlan {
  const names = scheduleNames(target);
  switch (platform) {
    case 'cron': {
      const block = renderCronBlock(templates.crontab, target);
      return {
        platform,
        name: names.unit,
        files: [],
        commands: [
          ['crontab', '-l'],
          ['crontab', '-'],
        ],
        cronBlock: block,
      };
    }
    case 'launchd': {
      const path = launchdPath(target, env);
      const domain = `gui/${uidOf(env)}`;
      return {
        platform,
        name: names.label,
        files: [{ path, content: renderLaunchdPlist(templates.launchd, target) }],
        commands: [
          ['launchctl', 'bootout', `${domain}/${names.label}`],
          ['launchctl', 'bootstrap', domain, path],
        ],
      };
    }
    case 'systemd': {
      const dir = systemdDir(env);
      const units = renderSystemdUnits({ service: templates.systemdService, timer: templates.systemdTimer }, target);
      return {
        platform,
        name: `${names.unit}.timer`,
        files: [
          { path: join(dir, `${names.unit}.service`), content: units.service },
          { path: join(dir, `${names.unit}.timer`), content: units.timer },
        ],
        commands: [
          ['systemctl', '--user', 'daemon-reload'],
          ['systemctl', '--user', 'enable', '--now', `${names.unit}.timer`],
        ],
      };
    }
    case 'schtasks': {
      const path = schtasksXmlPath(target);
      const xml = renderSchtasksXml(templates.schtasks, target, env.now ?? new Date());
      return {
        platform,
        name: names.task,
        files: [{ path, content: xml, bytes: encodeUtf16le(xml) }],
        commands: [['schtasks', '/Create', '/TN', names.task, '/XML', path, '/F']],
      };
    }
  }
}

function commandFailed(platform: Platform, command: string[], result: RunResult): OcmError {
  if (result.code === 127) {
    const hints: Record<Platform, string> = {
      cron: 'Install cron (Debian/Ubuntu: `sudo apt-get install cron`), or use --platform systemd.',
      launchd: 'launchctl exists only on macOS; pick the platform of this machine with --platform.',
      systemd: 'This system has no systemd user session; use --platform cron.',
      schtasks: 'schtasks exists only on Windows; pick the platform of this machine with --platform.',
    };
    return new OcmError('NOT_FOUND', `\`${command[0]}\` is not installed on this machine.`, { hint: hints[platform] });
  }
  const detail = (result.stderr || result.stdout).trim().split('\n').slice(0, 3).join(' / ');
  return new OcmError('IO_ERROR', `\`${command.join(' ')}\` failed (exit ${result.code})${detail ? `: ${detail}` : ''}.`, {
    hint:
      platform === 'systemd'
        ? 'Check `systemctl --user status` (a user session with a bus is needed; over SSH try `loginctl enable-linger $USER`).'
        : 'Run the command by hand to see why, then try again.',
  });
}

async function readCrontab(runner: CommandRunner): Promise<string> {
  const r = await runner('crontab', ['-l']);
  if (r.code === 0) return r.stdout.endsWith('\n') || r.stdout === '' ? r.stdout : `${r.stdout}\n`;
  // "no crontab for <user>" is an empty crontab, not an error.
  if (r.code !== 127 && /no crontab/i.test(r.stderr)) return '';
  throw commandFailed('cron', ['crontab', '-l'], r);
}

async function writeCrontab(runner: CommandRunner, text: string): Promise<void> {
  const r = await runner('crontab', ['-'], { input: text });
  if (r.code !== 0) throw commandFailed('cron', ['crontab', '-'], r);
}

async function writePlanned(file: PlannedFile): Promise<void> {
  try {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.bytes ?? file.content, { mode: 0o644 });
  } catch (error) {
    throw fromSystemError(error, `write ${file.path}`);
  }
}

export interface InstallResult {
  plan: SchedulePlan;
  /** cron: the crontab already had exactly this block. */
  unchanged: boolean;
}

/** Install (or refresh) the schedule. Idempotent. */
export async function installSchedule(plan: SchedulePlan, target: ScheduleTarget, env: ScheduleEnv): Promise<InstallResult> {
  const { runner } = env;
  if (plan.platform === 'cron') {
    const before = await readCrontab(runner);
    const after = upsertCronBlock(before, target.home, plan.cronBlock!);
    if (after === before) return { plan, unchanged: true };
    await writeCrontab(runner, after);
    return { plan, unchanged: false };
  }
  await mkdir(dirname(target.log), { recursive: true }).catch(() => undefined);
  for (const file of plan.files) await writePlanned(file);
  for (const [index, command] of plan.commands.entries()) {
    const r = await runner(command[0]!, command.slice(1));
    // launchd: bootout of a job that is not loaded fails; that is expected before the first bootstrap.
    if (plan.platform === 'launchd' && index === 0) continue;
    if (r.code !== 0) throw commandFailed(plan.platform, command, r);
  }
  return { plan, unchanged: false };
}

export interface UninstallResult {
  removedFiles: string[];
  commands: string[][];
  /** Something was installed. */
  found: boolean;
}

/** Remove the schedule for this home. `dryRun` only says what would be done. */
export async function uninstallSchedule(
  platform: Platform,
  target: ScheduleTarget,
  templates: ScheduleTemplates,
  env: ScheduleEnv,
  dryRun = false,
): Promise<UninstallResult> {
  const { runner } = env;
  const names = scheduleNames(target);
  if (platform === 'cron') {
    const before = await readCrontab(runner);
    const after = removeCronBlock(before, target.home);
    const found = after !== before;
    if (found && !dryRun) await writeCrontab(runner, after);
    return { removedFiles: [], commands: found ? [['crontab', '-']] : [], found };
  }
  const plan = planSchedule(platform, target, templates, env);
  const files: string[] = [];
  for (const f of plan.files) if (await exists(f.path)) files.push(f.path);
  const commands: string[][] =
    platform === 'launchd'
      ? [['launchctl', 'bootout', `gui/${uidOf(env)}/${names.label}`]]
      : platform === 'systemd'
        ? [
            ['systemctl', '--user', 'disable', '--now', `${names.unit}.timer`],
            ['systemctl', '--user', 'daemon-reload'],
          ]
        : [['schtasks', '/Delete', '/TN', names.task, '/F']];
  let found = files.length > 0;
  if (platform === 'schtasks' && !dryRun) {
    const q = await runner('schtasks', ['/Query', '/TN', names.task]);
    found ||= q.code === 0;
  }
  if (dryRun || !found) return { removedFiles: files, commands: found ? commands : [], found };
  // Stop first, then remove the files, then let systemd forget them.
  const [stop, ...after] = commands;
  const r = await runner(stop![0]!, stop!.slice(1));
  if (r.code !== 0 && platform === 'schtasks') throw commandFailed(platform, stop!, r);
  for (const f of files) await rm(f, { force: true });
  for (const c of after) await runner(c[0]!, c.slice(1));
  return { removedFiles: files, commands, found };
}

export interface ScheduleStatus {
  platform: Platform;
  installed: boolean;
  /** Loaded/active in the scheduler (launchd, systemd, schtasks), when it can tell. */
  active?: boolean;
  name: string;
  /** What was found: the crontab block, or the unit/plist file path. */
  detail?: string;
  everyMinutes?: number;
}

/** Is the schedule for this home installed (and active)? */
export async function scheduleStatus(
  platform: Platform,
  target: ScheduleTarget,
  templates: ScheduleTemplates,
  env: ScheduleEnv,
): Promise<ScheduleStatus> {
  const { runner } = env;
  const names = scheduleNames(target);
  switch (platform) {
    case 'cron': {
      let crontab = '';
      try {
        crontab = await readCrontab(runner);
      } catch (error) {
        if (error instanceof OcmError && error.code === 'NOT_FOUND')
          return { platform, installed: false, name: names.unit, detail: 'crontab is not installed' };
        throw error;
      }
      const block = findCronBlock(crontab, target.home);
      return {
        platform,
        installed: block !== undefined,
        name: names.unit,
        detail: block || undefined,
        everyMinutes: block ? everyFromCron(block) : undefined,
      };
    }
    case 'launchd': {
      const plan = planSchedule(platform, target, templates, env);
      const file = plan.files[0]!.path;
      const installed = await exists(file);
      const r = await runner('launchctl', ['print', `gui/${uidOf(env)}/${names.label}`]);
      return { platform, installed, active: r.code === 0, name: names.label, detail: file };
    }
    case 'systemd': {
      const plan = planSchedule(platform, target, templates, env);
      const timer = plan.files[1]!.path;
      const installed = await exists(timer);
      const r = await runner('systemctl', ['--user', 'is-active', `${names.unit}.timer`]);
      let every: number | undefined;
      if (installed) {
        const m = /OnUnitActiveSec=(\d+)min/.exec(await readFile(timer, 'utf8'));
        if (m) every = Number(m[1]);
      }
      return {
        platform,
        installed,
        active: r.code === 0 && r.stdout.trim() === 'active',
        name: `${names.unit}.timer`,
        detail: timer,
        everyMinutes: every || undefined,
      };
    }
    case 'schtasks': {
      const r = await runner('schtasks', ['/Query', '/TN', names.task]);
      return { platform, installed: r.code === 0, active: r.code === 0, name: names.task };
    }
  }
}

/** Minutes between ticks read back from a crontab block. */
export function everyFromCron(block: string): number | undefined {
  const line = block.split('\n').find((l) => !l.startsWith('#'));
  if (!line) return undefined;
  const [min, hour] = line.split(/\s+/);
  if (min === '*' && hour === '*') return 1;
  let m = /^\*\/(\d+)$/.exec(min ?? '');
  if (m && hour === '*') return Number(m[1]);
  if (min === '0' && hour === '*') return 60;
  m = /^\*\/(\d+)$/.exec(hour ?? '');
  if (min === '0' && m) return Number(m[1]) * 60;
  if (min === '0' && hour === '0') return 1440;
  return undefined;
}
