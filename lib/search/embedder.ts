/**
 * Where vectors come from: one `Embedder` per vector space, whatever the
 * provider (`embeddings.provider`, resolved by embeddingProvider()):
 *
 * - `local`: the bundled model (local-model.ts). In this thread for a
 *   process that embeds queries (search, the MCP server, the OpenClaw
 *   plugin's recall, the dashboard: loaded once, on the first query), or on
 *   a worker thread (embed-thread.ts) for the index step, so that a job or a
 *   kept-open server is not blocked while documents are embedded.
 * - an OpenAI-compatible endpoint (embeddings.ts), in batches with retries.
 *
 * `accepts(text)`: the English-only local model gives no vector to
 * Hangul-dominant text (its vocabulary has no Hangul: every such text would
 * embed alike); such documents stay text-only and such a query ranks by text.
 */
import { embedAll, EmbeddingError, type EmbeddingSettings } from './embeddings.js';
import { isHangulDominant } from '../core/korean.js';
import type { LocalModel } from './local-model.js';

export interface Embedder {
  /** The vector space (EmbeddingSettings.key): vectors of another key are not comparable. */
  readonly key: string;
  readonly settings: EmbeddingSettings;
  /** False when this text gets no vector from this model. */
  accepts(text: string): boolean;
  /** L2-normalised vectors in input order; `onBatch` after each batch. Throws EmbeddingError. */
  embed(texts: string[], onBatch?: (done: number, vectors: Float32Array[], from: number) => void): Promise<Float32Array[]>;
  /** Can it embed now without first loading a model (always true for an endpoint)? */
  ready(): boolean;
  /** Start loading the model in the background, if there is one to load and it is not loading yet. */
  warm(): void;
  /** Let go of a worker or a loaded model (a no-op for an endpoint). */
  close(): Promise<void>;
}

export interface EmbedderOptions {
  /** fetch for an endpoint (tests pass their own). */
  fetch?: typeof fetch;
  retryDelaysMs?: number[];
  /** The local model on a worker thread (the index step) rather than in this thread. */
  thread?: boolean;
  /**
   * With `thread`: keep the worker (and its loaded model) this long after its last batch, for the next run of a
   * process that indexes again and again (`watch`); default 0: it ends when the embedder is closed.
   */
  idleMs?: number;
}

const acceptAll = () => true;
const englishOnly = (text: string) => !isHangulDominant(text);

export function createEmbedder(settings: EmbeddingSettings, options: EmbedderOptions = {}): Embedder {
  if (settings.provider !== 'local') {
    return {
      key: settings.key,
      settings,
      accepts: acceptAll,
      async embed(texts, onBatch) {
        const out: Float32Array[] = new Array(texts.length);
        await embedAll(settings, texts, {
          fetch: options.fetch,
          retryDelaysMs: options.retryDelaysMs,
          onBatch: (done, vectors, from) => {
            vectors.forEach((v, i) => {
              out[from + i] = v;
            });
            onBatch?.(done, vectors, from);
          },
        });
        return out;
      },
      ready: () => true,
      warm: () => undefined,
      close: async () => undefined,
    };
  }
  if (options.thread) return threadEmbedder(settings, options.idleMs ?? 0);
  return inProcessEmbedder(settings, () => import('./local-model.js').then((m) => m.loadLocalModel()));
}

/** Embed in batches of the settings' size through `embedBatch`, reporting each. */
async function inBatches(
  settings: EmbeddingSettings,
  texts: string[],
  embedBatch: (texts: string[]) => Promise<Float32Array[]>,
  onBatch?: (done: number, vectors: Float32Array[], from: number) => void,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let from = 0; from < texts.length; from += settings.batchSize) {
    const vectors = await embedBatch(texts.slice(from, from + settings.batchSize));
    out.push(...vectors);
    onBatch?.(from + vectors.length, vectors, from);
  }
  return out;
}

