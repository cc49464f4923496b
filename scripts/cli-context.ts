/**
 * What every command gets: where the home is, the config (loaded on demand),
 * loggers, and output that knows about --json and terminals. CLI plumbing only.
 */
import { readFile } from 'node:fs/promises';
import { ensureHome, homePaths, isMemoryHome, resolveHomeDir, secureHome, type HomePaths } from '../lib/platform/home.js';
import type { LoadedConfig } from '../lib/config/config.js';
import { createFileLogger, type Logger, type LogLevel } from '../lib/platform/log.js';
import { packagePath } from '../lib/platform/package-root.js';
import { OcmError } from '../lib/core/errors.js';
import { closestNames } from '../lib/core/did-you-mean.js';
import type { ArgsOf, Flag, FlagValues, Flags, GlobalFlagValues } from './flags.js';

export interface GlobalOptions {
  home?: string;
  config?: string;
  verbose?: boolean;
  json?: boolean;
  /** `--no-color` gives false; undefined: the environment decides (colorWanted). */
  color?: boolean;
  /** The command only reads the home: a missing one is an error (missingHomeError), nothing is created. */
  homeMustExist?: boolean;
}

export interface CommandContext {
  paths: HomePaths;
  configFile: string;
  json: boolean;
  verbose: boolean;
  /** stdout is a terminal (show progress); false under cron. */
  isTTY: boolean;
  /** Colours in human output: `--no-color`, FORCE_COLOR, NO_COLOR, then a terminal (colorWanted). */
  color: boolean;
  env: NodeJS.ProcessEnv;
  /** Load and validate config.yaml, creating the home on first use (a command that only reads: refused when it is missing). Cached. */
  config(): Promise<LoadedConfig>;
  /** A JSON-lines logger writing to <home>/logs/<name>.log (echoed to stderr with --verbose). */
  logger(name: string): Logger;
  out(text: string): void;
  err(text: string): void;
  now(): Date;
  /** Await pending log writes before exit. */
  flush(): Promise<void>;
  /** Print the running command's --help (a command called without what it needs, e.g. bare `integrate`). */
  showHelp(): void;
}

/**
 * One command: its usage line (`search <query>`: the arguments' names), its flags (typed, see
 * scripts/flags.ts) and run(), which gets both as typed values and maps them onto the library call.
 */
export interface CommandSpec<N extends string = string, F extends Flags = Flags> {
  /** The usage line, e.g. 'search <query>' or 'config [action] [key] [value]'. */
  name: N;
  description: string;
  flags?: F;
  examples?: string[];
  /**
   * Answers and exits within a fraction of a second (search, get): V8's
   * optimising compiler is held back for it (SHORT_LIVED_V8_FLAGS in cli-main.ts).
   */
  shortLived?: boolean;
  /**
   * A long job that asks lib/platform/stop-request.ts between its steps: SIGTERM or
   * SIGINT lets it finish the step it is in and exit (a second signal: at
   * once). Other commands end on a signal straight away.
   */
  stopsBetweenSteps?: boolean;
  /**
   * Only reads the home (status, search, get, stats, doctor, sources, export; config get / validate,
   * approvals list, alerts show): a missing home is an error that names `setup`, and nothing is
   * created — a mistyped --home is never a new, empty memory. A function decides by the command's
   * arguments, for a command whose actions read or write (`config get` reads, `config set` writes).
   */
  homeMustExist?: boolean | ((args: ArgsOf<N>) => boolean);
  /** The --home line of this command's help when its home is not the global default (demo). */
  homeHelp?: string;
  run(ctx: CommandContext, args: ArgsOf<N>, flags: FlagValues<F> & GlobalFlagValues): Promise<number | undefined>;
}

/** A command, typed: its arguments and flags as run() gets them follow from the declaration. */
export function defineCommand<const N extends string, const F extends Flags = Record<never, Flag>>(
  spec: CommandSpec<N, F>,
): CommandSpec<N, F> {
  return spec;
}

