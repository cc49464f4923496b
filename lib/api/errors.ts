/**
 * The errors a caller of the front door gets and raises: typed, each with a
 * hint for the user and an exit code (lib/core/errors.ts), and the
 * did-you-mean of a mistyped name. A command checks its flags with these
 * (a wrong value is `BAD_INPUT`, exit 1) before it calls lib/api/.
 *
 * Only re-exports of two small modules the command line loads at start
 * anyway: importing this costs a command nothing.
 */
export { ConfigError, describeError, EXIT, OcmError, type ErrorCode, type ExitCode, type OcmErrorOptions } from '../core/errors.js';
export { closestNames, didYouMean } from '../core/did-you-mean.js';
