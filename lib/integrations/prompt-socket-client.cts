/**
 * The hook's side of the prompt socket (lib/hooks/prompt-socket.ts
 * serves it from a running `ocm-run mcp`): find the newest live server on the
 * home and ask it for a prompt's context, within a time limit.
 *
 * CommonJS with Node built-ins only: the per-prompt hook's fast path
 * (scripts/prompt-hook.cts) loads it into a fresh process before every
 * prompt, and a process that loads only CommonJS never starts Node's ESM
 * loader (docs/performance.md, "Per-prompt hook"). For the same reason it
 * reads the folder with node:fs's synchronous calls (node:fs/promises loads a
 * dozen more built-in modules); they are a few small calls in a process that
 * does nothing else meanwhile.
 */
import net = require('node:net');
import fs = require('node:fs');
import path = require('node:path');
import type { PromptReply, PromptRequest } from '../core/hook-protocol.js';

/** Where the servers' sockets are: `<home>/.ocm/run` (`machine` is HomePaths.machine, lib/platform/home.ts). */
function socketDir(machine: string): string {
  return path.join(machine, 'run');
}

/** Unix sockets: everywhere but Windows. */
function socketsSupported(): boolean {
  return process.platform !== 'win32';
}

/** Sockets of MCP servers on this home (`mcp-<pid>.sock`), newest first. */
function serverSockets(machine: string): string[] {
  const dir = socketDir(machine);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^mcp-\d+\.sock$/.test(n));
  } catch {
    return [];
  }
  const found: Array<{ path: string; mtime: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st) found.push({ path: file, mtime: st.mtimeMs });
  }
  return found.sort((a, b) => b.mtime - a.mtime).map((f) => f.path);
}

/** What asking one socket gave: a reply, nothing in time, or a refusal (no server listens: a dead server's socket). */
type Asked<R> = R | 'refused' | undefined;

/** Send one JSON line to the socket `file` and read one back, kept when `accept` takes it, within `timeoutMs`. */
function ask<R>(file: string, request: object, timeoutMs: number, accept: (reply: unknown) => R | undefined): Promise<Asked<R>> {
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const finish = (reply: Asked<R>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const socket = net.createConnection(file, () => socket.write(`${JSON.stringify(request)}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      try {
        finish(accept(JSON.parse(buffer.slice(0, end))));
      } catch {
        finish(undefined);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' ? 'refused' : undefined));
    socket.on('close', () => finish(undefined));
  });
}

const promptReply = (reply: unknown): PromptReply | undefined => {
  const context = (reply as PromptReply | null)?.context;
  return typeof context === 'string' || context === null ? (reply as PromptReply) : undefined;
};

/**
 * Ask a running MCP server on the home whose machine folder is `machine` for
 * the prompt's context. `undefined`: no server answered within `timeoutMs`
 * (the caller looks up itself); `{context: null}`: one answered, and nothing
 * is relevant.
 */
async function askPromptSocket(machine: string, request: PromptRequest, timeoutMs: number): Promise<PromptReply | undefined> {
  if (!socketsSupported()) return undefined;
  const deadline = Date.now() + timeoutMs;
  let tried = 0;
  for (const file of serverSockets(machine)) {
    const left = deadline - Date.now();
    if (left <= 0 || tried === 2) break;
    const reply = await ask(file, request, left, promptReply);
    if (reply === 'refused') {
      // Nobody listens on it: the server died without removing it.
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // Someone else removed it, or may not: either way it is not asked again now.
      }
      continue;
    }
    tried += 1;
    if (reply) return reply;
  }
  return undefined;
}

export = { socketDir, socketsSupported, serverSockets, ask, askPromptSocket };
