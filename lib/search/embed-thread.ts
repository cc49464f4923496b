/**
 * The bundled model on a worker thread, for the index step: the documents of
 * a tick (or a whole rebuild) are embedded there while the calling thread —
 * a job, `watch`, or a kept-open MCP server refreshing its index — stays
 * free. The worker loads the model on its first batch; a worker that dies
 * fails the batches it held with an EmbeddingError (the index step then
 * warns and leaves those documents text-only until the next run). An idle
 * worker does not keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../platform/worker-entry.js';
import { EmbeddingError } from './embeddings.js';
import type { EmbedReply, EmbedRequest } from './embed-worker.js';

export interface EmbedThread {
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export function startEmbedThread(): EmbedThread {
  const [entry, how] = workerEntry(import.meta.url, 'embed-worker');
  const worker = new Worker(entry, how);
  worker.unref();
  const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let dead: EmbeddingError | undefined;
  const failAll = (error: EmbeddingError) => {
    dead = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: EmbedReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if ('error' in reply) return p.reject(new EmbeddingError(reply.error.kind, reply.error.message));
    const out: Float32Array[] = [];
    for (let at = 0; at < reply.data.length; at += reply.dims) out.push(reply.data.subarray(at, at + reply.dims));
    p.resolve(out);
  });
  worker.on('error', (error) => failAll(new EmbeddingError('model', `the embedding worker failed: ${error.message}`)));
  worker.on('exit', (code) => failAll(new EmbeddingError('model', `the embedding worker stopped (exit code ${code})`)));
  return {
    embed(texts) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, texts } satisfies EmbedRequest);
      });
    },
    async close() {
      dead ??= new EmbeddingError('model', 'the embedding worker was closed');
      await worker.terminate();
    },
  };
}
