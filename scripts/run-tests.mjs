#!/usr/bin/env node
// Runs every test file under test/ with Node's own test runner (TypeScript via tsx).
// Node 20's --test does not expand globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'fixtures' || name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : find('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  // The local embedding model off unless a test turns it on (OCM_LOCAL_EMBEDDINGS unset): every `run` of every test
  // would otherwise start it. Endpoints a test's config names are used as configured.
  { stdio: 'inherit', env: { OCM_LOCAL_EMBEDDINGS: 'off', ...process.env, OCM_TEST: '1' } },
);
process.exit(result.status ?? 1);
