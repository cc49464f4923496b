/** Start a CLI command again and again, killing it with SIGKILL at random moments. */
import { spawn } from 'node:child_process';
import { CLI } from './cli.js';

/**
 * Runs `ocm-run <args>` up to `attempts` times, each killed after a random
 * 150–1350 ms unless it ends first; stops once a run finishes on its own
 * (after the first five). Returns how many runs were killed.
 */
export async function killRepeatedly(args: string[], options: { seed: number; attempts?: number }): Promise<number> {
  let seed = options.seed;
  const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  let kills = 0;
  for (let i = 0; i < (options.attempts ?? 24); i++) {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore', env: { ...process.env, CI: '1' } });
    const delay = 150 + Math.floor(rand() * 1200);
    const exited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(false);
      }, delay);
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!exited) {
      kills++;
      await new Promise((res) => child.on('exit', res));
    }
    if (exited && i > 4) break; // finished on its own: the rest is already done
  }
  return kills;
}
