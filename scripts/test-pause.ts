/**
 * Test hook (OCM_TEST=1, set by the test runner only): a named pause point, for tests that must see what
 * a process does while one of its steps is slow (a busy machine) without racing a timer.
 * OCM_TEST_PAUSE_AT=<point>[,<point>…] stops the process at each named point until the file
 * OCM_TEST_PAUSE_UNTIL exists (at most a minute), or for OCM_TEST_PAUSE_MS milliseconds.
 * Points: `mcp-open-memory` (`ocm-run mcp` before it opens the memory), `mcp-connect` (before it
 * answers `initialize`), `session-start` (`hook session-start` before it reads the active memory).
 */
import { existsSync } from 'node:fs';

export async function pauseAt(env: NodeJS.ProcessEnv, point: string): Promise<void> {
  if (env.OCM_TEST !== '1' || !env.OCM_TEST_PAUSE_AT?.split(',').includes(point)) return;
  const until = env.OCM_TEST_PAUSE_UNTIL;
  const ms = Number(env.OCM_TEST_PAUSE_MS);
  const { setTimeout: sleep } = await import('node:timers/promises');
  if (!until) {
    await sleep(Number.isFinite(ms) && ms > 0 ? ms : 0);
    return;
  }
  const deadline = Date.now() + 60_000;
  while (!existsSync(until) && Date.now() < deadline) await sleep(20);
}
