/**
 * One measurement for bench/sqlite-driver-bench.ts, in its own process (so
 * each driver runs under the Node it is meant for):
 *   node --import tsx bench/sqlite-driver-read.ts <stateDir>
 * Reads every session of the agent database under <stateDir> (the first
 * read), then again with the cursors it left (an idle tick: nothing new),
 * and prints one JSON line: driver, SQLite version, times, counts.
 */
import { createOpenClawDbSource } from '../lib/sources/openclaw-db.js';
import { describeSqliteDriver } from '../lib/sqlite.js';
import { drainAll } from '../test/helpers/drain-source.js';

const stateDir = process.argv[2]!;
const driver = await describeSqliteDriver();
const source = createOpenClawDbSource({ stateDirs: [stateDir], masking: {} });
const limits = { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 };
let t = performance.now();
const first = await drainAll(source, new Map(), limits);
const firstMs = performance.now() - t;
t = performance.now();
const idle = await drainAll(source, first.cursors, limits);
const idleMs = performance.now() - t;
process.stdout.write(
  `${JSON.stringify({ driver: driver.name, sqlite: driver.sqliteVersion, node: process.versions.node, firstMs, idleMs, messages: first.messages.length, sessions: idle.streams.length, idleMessages: idle.messages.length })}\n`,
);