export function configTemplate(): Promise<string> {
  return readFile(packagePath('templates', 'config.yaml'), 'utf8');
}

/** The error of a command that reads a home which is not there: names `setup`, and a near folder that is a home. */
export async function missingHomeError(root: string): Promise<OcmError> {
  const { basename, dirname, join } = await import('node:path');
  const { readdir } = await import('node:fs/promises');
  const parent = dirname(root);
  const homes: string[] = [];
  for (const entry of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory() && (await isMemoryHome(join(parent, entry.name)))) homes.push(entry.name);
  }
  const near = closestNames(basename(root), homes, 1)[0];
  return new OcmError('NOT_FOUND', `No memory home at ${root}.${near ? ` Did you mean ${join(parent, near)}?` : ''}`, {
    hint: `Create one with \`ocm-run setup --home ${JSON.stringify(root)}\` (or \`ocm-run setup\` for the default), or point --home / OCM_HOME at an existing home.`,
    details: { home: root, ...(near ? { didYouMean: join(parent, near) } : {}) },
  });
}

/** Throws missingHomeError unless `paths.root` is a memory home. */
export async function assertMemoryHome(paths: HomePaths): Promise<void> {
  if (!(await isMemoryHome(paths.root))) throw await missingHomeError(paths.root);
}

/**
 * Whether to colour output, as other command-line programs decide it (Node's own rules, no-color.org,
 * force-color.org): `--no-color` wins; then FORCE_COLOR (any value but '' forces colours, '0' or
 * 'false' turns them off); then NO_COLOR (any value but '' turns them off); else colours on a terminal
 * that is not TERM=dumb.
 */
export function colorWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

export function createContext(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const root = resolveHomeDir(options.home, env);
  const paths = homePaths(root);
  const configFile = options.config ?? env.OCM_CONFIG ?? paths.config;
  const loggers: Logger[] = [];
  let loaded: Promise<LoadedConfig> | undefined;
  let level: LogLevel = 'info';
  const ctx: CommandContext = {
    paths,
    configFile,
    json: Boolean(options.json),
    verbose: Boolean(options.verbose),
    isTTY: Boolean(process.stdout.isTTY) && !env.CI,
    color: colorWanted(options.color, env, Boolean(process.stdout.isTTY)),
    env,
    config() {
      loaded ??= (async () => {
        if (options.homeMustExist) {
          await assertMemoryHome(paths);
          // Nothing is created, but a home that others can enter is still made the owner's alone (secureHome).
          await secureHome(paths.root);
        } else await ensureHome(paths, configTemplate);
        const { loadConfigCached } = await import('../lib/config/config-cache.js');
        const { join } = await import('node:path');
        const result = await loadConfigCached({
          file: configFile,
          envFile: paths.env,
          env,
          cacheFile: join(paths.machine, 'config-cache.json'),
        });
        level = result.config.logging.level;
        return result;
      })();
      return loaded;
    },
    logger(name) {
      const logger = createFileLogger({
        dir: paths.logs,
        name,
        level: ctx.verbose ? 'debug' : level,
        ...(ctx.verbose
          ? {
              sinks: [
                (r) =>
                  process.stderr.write(
                    `${r.level.padEnd(5)} ${r.event} ${JSON.stringify({ ...r, time: undefined, level: undefined, event: undefined })}\n`,
                  ),
              ],
            }
          : {}),
      });
      loggers.push(logger);
      return logger;
    },
    // A closed pipe (`| head`) drops the output; scripts/cli.ts keeps the EPIPE from crashing the command.
    out(text) {
      if (!process.stdout.destroyed) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    err(text) {
      if (!process.stderr.destroyed) process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    now: () => new Date(),
    async flush() {
      await Promise.all(loggers.map((l) => l.flush()));
    },
    showHelp() {},
  };
  return ctx;
}
