/**
 * What every command gets: where the home is, the config (loaded on demand),
 * loggers, and output that knows about --json and terminals. CLI plumbing only.
 */
import { readFile } from 'node:fs/promises';
import { ensureHome, homePaths, resolveHomeDir, type HomePaths } from '../lib/platform/home.js';
import type { LoadedConfig } from '../lib/config/config.js';
import { createFileLogger, type Logger, type LogLevel } from '../lib/platform/log.js';
import { packagePath } from '../lib/platform/package-root.js';

export interface GlobalOptions {
  home?: string;
  config?: string;
  verbose?: boolean;
  json?: boolean;
}

export interface CommandContext {
  paths: HomePaths;
  configFile: string;
  json: boolean;
  verbose: boolean;
  /** stdout is a terminal (show progress); false under cron. */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Load and validate config.yaml, creating the home on first use. Cached. */
  config(): Promise<LoadedConfig>;
  /** A JSON-lines logger writing to <home>/logs/<name>.log (echoed to stderr with --verbose). */
  logger(name: string): Logger;
  out(text: string): void;
  err(text: string): void;
  now(): Date;
  /** Await pending log writes before exit. */
  flush(): Promise<void>;
}

export type OptionSpec = [flags: string, description: string, config?: { default?: unknown; type?: unknown[] }];

export interface CommandSpec {
  /** cac syntax, e.g. 'search <query>' or 'config [action] [key] [value]'. */
  name: string;
  description: string;
  options?: OptionSpec[];
  examples?: string[];
  /** Extra aliases (cac). */
  alias?: string;
  /** Accept unknown options (passed through). */
  allowUnknownOptions?: boolean;
  /**
   * Answers and exits within a fraction of a second (search, get): V8's
   * optimising compiler is held back for it (SHORT_LIVED_V8_FLAGS in cli.ts).
   */
  shortLived?: boolean;
  /**
   * A long job that asks lib/platform/stop-request.ts between its steps: SIGTERM or
   * SIGINT lets it finish the step it is in and exit (a second signal: at
   * once). Other commands end on a signal straight away.
   */
  stopsBetweenSteps?: boolean;
  run(ctx: CommandContext, args: unknown[], options: Record<string, unknown>): Promise<number | void>;
}

export function configTemplate(): Promise<string> {
  return readFile(packagePath('templates', 'config.yaml'), 'utf8');
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
    env,
    config() {
      loaded ??= (async () => {
        await ensureHome(paths, configTemplate);
        const { loadConfigCached } = await import('../lib/config/config-cache.js');
        const { join } = await import('node:path');
        const result = await loadConfigCached({ file: configFile, envFile: paths.env, env, cacheFile: join(paths.machine, 'config-cache.json') });
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
          ? { sinks: [(r) => process.stderr.write(`${r.level.padEnd(5)} ${r.event} ${JSON.stringify({ ...r, time: undefined, level: undefined, event: undefined })}\n`)] }
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
  };
  return ctx;
}
