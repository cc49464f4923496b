/**
 * A real local HTTP server speaking OpenAI's Chat Completions API with SSE
 * streaming and tool calls, for driving the real pi CLI offline (a custom
 * `openai-completions` provider in ~/.pi/agent/models.json): every request is
 * recorded, and a script decides each reply — text, or a tool call pi runs
 * and answers in its next request. (test/helpers/openai-server.ts answers
 * OC-Memory's own non-streaming observer calls.)
 */
import type { JsonBody } from './anthropic-server.js';
import { startScriptedSseServer, type RecordedModelRequest, type ScriptedServer } from './scripted-sse-server.js';

/** A message of a Chat Completions request (a tool's answer has role `tool`). */
export interface ChatMessage {
  role?: string;
  content?: unknown;
  [key: string]: unknown;
}

/** The Chat Completions request fields the tests read. */
export interface ChatBody extends JsonBody {
  model?: string;
  messages?: ChatMessage[];
  /** The function tools offered to the model. */
  tools?: Array<{
    type?: string;
    function?: { name?: string; description?: string; parameters?: { type?: string; [key: string]: unknown } };
  }>;
}

export type ChatRequest = RecordedModelRequest<ChatBody>;

export type ChatReply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

export type ChatScript = (request: ChatRequest, index: number) => ChatReply;

export function startFakeChatCompletions(initial: ChatScript = () => ({ text: 'OK.' })): Promise<ScriptedServer<ChatReply, ChatBody>> {
  return startScriptedSseServer<ChatReply, ChatBody>({
    endpoint: '/chat/completions',
    script: initial,
    stream(res, reply, n, request) {
      const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: String(request.body.model ?? 'fake-1') };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      if ('toolCall' in reply) {
        chunk({
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: `call_${n}`,
              type: 'function',
              function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
            },
          ],
        });
        chunk({}, 'tool_calls');
      } else {
        chunk({ role: 'assistant', content: reply.text });
        chunk({}, 'stop');
      }
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    },
  });
}
