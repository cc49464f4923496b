/**
 * A real local HTTP server speaking OpenAI's Responses API with SSE
 * streaming, for driving the real Codex CLI offline (a custom
 * `model_provider` with `wire_api = "responses"` and `base_url` on
 * 127.0.0.1): every request is recorded, and a script decides each reply —
 * text, a client-side tool search (`tool_search_call`, which is how Codex
 * hands a model its deferred MCP tools), or a function call Codex runs and
 * answers in its next request.
 */
import { createServer } from 'node:http';
import { closeServer, listen, readJsonBody } from './anthropic-server.js';

export interface ResponsesRequest {
  method: string;
  path: string;
  /** The parsed JSON body ({} when none). */
  body: Record<string, any>;
  /** The raw body text (for searching what the model was sent). */
  raw: string;
}

export type ResponsesReply =
  | { text: string }
  | { toolSearch: { query: string; limit?: number } }
  | { functionCall: { name: string; namespace?: string; arguments: Record<string, unknown> } };

export type ResponsesScript = (request: ResponsesRequest, index: number) => ResponsesReply;

export interface FakeResponses {
  /** Base URL for the provider, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: ResponsesRequest[];
  setScript(script: ResponsesScript): void;
  close(): Promise<void>;
}

function outputItem(reply: ResponsesReply, n: number): Record<string, unknown> {
  if ('toolSearch' in reply) return { type: 'tool_search_call', id: `ts_${n}`, call_id: `search_${n}`, status: 'completed', execution: 'client', arguments: { limit: 8, ...reply.toolSearch } };
  if ('functionCall' in reply) {
    const { name, namespace, arguments: args } = reply.functionCall;
    return { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name, ...(namespace ? { namespace } : {}), arguments: JSON.stringify(args) };
  }
  return { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
}

export async function startFakeResponses(initial: ResponsesScript = () => ({ text: 'OK.' })): Promise<FakeResponses> {
  let script = initial;
  const requests: ResponsesRequest[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    const { raw, body } = await readJsonBody(req);
    const request: ResponsesRequest = { method: req.method ?? '', path: req.url ?? '', body, raw };
    requests.push(request);
    if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no ${req.method} ${req.url} here` } }));
      return;
    }
    const n = ++calls;
    let reply: ResponsesReply;
    try {
      reply = script(request, n - 1);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const id = `resp_${n}`;
    event('response.created', { response: { id } });
    event('response.output_item.done', { output_index: 0, item: outputItem(reply, n) });
    event('response.completed', { response: { id, usage: { input_tokens: 50, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 55 } } });
    res.end();
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
