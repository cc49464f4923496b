/**
 * Colours as other command-line programs decide them (Node's rules, no-color.org, force-color.org):
 * none when piped, FORCE_COLOR forces them, NO_COLOR turns them off, --no-color wins over both.
 * `search` is the command that colours its matches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const ANSI = /\x1b\[[0-9;]*m/;

test('search colours: none in a pipe; FORCE_COLOR forces them; NO_COLOR and --no-color turn them off', async () => {
  const { dir, cleanup } = await tempDir('ocm-color-');
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
    await writeFile(
      join(home, 'memory', '2026-02-12.md'),
      '---\ndate: 2026-02-12\n---\n# 2026-02-12\n\n- 🔴 09:15 [decision] Billing uses PostgreSQL 16. ^o-7f3a9c21e0\n',
    );
    const search = (env: Record<string, string | undefined>, extra: string[] = []) =>
      runCli(['search', 'PostgreSQL', '--home', home, '--no-cache', ...extra], {
        env: { HOME: dir, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
      });

    const piped = await search({});
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stdout, /PostgreSQL/);
    assert.doesNotMatch(piped.stdout, ANSI, 'no colours in a pipe');
    assert.match((await search({ FORCE_COLOR: '1' })).stdout, ANSI, 'FORCE_COLOR=1 forces them');
    assert.doesNotMatch((await search({ FORCE_COLOR: '0' })).stdout, ANSI, 'FORCE_COLOR=0 turns them off');
    assert.match((await search({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout, ANSI, 'FORCE_COLOR wins over NO_COLOR, as in Node');
    assert.doesNotMatch((await search({ FORCE_COLOR: '1' }, ['--no-color'])).stdout, ANSI, '--no-color wins over everything');
  } finally {
    await cleanup();
  }
});
