/**
 * A second process that behaves like OpenClaw's writer: appends transcript
 * rows to an agent database, one transaction per row, with no busy timeout —
 * so if a reader ever blocked it, the insert would fail at once with
 * SQLITE_BUSY and be counted. Prints a JSON summary on stdout.
 *
 *   node --import tsx openclaw-db-writer.ts <db> <sessionId> <rows> <firstSeq> [<releaseFile>]
 *
 * With <releaseFile>, the writer stops halfway (its connection open) until that
 * file exists (at most 60 s), so a reader is sure to read in the middle of the
 * writes however slowly a loaded machine runs it.
 */
import { existsSync } from 'node:fs';
import { zstdRawFrame } from './openclaw-db.js';
import { PiSessionWriter } from './pi-writer.js';
import { openWritable } from './sqlite-writable.js';

const [dbPath, sessionId, rowsArg, firstSeqArg, releaseFile] = process.argv.slice(2);
const rows = Number(rowsArg);
let seq = Number(firstSeqArg);
const db = openWritable(dbPath!);
db.pragma('busy_timeout = 0');
const insert = db.prepare(
  'INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes) VALUES (?, ?, ?, ?, ?, ?)',
);
const writer = new PiSessionWriter(sessionId!, new Date('2026-09-02T08:00:00Z'), 1000);
let inserted = 0;
let busy = 0;
const errors: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
for (let i = 0; i < rows; i++) {
  if (releaseFile && i === Math.floor(rows / 2)) {
    for (let waited = 0; !existsSync(releaseFile) && waited < 60_000; waited += 5) await sleep(5);
  }
  const line = writer.message({ role: i % 2 === 0 ? 'user' : 'assistant', text: `Note number ${i}: the answer is ${i * 7}.` }).trim();
  const bytes = Buffer.from(line, 'utf8');
  seq += 1;
  // Retry the same row until it is in (as OpenClaw's writer would), counting every refusal.
  for (let attempt = 0; attempt < 1000; attempt++) {
    try {
      if (i % 5 === 4) insert.run(sessionId, seq, null, Date.now(), Buffer.from(zstdRawFrame(bytes)), bytes.byteLength);
      else insert.run(sessionId, seq, line, Date.now(), null, null);
      inserted++;
      break;
    } catch (error) {
      // better-sqlite3 names the code; node:sqlite numbers it (5 busy, 6 locked).
      const { code, errcode } = error as { code?: unknown; errcode?: unknown };
      const primary = typeof errcode === 'number' ? errcode & 0xff : -1;
      if (String(code ?? '').startsWith('SQLITE_BUSY') || String(code ?? '').startsWith('SQLITE_LOCKED') || primary === 5 || primary === 6)
        busy++;
      else errors.push(String((error as Error).message));
      await sleep(1);
    }
  }
  if (i % 3 === 0) await sleep(1);
}
db.close();
process.stdout.write(`${JSON.stringify({ inserted, busy, errors, lastSeq: seq })}\n`);
