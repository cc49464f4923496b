/**
 * The test hooks the commands hand to their lib/api call as its `onStep`
 * (the calls themselves take the home lock). CLI plumbing only.
 *
 * Test hook: with OCM_TEST=1 (set by the test runner only) and
 * OCM_TEST_CRASH_AT=<step> (staged, prepared, copied-one, copied, indexed,
 * removed-one, removed, audited, committed; for `forget` the ForgetStep
 * names of lib/tiers/forget.ts, forget-journaled … forget-audited), the process
 * kills itself with SIGKILL at that step, so tests can prove a killed move or
 * forget is completed (or undone) by the next run.
 */
import { OcmError } from '../lib/core/errors.js';

export function crashHook(env: NodeJS.ProcessEnv): ((step: string) => void) | undefined {
  const at = env.OCM_TEST === '1' ? env.OCM_TEST_CRASH_AT : undefined;
  if (!at) return undefined;
  // "<step>:<n>": at the n-th time the run reaches that step (default the first).
  const [name, nth] = at.split(':');
  const times = Number(nth ?? 1);
  let seen = 0;
  return (step) => {
    if (step === name && ++seen === times) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * Test hook (OCM_TEST=1): at the first time the run reaches step OCM_TEST_SIGNAL_AT, the process sends
 * itself `signal`, as a user's Ctrl-C or a service manager's SIGTERM would — a deterministic point
 * instead of a race with a timer.
 */
export function signalHook(env: NodeJS.ProcessEnv, signal: NodeJS.Signals): ((step: string) => void) | undefined {
  const at = env.OCM_TEST === '1' ? env.OCM_TEST_SIGNAL_AT : undefined;
  if (!at) return undefined;
  let sent = false;
  return (step) => {
    if (step !== at || sent) return;
    sent = true;
    process.kill(process.pid, signal);
  };
}

/**
 * Test hook (OCM_TEST=1): at the step named by OCM_TEST_FAIL_AT the run
 * throws, as a full disk or a refused write would there — so tests can prove
 * a failed transaction (`integrate openclaw`) puts back everything it changed.
 */
export function failHook(env: NodeJS.ProcessEnv): ((step: string) => void) | undefined {
  const at = env.OCM_TEST === '1' ? env.OCM_TEST_FAIL_AT : undefined;
  if (!at) return undefined;
  return (step) => {
    if (step === at) throw new OcmError('IO_ERROR', `Failed on purpose at step ${step} (OCM_TEST_FAIL_AT).`);
  };
}
