/**
 * A real local HTTP server speaking the OpenAI embeddings API (POST
 * /v1/embeddings, Bearer key). Its vectors are deterministic "concept"
 * vectors: words are mapped to concepts (car/automobile/vehicle → one
 * concept) and hashed into 64 dimensions, so semantic matches without shared
 * words are testable.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMS = 64;
const CONCEPTS: Record<string, string> = {
  car: 'vehicle',
  automobile: 'vehicle',
  vehicle: 'vehicle',
  sedan: 'vehicle',
  doctor: 'medicine',
  physician: 'medicine',
  clinic: 'medicine',
  dog: 'pet',
  puppy: 'pet',
  hound: 'pet',
};

export function conceptVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (word.length < 3) continue;
    const concept = CONCEPTS[word] ?? word;
    let h = 2166136261;
    for (const ch of concept) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    v[h % DIMS]! += 1;
  }
  return v;
}

export interface Server {
  url: string;
  calls: number;
  texts: number;
  close(): Promise<void>;
}

export async function embeddingServer(apiKey = 'sk-test-123'): Promise<Server> {
  const state = { calls: 0, texts: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'not found' } });
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return send(401, { error: { message: `Incorrect API key provided: ${String(req.headers.authorization).slice(7)}` } });
      }
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      state.calls++;
      state.texts += input.length;
      send(200, {
        object: 'list',
        model,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return state.calls;
    },
    get texts() {
      return state.texts;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
