/**
 * A module of the product (lib/, scripts/, templates/) over MAX_LINES lines says in its header why it is one
 * module ("Size: …"): its size is what it is (a format, a rule table, one concept), or it is split by concern.
 * Generated files (their header says GENERATED) are data and exempt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fg from 'fast-glob';

const MAX_LINES = 600;
const root = resolve(import.meta.dirname, '..', '..');

test(`every module over ${MAX_LINES} lines says in its header why its size is what it is`, async () => {
  const files = await fg(['lib/**/*.ts', 'scripts/**/*.ts', 'templates/**/*.ts'], { cwd: root, ignore: ['**/*.d.ts'] });
  assert.ok(files.length > 100, `${files.length} modules found`);
  const unexplained: string[] = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    const lines = text.split('\n').length;
    if (lines <= MAX_LINES) continue;
    const header = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
    if (/\bGENERATED\b/.test(header)) continue;
    if (!/^\s*\*\s+Size: \S/m.test(header)) unexplained.push(`${file} (${lines} lines)`);
  }
  assert.deepEqual(unexplained, [], 'split these by concern, or say in the header (" * Size: …") why each is one module');
});
