/**
 * The memory tools (lib/api/tools.ts) as an MCP server, on the official
 * SDK's low-level `Server`: the tools' own JSON Schemas are listed as they
 * are, and a call runs the tool. Transport-free: `ocm-run mcp` connects it to
 * stdio (docs/running.md, "The MCP server").
 *
 * Errors never end the server. Bad arguments (and a path outside the memory)
 * are JSON-RPC "invalid params" errors whose message says what is wrong; any
 * other failure of a tool (nothing found, the home locked by a long job) is a
 * tool result flagged `isError`, which the model reads and can act on.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describeError, OcmError } from '../core/errors.js';
import { findMemoryTool, MEMORY_TOOLS, type MemoryToolContext } from '../api/tools.js';

export interface McpServerOptions {
  /** The server's version (the package's). */
  version: string;
  /**
   * Everything the tools need but the client, which the server learns at `initialize`. A promise while the
   * memory is still being opened: the server answers `initialize` and `tools/list` at once, and a tool call
   * waits for it (an agent waits a few seconds at most for a server to connect, then starts without its tools).
   */
  context: Omit<MemoryToolContext, 'client'> | Promise<Omit<MemoryToolContext, 'client'>>;
}

const INSTRUCTIONS = [
  "OC-Memory is the user's long-term memory, kept from earlier conversations with this and other agents.",
  'Call search_memory before answering anything that may depend on earlier conversations (names, decisions, preferences, past work);',
  'call remember when the user asks you to remember something or states a lasting preference or decision.',
].join(' ');

/** Argument errors: the request is wrong, not the memory. */
const ARGUMENT_ERRORS = new Set(['BAD_INPUT', 'PATH_OUTSIDE_ROOTS']);

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'oc-memory', title: 'OC-Memory', version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const client = () => {
    const info = server.getClientVersion();
    return info ? { name: info.name, version: info.version || undefined } : undefined;
  };
  const opened = Promise.resolve(options.context).then((base): MemoryToolContext => ({ ...base, client }));
  opened.catch(() => undefined); // a memory that cannot be opened fails each call, never the process

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MEMORY_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, ...t.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = findMemoryTool(name);
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". The tools are: ${MEMORY_TOOLS.map((t) => t.name).join(', ')}.`);
    const started = performance.now();
    let context: MemoryToolContext | undefined;
    try {
      context = await opened;
      const out = await tool.run(args ?? {}, context);
      context.logger?.log('info', 'mcp.call', { tool: name, ms: Math.round((performance.now() - started) * 10) / 10 });
      // Text only: Claude Code (2.1.x) hands a result's structuredContent, when there is one, to the model instead of its text,
      // and the text is the form written for a model (the data stays for in-process callers).
      return { content: [{ type: 'text', text: out.text }] };
    } catch (error) {
      const { message, hint, code } = describeError(error);
      context?.logger?.log(error instanceof OcmError ? 'info' : 'error', 'mcp.call_failed', { tool: name, code, error: message });
      const text = hint ? `${message}\n→ ${hint}` : message;
      if (error instanceof OcmError && ARGUMENT_ERRORS.has(error.code)) throw new McpError(ErrorCode.InvalidParams, text);
      return { content: [{ type: 'text', text }], isError: true };
    }
  });

  return server;
}
