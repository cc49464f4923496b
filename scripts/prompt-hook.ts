/**
 * The per-prompt hook's fast path. An agent starts `ocm-run hook prompt` as a
 * fresh process before every prompt (Claude Code, Codex, pi), so whatever it
 * loads is added to every prompt. When an `ocm-run mcp` is running on the
 * home — the agent started it — that server already holds the index open and
 * answers over its socket (lib/integrations/prompt-socket.ts): this path reads
 * the event, asks it, prints the answer and logs one line, loading only
 * node:net, the home's paths and the log writer — not the command registry,
 * cac, the config, the search code or the MCP SDK.
 *
 * When no server answers in time, or the arguments are more than this path
 * handles, it hands over to the full CLI (scripts/cli-main.ts), passing on
 * what it already read, and `hook prompt` looks the memory up itself
 * (scripts/commands/hook.ts). Measured by `npm run bench -- mcp`
 * (docs/running.md, "Claude Code").
 */
import { additionalContextOutput, injectedMemoryIds, logPromptInjection, parseHookInput, type HookInput } from '../lib/integrations/agent-hooks.js';

export interface PromptHookArgs {
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
export function promptHookArgs(argv: readonly string[]): PromptHookArgs | undefined {
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
  return {
    agent: values.get('--agent') ?? 'main',
    perProject,
    ...(values.has('--home') ? { home: values.get('--home')! } : {}),
    ...(values.has('--config') ? { config: values.get('--config')! } : {}),
    ...(timeout !== undefined ? { timeoutMs: Number(timeout) } : {}),
  };
}

/** How long the prompt hook may take in all (ms): --timeout-ms, else $OCM_HOOK_TIMEOUT_MS, else 1.5 s. */
export function promptTimeoutMs(option: unknown, env: NodeJS.ProcessEnv): number {
  return Math.max(50, Number(option ?? env.OCM_HOOK_TIMEOUT_MS ?? 1500) || 1500);
}

/**
 * How long to wait for a running server before looking up in-process: a
 * second, or half the hook's time when it is given more (a busy machine slows
 * the server's answer as much as the lookup it saves).
 */
export function serverWaitMs(totalMs: number): number {
  return Math.min(totalMs, Math.max(1000, totalMs / 2));
}

/** stdin as text: what the agent wrote before closing it, or what came within `ms` (an agent that keeps it open must not hang the hook). */
export function readStdin(ms: number): Promise<string> {
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

/** What the fast path did before it handed over: the event it read, and that no server answered. */
export interface Handover {
  input: HookInput;
  started: number;
}

let handedOver: Handover | undefined;

/** The event the fast path read (once), for `hook prompt` in the full CLI. */
export function takeHandover(): Handover | undefined {
  const h = handedOver;
  handedOver = undefined;
  return h;
}

/** The agents a per-project lookup covers: the project's and main's. */
export async function projectSearchAgents(agent: string, cwd: string): Promise<{ agent: string; searchAgents: string[] }> {
  const { projectAgent, projectFolder } = await import('../lib/sources/claude-code-project.js');
  const project = projectAgent(agent, projectFolder(cwd));
  return { agent: project, searchAgents: [project, 'main'] };
}

/**
 * Answer the prompt hook from a running MCP server. True when done (printed,
 * or nothing relevant); false when the full CLI must take over — the
 * arguments are not this path's, or no server answered (the event read is
 * then handed over).
 */
export async function answerPromptFast(argv: readonly string[]): Promise<boolean> {
  const args = promptHookArgs(argv);
  if (!args) return false;
  const started = performance.now();
  const env = process.env;
  try {
    const { homePaths, resolveHomeDir } = await import('../lib/platform/home.js');
    const paths = homePaths(resolveHomeDir(args.home, env));
    const input = parseHookInput(await readStdin(2000));
    handedOver = { input, started };
    const scope = args.perProject && input.cwd ? await projectSearchAgents(args.agent, input.cwd) : undefined;
    const { askPromptSocket } = await import('../lib/integrations/prompt-socket.js');
    const wait = serverWaitMs(promptTimeoutMs(args.timeoutMs, env)) - (performance.now() - started);
    const reply = await askPromptSocket(paths, { prompt: input.prompt ?? '', ...(scope ? { agents: scope.searchAgents } : {}) }, Math.max(0, wait));
    if (!reply) return false;
    handedOver = undefined;
    if (reply.context) process.stdout.write(`${additionalContextOutput('UserPromptSubmit', reply.context)}\n`);
    const { createFileLogger } = await import('../lib/platform/log.js');
    const logger = createFileLogger({ dir: paths.logs, name: 'hooks' });
    // Which memories went in (ids only): the dashboard's Active memory page shows them.
    logPromptInjection(logger, { agent: args.agent, via: 'mcp', injected: injectedMemoryIds(reply.context).map((id) => ({ id })), ms: performance.now() - started });
    await logger.flush();
    return true;
  } catch {
    // Anything unexpected: the full CLI does it all again, and logs what goes wrong.
    return false;
  }
}
