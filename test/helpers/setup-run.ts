/**
 * `ocm-run setup --yes` as the agent integration tests run it: the heuristic
 * Observer (no key, no network), a temp folder holding the user's HOME
 * (`<dir>/home`, with only `node` on PATH) and the memory home (`<dir>/ocm`).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir, type CliResult } from './cli.js';

export interface SetupRun {
  result: CliResult;
  /** The temp folder (removed after the check). */
  dir: string;
  /** HOME of the run: where the agents' settings live. */
  userHome: string;
  /** The memory home setup wrote. */
  ocm: string;
}

const env = (userHome: string) => ({ HOME: userHome, PATH: dirname(process.execPath) });

/** Run `setup --yes --provider heuristic <flags>`, then `check` it; `prepare` gets HOME first (e.g. to create ~/.codex). */
export async function withHeuristicSetup(
  flags: string[],
  check: (run: SetupRun) => Promise<void>,
  prepare?: (userHome: string) => Promise<void>,
): Promise<void> {
  const { dir, cleanup } = await tempDir('ocm-setup-');
  try {
    const userHome = join(dir, 'home');
    const ocm = join(dir, 'ocm');
    await prepare?.(userHome);
    const result = await runCli(['setup', '--yes', '--provider', 'heuristic', ...flags, '--home', ocm], { env: env(userHome) });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    await check({ result, dir, userHome, ocm });
  } finally {
    await cleanup();
  }
}

/** Opt-in: setup without the agent's --integrate flag does not mention it and leaves its folder (under HOME) alone. */
export async function assertSetupLeavesAgentAlone(run: SetupRun, mention: RegExp, agentFolder: string): Promise<void> {
  const userHome = join(run.dir, 'home2');
  const without = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', join(run.dir, 'other')], { env: env(userHome) });
  assert.equal(without.code, 0, without.stderr);
  assert.doesNotMatch(without.stdout, mention);
  assert.equal(existsSync(join(userHome, agentFolder)), false);
}
