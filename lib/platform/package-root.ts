/** Where the package's own files (templates/, prompts/, samples/…) live, from src or dist. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function isPackageRoot(dir: string): boolean {
  return existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'));
}

function findRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  let dir = start;
  for (let i = 0; i < 5; i++) {
    if (isPackageRoot(dir)) return dir;
    dir = dirname(dir);
  }
  throw new Error(`OC-Memory package root not found (templates/ missing) above ${start}.`);
}

let root: string | undefined;

/**
 * Name the package's folder when this module runs from a copy of `dist/`
 * alone: OpenClaw 2026.9 runs a plugin's imports from a capture of the
 * modules it loaded, without the package's other files. Ignored unless `dir`
 * holds the package (its package.json and templates/).
 */
export function usePackageRoot(dir: string): void {
  if (isPackageRoot(dir)) root = dir;
}

/** A path inside the package; the folder is found on first use (or named by usePackageRoot). */
export function packagePath(...parts: string[]): string {
  root ??= findRoot();
  return join(root, ...parts);
}
