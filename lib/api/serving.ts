/**
 * What a process that serves the memory to others needs beside the handle
 * (`ocm-run mcp`): the package's version it reports, the vectors it lends
 * the agents' prompt hooks from its loaded local model, and the masking of
 * what it logs about a message it was sent. Each loads on its call.
 */
import type { Config } from '../config/config-schema.js';
import type { ServeVectors } from '../core/hook-protocol.js';

/** This package's version (package.json). */
export async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const { packagePath } = await import('../platform/package-root.js');
  return (JSON.parse(await readFile(packagePath('package.json'), 'utf8')) as { version: string }).version;
}

/** The answer to a hook's request for query vectors: from this process's local model when it is loaded, else none. */
export async function vectorServer(config: Config): Promise<ServeVectors> {
  const { serveVectors } = await import('../integrations/vector-socket.js');
  return serveVectors(config);
}

/** Masks the secrets of a text a server logs (an error about a message may quote it). */
export async function logMasker(): Promise<(text: string) => string> {
  const { maskedText } = await import('../masking/masking.js');
  return (text) => maskedText(text);
}
