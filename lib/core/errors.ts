/**
 * Typed errors. Every error a user can meet says what went wrong, why, and
 * what to do next (`hint`), and maps to a CLI exit code (docs/architecture.md, "Errors, exit codes and --json").
 */

export const EXIT = {
  ok: 0,
  error: 1,
  config: 2,
  daemonNotRunning: 3,
  permission: 4,
  llm: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_MISSING'
  | 'CONFIG_KEY_UNKNOWN'
  | 'PERMISSION_DENIED'
  | 'LOCKED'
  | 'DISK_FULL'
  | 'NOT_FOUND'
  | 'BAD_INPUT'
  | 'PATH_OUTSIDE_ROOTS'
  | 'LLM_ERROR'
  | 'DAEMON_NOT_RUNNING'
  | 'IO_ERROR'
  | 'DEPENDENCY_MISSING'
  /** Encrypted data that the configured key or passphrase does not open. */
  | 'WRONG_KEY'
  | 'INTERNAL';

const EXIT_BY_CODE: Record<ErrorCode, ExitCode> = {
  CONFIG_INVALID: EXIT.config,
  CONFIG_MISSING: EXIT.config,
  CONFIG_KEY_UNKNOWN: EXIT.config,
  PERMISSION_DENIED: EXIT.permission,
  LOCKED: EXIT.error,
  DISK_FULL: EXIT.error,
  NOT_FOUND: EXIT.error,
  BAD_INPUT: EXIT.error,
  PATH_OUTSIDE_ROOTS: EXIT.permission,
  LLM_ERROR: EXIT.llm,
  DAEMON_NOT_RUNNING: EXIT.daemonNotRunning,
  IO_ERROR: EXIT.error,
  DEPENDENCY_MISSING: EXIT.error,
  WRONG_KEY: EXIT.permission,
  INTERNAL: EXIT.error,
};

export interface OcmErrorOptions {
  /** What to do next. */
  hint?: string;
  /** Extra machine-readable details (never secrets). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class OcmError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: OcmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OcmError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }

  get exitCode(): ExitCode {
    return EXIT_BY_CODE[this.code];
  }
}

export class ConfigError extends OcmError {
  /** Dotted key path of the offending setting, e.g. "active_memory.budget_tokens". */
  readonly keyPath: string | undefined;
  constructor(message: string, options: OcmErrorOptions & { keyPath?: string } = {}) {
    super('CONFIG_INVALID', message, options);
    this.name = 'ConfigError';
    this.keyPath = options.keyPath;
  }
}

/** The code of a Node.js system error ("ENOENT", "EPERM", …), or undefined for anything without one. */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A file or folder that does not exist (ENOENT). */
export function isNotFound(error: unknown): boolean {
  return errorCode(error) === 'ENOENT';
}

/**
 * The file system refused a write: full (ENOSPC, EDQUOT), read-only (EROFS)
 * or not ours (EACCES, EPERM), raw or as the OcmError fromSystemError made of
 * it. A command that only reads (search) answers from what exists instead.
 */
export function isWriteRefused(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'DISK_FULL', 'PERMISSION_DENIED'].includes(e.code))
      return true;
  }
  return false;
}

/**
 * Turn a Node.js system error (EACCES, ENOSPC, …) into an OcmError with a hint.
 * Other errors are returned unchanged.
 */
export function fromSystemError(error: unknown, action: string): unknown {
  if (error instanceof OcmError) return error;
  const code = errorCode(error);
  const at = (error as { path?: unknown } | undefined)?.path;
  const path = at ? ` (${String(at)})` : '';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new OcmError('PERMISSION_DENIED', `Permission denied while trying to ${action}${path}.`, {
        hint: 'Check the owner and mode of the memory home (directories 0700, files 0600) or pass --home to a writable folder.',
        cause: error,
      });
    case 'ENOSPC':
    case 'EDQUOT':
      return new OcmError('DISK_FULL', `The disk is full: could not ${action}${path}.`, {
        hint: 'Free some space and run the command again.',
        cause: error,
      });
    case 'EROFS':
      return new OcmError('PERMISSION_DENIED', `Read-only file system: could not ${action}${path}.`, {
        hint: 'The file system is mounted read-only: remount it read-write, or point --home / OCM_HOME at a writable folder.',
        cause: error,
      });
    default:
      return error;
  }
}

/** Human-readable one-liner (plus hint) for any thrown value. */
export function describeError(error: unknown): { message: string; hint?: string; code: string } {
  if (error instanceof OcmError) {
    return { message: error.message, hint: error.hint || undefined, code: error.code };
  }
  if (isModuleLoadSyntaxError(error)) {
    return {
      message: `one of OC-Memory's program files could not be loaded (${error.message}): a JavaScript file of its installation is incomplete or damaged.`,
      hint: 'If an install, update or build of oc-memory is running, let it finish and run the command again; otherwise reinstall oc-memory. `node --check <file>` on the .js files of its dist/ folder names the broken one.',
      code: 'INTERNAL',
    };
  }
  if (error instanceof Error) return { message: error.message, code: 'INTERNAL' };
  return { message: String(error), code: 'INTERNAL' };
}

/**
 * A SyntaxError raised by Node's module loader while compiling one of our
 * modules (a file cut short while npm or a build rewrites it), not by a parser
 * of data: on its own its text ("Invalid or unexpected token") says nothing to
 * a user, and Node 20 keeps the file's name out of the error object.
 */
function isModuleLoadSyntaxError(error: unknown): error is SyntaxError {
  return error instanceof SyntaxError && /\(node:internal\/modules\//.test(error.stack ?? '');
}
