/**
 * A polite stop: SIGTERM or SIGINT asks a long job to finish the step it is
 * in (a reflection file written whole, its state saved), skip the rest and
 * return, so the lock is released and nothing is half done. The CLI turns
 * signals into requestStop (scripts/cli.ts); jobs ask stopRequested between
 * steps. lib/ never installs signal handlers itself.
 */
let requested: NodeJS.Signals | undefined;

export function requestStop(signal: NodeJS.Signals): void {
  requested ??= signal;
}

/** The signal that asked this process to stop, if any. */
export function stopRequested(): NodeJS.Signals | undefined {
  return requested;
}
