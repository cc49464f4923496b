import { defineCommand, type CommandContext } from '../cli-context.js';
import promptHook from '../prompt-hook.cjs';
import type { ArgsOf, Flags, FlagValues } from '../flags.js';

const { promptTimeoutMs, readStdin, serverWaitMs, takeHandover } = promptHook;

const EVENTS = ['session-start', 'prompt', 'after-turn'] as const;
type HookEvent = (typeof EVENTS)[number];

const HOOK_USAGE = 'hook <event>';

const HOOK_FLAGS = {
  agent: { value: '<name>', description: 'The agent whose memory this is (default: main)' },
  timeoutMs: {
    value: '<ms>',
    description: 'prompt: give up on the lookup after this long and add nothing (default $OCM_HOOK_TIMEOUT_MS or 1500)',
  },
  background: { description: 'after-turn: run the observe + index job itself (what the hook starts)' },
  perProject: { description: "Per-project memory: the event's cwd picks the project's memory (sources.claude_code.per_project)" },
} as const satisfies Flags;

/** What a hook run is: the event (checked), the agent, per-project or not, and whether it is the after-turn job itself. */
interface HookOptions {
  event: HookEvent;
  agent: string;
  perProject: boolean;
  background: boolean;
}

/** The command line as the hook's options (an unknown event: BAD_INPUT, loaded only then — this runs before every prompt). */
async function hookOptions(args: ArgsOf<typeof HOOK_USAGE>, flags: FlagValues<typeof HOOK_FLAGS>): Promise<HookOptions> {
  const event = args.event as HookEvent;
  if (!EVENTS.includes(event)) {
    const { OcmError } = await import('../../lib/api/errors.js');
    throw new OcmError('BAD_INPUT', `Unknown hook event "${event}".`, { hint: `Use one of: ${EVENTS.join(', ')}.` });
  }
  return { event, agent: flags.agent ?? 'main', perProject: flags.perProject === true, background: flags.background };
}

