/**
 * ocm-run / oc-memory: the command line (started by scripts/cli.ts). Finds the command, parses its
 * typed flags (scripts/flags.ts), dispatches to one command module, prints errors as what / why / what next,
 * and exits with the codes of docs/architecture.md ("Errors, exit codes and --json"). Command modules load their heavy
 * dependencies lazily so a tick with nothing to do starts fast.
 */
import { readFileSync } from 'node:fs';
import { COMMAND_LOADERS, loadCommandsFor } from './commands/index.js';
import { helpText } from './help.js';
import { didYouMean } from '../lib/core/did-you-mean.js';
import { createContext, type CommandContext, type CommandSpec } from './cli-context.js';
import { describeError, EXIT, fromSystemError, OcmError } from '../lib/core/errors.js';
import { packagePath } from '../lib/platform/package-root.js';
import {
  flagSpellings,
  GLOBAL_FLAGS,
  namedArgs,
  parseFlags,
  type CommandLineProblem,
  type GlobalFlagValues,
  type ParsedFlags,
} from './flags.js';

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

/** What a wrong command line gets: the problem, the flags that are close, and where the command's help is. */
function commandLineError(problem: CommandLineProblem, command: CommandSpec): OcmError {
  const name = firstWord(command.name);
  if (problem.kind === 'unknown-option') {
    const near = didYouMean(problem.option, flagSpellings({ ...command.flags, ...GLOBAL_FLAGS }), (f) => `\`${f}\``);
    return new OcmError('BAD_INPUT', `Unknown option \`${problem.option}\` for \`${name}\`.${near}`, {
      hint: `Run \`ocm-run help ${name}\` for its options.`,
    });
  }
  const hint = `Run \`ocm-run help ${name}\` for its arguments and options.`;
  if (problem.kind === 'missing-value') return new OcmError('BAD_INPUT', `option \`${problem.option}\` value is missing`, { hint });
  if (problem.kind === 'unexpected-value') return new OcmError('BAD_INPUT', `option \`${problem.option}\` takes no value`, { hint });
  return new OcmError('BAD_INPUT', `missing required args for command \`${command.name}\``, { hint });
}

function firstWord(name: string): string {
  return name.split(' ')[0]!;
}

/** The command a command line runs: the first word that is not a flag (or a flag's value), as each candidate's flags read it. */
function matchCommand(argv: string[], specs: readonly CommandSpec[]): { command?: CommandSpec; parsed: ParsedFlags } {
  for (const command of specs) {
    const parsed = parseFlags(argv, { ...command.flags, ...GLOBAL_FLAGS });
    if (parsed.words[0] === firstWord(command.name)) return { command, parsed: { ...parsed, words: parsed.words.slice(1) } };
  }
  return { parsed: parseFlags(argv, GLOBAL_FLAGS) };
}

export async function main(rawArgv: string[]): Promise<number> {
  survivePipeClosed(process.stdout);
  survivePipeClosed(process.stderr);
  const argv = helpWords(rawArgv);
  const program = { name: 'ocm-run', version: pkg.version };
  let ctx: CommandContext | undefined;
  try {
    if (rawArgv[0] === 'help' && argv[0] !== '--help' && !Object.hasOwn(COMMAND_LOADERS, argv[0]!)) throw unknownCommand(argv[0]!);
    const specs = await loadCommandsFor(argv);
    const { command, parsed } = matchCommand(argv, specs);
    const globals = parsed.values as GlobalFlagValues;
    if (globals.help) {
      process.stdout.write(`${helpText(program, specs, command)}\n`);
      if (command || !globals.version) return EXIT.ok;
    }
    if (!command) {
      if (globals.version) {
        process.stdout.write(`${program.name}/${program.version} ${process.platform}-${process.arch} node-${process.version}\n`);
        return EXIT.ok;
      }
      if (globals.help) return EXIT.ok;
      const name = parsed.words[0];
      if (name) throw unknownCommand(name);
      process.stdout.write(`${helpText(program, specs)}\n`);
      return EXIT.ok;
    }
    const { args, missing } = namedArgs(command.name, parsed.words);
    const problem = parsed.problem ?? (missing ? ({ kind: 'missing-args' } as const) : undefined);
    if (problem) throw commandLineError(problem, command);
    ctx = createContext({
      home: globals.home,
      config: globals.config,
      verbose: globals.verbose,
      json: globals.json,
      color: globals.color,
      homeMustExist: typeof command.homeMustExist === 'function' ? command.homeMustExist(args as never) : Boolean(command.homeMustExist),
    });
    ctx.showHelp = () => process.stdout.write(`${helpText(program, specs, command)}\n`);
    try {
      if (command.shortLived) (await import('node:v8')).setFlagsFromString(SHORT_LIVED_V8_FLAGS);
      const stoppedCode = command.stopsBetweenSteps ? await stopBetweenSteps() : undefined;
      const code = await command.run(ctx, args as never, parsed.values as never);
      return stoppedCode?.() ?? code ?? EXIT.ok;
    } finally {
      await ctx.flush();
    }
  } catch (error) {
    return printError(ctx, error, argv.includes('--json'));
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
