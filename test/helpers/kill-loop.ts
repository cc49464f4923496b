/**
 * Crash a CLI command again and again at named steps, then let it finish.
 * Kills are driven by the program's progress (the step hook of
 * scripts/tier-context.ts crashHook: OCM_TEST_CRASH_AT=<step>[:<n>]), not by
 * wall-clock guesses, so a fast machine kills as often as a slow one.
 */
import { spawn } from 'node:child_process';
import { CLI } from './cli.js';

/**
 * Runs `ocm-run <args>` until a run ends on its own (at most `attempts`
 * runs), run i crashing with SIGKILL at `crashes[i % crashes.length]`. A run
 * that never reaches its step ends normally, and the loop stops. Put a step
 * in the cycle that is reached only after progress is saved, so the loop
 * moves on. Returns how many runs were killed.
 */
export async function crashAtSteps(
  args: string[],
  crashes: string[],
  options: { attempts?: number; timeoutMs?: number } = {},
): Promise<number> {
  let kills = 0;
  for (let i = 0; i < (options.attempts ?? 40); i++) {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: 'ignore',
      env: { ...process.env, CI: '1', OCM_TEST: '1', OCM_TEST_CRASH_AT: crashes[i % crashes.length]! },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    clearTimeout(timer);
    if (signal !== 'SIGKILL') return kills;
    kills++;
  }
  return kills;
}
