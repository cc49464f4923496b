/** Where the package's own files (templates/, prompts/, samples/…) live, from src or dist. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('OC-Memory package root not found (templates/ missing).');
}

export const PACKAGE_ROOT = findRoot();

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
