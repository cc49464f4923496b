/**
 * Speed of the OpenClaw database source.
 *   node --import tsx bench/openclaw-db-read.ts [sessions=200] [exchanges=50]
 * Builds an agent database in a temp dir (removed afterwards): `sessions`
 * sessions of `exchanges` user/assistant exchanges (some tool calls), every
 * third session's rows zstd-framed. Prints the first full read (rows/s,
 * messages/s) and an idle tick (discover + read of every session, nothing
 * new), which is what cron pays every minute.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenClawDbSource } from '../lib/sources/openclaw-db.js';
import { drainAll } from '../test/helpers/drain-source.js';
import { buildBenchAgentDb } from './openclaw-db-fixture.js';

const sessions = Number(process.argv[2] ?? 200);
const exchanges = Number(process.argv[3] ?? 50);
const root = await mkdtemp(join(tmpdir(), 'ocm-bench-db-'));
try {
  const rows = buildBenchAgentDb(root, sessions, exchanges);
  const source = createOpenClawDbSource({ stateDirs: [root], masking: {} });
  let t = performance.now();
  const first = await drainAll(source, new Map(), { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 });
  const firstMs = performance.now() - t;
  t = performance.now();
  const idle = await drainAll(source, first.cursors, { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 });
  const idleMs = performance.now() - t;
  const rss = process.memoryUsage().rss / 1024 / 1024;
  process.stdout.write(
    [
      `database source: ${sessions} sessions, ${rows} rows`,
      `first read : ${first.messages.length} messages in ${firstMs.toFixed(0)} ms ` +
        `(${((rows / firstMs) * 1000).toFixed(0)} rows/s, ${((first.messages.length / firstMs) * 1000).toFixed(0)} ` +
        `messages/s)`,
      `idle tick  : ${idle.streams.length} sessions checked, ${idle.messages.length} new, in ${idleMs.toFixed(0)} ms ` +
        `(${(idleMs / Math.max(1, idle.streams.length)).toFixed(2)} ms per session)`,
      `peak RSS   : ${rss.toFixed(0)} MB`,
      '',
    ].join('\n'),
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
