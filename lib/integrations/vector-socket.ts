/**
 * Query vectors from a running `ocm-run mcp` on the home (the prompt socket,
 * lib/hooks/prompt-socket.ts): a one-off `ocm-run search` asks the server, whose model
 * is loaded, instead of loading the model itself (~1 s of a fresh process
 * against a few ms over the socket). A server that holds no loaded model of
 * the asker's vector space answers nothing and starts loading it, so the
 * next search finds it ready; the asker then embeds itself
 * (search/embedder.ts, borrowingEmbedder).
 */
import type { Config } from '../config/config-schema.js';
import { embeddingSettings } from '../search/embeddings.js';
import { processEmbedder } from '../search/embedder.js';
import type { ServeVectors, VectorsReply } from '../core/hook-protocol.js';
import { ask, serverSockets, socketsSupported } from './prompt-socket-client.cjs';

/** How long a search waits for a server's vectors before embedding itself (a server with the model answers in a few ms). */
export const SERVER_VECTORS_TIMEOUT_MS = 300;

/** Vectors of `texts` in the space `key` from the newest server on the home that has them, within `timeoutMs`. */
export async function askServerVectors(
  machine: string,
  key: string,
  texts: string[],
  timeoutMs = SERVER_VECTORS_TIMEOUT_MS,
): Promise<Float32Array[] | undefined> {
  if (!socketsSupported()) return undefined;
  const deadline = Date.now() + timeoutMs;
  for (const file of serverSockets(machine).slice(0, 2)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const asked = await ask(file, { vectors: { key, texts } }, left, (reply) => (reply as VectorsReply | null)?.vectors ?? undefined);
    const vectors = asked === 'refused' ? undefined : asked;
    if (vectors?.length === texts.length && vectors.every((v) => Array.isArray(v) && v.length > 0))
      return vectors.map((v) => Float32Array.from(v));
  }
  return undefined;
}

/**
 * The server's side: vectors from this process's local model when it is of the asker's space and loaded; else
 * null, and the model starts loading (in the background) for the next asker.
 */
export function serveVectors(config: Config): ServeVectors {
  return async (key, texts) => {
    const settings = embeddingSettings(config);
    if (settings?.provider !== 'local' || settings.key !== key) return null;
    const embedder = processEmbedder(settings);
    if (!embedder.ready()) {
      embedder.warm();
      return null;
    }
    if (!texts.every((t) => embedder.accepts(t))) return null;
    return (await embedder.embed(texts)).map((v) => Array.from(v));
  };
}
