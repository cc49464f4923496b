/**
 * What the dashboard says when something fails (docs/dashboard.md, "When something fails"): an error
 * becomes a UiProblem — a message of lib/ui/messages.ts in the page's language, with the error's
 * details (an id, a path, a value typed) as parameters. It is chosen by the error's code and by the
 * step the dashboard was taking (an approval's NOT_FOUND is a proposal no longer pending), never by the
 * error's English text. An error it has no words for keeps its English message, under a lead-in in
 * the page's language saying what failed.
 */
import { ConfigError, describeError, OcmError, type ErrorCode } from '../core/errors.js';
import { problemText, type Lang, type ProblemKey, type ProblemText } from './messages.js';

/** What the dashboard was doing when an error came. */
export type Step = 'edit' | 'add' | 'forget' | 'approve' | 'reject' | 'rollback' | 'search' | 'page';

/** The details a step knows of what it was asked (from the form or the address). */
export type Params = Readonly<Record<string, string>>;

export class UiProblem extends OcmError {
  readonly key: ProblemKey;
  readonly params: Params;
  /** The English message of an error the dashboard has no words for (shown under the lead-in `key`). */
  readonly original: { message: string; hint?: string } | undefined;

  constructor(
    code: ErrorCode,
    key: ProblemKey,
    params: Params = {},
    options: { cause?: unknown; original?: { message: string; hint?: string } } = {},
  ) {
    const english = problemText('en', key, params);
    super(code, options.original ? `${english.text} ${options.original.message}` : english.text, {
      hint: options.original?.hint ?? english.hint,
      cause: options.cause,
    });
    this.name = 'UiProblem';
    this.key = key;
    this.params = params;
    this.original = options.original;
  }

  /** The words of this problem in `lang`, each detail masked by `mask`. */
  textIn(lang: Lang, mask: (text: string) => string): ProblemText {
    return problemText(lang, this.key, Object.fromEntries(Object.entries(this.params).map(([k, v]) => [k, mask(v)])));
  }
}

/** Errors whose code says it all, whatever the step. */
const BY_CODE: Partial<Record<ErrorCode, ProblemKey>> = {
  LOCKED: 'locked',
  DISK_FULL: 'diskFull',
  PERMISSION_DENIED: 'permissionDenied',
};

/** Errors of shared code whose code means one thing at one step. */
const BY_STEP: Partial<Record<Step, Partial<Record<ErrorCode, ProblemKey>>>> = {
  approve: { NOT_FOUND: 'noProposal', CONFIG_MISSING: 'noVault' },
  reject: { NOT_FOUND: 'noProposal' },
  rollback: { NOT_FOUND: 'noRollback' },
};

const FAILED: Record<Step, ProblemKey> = {
  edit: 'failedEdit',
  add: 'failedAdd',
  forget: 'failedForget',
  approve: 'failedApprove',
  reject: 'failedReject',
  rollback: 'failedRollback',
  search: 'failedSearch',
  page: 'failedPage',
};

/** ` (where)` when there is a where. */
function within(where: unknown): string {
  return typeof where === 'string' && where ? ` (${where})` : '';
}

/** The file a system error (EACCES, ENOSPC…) was about: Node keeps it on the error that fromSystemError wrapped. */
function systemPath(error: OcmError): unknown {
  return (error.cause as { path?: unknown } | undefined)?.path;
}

/**
 * A day file not rewritten because its frontmatter is broken (lib/memory/day-file/edit.ts assertWritable:
 * BAD_INPUT with the file in details.path), as the dashboard says it: a change made here is not "written on the next run".
 */
export function brokenFrontmatter(path: string, problem: string, cause?: unknown): UiProblem {
  // js-yaml ends its message with the place of the error, (line:column) of the YAML.
  const at = /\((\d+:\d+)\)\s*$/.exec(problem)?.[1];
  return new UiProblem('BAD_INPUT', 'brokenFrontmatter', { path, problem, position: at ? ` (YAML ${at})` : '' }, { cause });
}

/** The problem to show for `error`, thrown while the dashboard took `step` with `params`. */
export function problemOf(error: unknown, step: Step, params: Params = {}): UiProblem {
  if (error instanceof UiProblem) return error;
  if (error instanceof OcmError) {
    const key = BY_CODE[error.code] ?? BY_STEP[step]?.[error.code];
    if (key === 'diskFull' || key === 'permissionDenied')
      return new UiProblem(error.code, key, { where: within(systemPath(error)) }, { cause: error });
    if (key) return new UiProblem(error.code, key, params, { cause: error });
    if (error instanceof ConfigError)
      return new UiProblem(
        error.code,
        'configInvalid',
        { where: within(error.keyPath) },
        { cause: error, original: { message: error.message, hint: error.hint } },
      );
  }
  const { message, hint, code } = describeError(error);
  return new UiProblem(code as ErrorCode, FAILED[step], params, { cause: error, original: { message, ...(hint ? { hint } : {}) } });
}

/** Run a step; what it throws becomes the problem the page shows. */
export async function taking<T>(step: Step, params: Params, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw problemOf(error, step, params);
  }
}

/** `parse(value)`, its BAD_INPUT said as the problem `key` about the value typed (a filter, a limit). */
export function checked<T>(key: ProblemKey, value: string, parse: (value: string) => T): T {
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof OcmError && error.code === 'BAD_INPUT') throw new UiProblem('BAD_INPUT', key, { value }, { cause: error });
    throw error;
  }
}
