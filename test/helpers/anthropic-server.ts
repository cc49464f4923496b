/**
 * A real local HTTP server speaking Anthropic's Messages API with SSE
 * streaming, for driving the real Claude Code CLI offline
 * (ANTHROPIC_BASE_URL=http://127.0.0.1:PORT): every request is recorded, and
 * a script decides each reply — text, or a tool call (`tool_use`) the CLI
 * runs and answers in its next request.
 * Also a recording HTTP(S) proxy: pointed at by HTTPS_PROXY / HTTP_PROXY, it
 * records any attempt to reach another host and refuses it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A parsed JSON request body: the fields a fake server or its tests read, the rest as sent. */
export type JsonBody = Record<string, unknown>;

/** A content block of a Messages API message: text, tool_use, tool_result (whose content is text or text blocks)… */
export interface MessagesContentBlock {
  type: string;
  text?: string;
  content?: string | Array<{ type?: string; text?: string }>;
  [key: string]: unknown;
}

/** The Messages API request fields the tests read. */
export interface MessagesBody extends JsonBody {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role: string; content: string | MessagesContentBlock[] }>;
  /** The tool definitions the CLI offers the model. */
  tools?: Array<{ name: string; description?: string; input_schema: { type?: string; [key: string]: unknown } }>;
}

export interface MessagesRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body ({} when none). */
  body: MessagesBody;
  /** The raw body text (for searching what the model was sent). */
  raw: string;
}

export type ModelReply = { text: string } | { toolUse: { name: string; input: Record<string, unknown> }; text?: string };

/** Decide the reply to one /v1/messages request. */
export type ModelScript = (request: MessagesRequest, index: number) => ModelReply;

export interface FakeAnthropic {
  url: string;
  requests: MessagesRequest[];
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

/** A request's body as text and as parsed JSON ({} when none or not JSON). */
export async function readJsonBody(req: IncomingMessage): Promise<{ raw: string; body: JsonBody }> {
  const raw = await readBody(req);
  try {
    return { raw, body: raw ? (JSON.parse(raw) as JsonBody) : {} };
  } catch {
    return { raw, body: {} };
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

let toolIds = 0;

function streamReply(res: ServerResponse, model: string, reply: ModelReply): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': `req_${Date.now()}`,
  });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 1 },
    },
  });
  let index = 0;
  const text = 'toolUse' in reply ? reply.text : reply.text;
  if (text) {
    sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if ('toolUse' in reply) {
    const id = `toolu_${String(++toolIds).padStart(6, '0')}`;
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id, name: reply.toolUse.name, input: {} },
    });
    sse(res, 'content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.toolUse.input) },
    });
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  }
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'toolUse' in reply ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function jsonReply(res: ServerResponse, model: string, reply: ModelReply): void {
  const content: unknown[] = [];
  const text = reply.text;
  if (text) content.push({ type: 'text', text });
  if ('toolUse' in reply)
    content.push({
      type: 'tool_use',
      id: `toolu_${String(++toolIds).padStart(6, '0')}`,
      name: reply.toolUse.name,
      input: reply.toolUse.input,
    });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: 'toolUse' in reply ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 20 },
    }),
  );
}

export function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startFakeAnthropic(initial: ModelScript = () => ({ text: 'OK.' })): Promise<FakeAnthropic> {
  let script = initial;
  const requests: MessagesRequest[] = [];
  let messageCalls = 0;
  const server = createServer(async (req, res) => {
    const { raw, body } = await readJsonBody(req);
    const request: MessagesRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: body as MessagesBody,
      raw,
    };
    requests.push(request);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      let reply: ModelReply;
      try {
        reply = script(request, messageCalls++);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
        return;
      }
      const model = typeof body.model === 'string' ? body.model : 'claude-test';
      if (body.stream) streamReply(res, model, reply);
      else jsonReply(res, model, reply);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no ${req.method} ${req.url} here` } }));
  });
  const url = await listen(server);
  return {
    url,
    requests,
    setScript(next) {
      script = next;
    },
    close: () => closeServer(server),
  };
}

export interface RecordingProxy {
  url: string;
  /** Every host a client tried to reach through the proxy (CONNECT host:port, or the absolute URL of a plain request). */
  attempts: string[];
  close(): Promise<void>;
}

/** A proxy that lets nothing through and remembers what was asked of it. */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  const attempts: string[] = [];
  const server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403);
    res.end('blocked by the test proxy');
  });
  server.on('connect', (req, socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  const url = await listen(server);
  return { url, attempts, close: () => closeServer(server) };
}
