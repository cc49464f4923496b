/**
 * The part every fake OpenAI-style model server in the tests shares: a real
 * HTTP server on 127.0.0.1 that records every request, answers one endpoint
 * by asking a script for the reply and streaming it as SSE (the caller says
 * how), and 404s everything else. responses-server.ts (Codex) and
 * chat-completions-server.ts (pi) are built on it.
 */
import { createServer, type ServerResponse } from 'node:http';
import { closeServer, listen, readJsonBody, type JsonBody } from './anthropic-server.js';

/** One request as the server got it; `Body` names the fields of the API's request body that tests read. */
export interface RecordedModelRequest<Body extends JsonBody = JsonBody> {
  method: string;
  path: string;
  /** The parsed JSON body ({} when none). */
  body: Body;
  /** The raw body text (for searching what the model was sent). */
  raw: string;
}

export interface ScriptedServer<Reply, Body extends JsonBody = JsonBody> {
  /** Base URL for the provider, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: RecordedModelRequest<Body>[];
  setScript(script: (request: RecordedModelRequest<Body>, index: number) => Reply): void;
  close(): Promise<void>;
}

export async function startScriptedSseServer<Reply, Body extends JsonBody = JsonBody>(options: {
  /** The path the endpoint's URL ends with, e.g. `/responses`. */
  endpoint: string;
  script: (request: RecordedModelRequest<Body>, index: number) => Reply;
  /** Write the reply (the n-th, from 1) as an SSE stream and end the response. */
  stream: (res: ServerResponse, reply: Reply, n: number, request: RecordedModelRequest<Body>) => void;
}): Promise<ScriptedServer<Reply, Body>> {
  let script = options.script;
  const requests: RecordedModelRequest<Body>[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    const { raw, body } = await readJsonBody(req);
    const request: RecordedModelRequest<Body> = { method: req.method ?? '', path: req.url ?? '', body: body as Body, raw };
    requests.push(request);
    if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith(options.endpoint)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no ${req.method} ${req.url} here` } }));
      return;
    }
    const n = ++calls;
    let reply: Reply;
    try {
      reply = script(request, n - 1);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    options.stream(res, reply, n, request);
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
