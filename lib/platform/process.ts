/** Other processes, as the lock, the temp-file clean-up and the prompt hook see them. */
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
