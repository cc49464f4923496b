/** Other processes, as the lock, the temp-file clean-up and the prompt hook see them. */
import { constants, setPriority } from 'node:os';
import { errorCode } from '../core/errors.js';

/** kill(pid, 0): the process exists (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/**
 * Run a background job below normal priority (os.setPriority;
 * PRIORITY_BELOW_NORMAL, nice 10 on Unix): the observe and index rounds
 * started after an agent's turn never take CPU from the agent itself, whose
 * next turn may start at once. A process already gone, or a system that
 * refuses, is left as it is: the job still runs, at normal priority.
 */
export function runBelowNormalPriority(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    setPriority(pid, constants.priority.PRIORITY_BELOW_NORMAL);
    return true;
  } catch {
    return false;
  }
}
