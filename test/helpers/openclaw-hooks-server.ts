/**
 * A real local HTTP server standing in for OpenClaw's gateway webhooks
 * (`POST <path>/agent`, `POST <path>/wake`, `Authorization: Bearer <token>`),
 * recording every call. It answers like OpenClaw: 401 for a wrong token,
 * 400 for a payload without its required field, 404 for other paths; it also
 * records calls to any other path (for a plain alerts.webhook_url).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  status: number;
}

export interface HooksServer {
  url: string;
  port: number;
  calls: HookCall[];
  close(): Promise<void>;
}

export async function startHooksServer(options: { token: string; path?: string; acceptAnyPath?: boolean }): Promise<HooksServer> {
  const base = options.path ?? '/hooks';
  const calls: HookCall[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    const path = req.url ?? '';
    let status = 404;
    if (req.method === 'POST' && (path === `${base}/agent` || path === `${base}/wake`)) {
      const auth = req.headers.authorization;
      if (auth !== `Bearer ${options.token}` && req.headers['x-openclaw-token'] !== options.token) status = 401;
      else {
        const b = (body ?? {}) as Record<string, unknown>;
        const ok = path.endsWith('/agent') ? typeof b.message === 'string' && b.message.length > 0 : typeof b.text === 'string';
        status = ok ? 200 : 400;
      }
    } else if (options.acceptAnyPath && req.method === 'POST') {
      status = 200;
    }
    calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body, status });
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify(status === 200 ? { ok: true } : { ok: false, error: status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
