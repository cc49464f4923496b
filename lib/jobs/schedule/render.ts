/**
 * Rendering the schedule templates in `cron/` (crontab line, launchd plist,
 * systemd service + timer, Task Scheduler XML) for one memory home: the
 * absolute node path, the CLI, the home and the log file, each escaped for
 * the format it lands in. Pure: templates come in as text.
 */
import { createHash } from 'node:crypto';
import { OcmError } from '../../core/errors.js';

export const PLATFORMS = ['cron', 'launchd', 'systemd', 'schtasks'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

export interface ScheduleTarget {
  /** Absolute path of the node binary (cron and friends have a bare PATH). */
  node: string;
  /** Absolute path of dist/scripts/cli.js. */
  cli: string;
  /** Absolute memory home. */
  home: string;
  /** Absolute log file the tick's output is appended to. */
  log: string;
  everyMinutes: number;
  /** True when home is the default one: the schedule keeps its plain name. */
  defaultHome: boolean;
  /**
   * Variables the tick gets that a scheduler would not give it (cron, launchd, systemd and Task Scheduler
   * start it with a bare environment): where the sources are (OPENCLAW_STATE_DIR, CODEX_HOME, …) as the
   * user's shell set them (environment.ts). Sorted by name; none: the files are what they always were.
   */
  environment?: ReadonlyArray<readonly [name: string, value: string]>;
  /** A config file other than the home's config.yaml (--config / OCM_CONFIG at install): the tick reads it too. */
  configFile?: string;
}

/** The words of the tick's command: node, the CLI, `run --home <home>` (and `--config <file>` when not the home's). */
export function tickWords(target: ScheduleTarget): string[] {
  return [target.node, target.cli, 'run', '--home', target.home, ...(target.configFile ? ['--config', target.configFile] : [])];
}

/** A template's `{{ENVIRONMENT}}` line replaced by `lines` (none: the line goes, so a file without variables is unchanged). */
function withEnvironment(template: string, lines: string[]): string {
  return template.replace(/^[ \t]*\{\{ENVIRONMENT\}\}\r?\n/m, () => lines.map((l) => `${l}\n`).join(''));
}

/** `{{ENVIRONMENT}}` left in place by fillTemplate, for withEnvironment to fill afterwards. */
const KEEP_ENVIRONMENT = { ENVIRONMENT: '{{ENVIRONMENT}}' };

function checkedEnvironment(target: ScheduleTarget, where: string, refuse: RegExp = /[\n\r\0]/): ReadonlyArray<readonly [string, string]> {
  const environment = target.environment ?? [];
  for (const [name, value] of environment) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || refuse.test(value)) {
      throw new OcmError(
        'BAD_INPUT',
        `${name} cannot go into ${where} as it is set in your shell (it holds a character ${where} cannot carry).`,
        {
          hint: `Set the source's folder in config.yaml instead (sources.*), unset ${name}, and install the schedule again.`,
        },
      );
    }
  }
  return environment;
}

/** Names of the schedule objects: one schedule per home, several homes side by side. */
export interface ScheduleNames {
  /** launchd label. */
  label: string;
  /** systemd unit base name and Task Scheduler task name. */
  unit: string;
  task: string;
}

export function scheduleNames(target: Pick<ScheduleTarget, 'home' | 'defaultHome'>): ScheduleNames {
  const suffix = target.defaultHome ? '' : `-${createHash('sha256').update(target.home).digest('hex').slice(0, 8)}`;
  return { label: `ai.oc-memory.run${suffix.replace('-', '.')}`, unit: `oc-memory${suffix}`, task: `OC-Memory${suffix}` };
}

/** The five crontab fields for "every N minutes". */
export function cronSchedule(everyMinutes: number): string {
  const n = everyMinutes;
  if (!Number.isInteger(n) || n < 1 || n > 1440) {
    throw new OcmError('BAD_INPUT', `--every must be a whole number of minutes from 1 to 1440 (got ${n}).`, {
      hint: 'Example: ocm-run schedule install --every 5',
    });
  }
  if (n === 1) return '* * * * *';
  if (n < 60 && 60 % n === 0) return `*/${n} * * * *`;
  if (n % 60 === 0 && 24 % (n / 60) === 0) return n === 1440 ? '0 0 * * *' : n === 60 ? '0 * * * *' : `0 */${n / 60} * * *`;
  throw new OcmError('BAD_INPUT', `cron cannot run something every ${n} minutes evenly.`, {
    hint: 'Use a divisor of 60 (1, 2, 3, 5, 10, 15, 20, 30) or a whole number of hours that divides 24 (60, 120, 180, 240, 360, 480, 720, 1440).',
  });
}

/** Quote for a POSIX shell (cron runs its command line with /bin/sh). */
export function shQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** In a crontab line `%` means newline unless escaped. */
function cronEscape(line: string): string {
  return line.replace(/%/g, '\\%');
}

export function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A systemd ExecStart word: double-quoted, with \ " escaped, and % / $ doubled (specifiers, variables). */
export function systemdQuote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

