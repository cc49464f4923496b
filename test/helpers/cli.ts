/** Run the built CLI (dist/) as a child process, the way users and cron do. */
import { execa, type Result } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'scripts', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the CLI to its end. A run that outlives its bound (default 120 s: a
 * loaded 2-core machine) is killed and reported as such — not handed back
 * with an empty stdout that a test would then fail to parse ("Unexpected end
 * of JSON input"). A run killed by a signal gives code -1.
 */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const timeout = options.timeoutMs ?? 120_000;
  const result: Result = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    env: { OCM_HOME: undefined, OPENCLAW_STATE_DIR: undefined, CI: '1', ...options.env },
    extendEnv: true,
    timeout,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  });
  if (result.timedOut) {
    throw new Error(
      `ocm-run ${args.join(' ')} did not finish within ${timeout / 1000} s and was killed (stderr: ${String(result.stderr).slice(-500)})`,
    );
  }
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const removedAtExit = new Set<string>();

/** A temp folder removed when the test file's process exits: for helpers that hand out folders without a cleanup of their own. */
export async function tempDirUntilExit(prefix = 'ocm-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (removedAtExit.size === 0) {
    process.once('exit', () => {
      for (const d of removedAtExit) rmSync(d, { recursive: true, force: true });
    });
  }
  removedAtExit.add(dir);
  return dir;
}

export async function tempDir(prefix = 'ocm-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
