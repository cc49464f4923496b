/**
 * A real local HTTP server speaking OpenAI's Chat Completions API with SSE
 * streaming and tool calls, for driving the real pi CLI offline (a custom
 * `openai-completions` provider in ~/.pi/agent/models.json): every request is
 * recorded, and a script decides each reply — text, or a tool call pi runs
 * and answers in its next request. (test/helpers/openai-server.ts answers
 * OC-Memory's own non-streaming observer calls.)
 */
import { createServer } from 'node:http';
import { closeServer, listen, readJsonBody } from './anthropic-server.js';

export interface ChatRequest {
  path: string;
  body: Record<string, any>;
  raw: string;
}

export type ChatReply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

export type ChatScript = (request: ChatRequest, index: number) => ChatReply;

export async function startFakeChatCompletions(initial: ChatScript = () => ({ text: 'OK.' })): Promise<{ url: string; requests: ChatRequest[]; setScript(s: ChatScript): void; close(): Promise<void> }> {
  let script = initial;
  const requests: ChatRequest[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    const { raw, body } = await readJsonBody(req);
    const request: ChatRequest = { path: req.url ?? '', body, raw };
    requests.push(request);
    if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no ${req.method} ${req.url} here` } }));
      return;
    }
    const n = ++calls;
    const reply = script(request, n - 1);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: String(body.model ?? 'fake-1') };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    if ('toolCall' in reply) {
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${n}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } }] });
      chunk({}, 'tool_calls');
    } else {
      chunk({ role: 'assistant', content: reply.text });
      chunk({}, 'stop');
    }
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  const url = await listen(server);
  return {
    url: `${url}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    close: () => closeServer(server),
  };
}
