/**
 * `masking.extra_patterns` with catastrophic backtracking (issue #22 item 10):
 * `observe` refuses the config with a message naming the entry, instead of
 * hanging on a transcript line that almost matches while it holds the lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

test('observe refuses an extra pattern that backtracks catastrophically, names it, and observes nothing', async () => {
  const { dir, cleanup } = await tempDir('ocm-redos-');
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '44444444-0000-4000-8000-000000000000';
    const w = new PiSessionWriter(id, new Date('2026-01-15T09:00:00Z'));
    // (a+)+$ on this line takes 2^40 steps in a backtracking engine: without the check, observe never ends.
    await writeFile(
      join(sessions, `${id}.jsonl`),
      w.header() + w.message({ role: 'user', text: `I decided to keep ${'a'.repeat(40)}! as the marker.` }),
    );
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      [
        'timezone: UTC',
        'sources:',
        '  openclaw:',
        `    state_dirs: [${JSON.stringify(stateDir)}]`,
        'masking:',
        "  extra_patterns: ['acme_[0-9]{6}', '(a+)+$']",
        '',
      ].join('\n'),
    );
    const r = await runCli(['observe', '--home', home], { timeoutMs: 60_000 });
    assert.notEqual(r.code, 0, r.stdout + r.stderr);
    const said = r.stdout + r.stderr;
    assert.match(said, /masking\.extra_patterns\[1\]/);
    assert.match(said, /backtrack catastrophically/);
    assert.match(said, /repetition inside a repetition/);
  } finally {
    await cleanup();
  }
});
