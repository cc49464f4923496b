/**
 * The worker-thread side of thread.ts: observes each batch it is
 * sent with the same rules as the inline Observer and posts the result back,
 * in the order received.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ObserverResult } from '../../core/types.js';
import { observeWithRules, type HeuristicObserverOptions } from './observer.js';
import { packResult, unpackBatch, type PackedBatch, type PackedResult } from './wire.js';
import type { SpeakerNames } from './speakers.js';

export interface WorkerRequest {
  id: number;
  /** The batch's user and assistant messages (wire.ts). */
  batch: PackedBatch;
  /** The batch's speaker names, resolved by the caller (a function cannot cross threads). */
  speakerNames?: SpeakerNames;
}

/**
 * The result travels packed (wire.ts): the main thread, which also reads and
 * writes, unpacks it several times faster than it would parse it as JSON or deserialise
 * a structured clone of the objects. `ms`: time the rules took.
 */
export type WorkerReply = { id: number; result: PackedResult; ms: number } | { id: number; error: { message: string; stack?: string } };

/** The Observer's options without `speakerNames` (sent with each batch). */
export type WorkerOptions = Omit<HeuristicObserverOptions, 'speakerNames'>;

const port = parentPort;
if (port) {
  const options = workerData as WorkerOptions;
  port.on('message', (request: WorkerRequest) => {
    let reply: WorkerReply;
    try {
      const batchOptions: HeuristicObserverOptions = request.speakerNames ? { ...options, speakerNames: request.speakerNames } : options;
      const started = performance.now();
      const result: ObserverResult = observeWithRules(unpackBatch(request.batch), batchOptions);
      reply = { id: request.id, result: packResult(result), ms: performance.now() - started };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { id: request.id, error: { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
    }
    port.postMessage(reply);
  });
}
