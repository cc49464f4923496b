/**
 * The per-prompt lookup served by a long-lived `ocm-run mcp` over a local
 * socket, so an agent's prompt hook need not load the index itself: the MCP
 * server already holds it open (lib/search/open-index.ts). Each server
 * listens on `<home>/.ocm/run/mcp-<pid>.sock` (the folder is the home's 0700
 * machine folder, so only the user reaches it); the hook asks the newest one
 * and falls back to its own lookup when none answers in time.
 * Protocol: one JSON line in ({prompt, agents?}), one JSON line out
 * ({context: string | null}). Unix-like systems only (docs/running.md, "Claude Code").
 */
import { createConnection, createServer, type Server } from 'node:net';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';
import { isAlive } from '../platform/process.js';

export interface PromptRequest {
  prompt: string;
  agents?: string[];
}

export interface PromptReply {
  context: string | null;
}

export function socketDir(paths: HomePaths): string {
  return join(paths.machine, 'run');
}

/** A Unix socket path must fit in sun_path (104–108 bytes). */
const MAX_SOCKET_PATH = 100;

export function socketsSupported(): boolean {
  return process.platform !== 'win32';
}

/**
 * Serve `answer` on this process's socket. Undefined when sockets are not
 * available here (Windows, a home path too long for a socket name).
 */
export async function servePromptSocket(paths: HomePaths, answer: (request: PromptRequest) => Promise<string | undefined>): Promise<{ path: string; close: () => Promise<void> } | undefined> {
  if (!socketsSupported()) return undefined;
  const dir = socketDir(paths);
  const path = join(dir, `mcp-${process.pid}.sock`);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return undefined;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await rm(path, { force: true });
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) {
        if (buffer.length > 64 * 1024) socket.destroy();
        return;
      }
      let request: PromptRequest;
      try {
        const parsed = JSON.parse(buffer.slice(0, end)) as Partial<PromptRequest>;
        request = { prompt: typeof parsed.prompt === 'string' ? parsed.prompt : '', ...(Array.isArray(parsed.agents) ? { agents: parsed.agents.filter((a): a is string => typeof a === 'string') } : {}) };
      } catch {
        socket.end(`${JSON.stringify({ context: null })}\n`);
        return;
      }
      answer(request).then(
        (context) => socket.end(`${JSON.stringify({ context: context ?? null } satisfies PromptReply)}\n`),
        () => socket.end(`${JSON.stringify({ context: null })}\n`),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  server.on('error', () => undefined);
  return {
    path,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}

// (isAlive from platform/process.ts, not through lock.ts: that module loads proper-lockfile, and the hook must start fast.)
const processExists = isAlive;

/** Sockets of running MCP servers on this home, newest first (a dead server's socket is removed). */
async function liveSockets(paths: HomePaths): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(socketDir(paths))).filter((n) => /^mcp-\d+\.sock$/.test(n));
  } catch {
    return [];
  }
  const found: Array<{ path: string; mtime: number }> = [];
  for (const name of names) {
    const path = join(socketDir(paths), name);
    const pid = Number(/\d+/.exec(name)![0]);
    if (!processExists(pid)) {
      await rm(path, { force: true }).catch(() => undefined);
      continue;
    }
    const st = await stat(path).catch(() => undefined);
    if (st) found.push({ path, mtime: st.mtimeMs });
  }
  return found.sort((a, b) => b.mtime - a.mtime).map((f) => f.path);
}

function ask(path: string, request: PromptRequest, timeoutMs: number): Promise<PromptReply | undefined> {
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const finish = (reply: PromptReply | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const socket = createConnection(path, () => socket.write(`${JSON.stringify(request)}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      try {
        const reply = JSON.parse(buffer.slice(0, end)) as PromptReply;
        finish(typeof reply.context === 'string' || reply.context === null ? reply : undefined);
      } catch {
        finish(undefined);
      }
    });
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
  });
}

/**
 * Ask a running MCP server for the prompt's context. `undefined`: no server
 * answered within `timeoutMs` (the caller looks up itself); `{context: null}`:
 * one answered, and nothing is relevant.
 */
export async function askPromptSocket(paths: HomePaths, request: PromptRequest, timeoutMs: number): Promise<PromptReply | undefined> {
  if (!socketsSupported()) return undefined;
  const deadline = Date.now() + timeoutMs;
  for (const path of (await liveSockets(paths)).slice(0, 2)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const reply = await ask(path, request, left);
    if (reply) return reply;
  }
  return undefined;
}
