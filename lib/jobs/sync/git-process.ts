/**
 * One way to run git for sync: no prompts, no editor, C locale, files written owner-only (the child
 * inherits a 0077 umask), a bounded wait, and errors that say nothing local was lost.
 */
import { execa } from 'execa';
import { OcmError, isNotFound } from '../../core/errors.js';

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_MERGE_AUTOEDIT: 'no', LC_ALL: 'C' };

export class Git {
  constructor(
    private readonly cwd: string,
    private readonly timeoutMs: number,
    private identity: string[] = [],
  ) {}

  async run(args: string[], options: { allowFail?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const r = await this.spawn(args, undefined, false, options.allowFail);
    return { code: r.code, stdout: String(r.stdout).trim(), stderr: r.stderr };
  }

  /** The same, with bytes in (stdin) and out (stdout), untrimmed: blobs, fast-import streams. */
  async runBytes(
    args: string[],
    input?: Uint8Array,
    options: { allowFail?: boolean } = {},
  ): Promise<{ code: number; stdout: Buffer; stderr: string }> {
    const r = await this.spawn(args, input, true, options.allowFail);
    return { code: r.code, stdout: Buffer.from(r.stdout as Uint8Array), stderr: r.stderr };
  }

  private async spawn(
    args: string[],
    input: Uint8Array | undefined,
    binary: boolean,
    allowFail = false,
  ): Promise<{ code: number; stdout: string | Uint8Array; stderr: string }> {
    let result;
    // Files git writes (checkout, rebase, pull) get 0600 like every memory file: the child inherits the umask.
    const umask = process.umask(0o077);
    let child;
    try {
      child = execa('git', [...this.identity, ...args], {
        cwd: this.cwd,
        env: GIT_ENV,
        reject: false,
        timeout: this.timeoutMs,
        maxBuffer: 1024 * 1024 * 1024,
        ...(input ? { input } : { stdin: 'ignore' as const }),
        // Bytes exactly as git wrote them: execa strips a final newline by default, also from bytes, and one
        // ciphertext in 256 ends in 0x0a (or, last in a `cat-file --batch`, in 0x0d before git's own newline).
        ...(binary ? { encoding: 'buffer' as const, stripFinalNewline: false } : {}),
      });
    } finally {
      process.umask(umask);
    }
    try {
      result = await child;
    } catch (error) {
      throw new OcmError('IO_ERROR', `Could not run git: ${(error as Error).message}`, {
        hint: 'Install Git (https://git-scm.com) or turn off sync.git.enabled.',
      });
    }
    if ((result as { failed?: boolean; exitCode?: number }).exitCode === undefined && isNotFound(result)) {
      throw new OcmError('IO_ERROR', 'git is not installed (or not on PATH).', { hint: 'Install Git, or turn off sync.git.enabled.' });
    }
    const stderr = Buffer.from((result.stderr ?? '') as string | Uint8Array)
      .toString('utf8')
      .trim();
    const out = { code: result.exitCode ?? -1, stdout: (result.stdout ?? '') as string | Uint8Array, stderr };
    if (out.code !== 0 && !allowFail) {
      const msg = (stderr || (binary ? '' : String(out.stdout))).split('\n').slice(-3).join(' ').trim();
      throw new OcmError('IO_ERROR', `git ${args[0]} failed: ${msg || `exit ${out.code}`}`, {
        hint: 'Nothing local was changed or lost; the sync is retried on the next ticks (see `ocm-run status`).',
        details: { args },
      });
    }
    return out;
  }

  setIdentity(args: string[]): void {
    this.identity = args;
  }
}
