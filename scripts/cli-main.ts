/**
 * ocm-run / oc-memory: the command line (started by scripts/cli.ts). Parses arguments with cac,
 * dispatches to one command module, prints errors as what / why / what next,
 * and exits with the codes of docs/architecture.md ("Errors, exit codes and --json"). Command modules load their heavy
 * dependencies lazily so a tick with nothing to do starts fast.
 */
import { cac } from 'cac';
import { readFileSync } from 'node:fs';
import { COMMAND_LOADERS, loadCommandsFor } from './commands/index.js';
import { groupedHelp } from './help.js';
import { didYouMean } from '../lib/core/did-you-mean.js';
import { createContext, type CommandContext } from './cli-context.js';
import { describeError, EXIT, fromSystemError, OcmError } from '../lib/core/errors.js';
import { packagePath } from '../lib/platform/package-root.js';
import { keepWordsAsText } from './text-argv.js';

const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };

/**
 * For a short-lived command: V8 optimises a function in background threads
 * once it has run a while (the interrupt budget), and exit waits for those
 * compile jobs. A process that answers in ~0.2 s never runs the optimised
 * code long enough to pay for it; a budget ~15 times the default keeps V8 to
 * its interpreter and baseline code. Measured at 100k observations: `search`
 * 255 -> 226 ms p50 wall, ~35 ms less CPU; a full index build (what a search
 * runs when the index is missing) ~11% slower.
 */
const SHORT_LIVED_V8_FLAGS = '--interrupt-budget=1000000';

function printError(ctx: CommandContext | undefined, thrown: unknown, json: boolean): number {
  // A file-system refusal no job caught itself (read-only home, permissions, full disk) still gets its exit code and hint.
  const error = fromSystemError(thrown, 'finish the command');
  const { message, hint, code } = describeError(error);
  const exit = error instanceof OcmError ? error.exitCode : EXIT.error;
  if (json) {
    process.stdout.write(`${JSON.stringify({ error: { code, message, hint: hint || undefined } })}\n`);
  } else {
    process.stderr.write(`ocm-run: ${message}\n`);
    if (hint) process.stderr.write(`  → ${hint}\n`);
    if (!(error instanceof OcmError) && error instanceof Error && (ctx?.verbose || process.env.OCM_DEBUG)) {
      process.stderr.write(`${error.stack ?? ''}\n`);
    }
  }
  return exit;
}

/**
 * For a command that stops between steps: the first SIGTERM/SIGINT asks the
 * job to stop (lib/platform/stop-request.ts) and it exits 128+signal once the current
 * step is done; a second one ends the process at once.
 */
async function stopBetweenSteps(): Promise<() => number | undefined> {
  const { requestStop, stopRequested } = await import('../lib/platform/stop-request.js');
  const { constants } = await import('node:os');
  const code = (signal: NodeJS.Signals) => 128 + (constants.signals[signal] ?? 15);
  const onSignal = (signal: NodeJS.Signals) => {
    const earlier = stopRequested();
    if (earlier) process.exit(code(earlier));
    requestStop(signal);
    process.stderr.write(`ocm-run: ${signal}: stopping after the current step (send it again to stop at once).\n`);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    const signal = stopRequested();
    return signal ? code(signal) : undefined;
  };
}

/**
 * A reader that stops early (`ocm-run forget … | head -1`) closes the pipe:
 * later writes fail with EPIPE. That must not crash the command half-way (a
 * destructive one may have changed files already): further output is
 * dropped and the command runs to its end with its own exit code.
 */
function survivePipeClosed(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

/**
 * `ocm-run help [command]` is `ocm-run [command] --help`; a command name that
 * is none gets the did-you-mean of an unknown command.
 */
function helpWords(argv: string[]): string[] {
  if (argv[0] !== 'help') return argv;
  const [, name, ...rest] = argv;
  return name === undefined || name.startsWith('-') ? ['--help', ...argv.slice(1)] : [name, '--help', ...rest];
}

function unknownCommand(name: string): OcmError {
  return new OcmError('BAD_INPUT', `Unknown command "${name}".${didYouMean(name, [...Object.keys(COMMAND_LOADERS), 'help'])}`, {
    hint: 'Run `ocm-run --help` for the list of commands.',
  });
}

/** cac's "Unknown option `--lmit`", with the command's options that are close and the command's own help. */
function unknownOption(message: string, command: CacCommand | undefined, global: CacCommand): OcmError {
  const name = /`(-{1,2}[^`]+)`/.exec(message)?.[1];
  const commandName = command?.name;
  const flags = [...(command?.options ?? []), ...global.options].flatMap((o) => o.names.map((n) => (n.length > 1 ? `--${n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : `-${n}`)));
  const near = name ? didYouMean(name, flags, (f) => `\`${f}\``) : '';
  return new OcmError('BAD_INPUT', `${message.replace(/\.$/, '')}${commandName ? ` for \`${commandName}\`` : ''}.${near}`, {
    hint: commandName ? `Run \`ocm-run help ${commandName}\` for its options.` : 'Run `ocm-run --help` for the options.',
  });
}

