/**
 * OC-Memory for pi (installed by `ocm-run integrate pi`; removed by
 * `ocm-run integrate pi --uninstall`). pi has no MCP client, so this
 * extension is one: it starts `ocm-run mcp` (the same server Claude Code and
 * Codex use) and registers its tools with pi.registerTool as oc_memory_search,
 * oc_memory_get, oc_memory_remember and oc_memory_active; before each prompt it runs OC-Memory's
 * own hook command (`ocm-run hook session-start` on the first prompt of a
 * session, `ocm-run hook prompt` on each) and hands pi the context it prints;
 * after each prompt (agent_end) and at session_shutdown it runs `ocm-run hook
 * after-turn`, which starts observe + index in the background.
 * Settings come from oc-memory.json beside this file.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// Types only (erased when pi loads this file from its extensions folder).
import type { PiExtensionSettings } from '../../lib/integrations/pi/integration.js';

/** OC-Memory's public entry (lib/api/index.ts). */
type EntryModule = typeof import('../../lib/api/index.js');

const settings = JSON.parse(readFileSync(join(__dirname, 'oc-memory.json'), 'utf8')) as PiExtensionSettings;

/**
 * OC-Memory's public entry in the install `cli` belongs to: the package's own
 * name resolved from inside it, through its package.json `exports` — as the
 * OpenClaw plugin loads it; nothing of the package is imported by path.
 */
function entryUrl(): string {
  return pathToFileURL(createRequire(settings.cli).resolve('oc-memory')).href;
}

/** Run `ocm-run hook <kind>` with the event on stdin; its stdout (never throws, bounded). */
function runHook(kind: string, input: Record<string, unknown>, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(settings.node, [settings.cli, 'hook', kind, '--agent', settings.agent, '--home', settings.home], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', () => resolve(''));
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.end(JSON.stringify(input));
  });
}

function additionalContext(output: string): string | undefined {
  try {
    const text = JSON.parse(output)?.hookSpecificOutput?.additionalContext;
    return typeof text === 'string' && text ? text : undefined;
  } catch {
    return undefined;
  }
}

/** A tool as pi's registerTool takes it. */
interface PiTool {
  name: string;
  label: string;
  description: string;
  /** JSON Schema of the arguments (the MCP tool's input schema as the server lists it). */
  parameters: unknown;
  execute(
    id: string,
    params: Record<string, unknown>,
  ): Promise<{ content: Array<{ type: 'text'; text: string }>; details: Record<string, unknown> }>;
}

/** The part of pi's extension API this extension uses. */
interface PiExtensionApi {
  registerTool(tool: PiTool): void;
  on(event: 'before_agent_start', handler: (event: { prompt?: string }, ctx: { cwd?: string }) => Promise<unknown>): void;
  on(event: 'agent_end' | 'session_shutdown', handler: () => Promise<void>): void;
}

export default async function ocMemory(pi: PiExtensionApi) {
  const { Client } = await import(pathToFileURL(settings.sdkClient).href);
  const { StdioClientTransport } = await import(pathToFileURL(settings.sdkStdio).href);
  const client = new Client({ name: 'oc-memory-pi', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: settings.node,
      args: [settings.cli, 'mcp', '--home', settings.home, '--agent', settings.agent],
      stderr: 'ignore',
    }),
  );
  // oc_memory_search, oc_memory_remember…: the names the OpenClaw plugin gives them too, with the prefix by which
  // OC-Memory's transcript readers know their own tools, so a recalled memory is never observed again as a new fact.
  const { pluginToolName } = (await import(entryUrl())) as EntryModule;
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const name = pluginToolName(tool.name);
    pi.registerTool({
      name,
      label: name,
      description: tool.description ?? tool.name,
      parameters: tool.inputSchema,
      async execute(_id: string, params: Record<string, unknown>) {
        const result = await client.callTool({ name: tool.name, arguments: params });
        const text = (result.content ?? []).map((c: { text?: string }) => c.text ?? '').join('\n');
        return { content: [{ type: 'text', text: result.isError ? `Error: ${text}` : text }], details: {} };
      },
    });
  }

  let started = false;
  pi.on('before_agent_start', async (event: { prompt?: string }, ctx: { cwd?: string }) => {
    const parts: string[] = [];
    if (!started) {
      started = true;
      const context = additionalContext(await runHook('session-start', { cwd: ctx?.cwd }, 10_000));
      if (context) parts.push(context);
    }
    const related = additionalContext(await runHook('prompt', { prompt: event.prompt ?? '', cwd: ctx?.cwd }, 5_000));
    if (related) parts.push(related);
    if (parts.length === 0) return undefined;
    return { message: { customType: 'oc-memory', content: parts.join('\n\n'), display: false } };
  });
  pi.on('agent_end', async () => {
    await runHook('after-turn', {}, 10_000);
  });
  pi.on('session_shutdown', async () => {
    await runHook('after-turn', {}, 10_000);
    await client.close().catch(() => undefined);
  });
}
