/**
 * `config set` changes the value and nothing else of the user's config.yaml: the
 * indentation they chose, the spaces before a comment, flow maps, blank lines and
 * comments stay as written; a new key lands under its parent in the file's own
 * indentation. Through the built CLI, as a user runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

const USERS_FILE = [
  '# My settings, four spaces deep',
  'active_memory:',
  '    budget_tokens:   4000    # generous',
  '    # keep it short',
  'observer:',
  '    provider: heuristic',
  'tiers: { hot_ttl_days: 14, warm_ttl_days: 90 }',
  '',
  'sources:',
  '    claude_code:',
  '        enabled: false',
  '',
].join('\n');

test('config set keeps the layout of the user’s YAML: only the value changes, new keys in the file’s indentation', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-config-layout-'));
  try {
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(join(home, 'config.yaml'), USERS_FILE, { mode: 0o600 });
    for (const [key, value] of [
      ['active_memory.budget_tokens', '3000'],
      ['tiers.hot_ttl_days', '7'],
      ['sources.codex.enabled', 'true'],
      ['timezone', 'Europe/Berlin'],
    ] as const) {
      const r = await runCli(['config', 'set', key, value, '--home', home]);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.equal(
      await readFile(join(home, 'config.yaml'), 'utf8'),
      USERS_FILE.replace('budget_tokens:   4000    #', 'budget_tokens:   3000    #')
        .replace('hot_ttl_days: 14,', 'hot_ttl_days: 7,')
        .replace('        enabled: false\n', '        enabled: false\n    codex:\n        enabled: true\n')
        .concat('timezone: Europe/Berlin\n'),
    );
    const got = await runCli(['config', 'get', 'sources.codex.enabled', '--home', home]);
    assert.equal(got.stdout.trim(), 'true');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