export const command = defineCommand({
  name: HOOK_USAGE,
  description:
    "An agent's hook (Claude Code's protocol, JSON on stdin): session-start | prompt | after-turn. Prints memory as additionalContext; never fails the agent",
  shortLived: true,
  flags: HOOK_FLAGS,
  examples: ['echo \'{"prompt":"which database do we use?"}\' | ocm-run hook prompt --agent claude-code'],
  async run(ctx, args, options) {
    const { event, agent, perProject } = await hookOptions(args, options);
    const logger = ctx.logger('hooks');
    // The prompt hook's fast path (scripts/prompt-hook.cts) may have read the event and asked the running MCP server already.
    const handover = event === 'prompt' ? takeHandover() : undefined;
    const started = handover?.started ?? Date.now();
    if (event === 'after-turn' && options.background) {
      await runBackground(ctx, agent);
      return;
    }
    // Whatever goes wrong, the agent's turn goes on: log it, print nothing, exit 0.
    try {
      const { parseHookInput } = await import('../../lib/hooks/agent-hooks.js');
      const input = handover?.input ?? parseHookInput(await readStdin(2000));
      if (event === 'after-turn') {
        await startBackground(ctx, agent);
        logger.log('debug', 'hook.after_turn', { agent, session: input.session_id, ms: Math.round(Date.now() - started) });
        return;
      }
      if (event === 'prompt' && !handover) {
        // A running `ocm-run mcp` on this home holds the index open: ask it first (no config, no index to load here).
        const request = {
          prompt: input.prompt ?? '',
          agent,
          ...(perProject ? { perProject: true, ...(input.cwd ? { projectCwd: input.cwd } : {}) } : {}),
          hookStartedAt: promptHook.processStartedAt(),
        };
        const reply = await promptHook.askPromptSocket(ctx.paths.machine, request, serverWaitMs(promptTimeout(ctx, options)));
        if (reply) {
          // The server logged which memories went in (the dashboard shows them).
          if (reply.context) {
            const { additionalContextOutput } = await import('../../lib/hooks/agent-hooks.js');
            ctx.out(additionalContextOutput('UserPromptSubmit', reply.context));
          }
          return;
        }
      }
      // Per-project memory: the project's agent first, then its memory from before and main's; without a cwd, main's only.
      const { memoryOf, memoryScope } = await import('../../lib/api/memory.js');
      const scope = await memoryScope(agent, perProject, input.cwd);
      if (event === 'session-start') {
        // The agent ends a hook that outlives its timeout (Claude Code: 10 s, as integrate sets it) and adds
        // nothing, silently: give up a little before, and say so in hooks.log (and `status`).
        // Counted from the process's start (performance.now()): on a busy machine starting Node and loading the
        // command line take seconds of the agent's 10 s too.
        const budgetMs = sessionStartBudgetMs(ctx.env);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), Math.max(0, budgetMs - performance.now()));
        });
        const work = (async () => {
          const { pauseAt } = await import('../test-pause.js');
          await pauseAt(ctx.env, 'session-start');
          const { config } = await ctx.config();
          const { sessionStartContext, additionalContextOutput } = await import('../../lib/hooks/agent-hooks.js');
          const context = await sessionStartContext({
            memory: memoryOf(ctx.paths.root, config),
            agent: scope?.agent ?? agent,
            ...(scope ? { fallbacks: scope.activeMemoryFallbacks } : {}),
          });
          return context ? additionalContextOutput('SessionStart', context) : undefined;
        })();
        const output = await Promise.race([work, late]);
        clearTimeout(timer);
        if (output === 'late') {
          logger.log('warn', 'hook.session_start_late', { agent, timeoutMs: budgetMs, ms: Math.round(performance.now()) });
          await ctx.flush();
          process.exit(0); // the session starts without memory, as it would have when the agent ended the hook
        }
        logger.log('info', 'hook.session_start', {
          agent,
          chars: output?.length ?? 0,
          ms: Math.round(Date.now() - started),
          sinceProcessStartMs: Math.round(performance.now()),
        });
        if (output) ctx.out(output);
        return;
      }
      const { config } = await ctx.config();
      const timeoutMs = promptTimeout(ctx, options) - (Date.now() - started);
      const { promptContext, additionalContextOutput, logPromptInjection } = await import('../../lib/hooks/agent-hooks.js');
      const lookup = promptContext({
        memory: memoryOf(ctx.paths.root, config),
        prompt: input.prompt ?? '',
        ...(scope ? { agents: scope.searchAgents } : {}),
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs);
      });
      const result = await Promise.race([lookup, late]);
      clearTimeout(timer);
      const ms = Math.round(Date.now() - started);
      if (result === 'late') {
        logger.log('warn', 'hook.prompt_late', { agent, timeoutMs });
        await ctx.flush();
        process.exit(0); // abandon the lookup: the prompt goes on without memory
      }
      // Which memories went in and how relevant each was to the prompt (ids only, never text): the dashboard's Active memory page shows them.
      logPromptInjection(logger, {
        agent,
        via: 'self',
        injected: result?.results.map((r) => ({ id: r.id, relevance: r.relevance ?? 0 })) ?? [],
        ms,
      });
      if (result) ctx.out(additionalContextOutput('UserPromptSubmit', result.text));
    } catch (error) {
      logger.log('warn', 'hook.failed', { event, agent, error: (error as Error).message });
    }
  },
});

/** How long session-start may take (ms): $OCM_HOOK_SESSION_START_MS, else 8 s, under the 10 s Claude Code is given for it. */
function sessionStartBudgetMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.OCM_HOOK_SESSION_START_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 8000;
}

/** How long the prompt hook may take in all (ms). */
function promptTimeout(ctx: CommandContext, options: { timeoutMs: string | undefined }): number {
  return promptTimeoutMs(options.timeoutMs, ctx.env);
}

/** Start the observe + index job detached (or ask the running one to go round again), and return at once. */
async function startBackground(ctx: CommandContext, agent: string): Promise<void> {
  const { startAfterTurnJob } = await import('../../lib/api/jobs.js');
  await startAfterTurnJob({
    paths: ctx.paths,
    agent,
    ...(ctx.configFile !== ctx.paths.config ? { configFile: ctx.configFile } : {}),
    node: process.execPath,
    cli: process.argv[1]!,
    env: process.env,
  });
}

async function runBackground(ctx: CommandContext, agent: string): Promise<void> {
  const logger = ctx.logger('hooks');
  const { config, env } = await ctx.config();
  const { runAfterTurn } = await import('../../lib/api/jobs.js');
  await runAfterTurn({ paths: ctx.paths, config, env, logger, agent });
}
