/** Run the built CLI (dist/) as a child process, the way users and cron do. */
import { execa, type Result } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'scripts', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const result: Result = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    env: { OCM_HOME: undefined, OPENCLAW_STATE_DIR: undefined, CI: '1', ...options.env },
    extendEnv: true,
    timeout: options.timeoutMs ?? 60_000,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

export async function tempDir(prefix = 'ocm-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
