/**
 * A real local HTTP server speaking OpenAI's Responses API with SSE
 * streaming, for driving the real Codex CLI offline (a custom
 * `model_provider` with `wire_api = "responses"` and `base_url` on
 * 127.0.0.1): every request is recorded, and a script decides each reply —
 * text, a client-side tool search (`tool_search_call`, which is how Codex
 * hands a model its deferred MCP tools), or a function call Codex runs and
 * answers in its next request.
 */
import type { JsonBody } from './anthropic-server.js';
import { startScriptedSseServer, type RecordedModelRequest, type ScriptedServer } from './scripted-sse-server.js';

/** A tool as a Responses request offers it: a function, a namespace of functions (`tools`), or `tool_search`. */
export interface ResponsesTool {
  type?: string;
  name?: string;
  description?: string;
  parameters?: { type?: string; [key: string]: unknown };
  tools?: ResponsesTool[];
  [key: string]: unknown;
}

/** An input item: a message, a function_call_output (text or text blocks), a tool_search_output (its tools)… */
export interface ResponsesInputItem {
  type?: string;
  output?: string | Array<{ text?: string }>;
  tools?: ResponsesTool[];
  [key: string]: unknown;
}

/** The Responses API request fields the tests read. */
export interface ResponsesBody extends JsonBody {
  model?: string;
  input?: ResponsesInputItem[];
  tools?: ResponsesTool[];
}

export type ResponsesRequest = RecordedModelRequest<ResponsesBody>;

export type ResponsesReply =
  | { text: string }
  | { toolSearch: { query: string; limit?: number } }
  | { functionCall: { name: string; namespace?: string; arguments: Record<string, unknown> } };

export type ResponsesScript = (request: ResponsesRequest, index: number) => ResponsesReply;

export type FakeResponses = ScriptedServer<ResponsesReply, ResponsesBody>;

function outputItem(reply: ResponsesReply, n: number): Record<string, unknown> {
  if ('toolSearch' in reply)
    return {
      type: 'tool_search_call',
      id: `ts_${n}`,
      call_id: `search_${n}`,
      status: 'completed',
      execution: 'client',
      arguments: { limit: 8, ...reply.toolSearch },
    };
  if ('functionCall' in reply) {
    const { name, namespace, arguments: args } = reply.functionCall;
    return {
      type: 'function_call',
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name,
      ...(namespace ? { namespace } : {}),
      arguments: JSON.stringify(args),
    };
  }
  return {
    type: 'message',
    id: `msg_${n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: reply.text, annotations: [] }],
  };
}

export function startFakeResponses(initial: ResponsesScript = () => ({ text: 'OK.' })): Promise<FakeResponses> {
  return startScriptedSseServer<ResponsesReply, ResponsesBody>({
    endpoint: '/responses',
    script: initial,
    stream(res, reply, n) {
      const event = (type: string, data: Record<string, unknown>) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const id = `resp_${n}`;
      event('response.created', { response: { id } });
      event('response.output_item.done', { output_index: 0, item: outputItem(reply, n) });
      event('response.completed', {
        response: {
          id,
          usage: {
            input_tokens: 50,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 55,
          },
        },
      });
      res.end();
    },
  });
}
