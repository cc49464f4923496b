/**
 * What the installed Codex CLI says about its own configuration, asked
 * through its own commands rather than re-implemented:
 *
 * - `codex app-server` (JSON-RPC over stdio) `hooks/list`: every hook Codex
 *   found, with the key and the hash Codex trusts it by (`currentHash`) — the
 *   same call Codex's own `/hooks` screen makes before it writes
 *   `[hooks.state."<key>"] trusted_hash` into config.toml;
 * - `codex mcp list`: whether it sees the oc-memory MCP server.
 *
 * Every call has a time limit; the child is killed when it is reached.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { MCP_SERVER_NAME } from '../../core/injected-context.js';

/** An executable `command` on PATH (an agent's CLI: `codex`, `claude`), or undefined. */
export async function findOnPath(command: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** One hook as `hooks/list` reports it (the fields OC-Memory uses). */
export interface CodexHookEntry {
  key: string;
  eventName: string;
  command: string | null;
  sourcePath: string;
  currentHash: string;
  trustStatus: 'trusted' | 'untrusted' | 'modified' | 'managed' | string;
}

/** The hooks Codex finds for `cwd`, asked from `codex app-server`. */
export async function listCodexHooks(
  codex: string,
  env: Record<string, string | undefined>,
  cwd: string,
  timeoutMs = 60_000,
): Promise<CodexHookEntry[]> {
  const child = spawn(codex, ['app-server'], { cwd, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  try {
    return await new Promise<CodexHookEntry[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`codex app-server did not answer hooks/list within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      let buffer = '';
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`codex app-server exited (code ${code}) before it answered hooks/list`));
      });
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          let message: { id?: number; result?: { data?: Array<{ hooks?: CodexHookEntry[] }> }; error?: { message?: string } };
          try {
            message = JSON.parse(line) as typeof message;
          } catch {
            continue;
          }
          if (message.id === 1) {
            send({ jsonrpc: '2.0', method: 'initialized' });
            send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
          } else if (message.id === 2) {
            clearTimeout(timer);
            if (message.error) reject(new Error(`codex app-server hooks/list: ${message.error.message ?? 'error'}`));
            else resolve((message.result?.data ?? []).flatMap((d) => d.hooks ?? []));
          }
        }
      });
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'oc-memory', version: '1' } } });
    });
  } finally {
    child.stdin.end();
    child.kill('SIGTERM');
  }
}

export type CodexMcpState = 'listed' | 'missing' | 'failed';

/** `codex mcp list`: does Codex list the oc-memory server (enabled)? */
export async function codexListsMcpServer(
  codex: string,
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<{ state: CodexMcpState; output: string }> {
  const { execa } = await import('execa');
  const r = await execa(codex, ['mcp', 'list'], {
    reject: false,
    timeout: timeoutMs,
    env: env as NodeJS.ProcessEnv,
    extendEnv: false,
    stdin: 'ignore',
  });
  const output = `${String(r.stdout)}\n${String(r.stderr)}`.trim();
  if (r.exitCode !== 0) return { state: 'failed', output };
  const line = output.split('\n').find((l) => l.trim().startsWith(`${MCP_SERVER_NAME} `));
  if (!line) return { state: 'missing', output };
  return { state: /\benabled\b/.test(line) ? 'listed' : 'failed', output: line.replace(/\s+/g, ' ').trim() };
}
