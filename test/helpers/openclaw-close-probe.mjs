// The one step of OpenClaw 2026.9.6's agent-database close that another
// connection to the file can influence, run with OpenClaw's own code beside
// OC-Memory's reader. Run by the Node that runs OpenClaw (24.x, node:sqlite):
//
//   node openclaw-close-probe.mjs <openclaw package dir> <OC-Memory dist dir> <temp dir>
//
// OpenClaw closes an agent database (dist/openclaw-agent-db-lifecycle-*.mjs,
// closeCachedOpenClawAgentDatabase) with `walMaintenance.close()` from
// configureSqliteWalMaintenance (src/infra/sqlite-wal.ts): a
// `PRAGMA wal_checkpoint(TRUNCATE)` under the connection's busy timeout
// (5 s for agent databases), whose errors it catches; it returns true when
// the checkpoint completed, false otherwise. The rest of the close (db.close,
// the lease row in OpenClaw's state/openclaw.sqlite) does not involve other connections
// to the agent database. Prints one JSON line with what was seen.
import { readdir, readFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';

const [packageDir, ocmDist, tempDir] = process.argv.slice(2);
if (!packageDir || !ocmDist || !tempDir)
  throw new Error('usage: openclaw-close-probe.mjs <openclaw package dir> <OC-Memory dist dir> <temp dir>');

/** OpenClaw's configureSqliteConnectionPragmas, found by its region and export (bundle names are hashed). */
async function openClawWalModule() {
  const dist = join(packageDir, 'dist');
  for (const name of (await readdir(dist)).filter((n) => n.startsWith('sqlite-wal') && n.endsWith('.mjs'))) {
    const file = join(dist, name);
    const text = await readFile(file, 'utf8');
    if (!text.includes('//#region src/infra/sqlite-wal.ts')) continue;
    const match = /\bconfigureSqliteConnectionPragmas as ([\w$]+)/.exec(text);
    if (!match) continue;
    const module = await import(pathToFileURL(file).href);
    const configure = module[match[1]];
    if (typeof configure === 'function') return { file, configure };
  }
  throw new Error(`no sqlite-wal module exporting configureSqliteConnectionPragmas in ${dist}`);
}

const { file: walModule, configure } = await openClawWalModule();
const { createOpenClawDbSource } = await import(pathToFileURL(join(ocmDist, 'lib', 'sources', 'openclaw-db.js')).href);

const SESSION = 'aaaaaaaa-0000-4000-8000-00000000c105';
const SCHEMA = `
CREATE TABLE IF NOT EXISTS transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, created_at INTEGER NOT NULL,
  event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT, PRIMARY KEY (session_id, seq)
) STRICT;`;

function event(seq) {
  const role = seq % 2 === 0 ? 'user' : 'assistant';
  const text = `Note ${seq}: the staging cluster number is ${seq * 7}.`;
  const message = role === 'user' ? { role, content: text } : { role, content: [{ type: 'text', text }], stopReason: 'stop' };
  return JSON.stringify({
    type: 'message',
    id: `e${String(seq).padStart(7, '0')}`,
    parentId: seq === 0 ? null : `e${String(seq - 1).padStart(7, '0')}`,
    timestamp: '2026-09-01T10:00:00.000Z',
    message,
  });
}

/** OpenClaw's writer connection, configured by OpenClaw's own code as for an agent database (openOpenClawAgentDatabaseSteps). */
function openWriter(path, busyTimeoutMs) {
  const db = new DatabaseSync(path);
  const maintenance = configure(db, {
    busyTimeoutMs,
    databaseLabel: 'openclaw-agent:work',
    databasePath: path,
    foreignKeys: true,
    synchronous: 'NORMAL',
  });
  db.exec(SCHEMA);
  return { db, maintenance };
}

let nextSeq = 0;
function append(db, count) {
  const insert = db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)');
  db.exec('BEGIN IMMEDIATE');
  for (let i = 0; i < count; i++, nextSeq++) insert.run(SESSION, nextSeq, event(nextSeq), Date.now());
  db.exec('COMMIT');
}

const walBytes = async (path) => (await stat(`${path}-wal`).catch(() => ({ size: -1 }))).size;

/** OpenClaw's close step, timed; it must never throw (OpenClaw's own contract). */
function closeStep(maintenance) {
  const started = performance.now();
  let result;
  let threw = null;
  try {
    result = maintenance.close();
  } catch (error) {
    threw = String(error?.message ?? error);
  }
  return { completed: result === true, threw, ms: Math.round(performance.now() - started) };
}

const BIG = { maxMessages: 1e6, maxBytes: 1 << 30 };
const out = { walModule, sqlite: process.versions.sqlite };

// 1. OC-Memory reads, keeps its handle open (idle, as between the reads of one tick), and
//    OpenClaw closes with its real 5 s busy timeout while more rows wait in the WAL.
{
  const stateDir = join(tempDir, 'state-reader');
  const dir = join(stateDir, 'agents', 'work', 'agent');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'openclaw-agent.sqlite');
  const { db, maintenance } = openWriter(path, 5000);
  append(db, 40);
  const source = createOpenClawDbSource({ stateDirs: [stateDir], masking: {} });
  const [stream] = await source.discover();
  const first = await source.read(stream, undefined, BIG);
  append(db, 40); // after OC-Memory's read, before OpenClaw's close: frames only in the WAL
  const walBefore = await walBytes(path);
  const close = closeStep(maintenance); // OC-Memory's handle is still open here (IDLE_CLOSE_MS)
  const walAfter = await walBytes(path);
  db.close();
  // The reader's open handle saw the WAL reset under it: it must still read every later row.
  const second = await source.read(stream, first.cursor, BIG);
  out.reader = {
    firstRead: first.messages.length,
    walBefore,
    close,
    walAfter,
    secondRead: second.messages.length,
    lastText: second.messages.at(-1)?.text ?? null,
  };
}

// 2. Control: a connection that holds a read snapshot (BEGIN; SELECT) over the close.
//    OpenClaw's checkpoint then waits its busy timeout and gives up: close() returns false, never throws.
{
  const stateDir = join(tempDir, 'state-holder');
  const dir = join(stateDir, 'agents', 'work', 'agent');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'openclaw-agent.sqlite');
  nextSeq = 0;
  const { db, maintenance } = openWriter(path, 300);
  append(db, 40);
  const holder = new DatabaseSync(path, { readOnly: true });
  holder.exec('BEGIN');
  const held = holder.prepare('SELECT count(*) AS n FROM transcript_events').get().n;
  append(db, 40);
  const close = closeStep(maintenance);
  holder.exec('COMMIT');
  holder.close();
  db.close();
  out.holder = { held, close, walAfter: await walBytes(path) };
}

process.stdout.write(`${JSON.stringify(out)}\n`);
