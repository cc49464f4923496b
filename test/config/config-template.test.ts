/**
 * The config.yaml a new home gets (templates/config.yaml, written by the
 * first command that writes) says what the schema's defaults are (lib/config/config-schema.ts:
 * "keep both in step"). A template value that differs silently changes the
 * default for every new user: `observer.infer_names` was documented as on
 * (docs/heuristic-observer.md) but written as false, so no fresh home learned
 * speaker names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { validateConfig } from '../../lib/config/config.js';
import { runCli, tempDir } from '../helpers/cli.js';

test("a fresh home's config.yaml holds the schema's defaults (infer_names on)", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    // A fresh home is made by the first command that writes (here an observe with nothing to read); `config get` only reads.
    const made = await runCli(['observe', '--home', join(dir, 'home')], { env: { HOME: dir } });
    assert.equal(made.code, 0, made.stderr);
    const res = await runCli(['config', 'get', '--json', '--home', join(dir, 'home')]);
    assert.equal(res.code, 0, res.stderr);
    const written = JSON.parse(res.stdout) as ReturnType<typeof validateConfig>;
    assert.equal(written.observer.infer_names, true);
    assert.deepEqual(written, validateConfig({}));
  } finally {
    await cleanup();
  }
});
