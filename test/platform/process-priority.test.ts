/** runBelowNormalPriority (lib/platform/process.ts): the after-turn jobs never take CPU from the agent. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { constants, getPriority } from 'node:os';
import { runBelowNormalPriority } from '../../lib/platform/process.js';

test('a running child is moved below normal priority; no pid or a process gone is left alone', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    assert.equal(getPriority(child.pid!), getPriority(), 'starts at our own priority');
    assert.equal(runBelowNormalPriority(child.pid), true);
    assert.equal(getPriority(child.pid!), constants.priority.PRIORITY_BELOW_NORMAL);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  assert.equal(runBelowNormalPriority(undefined), false);
  assert.equal(runBelowNormalPriority(child.pid), false, 'gone');
});
