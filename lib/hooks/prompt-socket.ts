/**
 * The per-prompt lookup served by a long-lived `ocm-run mcp` over a local
 * socket, so an agent's prompt hook need not load the index itself: the MCP
 * server already holds it open (lib/search/open-index.ts). Each server
 * listens on `<home>/.ocm/run/mcp-<pid>.sock` (the folder is the home's 0700
 * machine folder, so only the user reaches it); the hook asks the newest one
 * (prompt-socket-client.cts) and falls back to its own lookup when none
 * answers in time. Protocol: one JSON line in (PromptRequest), one JSON line
 * out ({context: string | null}). The server, not the hook, logs what went in:
 * the hook process stays small. Unix-like systems only (docs/running.md, "Claude Code").
 */
import { createServer, type Server } from 'node:net';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../platform/home.js';
import { socketDir, socketsSupported } from '../integrations/prompt-socket-client.cjs';

import type { PromptReply, PromptRequest, ServeVectors, VectorsReply, VectorsRequest } from '../core/hook-protocol.js';

export type { PromptReply, PromptRequest, ServeVectors, VectorsReply, VectorsRequest } from '../core/hook-protocol.js';

/** A Unix socket path must fit in sun_path (104–108 bytes). */
const MAX_SOCKET_PATH = 100;

/**
 * Serve `answer` on this process's socket. Undefined when sockets are not
 * available here (Windows, a home path too long for a socket name).
 */
export async function servePromptSocket(
  paths: HomePaths,
  answer: (request: PromptRequest) => Promise<string | undefined>,
  vectors?: ServeVectors,
): Promise<{ path: string; close: () => Promise<void> } | undefined> {
  if (!socketsSupported()) return undefined;
  const dir = socketDir(paths.machine);
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
        const parsed = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
        const asked = vectorsRequest(parsed);
        if (asked) {
          const none = `${JSON.stringify({ vectors: null } satisfies VectorsReply)}\n`;
          if (!vectors) socket.end(none);
          else
            vectors(asked.key, asked.texts).then(
              (v) => socket.end(`${JSON.stringify({ vectors: v } satisfies VectorsReply)}\n`),
              () => socket.end(none),
            );
          return;
        }
        request = promptRequest(parsed);
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

/** A VectorsRequest as received (a few strings and a key), else undefined. */
function vectorsRequest(parsed: Record<string, unknown>): VectorsRequest['vectors'] | undefined {
  const v = parsed.vectors as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object' || typeof v.key !== 'string' || !Array.isArray(v.texts)) return undefined;
  const texts = v.texts.filter((t): t is string => typeof t === 'string');
  return texts.length === v.texts.length && texts.length > 0 && texts.length <= 16 ? { key: v.key, texts } : undefined;
}

/** A request as the socket received it, keeping only fields of the right type. */
function promptRequest(parsed: Record<string, unknown>): PromptRequest {
  const request: PromptRequest = { prompt: typeof parsed.prompt === 'string' ? parsed.prompt : '' };
  if (typeof parsed.agent === 'string' && parsed.agent) request.agent = parsed.agent;
  if (parsed.perProject === true) request.perProject = true;
  if (typeof parsed.projectCwd === 'string' && parsed.projectCwd) request.projectCwd = parsed.projectCwd;
  if (typeof parsed.hookStartedAt === 'number' && Number.isFinite(parsed.hookStartedAt)) request.hookStartedAt = parsed.hookStartedAt;
  return request;
}
