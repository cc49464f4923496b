/**
 * Ctrl-C during `observe`: the stream being read is finished and saved, the command says what was
 * kept and that the next run resumes, exits 130, and the next run reads the rest — the same memory as
 * one uninterrupted run. The SIGINT comes at a named step (OCM_TEST_SIGNAL_AT), not from a timer.
 * A run without a terminal prints one summary line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const SAMPLES = resolve(import.meta.dirname, '..', '..', 'samples', 'openclaw');

async function total(home: string, env: Record<string, string>): Promise<number> {
  const r = await runCli(['stats', '--json', '--home', home], { env });
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { observations: { total: number } }).observations.total;
}

test('Ctrl-C in observe: says what was kept and that the next run resumes, exit 130; the next run finishes the same memory', async () => {
  const { dir, cleanup } = await tempDir('ocm-sigint-');
  try {
    const state = join(dir, 'openclaw');
    await mkdir(state);
    await cp(join(SAMPLES, 'agents'), join(state, 'agents'), { recursive: true });
    const env = { HOME: dir, OPENCLAW_STATE_DIR: state, TZ: 'UTC' };

    const whole = join(dir, 'whole');
    const once = await runCli(['observe', '--home', whole], { env });
    assert.equal(once.code, 0, once.stderr);
    assert.match(
      once.stdout,
      /^Observed \d+ new messages from \d+ transcript streams → \d+ new observations \(\d+ ms\)\.$/m,
      'one summary line without a terminal',
    );
    const expected = await total(whole, env);
    assert.ok(expected > 0);

    const home = join(dir, 'home');
    const stopped = await runCli(['observe', '--home', home], { env: { ...env, OCM_TEST_SIGNAL_AT: 'observe-chunk' } });
    assert.equal(stopped.code, 130, `${stopped.stdout}\n${stopped.stderr}`);
    assert.match(
      stopped.stderr,
      /Stopped \(Ctrl-C\): kept \d+ new observations from \d+ messages, saved with their place in each transcript\. \d+ stream\(s\) not read yet.* the next `ocm-run observe` \(or tick\) resumes there\./,
    );
    const partial = await total(home, env);
    assert.ok(partial < expected, `the stop left streams for the next run (${partial} of ${expected})`);

    const resumed = await runCli(['observe', '--home', home], { env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(await total(home, env), expected, 'the next run resumed: nothing lost, nothing twice');
  } finally {
    await cleanup();
  }
});
