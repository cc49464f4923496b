import { join } from 'node:path';
import { defineCommand } from '../cli-context.js';
import type { Flags, FlagValues } from '../flags.js';

const MCP_FLAGS = {
  agent: { value: '<name>', description: 'The agent whose memory `remember` writes and `active_memory` reads (default: main)' },
  perProject: {
    description:
      "Per-project memory: the project is the server's working directory (as the agent starts it); remember writes there, search looks at it and main",
  },
} as const satisfies Flags;

/** Whose memory the server serves: the agent (checked: a name), and per-project or not. */
interface McpOptions {
  agent: string;
  perProject: boolean;
}

async function mcpOptions(flags: FlagValues<typeof MCP_FLAGS>): Promise<McpOptions> {
  const agent = flags.agent === undefined ? 'main' : flags.agent.trim();
  const { OcmError } = await import('../../lib/api/errors.js');
  if (!agent) throw new OcmError('BAD_INPUT', '--agent needs a name.', { hint: 'For example --agent claude-code.' });
  return { agent, perProject: flags.perProject === true };
}

export const command = defineCommand({
  name: 'mcp',
  description: 'Serve the memory to an agent over MCP (stdio): search_memory, get_memory, remember, active_memory',
  flags: MCP_FLAGS,
  examples: ['ocm-run mcp', 'ocm-run mcp --agent claude-code', 'claude mcp add --scope user oc-memory -- ocm-run mcp --agent claude-code'],
  async run(ctx, _args, options) {
    const { agent, perProject } = await mcpOptions(options);
    const { pauseAt } = await import('../test-pause.js');
    // `initialize` is answered before the memory is opened: an agent waits only a few seconds for its MCP servers
    // (Claude Code 2.1: 5 s, MCP_CONNECT_TIMEOUT_MS) and starts the session without the tools of one still silent —
    // on a busy machine config, index and model took longer than that. A tool call waits for the memory instead.
    const { createMcpServer } = await import('../../lib/mcp/server.js');
    const { LineTransport } = await import('../../lib/mcp/stdio-transport.js');
    const serving = await import('../../lib/api/serving.js');
    const version = await serving.packageVersion();
    const opening = (async () => {
      await pauseAt(ctx.env, 'mcp-open-memory');
      // A mistyped --agent in an agent's MCP entry would serve (and `remember` into) a new, empty memory:
      // refused before anything is created (the config read as it is, the home not made yet).
      const { readConfig } = await import('../../lib/api/config.js');
      const { assertKnownAgents } = await import('../../lib/api/home.js');
      // (Through the home's config cache when it holds this config: the first tool call waits for this.)
      const cacheFile = join(ctx.paths.machine, 'config-cache.json');
      const read = await readConfig({ file: ctx.configFile, envFile: ctx.paths.env, env: ctx.env, cacheFile });
      await assertKnownAgents({ paths: ctx.paths, config: read.config }, [agent]);
      const { config } = await ctx.config();
      const logger = ctx.logger('mcp');
      const { memoryScope, openMemory } = await import('../../lib/api/memory.js');
      const memory = await openMemory(ctx.paths.root, { config, logger, now: () => ctx.now(), keepOpen: true });
      // Per-project memory (sources.claude_code.per_project): the agent starts the server in the project's folder.
      const project = await memoryScope(agent, perProject, process.cwd());
      const scope = project
        ? { agent: project.agent, activeMemoryFallbacks: project.activeMemoryFallbacks, defaultSearchAgents: project.searchAgents }
        : { agent };
      return { config, memory, logger, scope, context: await memory.toolContext({ ...scope, client: undefined }) };
    })();
    const server = createMcpServer({ version, context: opening.then((o) => o.context) });
    // What happens before the memory is open is logged once it is (the log's level is the config's).
    const logSoon = (level: 'warn', event: string, data: Record<string, unknown>) =>
      void opening.then(
        (o) => o.logger.log(level, event, data),
        () => undefined,
      );
    // An oversized message is refused and serving goes on (the SDK's own stdio transport closes on one).
    const transport = new LineTransport(process.stdin, process.stdout, {
      onRefused: (refused) => logSoon('warn', 'mcp.message_too_large', { bytes: refused.bytes, answered: refused.id !== undefined }),
    });
    // Served until the client closes stdin (or ends the process); stdout carries the protocol only.
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
      process.stdin.once('close', () => resolve());
    });
    // Masked: an error about a message may quote it (the transport itself never quotes a line it could not read).
    const maskedText = await serving.logMasker();
    server.onerror = (error) => logSoon('warn', 'mcp.transport_error', { error: maskedText(error.message) });
    // How long the agent waited for `initialize` (from this process's start): past the agent's wait, its session
    // began without the memory tools — said in hooks.log, which `status` reads ("Memory skipped for time").
    let initializedMs: number | undefined;
    let onInitialized: (() => void) | undefined;
    server.oninitialized = () => {
      initializedMs ??= Math.round(performance.now());
      onInitialized?.();
    };
    await pauseAt(ctx.env, 'mcp-connect');
    await server.connect(transport);
    const opened = await opening.then(
      (o) => o,
      async (error: unknown) => {
        await server.close().catch(() => undefined);
        throw error;
      },
    );
    const { config, scope } = opened;
    const log = opened.logger;
    const hooksLogger = ctx.logger('hooks');
    onInitialized = () => {
      const boundMs = mcpStartBoundMs(ctx.env);
      if (initializedMs !== undefined && initializedMs > boundMs)
        hooksLogger.log('warn', 'mcp.start_late', { agent: scope.agent, ms: initializedMs, timeoutMs: boundMs });
    };
    if (initializedMs !== undefined) onInitialized();
    // The agents' prompt hooks ask this process for related memories (the index is open here): lib/hooks/prompt-socket.ts.
    const { servePromptSocket } = await import('../../lib/hooks/prompt-socket.js');
    const { servePromptRequest } = await import('../../lib/hooks/agent-hooks.js');
    const socket = await servePromptSocket(
      ctx.paths,
      (request) => servePromptRequest({ memory: opened.memory, logger: hooksLogger, request }),
      await serving.vectorServer(config),
    ).catch((error: Error) => {
      log.log('warn', 'mcp.socket_failed', { error: error.message });
      return undefined;
    });
    log.log('info', 'mcp.start', {
      agent: scope.agent,
      cwd: process.cwd(),
      pid: process.pid,
      socket: socket?.path ?? null,
      ...(initializedMs !== undefined ? { initializedMs } : {}),
    });
    await closed;
    await socket?.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    await opened.memory.close();
    log.log('info', 'mcp.stop', { agent: scope.agent });
  },
});

/**
 * How long an agent waits for an MCP server before it starts the session without its tools (ms):
 * Claude Code 2.1's 5 s for a server marked `alwaysLoad` (its MCP_CONNECT_TIMEOUT_MS default), or
 * $OCM_MCP_START_BOUND_MS.
 */
function mcpStartBoundMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.OCM_MCP_START_BOUND_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 5000;
}