/** A systemd path value outside ExecStart: only specifiers need escaping. */
function systemdPath(value: string): string {
  if (/[\n\r]/.test(value)) throw new OcmError('BAD_INPUT', 'A path with a line break cannot go into a systemd unit.');
  return value.replace(/%/g, '%%');
}

/** Windows command-line quoting for cmd.exe /c. */
function winQuote(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_all, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`template placeholder {{${name}}} has no value`);
    return v;
  });
}

/** Drop the leading comment lines of a template meant only for readers of cron/. */
function withoutLeadingComments(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .join('\n');
}

export const CRON_BEGIN = '# >>> oc-memory';
export const CRON_END = '# <<< oc-memory';

/** The marker-delimited crontab block for one home. */
export function renderCronBlock(template: string, target: ScheduleTarget): string {
  // sh's `NAME=value command`: the variables for this command only.
  const assignments = checkedEnvironment(target, 'a crontab').map(([name, value]) => `${name}=${shQuote(value)}`);
  const command = [...assignments, ...tickWords(target).map(shQuote)].join(' ');
  const line = fillTemplate(withoutLeadingComments(template), {
    SCHEDULE: cronSchedule(target.everyMinutes),
    COMMAND: command,
    LOG: shQuote(target.log),
  });
  if (/[\n\r]/.test(target.home + target.cli + target.node + target.log)) {
    throw new OcmError('BAD_INPUT', 'A path with a line break cannot go into a crontab.');
  }
  return [
    `${CRON_BEGIN} ${target.home} >>> (managed by ocm-run schedule; do not edit between the markers)`,
    cronEscape(line),
    `${CRON_END} ${target.home} <<<`,
  ].join('\n');
}

export function renderLaunchdPlist(template: string, target: ScheduleTarget): string {
  const environment = checkedEnvironment(target, 'a launchd plist');
  const lines =
    environment.length === 0
      ? []
      : [
          '  <key>EnvironmentVariables</key>',
          '  <dict>',
          ...environment.flatMap(([name, value]) => [`    <key>${xmlEscape(name)}</key>`, `    <string>${xmlEscape(value)}</string>`]),
          '  </dict>',
        ];
  const filled = fillTemplate(template, {
    LABEL: xmlEscape(scheduleNames(target).label),
    NODE: xmlEscape(target.node),
    CLI: xmlEscape(target.cli),
    HOME: xmlEscape(target.home),
    LOG: xmlEscape(target.log),
    INTERVAL_SECONDS: String(target.everyMinutes * 60),
    ...KEEP_ENVIRONMENT,
  });
  // The user's values go in after the placeholders are filled, so no text of theirs is read as one.
  const home = `    <string>${xmlEscape(target.home)}</string>\n`;
  const withConfig = target.configFile
    ? filled.replace(home, () => `${home}    <string>--config</string>\n    <string>${xmlEscape(target.configFile!)}</string>\n`)
    : filled;
  return withEnvironment(withConfig, lines);
}

export function renderSystemdUnits(
  templates: { service: string; timer: string },
  target: ScheduleTarget,
): { service: string; timer: string } {
  const name = scheduleNames(target).unit;
  const execStart = tickWords(target).map(systemdQuote).join(' ');
  // Environment="NAME=value": one quoted assignment, \\ and " escaped, % doubled (a specifier otherwise); no $ expansion there.
  const environment = checkedEnvironment(target, 'a systemd unit').map(
    ([n, v]) => `Environment="${`${n}=${v}`.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`,
  );
  const values = {
    NAME: name,
    HOME_COMMENT: systemdPath(target.home),
    EXEC_START: execStart,
    LOG: systemdPath(target.log),
    EVERY: String(target.everyMinutes),
  };
  return {
    service: withEnvironment(fillTemplate(templates.service, { ...values, ...KEEP_ENVIRONMENT }), environment),
    timer: fillTemplate(templates.timer, values),
  };
}

/** Local time without zone, the StartBoundary form Task Scheduler writes itself. */
function startBoundary(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}T${p(now.getHours())}:${p(now.getMinutes())}:00`;
}

export function renderSchtasksXml(template: string, target: ScheduleTarget, now: Date): string {
  const inner = tickWords(target).map(winQuote).join(' ');
  // `set "NAME=value"&& …` for the variables: cmd cannot carry a quote, % (expanded), ^, & or | in them.
  const sets = checkedEnvironment(target, 'a Windows scheduled task', /[\n\r\0"%^&|<>]/)
    .map(([n, v]) => `set "${n}=${v}"&& `)
    .join('');
  // cmd /c strips one outer pair of quotes; the redirect keeps the tick's output.
  const args = `/d /s /c "${sets}${inner} >> ${winQuote(target.log)} 2>&1"`;
  return fillTemplate(template, {
    EVERY: String(target.everyMinutes),
    HOME: xmlEscape(target.home),
    NAME: xmlEscape(scheduleNames(target).task),
    START: startBoundary(now),
    SHELL: 'cmd.exe',
    ARGUMENTS: xmlEscape(args),
  });
}

/** Task Scheduler reads its XML as UTF-16 little-endian with a byte-order mark. */
export function encodeUtf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf16le')]);
}
