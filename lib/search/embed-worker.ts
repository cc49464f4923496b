/**
 * The worker-thread side of embed-thread.ts: loads the bundled model once
 * and embeds each batch it is sent, in order. Vectors go back as one
 * transferred Float32Array per batch.
 */
import { parentPort } from 'node:worker_threads';
import { EmbeddingError } from './embeddings.js';
import { loadLocalModel, type LocalModel } from './local-model.js';

export interface EmbedRequest {
  id: number;
  texts: string[];
}

export type EmbedReply =
  | { id: number; dims: number; data: Float32Array }
  | { id: number; error: { message: string; kind: EmbeddingError['kind'] } };

const port = parentPort;
if (port) {
  let model: Promise<LocalModel> | undefined;
  port.on('message', (request: EmbedRequest) => {
    model ??= loadLocalModel();
    model
      .then((m) => m.embed(request.texts).then((vectors) => ({ m, vectors })))
      .then(({ m, vectors }) => {
        const data = new Float32Array(vectors.length * m.dims);
        vectors.forEach((v, i) => {
          data.set(v, i * m.dims);
        });
        port.postMessage({ id: request.id, dims: m.dims, data } satisfies EmbedReply, [data.buffer]);
      })
      .catch((error: unknown) => {
        const kind = error instanceof EmbeddingError ? error.kind : 'model';
        port.postMessage({ id: request.id, error: { message: (error as Error).message, kind } } satisfies EmbedReply);
      });
  });
}
