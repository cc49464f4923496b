/**
 * Builds OpenClaw database-era agent databases for tests: the
 * `openclaw-agent.sqlite` tables this project reads (transcript_events with
 * compressed payload columns, session_windows, session_nodes, schema_meta,
 * session_transcript_generations), written through a real SQLite connection.
 */
import { mkdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openClawAgentSchemaSql } from './openclaw-schema.js';
import { openWritable, type WritableDb, type WritableStatement } from './sqlite-writable.js';

export const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'openclaw-db');

/** The tables (schema v19 shape, reduced to the columns that matter here). */
export const AGENT_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS schema_meta (
  meta_key TEXT NOT NULL PRIMARY KEY,
  role TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  agent_id TEXT,
  app_version TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY,
  current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS session_windows (
  session_id TEXT NOT NULL PRIMARY KEY,
  session_key TEXT NOT NULL,
  previous_session_id TEXT,
  reason TEXT CHECK (reason IS NULL OR reason IN ('initial', 'reset', 'rollover', 'fork', 'rewind', 'switch', 'recovery', 'compaction')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER,
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq)
) STRICT;
CREATE TABLE IF NOT EXISTS session_transcript_generations (
  session_id TEXT NOT NULL PRIMARY KEY,
  generation TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
`;

export function agentDbPath(stateDir: string, agent: string): string {
  return join(stateDir, 'agents', agent, 'agent', 'openclaw-agent.sqlite');
}

export interface CreateOptions {
  journal?: 'wal' | 'delete';
  schemaVersion?: number;
  /** SQL run instead of AGENT_SCHEMA_SQL (older / other schema shapes). */
  schemaSql?: string;
}

export function createAgentDb(path: string, options: CreateOptions = {}): WritableDb {
  mkdirSync(dirname(path), { recursive: true });
  const db = openWritable(path);
  db.pragma(`journal_mode = ${options.journal ?? 'wal'}`);
  db.pragma('busy_timeout = 5000');
  db.exec(options.schemaSql ?? AGENT_SCHEMA_SQL);
  const version = options.schemaVersion ?? 19;
  db.pragma(`user_version = ${version}`);
  if (!options.schemaSql) {
    db.prepare('INSERT OR REPLACE INTO schema_meta VALUES (?, ?, ?, ?, ?, ?, ?)').run('agent', 'agent', version, 'main', '2026.9.6', 0, 0);
  }
  return db;
}

/**
 * A valid zstd frame holding `data` in raw (stored) blocks: what a zstd
 * encoder emits for incompressible input. Lets tests make compressed rows
 * without a zstd encoder; the real-compression path is covered by the
 * fixture compressed with the reference tool.
 */
export function zstdRawFrame(data: Uint8Array): Uint8Array {
  const MAX_BLOCK = 128 * 1024;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = 0xa0; // 4-byte frame content size, single segment, no checksum, no dictionary
  header.writeUInt32LE(data.byteLength, 5);
  parts.push(header);
  let at = 0;
  do {
    const size = Math.min(MAX_BLOCK, data.byteLength - at);
    const last = at + size >= data.byteLength ? 1 : 0;
    const block = Buffer.alloc(3);
    const value = last | (0 << 1) | (size << 3);
    block.writeUIntLE(value, 0, 3);
    parts.push(block, Buffer.from(data.subarray(at, at + size)));
    at += size;
  } while (at < data.byteLength);
  return new Uint8Array(Buffer.concat(parts));
}

export function fixtureEvent(): { json: string; zst: Buffer } {
  return {
    json: readFileSync(join(FIXTURES, 'large-assistant-event.json'), 'utf8'),
    zst: readFileSync(join(FIXTURES, 'large-assistant-event.json.zst')),
  };
}

export interface InsertOptions {
  /** 'raw': event_zstd as a raw-block zstd frame; a Buffer: that blob as event_zstd. */
  compress?: 'raw' | Uint8Array;
  /** Stored event_utf8_bytes (default: the real length). */
  utf8Bytes?: number;
  createdAt?: number;
}

/** Rows of one session, seq counting up. */
export class DbTranscript {
  private seq: number;
  private readonly insert: WritableStatement;
  constructor(
    readonly db: WritableDb,
    readonly sessionId: string,
    startSeq = 0,
  ) {
    this.seq = startSeq;
    this.insert = db.prepare(
      'INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /** Insert one event (an object or its JSON text); returns its seq. */
  add(event: unknown, options: InsertOptions = {}): number {
    const json = typeof event === 'string' ? event : JSON.stringify(event);
    const bytes = Buffer.from(json, 'utf8');
    const seq = ++this.seq;
    const createdAt = options.createdAt ?? Date.parse('2026-09-01T10:00:00Z') + seq * 1000;
    if (options.compress === undefined) this.insert.run(this.sessionId, seq, json, createdAt, null, null);
    else {
      const blob = options.compress === 'raw' ? zstdRawFrame(bytes) : options.compress;
      this.insert.run(this.sessionId, seq, null, createdAt, Buffer.from(blob), options.utf8Bytes ?? bytes.byteLength);
    }
    return seq;
  }

  /** Insert pi JSONL text (e.g. from PiSessionWriter) one row per line. */
  addLines(text: string, options: InsertOptions = {}): number[] {
    return text
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((line) => this.add(line, options));
  }
}

export function addWindow(
  db: WritableDb,
  sessionId: string,
  key: string,
  previous: string | null = null,
  reason = previous ? 'reset' : 'initial',
): void {
  db.prepare('INSERT OR REPLACE INTO session_windows VALUES (?, ?, ?, ?, ?, ?)').run(sessionId, key, previous, reason, 0, 0);
  db.prepare('INSERT OR REPLACE INTO session_nodes VALUES (?, ?, ?, ?)').run(key, sessionId, '{}', 0);
}

/**
 * A database with OpenClaw 2026.9.6's real tables (schema 23, from its
 * installed package: openclaw-schema.ts) and its schema_meta row.
 */
export async function createRealAgentDb(path: string): Promise<WritableDb> {
  const db = createAgentDb(path, { schemaSql: await openClawAgentSchemaSql(), schemaVersion: 23 });
  db.prepare(
    'INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run('primary', 'agent', 23, 'main', '2026.9.6', 0, 0);
  return db;
}

/** A session window in the real schema (its key's node first: the foreign key needs it). */
export function addRealWindow(
  db: WritableDb,
  sessionId: string,
  key: string,
  options: { previous?: string; reason?: string; hookSource?: 'webhook' | 'gmail' } = {},
): void {
  db.prepare(
    `INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?, ?, '{}', 0)
     ON CONFLICT(session_key) DO UPDATE SET current_session_id = excluded.current_session_id`,
  ).run(key, sessionId);
  db.prepare(
    'INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, created_at, updated_at, hook_external_content_source) VALUES (?, ?, ?, ?, 0, 0, ?)',
  ).run(sessionId, key, options.previous ?? null, options.reason ?? (options.previous ? 'reset' : 'initial'), options.hookSource ?? null);
}
