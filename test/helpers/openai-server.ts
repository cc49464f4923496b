/**
 * A real local HTTP server speaking the OpenAI chat-completions API, for
 * tests and benchmarks: scripted replies (a good answer, a malformed one,
 * 429 with retry-after, 500, a hang past the client's timeout, 401…, a
 * streamed tool call the client runs and answers in its next request), every
 * request recorded, tokens counted with js-tiktoken like a real provider.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from '../../lib/core/tokens.js';

export interface ChatMessage {
  role: string;
  content: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  model: string;
  messages: ChatMessage[];
  body: Record<string, unknown>;
  /** Tokens of every message content (system + user). */
  promptTokens: number;
  completionTokens: number;
  /** The reply kind it got. */
  reply: Reply['kind'];
}

export type Reply =
  /** A 200 answer with this text. */
  | { kind: 'ok'; content: string }
  /** An error status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message?: string; code?: string; headers?: Record<string, string> }
  /** Never answer (until the server closes): the client must time out. */
  | { kind: 'hang' }
  /** Answer with a body that is not JSON at all. */
  | { kind: 'garbage-body' }
  /** Call a tool (streamed, as agents ask for): the client runs it and sends its result in a `tool` message. */
  | { kind: 'tool-call'; name: string; arguments: Record<string, unknown> };

export type Script = Reply[] | ((request: RecordedRequest, index: number) => Reply);

export interface OpenAiTestServer {
  /** Base URL to use as api_base, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: RecordedRequest[];
  /** Replace the script (the request counter is kept). */
  setScript(script: Script): void;
  totals(): { promptTokens: number; completionTokens: number; calls: number };
  close(): Promise<void>;
}

export const ok = (content: string): Reply => ({ kind: 'ok', content });
export const status = (code: number, message?: string, headers?: Record<string, string>, errorCode?: string): Reply => ({
  kind: 'status',
  status: code,
  ...(message ? { message } : {}),
  ...(headers ? { headers } : {}),
  ...(errorCode ? { code: errorCode } : {}),
});
export const hang = (): Reply => ({ kind: 'hang' });
export const toolCall = (name: string, args: Record<string, unknown>): Reply => ({ kind: 'tool-call', name, arguments: args });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : '')).join('');
  return '';
}

/**
 * A `stream: true` answer as server-sent events, the way OpenAI streams chat
 * completions (agents such as OpenClaw always stream): a role chunk, the
 * content, a finish chunk with usage, then `[DONE]`.
 */
function streamReply(
  res: ServerResponse,
  reply: {
    id: string;
    model: string;
    content: string | { name: string; arguments: Record<string, unknown> };
    promptTokens: number;
    completionTokens: number;
  },
): void {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>) =>
    `data: ` +
    `${JSON.stringify({ id: reply.id, object: 'chat.completion.chunk', created, model: reply.model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  const usage = {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (typeof reply.content === 'string') {
    res.write(chunk({ role: 'assistant', content: '' }, null));
    res.write(chunk({ content: reply.content }, null));
    res.write(chunk({}, 'stop', usage));
  } else {
    const call = {
      index: 0,
      id: `call_${reply.id}`,
      type: 'function',
      function: { name: reply.content.name, arguments: JSON.stringify(reply.content.arguments) },
    };
    res.write(chunk({ role: 'assistant', content: null, tool_calls: [call] }, null));
    res.write(chunk({}, 'tool_calls', usage));
  }
  res.end('data: [DONE]\n\n');
}

export async function startOpenAiServer(script: Script): Promise<OpenAiTestServer> {
  // Load the tokenizer now, not inside the first request (a client timeout must not depend on it).
  countTokens('warm up');
  let current = script;
  let index = 0;
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      /* recorded as empty */
    }
    const messages = (Array.isArray(body.messages) ? body.messages : []).map((m) => ({
      role: String((m as ChatMessage).role),
      content: contentText((m as ChatMessage).content),
    }));
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      model: String(body.model ?? ''),
      messages,
      body,
      promptTokens: messages.reduce((n, m) => n + countTokens(m.content), 0),
      completionTokens: 0,
      reply: 'ok',
    };
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.url}`, type: 'invalid_request_error' } }));
      return;
    }
    const reply = Array.isArray(current) ? current[Math.min(index, current.length - 1)]! : current(record, index);
    index++;
    record.reply = reply.kind;
    requests.push(record);
    switch (reply.kind) {
      case 'ok': {
        record.completionTokens = countTokens(reply.content);
        if (body.stream === true) {
          streamReply(res, {
            id: `chatcmpl-test-${index}`,
            model: record.model,
            content: reply.content,
            promptTokens: record.promptTokens,
            completionTokens: record.completionTokens,
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-test-${index}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: record.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
            usage: {
              prompt_tokens: record.promptTokens,
              completion_tokens: record.completionTokens,
              total_tokens: record.promptTokens + record.completionTokens,
            },
          }),
        );
        return;
      }
      case 'tool-call': {
        record.completionTokens = countTokens(JSON.stringify(reply.arguments));
        const content = { name: reply.name, arguments: reply.arguments };
        if (body.stream === true) {
          streamReply(res, {
            id: `chatcmpl-test-${index}`,
            model: record.model,
            content,
            promptTokens: record.promptTokens,
            completionTokens: record.completionTokens,
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        const call = {
          id: `call_chatcmpl-test-${index}`,
          type: 'function',
          function: { name: reply.name, arguments: JSON.stringify(reply.arguments) },
        };
        res.end(
          JSON.stringify({
            id: `chatcmpl-test-${index}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: record.model,
            choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }],
          }),
        );
        return;
      }
      case 'status': {
        const type =
          reply.status === 401
            ? 'invalid_request_error'
            : reply.status === 429
              ? 'rate_limit_error'
              : reply.status >= 500
                ? 'server_error'
                : 'invalid_request_error';
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify({ error: { message: reply.message ?? `scripted ${reply.status}`, type, code: reply.code ?? null } }));
        return;
      }
      case 'garbage-body': {
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
        return;
      }
      case 'hang': {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      current = next;
    },
    totals() {
      return {
        promptTokens: requests.reduce((n, r) => n + r.promptTokens, 0),
        completionTokens: requests.reduce((n, r) => n + r.completionTokens, 0),
        calls: requests.length,
      };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