type CacCommand = { name: string; options: Array<{ names: string[] }>; outputHelp(): void };

export async function main(rawArgv: string[]): Promise<number> {
  survivePipeClosed(process.stdout);
  survivePipeClosed(process.stderr);
  const argv = helpWords(rawArgv);
  const cli = cac('ocm-run');
  keepWordsAsText(cli);
  cli
    .option('--home <dir>', 'Memory home (default: $OCM_HOME or ~/.openclaw/oc-memory)')
    .option('--config <path>', 'Config file (default: config.yaml in the home)')
    .option('--verbose', 'Log every step to stderr')
    .option('--json', 'Machine-readable output where output is data')
    .option('--no-color', 'No colours (also NO_COLOR=1; FORCE_COLOR=1 forces them)');

  let pending: Promise<number> | undefined;
  let ctxRef: CommandContext | undefined;
  const specs = await loadCommandsFor(argv);
  for (const spec of specs) {
    const cmd = cli.command(spec.name, spec.description);
    if (spec.alias) cmd.alias(spec.alias);
    if (spec.allowUnknownOptions) cmd.allowUnknownOptions();
    for (const [flags, description, config] of spec.options ?? []) cmd.option(flags, description, config as never);
    for (const example of spec.examples ?? []) cmd.example(example);
    cmd.action((...actionArgs: unknown[]) => {
      const options = (actionArgs.pop() ?? {}) as Record<string, unknown>;
      const ctx = createContext({
        home: options.home as string | undefined,
        config: options.config as string | undefined,
        verbose: Boolean(options.verbose),
        json: Boolean(options.json),
        color: options.color as boolean | undefined,
        homeMustExist: typeof spec.homeMustExist === 'function' ? spec.homeMustExist(actionArgs) : Boolean(spec.homeMustExist),
      });
      ctx.showHelp = () => cmd.outputHelp();
      ctxRef = ctx;
      pending = (async () => {
        try {
          if (spec.shortLived) (await import('node:v8')).setFlagsFromString(SHORT_LIVED_V8_FLAGS);
          const stoppedCode = spec.stopsBetweenSteps ? await stopBetweenSteps() : undefined;
          const code = await spec.run(ctx, actionArgs, options);
          return stoppedCode?.() ?? code ?? EXIT.ok;
        } finally {
          await ctx.flush();
        }
      })();
    });
  }
  cli.help((sections) => groupedHelp(sections, specs));
  cli.version(pkg.version);

  try {
    if (rawArgv[0] === 'help' && argv[0] !== '--help' && !Object.hasOwn(COMMAND_LOADERS, argv[0]!)) throw unknownCommand(argv[0]!);
    cli.parse(['node', 'ocm-run', ...argv], { run: false });
    if (!cli.matchedCommand) {
      if (cli.options.help || cli.options.version) return EXIT.ok;
      const name = cli.args[0];
      if (name) throw unknownCommand(name);
      cli.outputHelp();
      return EXIT.ok;
    }
    if (cli.options.help) return EXIT.ok;
    await cli.runMatchedCommand();
    return pending ? await pending : EXIT.ok;
  } catch (error) {
    const argvJson = argv.includes('--json');
    if (error instanceof Error && error.name === 'CACError') {
      const matched = cli.matchedCommand as unknown as CacCommand | undefined;
      const global = cli.globalCommand as unknown as CacCommand;
      if (/^Unknown option/.test(error.message)) return printError(ctxRef, unknownOption(error.message, matched, global), argvJson);
      const hint = matched ? `Run \`ocm-run help ${matched.name}\` for its arguments and options.` : 'Run `ocm-run --help` for the list of commands.';
      return printError(ctxRef, new OcmError('BAD_INPUT', error.message, { hint }), argvJson);
    }
    return printError(ctxRef, error, argvJson);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`ocm-run: ${String(error)}\n`);
    process.exitCode = EXIT.error;
  },
);
