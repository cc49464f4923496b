/**
 * The worker-thread side of heuristic-thread.ts: observes each batch it is
 * sent with the same rules as the inline Observer and posts the result back,
 * in the order received.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ObserverBatch, ObserverResult } from '../types.js';
import { observeWithRules, type HeuristicObserverOptions } from './heuristic.js';
import type { SpeakerNames } from './speakers.js';

export interface WorkerRequest {
  id: number;
  batch: ObserverBatch;
  /** The batch's speaker names, resolved by the caller (a function cannot cross threads). */
  speakerNames?: SpeakerNames;
}

/**
 * The result travels as JSON text: the main thread, which also reads and writes, parses
 * JSON faster than it deserialises a structured clone of the same objects (~35 % less
 * on a backlog's observations). `ms`: time the rules took.
 */
export type WorkerReply = { id: number; json: string; ms: number } | { id: number; error: { message: string; stack?: string } };

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
      const result: ObserverResult = observeWithRules(request.batch, batchOptions);
      reply = { id: request.id, json: JSON.stringify(result), ms: performance.now() - started };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { id: request.id, error: { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
    }
    port.postMessage(reply);
  });
}