function inProcessEmbedder(settings: EmbeddingSettings, load: () => Promise<LocalModel>): Embedder {
  let model: Promise<LocalModel> | undefined;
  let loaded = false;
  // A failed load is remembered: a process does not retry a broken model on every query.
  const start = () =>
    (model ??= load().then((m) => {
      loaded = true;
      return m;
    }));
  return {
    key: settings.key,
    settings,
    accepts: englishOnly,
    async embed(texts, onBatch) {
      const m = await start();
      return inBatches(settings, texts, (batch) => m.embed(batch), onBatch);
    },
    ready: () => loaded,
    warm: () => void start().catch(() => undefined),
    close: async () => {
      model = undefined;
      loaded = false;
    },
  };
}

function threadEmbedder(settings: EmbeddingSettings, idleMs: number): Embedder {
  let thread: Promise<import('./embed-thread.js').EmbedThread> | undefined;
  let idle: NodeJS.Timeout | undefined;
  const end = async () => {
    const t = thread;
    thread = undefined;
    if (t) await (await t.catch(() => undefined))?.close();
  };
  return {
    key: settings.key,
    settings,
    accepts: englishOnly,
    ready: () => false,
    warm: () => undefined,
    async embed(texts, onBatch) {
      if (texts.length === 0) return [];
      clearTimeout(idle);
      thread ??= import('./embed-thread.js').then((m) => m.startEmbedThread());
      const t = await thread;
      try {
        return await inBatches(settings, texts, (batch) => t.embed(batch), onBatch);
      } catch (error) {
        await end(); // a failed or dead worker is not reused
        throw error;
      } finally {
        // (thread is cleared by end() when the worker failed)
        if (idleMs > 0 && (thread as unknown) !== undefined) {
          idle = setTimeout(() => void end(), idleMs);
          idle.unref();
        }
      }
    },
    async close() {
      if (idleMs > 0 && thread) return; // kept for the next run; ends when idle (or with the process)
      clearTimeout(idle);
      await end();
    },
  };
}

/** A few vectors from elsewhere (a running server holding the same model), or undefined when none came in time. */
export type VectorSource = (key: string, texts: string[]) => Promise<Float32Array[] | undefined>;

/** At most this many texts are asked of another process: a rebuild's thousands are embedded here, on a worker. */
const BORROW_AT_MOST = 8;

/**
 * `base`, but while its model is not loaded in this process, a few texts are
 * first asked of `source` (a running `ocm-run mcp` on the home, whose model is
 * loaded: the same vector space, so the same vectors); what it does not
 * answer, `base` embeds. A one-off `ocm-run search` thereby skips the model's
 * load (~1 s) when a server is up.
 */
export function borrowingEmbedder(base: Embedder, source: VectorSource): Embedder {
  return {
    key: base.key,
    settings: base.settings,
    accepts: (text) => base.accepts(text),
    ready: () => base.ready(),
    warm: () => base.warm(),
    close: () => base.close(),
    async embed(texts, onBatch) {
      if (!base.ready() && texts.length > 0 && texts.length <= BORROW_AT_MOST) {
        const borrowed = await source(base.key, texts).catch(() => undefined);
        if (borrowed?.length === texts.length && borrowed.every((v) => v.length === borrowed[0]!.length)) {
          onBatch?.(texts.length, borrowed, 0);
          return borrowed;
        }
      }
      return base.embed(texts, onBatch);
    },
  };
}

let kept: Embedder | undefined;

/**
 * This process's query embedder for a vector space: made on the first
 * query, its model loaded then and kept for every later one (the MCP server,
 * the OpenClaw plugin's recall and the dashboard stay up and load it once; a
 * one-off `ocm-run search` loads it for its one query). A config changed to
 * another space gets a new one.
 */
export function processEmbedder(settings: EmbeddingSettings): Embedder {
  if (kept?.key !== settings.key) {
    void kept?.close();
    kept = createEmbedder(settings);
  }
  return kept;
}

export { EmbeddingError };
