// One measurement for bench/sqlite-driver-bench.ts, on the compiled modules
// (dist/, as shipped; no TypeScript loader, so each driver runs as it would
// for a user): node bench/sqlite-driver-read.mjs <stateDir>
// Loads the driver and lists the sessions (open), reads every session of the
// agent database under <stateDir> (the first read), then again from the cursors it left (an idle tick: nothing new),
// and prints one JSON line: driver, SQLite version, times, counts, peak RSS.
import { createOpenClawDbSource } from '../dist/lib/sources/openclaw-db.js';
import { describeSqliteDriver } from '../dist/lib/platform/sqlite.js';

const LIMITS = { maxBytes: 4 * 1024 * 1024, maxMessages: 2000 };

/** Every stream to its end, chunk after chunk, as the observe job reads. */
async function readAll(source, cursors) {
  let messages = 0;
  const streams = await source.discover();
  for (const stream of streams) {
    let cursor = cursors.get(stream.key);
    for (;;) {
      const chunk = await source.read(stream, cursor, LIMITS);
      messages += chunk.messages.length;
      const moved = JSON.stringify(chunk.cursor) !== JSON.stringify(cursor);
      cursor = chunk.cursor;
      if (chunk.done || !moved) break;
    }
    cursors.set(stream.key, cursor);
  }
  return { streams: streams.length, messages };
}

// Loading the driver, opening the database and listing its sessions: what every tick pays first.
let t = performance.now();
const driver = await describeSqliteDriver();
const source = createOpenClawDbSource({ stateDirs: [process.argv[2]], masking: {} });
await source.discover();
const openMs = performance.now() - t;
const cursors = new Map();
t = performance.now();
const first = await readAll(source, cursors);
const firstMs = performance.now() - t;
t = performance.now();
const idle = await readAll(source, cursors);
const idleMs = performance.now() - t;
process.stdout.write(
  `${JSON.stringify({ driver: driver.name, sqlite: driver.sqliteVersion, node: process.versions.node, openMs, firstMs, idleMs, peakRssMb: process.resourceUsage().maxRSS / 1024, messages: first.messages, sessions: idle.streams, idleMessages: idle.messages })}\n`,
);
