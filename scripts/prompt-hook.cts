/**
 * The per-prompt hook's fast path, and its entry: `node prompt-hook.cjs hook
 * prompt --agent … --home …` is the command `integrate` writes for the
 * prompt hook (lib/integrations/claude-code/integration.ts, hookCommand). An
 * agent starts it as a fresh process before every prompt (Claude Code,
 * Codex), so whatever it loads is added to every prompt. When an `ocm-run
 * mcp` is running on the home — the agent started it — that server already
 * holds the index open, answers over its socket and logs what went in
 * (lib/hooks/prompt-socket.ts): this path reads the event, asks it and
 * prints the answer.
 *
 * It is CommonJS and loads three small CommonJS modules and Node built-ins:
 * a process that loads no ES module never starts Node's ESM loader, which
 * with the command registry, the config, the search code and a log writer
 * was most of what the hook used to cost after Node's own start
 * (docs/performance.md, "Per-prompt hook"). `scripts/cli.ts` (`ocm-run hook
 * prompt`) takes the same path.
 *
 * When no server answers in time, or the arguments are more than this path
 * handles, it hands over to the full CLI (scripts/cli-main.ts), passing on
 * what it already read, and `hook prompt` looks the memory up itself
 * (scripts/commands/hook.ts).
 */
import path = require('node:path');
import hookEvent = require('../lib/integrations/hook-event.cjs');
import socketClient = require('../lib/integrations/prompt-socket-client.cjs');
import type { HookInput } from '../lib/core/hook-protocol.js';

interface PromptHookArgs {
  agent: string;
  home?: string;
  config?: string;
  timeoutMs?: number;
  perProject: boolean;
}

/** The fast path's own options: an option with a value, or a flag. */
const VALUE_OPTIONS = new Set(['--agent', '--home', '--config', '--timeout-ms']);
const FLAGS = new Set(['--per-project']);

/** `hook prompt`'s arguments (after those two words), or undefined for anything only the full CLI handles (--help, --verbose, --json, an unknown option, a missing value). */
function promptHookArgs(argv: readonly string[]): PromptHookArgs | undefined {
  const values = new Map<string, string>();
  let perProject = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    if (FLAGS.has(word)) perProject = true;
    else if (VALUE_OPTIONS.has(name)) {
      const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
      if (value === undefined || (eq === -1 && value.startsWith('--'))) return undefined;
      values.set(name, value);
    } else return undefined;
  }
  const timeout = values.get('--timeout-ms');
  if (timeout !== undefined && !/^\d+$/.test(timeout)) return undefined;
  const args: PromptHookArgs = { agent: values.get('--agent') ?? 'main', perProject };
  if (values.has('--home')) args.home = values.get('--home')!;
  if (values.has('--config')) args.config = values.get('--config')!;
  if (timeout !== undefined) args.timeoutMs = Number(timeout);
  return args;
}

/** How long the prompt hook may take in all (ms): --timeout-ms, else $OCM_HOOK_TIMEOUT_MS, else 1.5 s. */
function promptTimeoutMs(option: unknown, env: NodeJS.ProcessEnv): number {
  return Math.max(50, Number(option ?? env.OCM_HOOK_TIMEOUT_MS ?? 1500) || 1500);
}

/**
 * How long to wait for a running server before looking up in-process: a
 * second, or half the hook's time when it is given more (a busy machine slows
 * the server's answer as much as the lookup it saves).
 */
function serverWaitMs(totalMs: number): number {
  return Math.min(totalMs, Math.max(1000, totalMs / 2));
}

/** stdin as text: what the agent wrote before closing it, or what came within `ms` (an agent that keeps it open must not hang the hook). */
function readStdin(ms: number): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, ms);
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** What the fast path did before it handed over: the event it read, and when it started (Date.now()). */
interface Handover {
  input: HookInput;
  started: number;
}

let handedOver: Handover | undefined;

/** The event the fast path read (once), for `hook prompt` in the full CLI. */
function takeHandover(): Handover | undefined {
  const h = handedOver;
  handedOver = undefined;
  return h;
}

/**
 * The home the hook names: --home, else $OCM_HOME, when absolute. Undefined
 * otherwise (the default home, a `~` or relative path): the full CLI resolves
 * those (resolveHomeDir, lib/platform/home.ts). `integrate` always writes --home.
 */
function namedHome(args: PromptHookArgs, env: NodeJS.ProcessEnv): string | undefined {
  const home = args.home || env.OCM_HOME;
  return home && path.isAbsolute(home) ? path.resolve(home) : undefined;
}

/**
 * Answer the prompt hook from a running MCP server. True when done (printed,
 * or nothing relevant); false when the full CLI must take over — the
 * arguments are not this path's, or no server answered (the event read is
 * then handed over).
 */
async function answerPromptFast(argv: readonly string[]): Promise<boolean> {
  const args = promptHookArgs(argv);
  const env = process.env;
  const home = args && namedHome(args, env);
  if (!args || !home || !socketClient.socketsSupported()) return false;
  // Date.now and process.uptime, not `performance`: its first use loads perf_hooks (a dozen built-in modules).
  const started = Date.now();
  try {
    const input = hookEvent.parseHookInput(await readStdin(2000));
    handedOver = { input, started };
    const wait = serverWaitMs(promptTimeoutMs(args.timeoutMs, env)) - (Date.now() - started);
    // The machine folder is homePaths(home).machine (lib/platform/home.ts).
    const reply = await socketClient.askPromptSocket(
      path.join(home, '.ocm'),
      {
        prompt: input.prompt ?? '',
        agent: args.agent,
        ...(args.perProject ? { perProject: true, ...(input.cwd ? { projectCwd: input.cwd } : {}) } : {}),
        hookStartedAt: processStartedAt(),
      },
      Math.max(0, wait),
    );
    if (!reply) return false;
    handedOver = undefined;
    if (reply.context) process.stdout.write(`${hookEvent.additionalContextOutput('UserPromptSubmit', reply.context)}\n`);
    return true;
  } catch {
    // Anything unexpected: the full CLI does it all again, and logs what goes wrong.
    return false;
  }
}

/** When this process started (epoch ms). */
function processStartedAt(): number {
  return Math.round(Date.now() - process.uptime() * 1000);
}

/** This file as the program: answer fast, or run the full command line on the same arguments. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook' && argv[1] === 'prompt' && (await answerPromptFast(argv.slice(2)))) return;
  // As scripts/cli.ts: what this process creates is the owner's alone (README "The memory home").
  process.umask(process.umask() | 0o077);
  enableCompileCache();
  await import('./cli-main.js');
}

/**
 * Node's on-disk compile cache (Node ≥ 22.1; a no-op before): the full
 * command line's modules compile once, not in every short-lived process.
 */
function enableCompileCache(): void {
  const nodeModule = require('node:module') as { enableCompileCache?: () => unknown };
  try {
    nodeModule.enableCompileCache?.();
  } catch {
    // A cache folder it cannot write: compile as before.
  }
}

if (require.main === module) void main();

/** Ask a running `ocm-run mcp` on the machine folder for a prompt's memory (the full CLI's second try, `hook prompt`). */
const askPromptSocket = socketClient.askPromptSocket;

export = {
  promptHookArgs,
  promptTimeoutMs,
  serverWaitMs,
  readStdin,
  takeHandover,
  answerPromptFast,
  enableCompileCache,
  processStartedAt,
  askPromptSocket,
};
