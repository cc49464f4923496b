/**
 * OpenClaw, database era (about v2026.8 and later; docs/sources.md): transcripts in
 * the per-agent SQLite database
 *
 *   <state>/agents/<agentId>/agent/openclaw-agent.sqlite
 *
 * `transcript_events(session_id, seq, event_json, created_at, event_zstd,
 * event_utf8_bytes, navigation_json, PRIMARY KEY(session_id, seq))`: each row
 * is one pi-format line, large ones zstd-compressed in `event_zstd` (with
 * `event_json` NULL and `event_utf8_bytes` the decoded length). Rows are read
 * in (session_id, seq) order and normalised exactly like the file era
 * (pi-entries.ts: active branch, re-appended copies, delivery mirrors, channel
 * prefixes, untrusted metadata, tool reduction, masking).
 *
 * One stream per (agent, session_id), key `openclaw-db:<agent>:<session_id>`;
 * the session is the session id, as in the file era, so a session that
 * OpenClaw imported from its JSONL file yields the same observation ids.
 * The cursor is the last seq read (plus the branch/dedupe memory). Sessions
 * map to keys through `session_windows` / `session_nodes` (or `sessions` /
 * `session_routes` in other schema versions); a session whose key now points
 * to a newer session (after `/new` or `/reset`) is ended.
 *
 * Never in OpenClaw's way: opened read-only with a busy timeout, rows fetched
 * in small pages (each its own short read transaction) and decoded after the
 * transaction ends; a locked database, or one in the middle of a migration
 * (a table or column missing), is left alone and retried on the next tick.
 * A row that cannot be decoded (corrupt zstd, decoded length different from
 * `event_utf8_bytes`, invalid UTF-8 or JSON) is skipped, logged and counted.
 * A schema newer than the versions known here is read as far as its columns
 * are understood, with one warning.
 *
 * Size: one source, most of it the schema versions OpenClaw's database has had and the rules for reading each
 * without disturbing OpenClaw.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decompress } from 'fzstd';
import { OcmError } from '../core/errors.js';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import { isBusyError, isCorruptError, isSchemaError, openReadOnly, type ReadOnlyDatabase } from '../platform/sqlite.js';
import type { Cursor, MalformedRecord, Message, ReadLimits, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { normalizePiEntry, type PiContext } from './pi-entries.js';
import {
  DEFAULT_DEDUPE_WINDOW,
  DEFAULT_LOOK_AHEAD,
  branchStateOf,
  emptyBranchState,
  rewindBranchState,
  settleConsumed,
  treeNodeOf,
  type BranchState,
  type ConsumedEntry,
  type LookAheadNode,
  type LookAheadWindow,
} from './pi-branches.js';
import { invalidJsonReason } from './log-safe.js';

export const AGENT_DB_FILE = 'openclaw-agent.sqlite';
/**
 * The newest agent-database schema version this reader was written against:
 * OpenClaw 2026.9.6's OPENCLAW_AGENT_SCHEMA_VERSION (its published package,
 * dist/openclaw-agent-db-contract-*.mjs; the tests make databases with its
 * real tables, read from the installed package by test/helpers/openclaw-schema.ts).
 */
export const KNOWN_SCHEMA_VERSION = 23;
/**
 * Where a session's transcript generation is kept: schema 23 renamed
 * `session_transcript_generations` (≤ 22) to `transcript_rewrite_watermarks`
 * (OpenClaw's migration: `ALTER TABLE session_transcript_generations RENAME
 * TO transcript_rewrite_watermarks`). Both have (session_id, generation).
 */
const GENERATION_TABLES = ['transcript_rewrite_watermarks', 'session_transcript_generations'] as const;
/** Rows whose decoded JSON is larger than this are skipped as malformed. */
export const DEFAULT_MAX_ROW_BYTES = 16 * 1024 * 1024;
/** Rows fetched per read transaction. */
const PAGE_ROWS = 128;
/** An open database handle unused this long is closed. */
const IDLE_CLOSE_MS = 1000;

export interface OpenClawDbSourceOptions {
  stateDirs: string[];
  /** Agent ids to read; empty/undefined = all. */
  agents?: string[];
  masking: MaskingOptions;
  logger?: Logger;
  busyTimeoutMs?: number;
  lookAhead?: LookAheadWindow;
  dedupeWindow?: number;
  maxRowBytes?: number;
}

// ---------------------------------------------------------------------------
// Row payloads

export interface EventRow {
  seq: number;
  event_json: string | null;
  event_zstd?: Uint8Array | null;
  event_utf8_bytes?: number | null;
  created_at?: number | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The pi-format JSON text of a row, or why it cannot be had. Pure. */
export function decodeEventPayload(row: EventRow, maxBytes = DEFAULT_MAX_ROW_BYTES): { text: string } | { error: string } {
  const blob = row.event_zstd;
  if (typeof row.event_json === 'string' && (blob === null || blob === undefined)) {
    return row.event_json.length > maxBytes
      ? { error: `event of ${row.event_json.length} characters exceeds the ${maxBytes}-byte limit` }
      : { text: row.event_json };
  }
  if (!(blob instanceof Uint8Array) || blob.byteLength === 0) {
    return {
      error: typeof row.event_json === 'string' ? 'both event_json and event_zstd are set' : 'row has neither event_json nor event_zstd',
    };
  }
  if (typeof row.event_json === 'string') return { error: 'both event_json and event_zstd are set' };
  const expected = row.event_utf8_bytes;
  if (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 1)
    return { error: 'compressed row without a valid event_utf8_bytes' };
  if (expected > maxBytes) return { error: `event of ${expected} bytes exceeds the ${maxBytes}-byte limit` };
  let bytes: Uint8Array;
  try {
    bytes = decompress(blob);
  } catch (error) {
    return { error: `zstd data is corrupt (${String((error as Error).message ?? error).slice(0, 80)})` };
  }
  if (bytes.byteLength !== expected) return { error: `decoded ${bytes.byteLength} bytes, but event_utf8_bytes says ${expected}` };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { error: 'decoded event is not valid UTF-8' };
  }
}

function rowFingerprint(row: { event_json: string | null; event_zstd?: Uint8Array | null }): string {
  const h = createHash('sha256');
  if (typeof row.event_json === 'string') h.update(row.event_json);
  else if (row.event_zstd instanceof Uint8Array) h.update(row.event_zstd);
  return h.digest('base64url').slice(0, 16);
}

// ---------------------------------------------------------------------------
// Schema

export interface AgentDbSchema {
  /** PRAGMA user_version. */
  userVersion: number;
  /** schema_meta's version, when the table says one. */
  metaVersion: number | null;
  /** The version to compare with KNOWN_SCHEMA_VERSION. */
  version: number;
  /** transcript_events columns (empty: no transcripts here yet, or mid-migration). */
  eventColumns: Set<string>;
  compressed: boolean;
  /** The table holding each session's transcript generation (see GENERATION_TABLES), or null. */
  generations: (typeof GENERATION_TABLES)[number] | null;
}

function numberOf(value: unknown): number | null {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

export function inspectSchema(db: ReadOnlyDatabase): AgentDbSchema {
  const userVersion = numberOf(db.pragma('user_version')) ?? 0;
  let metaVersion: number | null = null;
  const meta = db.columns('schema_meta');
  if (meta.has('schema_version')) {
    metaVersion = numberOf(db.get<{ v: unknown }>('SELECT max(schema_version) AS v FROM schema_meta')?.v);
  } else if (meta.has('key') && meta.has('value')) {
    metaVersion = numberOf(
      db.get<{ v: unknown }>("SELECT value AS v FROM schema_meta WHERE key IN ('schema_version', 'version') LIMIT 1")?.v,
    );
  }
  const eventColumns = db.columns('transcript_events');
  return {
    userVersion,
    metaVersion,
    version: Math.max(userVersion, metaVersion ?? 0),
    eventColumns,
    compressed: eventColumns.has('event_zstd') && eventColumns.has('event_utf8_bytes'),
    generations: GENERATION_TABLES.find((table) => db.columns(table).has('generation')) ?? null,
  };
}

function readable(schema: AgentDbSchema): boolean {
  const c = schema.eventColumns;
  return c.has('session_id') && c.has('seq') && c.has('event_json');
}

function payloadColumns(schema: AgentDbSchema): string {
  const extra = [schema.compressed ? 'event_zstd, event_utf8_bytes' : '', schema.eventColumns.has('created_at') ? 'created_at' : ''].filter(
    Boolean,
  );
  return ['seq', 'event_json', ...extra].join(', ');
}

// ---------------------------------------------------------------------------
// Sessions

export interface DbSession {
  sessionId: string;
  /** The OpenClaw session key (e.g. agent:main:main), when the database maps it. */
  sessionKey?: string;
  previousSessionId?: string;
  reason?: string;
  /** A newer session took over its key (after /new or /reset). */
  ended: boolean;
  /**
   * The session came in through a hook (`session_windows.hook_external_content_source`:
   * `webhook` for `/hooks/agent`, `gmail`): external content, never observed.
   */
  hookSource?: string;
  lastSeq: number;
  /** created_at of the last row (ms since epoch), when known. */
  lastCreatedAt?: number;
}

interface KeyInfo {
  key?: string;
  previous?: string;
  reason?: string;
  hook?: string;
}

/** session_id → key (session_windows, or sessions), key → current session id (session_nodes, or session_routes). */
function sessionKeys(db: ReadOnlyDatabase): { keys: Map<string, KeyInfo>; current: Map<string, string>; successors: Set<string> } {
  const keys = new Map<string, KeyInfo>();
  const current = new Map<string, string>();
  const successors = new Set<string>();
  const windows = db.columns('session_windows');
  if (windows.has('session_id') && windows.has('session_key')) {
    const prev = windows.has('previous_session_id') ? 'previous_session_id' : 'NULL';
    const reason = windows.has('reason') ? 'reason' : 'NULL';
    const hook = windows.has('hook_external_content_source') ? 'hook_external_content_source' : 'NULL';
    for (const r of db.all<{ id: string; key: string; prev: string | null; reason: string | null; hook: string | null }>(
      `SELECT session_id AS id, session_key AS key, ${prev} AS prev, ${reason} AS reason, ${hook} AS hook FROM session_windows`,
    )) {
      const info: KeyInfo = { key: r.key };
      if (r.hook) info.hook = r.hook;
      if (r.prev) {
        info.previous = r.prev;
        successors.add(r.prev);
      }
      if (r.reason) info.reason = r.reason;
      keys.set(r.id, info);
    }
  } else {
    const sessions = db.columns('sessions');
    if (sessions.has('session_id') && sessions.has('session_key')) {
      for (const r of db.all<{ id: string; key: string }>('SELECT session_id AS id, session_key AS key FROM sessions'))
        keys.set(r.id, { key: r.key });
    }
  }
  const nodes = db.columns('session_nodes');
  if (nodes.has('session_key') && nodes.has('current_session_id')) {
    for (const r of db.all<{ key: string; id: string }>('SELECT session_key AS key, current_session_id AS id FROM session_nodes'))
      current.set(r.key, r.id);
  } else {
    const routes = db.columns('session_routes');
    if (routes.has('session_key') && routes.has('session_id')) {
      for (const r of db.all<{ key: string; id: string }>('SELECT session_key AS key, session_id AS id FROM session_routes'))
        current.set(r.key, r.id);
    }
  }
  return { keys, current, successors };
}

/** Every session with transcript rows, with its key and last row. */
export function listDbSessions(db: ReadOnlyDatabase, schema: AgentDbSchema): DbSession[] {
  if (!readable(schema)) return [];
  const createdAt = schema.eventColumns.has('created_at')
    ? '(SELECT created_at FROM transcript_events e WHERE e.session_id = s.id ORDER BY e.seq DESC LIMIT 1)'
    : 'NULL';
  // A loose index scan over the primary key: one step per session, not per row.
  const rows = db.all<{ id: string; last_seq: number; last_at: number | null }>(
    `WITH RECURSIVE s(id) AS (
       SELECT (SELECT min(session_id) FROM transcript_events)
       UNION ALL
       SELECT (SELECT min(session_id) FROM transcript_events WHERE session_id > s.id) FROM s WHERE s.id IS NOT NULL
     )
     SELECT id, (SELECT max(seq) FROM transcript_events e WHERE e.session_id = s.id) AS last_seq, ${createdAt} AS last_at
     FROM s WHERE id IS NOT NULL`,
  );
  const { keys, current, successors } = sessionKeys(db);
  return rows.map((r) => {
    const info = keys.get(r.id) ?? {};
    const holder = info.key !== undefined ? current.get(info.key) : undefined;
    const session: DbSession = {
      sessionId: r.id,
      ended: successors.has(r.id) || (holder !== undefined && holder !== r.id),
      lastSeq: numberOf(r.last_seq) ?? 0,
    };
    if (info.key !== undefined) session.sessionKey = info.key;
    if (info.previous !== undefined) session.previousSessionId = info.previous;
    if (info.reason !== undefined) session.reason = info.reason;
    if (info.hook !== undefined) session.hookSource = info.hook;
    const at = numberOf(r.last_at);
    if (at !== null) session.lastCreatedAt = at;
    return session;
  });
}

export interface AgentDatabase {
  agent: string;
  path: string;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The agent databases under the state dirs (each real path once), sorted by agent. */
export async function findAgentDatabases(stateDirs: readonly string[], agents?: readonly string[]): Promise<AgentDatabase[]> {
  const filter = agents && agents.length > 0 ? new Set(agents) : null;
  const out: AgentDatabase[] = [];
  const seen = new Set<string>();
  for (const stateDir of stateDirs) {
    const agentsDir = join(stateDir, 'agents');
    let names: string[];
    try {
      names = (await readdir(agentsDir)).sort();
    } catch {
      continue;
    }
    for (const agent of names) {
      if (agent.startsWith('.') || (filter && !filter.has(agent))) continue;
      const path = join(agentsDir, agent, 'agent', AGENT_DB_FILE);
      // Only a regular file (symbolic links followed): opening a FIFO would block the job under the lock (docs/trust.md).
      if (!isRegularFile(path)) continue;
      let real = path;
      try {
        real = realpathSync(path);
      } catch {
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      out.push({ agent, path });
    }
  }
  return out;
}

/** Size on disk of a database with its WAL. */
export async function databaseBytes(path: string): Promise<number> {
  let total = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      total += (await stat(p)).size;
    } catch {
      // no WAL
    }
  }
  return total;
}

// ---------------------------------------------------------------------------
// Cursor

interface DbCursor extends BranchState {
  v: 1;
  /** Last seq consumed (-1: none yet). */
  seq: number;
  /** Fingerprint of the row at `seq`, to notice a rewritten transcript. */
  fp: string;
  /** The session's transcript generation when last read ('' = unknown; see GENERATION_TABLES). */
  gen: string;
  /** Schema version already warned about for this stream. */
  sv: number;
  rewinds: number;
}

function parseDbCursor(cursor: Cursor | undefined): DbCursor | undefined {
  if (cursor?.v !== 1 || typeof cursor.seq !== 'number') return undefined;
  const c = cursor as Partial<DbCursor>;
  return {
    v: 1,
    seq: c.seq!,
    fp: typeof c.fp === 'string' ? c.fp : '',
    gen: typeof c.gen === 'string' ? c.gen : '',
    sv: typeof c.sv === 'number' ? c.sv : 0,
    rewinds: typeof c.rewinds === 'number' ? c.rewinds : 0,
    ...branchStateOf(c),
  };
}

// ---------------------------------------------------------------------------
// The source

export function createOpenClawDbSource(options: OpenClawDbSourceOptions): TranscriptSource {
  const lookAhead = options.lookAhead ?? DEFAULT_LOOK_AHEAD;
  const dedupeWindow = options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW;
  const maxRowBytes = options.maxRowBytes ?? DEFAULT_MAX_ROW_BYTES;
  const busyTimeoutMs = options.busyTimeoutMs ?? 2000;
  const warnedVersions = new Set<string>();
  const log = (level: 'info' | 'warn', event: string, fields: Record<string, unknown>) => options.logger?.log(level, event, fields);

  function warnNewerSchema(path: string, schema: AgentDbSchema): void {
    const id = `${path}\u0000${schema.version}`;
    if (schema.version <= KNOWN_SCHEMA_VERSION || warnedVersions.has(id)) return;
    warnedVersions.add(id);
    log('warn', 'openclaw_db.newer_schema', {
      path,
      version: schema.version,
      known: KNOWN_SCHEMA_VERSION,
      hint: 'This OpenClaw is newer than OC-Memory knows; the known transcript columns are read. Update OC-Memory when you can.',
    });
  }

  /**
   * Open handles, kept for a moment between the reads of one tick (opening
   * and inspecting a database for each of hundreds of sessions is the
   * slowest part of an idle tick). An idle connection holds no lock and no
   * read transaction, so keeping it does not hinder OpenClaw. The schema is
   * re-inspected whenever SQLite's schema cookie changes, and the file is
   * reopened when its inode changes.
   */
  interface OpenDb {
    db: ReadOnlyDatabase;
    ino: number;
    cookie: number;
    schema: AgentDbSchema;
    timer?: NodeJS.Timeout;
  }
  const handles = new Map<string, OpenDb>();

  function closeHandle(path: string): void {
    const entry = handles.get(path);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.db.close();
    handles.delete(path);
  }

  async function acquire(path: string): Promise<OpenDb> {
    const ino = (await stat(path).catch(() => null))?.ino ?? -1;
    let entry = handles.get(path);
    if (entry) {
      clearTimeout(entry.timer);
      if (entry.ino !== ino) {
        closeHandle(path);
        entry = undefined;
      }
    }
    if (!entry) {
      const db = await openReadOnly(path, { busyTimeoutMs });
      entry = { db, ino, cookie: Number.NaN, schema: undefined as unknown as AgentDbSchema };
      handles.set(path, entry);
    }
    const cookie = numberOf(entry.db.pragma('schema_version')) ?? 0;
    if (cookie !== entry.cookie) {
      entry.schema = inspectSchema(entry.db);
      entry.cookie = cookie;
    }
    return entry;
  }

  /** Run `fn` on the open database; a locked or changing database means "not now". */
  async function withDb<T>(
    path: string,
    what: string,
    fn: (db: ReadOnlyDatabase, schema: AgentDbSchema) => T,
  ): Promise<{ value: T } | { retry: string }> {
    try {
      const entry = await acquire(path);
      const value = fn(entry.db, entry.schema);
      entry.timer = setTimeout(() => closeHandle(path), IDLE_CLOSE_MS);
      entry.timer.unref();
      return { value };
    } catch (error) {
      closeHandle(path);
      if (isBusyError(error) || isSchemaError(error)) {
        const reason = isBusyError(error) ? 'locked' : 'schema changing';
        log('warn', 'openclaw_db.retry_later', { path, what, reason, error: (error as Error).message });
        return { retry: reason };
      }
      if (error instanceof OcmError && error.code === 'NOT_FOUND') return { retry: 'missing' };
      if (isCorruptError(error)) {
        throw new OcmError('IO_ERROR', `The OpenClaw database ${path} cannot be read: ${(error as Error).message}.`, {
          hint: 'Run `openclaw doctor` to check it. OC-Memory only reads it and will try again on the next run; the cursor did not move.',
          cause: error,
        });
      }
      throw error;
    }
  }

  async function discover(): Promise<SourceStream[]> {
    const streams: SourceStream[] = [];
    for (const { agent, path } of await findAgentDatabases(options.stateDirs, options.agents)) {
      const result = await withDb(path, 'discover', (db, schema) => {
        if (!readable(schema)) {
          if (schema.eventColumns.size > 0) log('warn', 'openclaw_db.unreadable_schema', { path, columns: [...schema.eventColumns] });
          return [];
        }
        return listDbSessions(db, schema);
      });
      if ('retry' in result) continue;
      for (const s of result.value) {
        // A hook's session (an alert OC-Memory posted to /hooks/agent, a Gmail push) is not the user talking.
        if (s.hookSource !== undefined) continue;
        const stream: SourceStream = { key: `openclaw-db:${agent}:${s.sessionId}`, kind: 'openclaw-db', agent, session: s.sessionId, path };
        if (s.ended) stream.ended = true;
        streams.push(stream);
      }
    }
    return streams;
  }

  async function read(stream: SourceStream, rawCursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk> {
    const notNow: StreamChunk = { messages: [], cursor: rawCursor ?? {}, malformed: [], done: true };
    const result = await withDb(stream.path, 'read', (db, schema) => readChunk(db, schema, stream, parseDbCursor(rawCursor), limits));
    return 'retry' in result || result.value === null ? notNow : result.value;
  }

  /**
   * One chunk. Rows come in pages of PAGE_ROWS, each page its own short read
   * transaction (autocommit); decoding happens between pages, never inside one.
   */
  function readChunk(
    db: ReadOnlyDatabase,
    schema: AgentDbSchema,
    stream: SourceStream,
    previous: DbCursor | undefined,
    limits: ReadLimits,
  ): StreamChunk | null {
    const path = stream.path;
    const session = stream.session;
    if (!readable(schema)) return null;
    let cursor = previous;
    if (schema.version > KNOWN_SCHEMA_VERSION && (cursor?.sv ?? 0) < schema.version) warnNewerSchema(path, schema);

    const gen = schema.generations
      ? String(db.get<{ g: unknown }>(`SELECT generation AS g FROM ${schema.generations} WHERE session_id = ?`, session)?.g ?? '')
      : '';
    if (cursor && cursor.seq >= 0) {
      let reason: string | null = null;
      if (cursor.gen !== '' && gen !== '' && cursor.gen !== gen) reason = 'transcript generation changed';
      else {
        const at = db.get<EventRow>(
          `SELECT seq, event_json${schema.compressed ? ', event_zstd' : ''} FROM transcript_events WHERE session_id = ? AND seq = ?`,
          session,
          cursor.seq,
        );
        if (!at || rowFingerprint(at) !== cursor.fp) reason = 'transcript rewritten';
      }
      if (reason) {
        log('info', 'transcripts.reread', { key: stream.key, path, reason });
        cursor = { ...cursor, ...rewindBranchState(cursor), seq: -1, fp: '', rewinds: cursor.rewinds + 1 };
      }
    }

    const page = db.prepare<EventRow>(
      `SELECT ${payloadColumns(schema)} FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ${PAGE_ROWS}`,
    );
    let buffer: EventRow[] = [];
    let at = 0;
    let after = cursor?.seq ?? -1;
    let exhausted = false;
    const nextRow = (): EventRow | undefined => {
      if (at >= buffer.length) {
        if (exhausted) return undefined;
        buffer = page(session, after);
        at = 0;
        if (buffer.length < PAGE_ROWS) exhausted = true;
        if (buffer.length === 0) return undefined;
        after = numberOf(buffer[buffer.length - 1]!.seq) ?? after;
      }
      const row = buffer[at++]!;
      row.seq = numberOf(row.seq) ?? 0;
      return row;
    };
    const parse = (row: EventRow): { entry?: unknown; error?: string; size: number } => {
      const decoded = decodeEventPayload(row, maxRowBytes);
      if ('error' in decoded) return { error: decoded.error, size: numberOf(row.event_utf8_bytes) ?? 0 };
      const size = Buffer.byteLength(decoded.text);
      try {
        return { entry: JSON.parse(decoded.text) as unknown, size };
      } catch (error) {
        return { error: invalidJsonReason(error), size };
      }
    };

    // Decode and normalise with the file era's rules (pi-entries.ts); `end` plays the byte offset.
    const ctx: PiContext = { source: 'openclaw-db', agent: stream.agent, session, masking: options.masking };
    const malformed: MalformedRecord[] = [];
    let branch: BranchState = cursor ?? emptyBranchState();
    interface Consumed extends ConsumedEntry {
      row: EventRow;
    }
    const consumed: Consumed[] = [];
    const nodes: LookAheadNode[] = [];
    const maxMessages = Math.max(1, limits.maxMessages);
    const maxBytes = Math.max(1, limits.maxBytes);
    let offset = 0;
    let candidates = 0;
    let eof = false;
    let segmentEnded = false;
    for (;;) {
      const row = nextRow();
      if (!row) {
        eof = true;
        break;
      }
      const parsed = parse(row);
      offset += parsed.size + 1;
      let result: Consumed['result'] = null;
      let node: Consumed['node'] = null;
      if (parsed.error !== undefined) {
        malformed.push({ path, line: `${session}#${row.seq}`, reason: parsed.error });
      } else {
        node = treeNodeOf(parsed.entry);
        result = normalizePiEntry(parsed.entry, ctx);
        if (result.kind === 'invalid') malformed.push({ path, line: `${session}#${row.seq}`, reason: result.reason });
        if (result.kind === 'message') candidates += 1;
      }
      let nodeIndex = -1;
      if (node) {
        nodeIndex = nodes.length;
        nodes.push({ ...node, end: offset });
      }
      consumed.push({ row, nodeIndex, result, node });
      // A reset boundary (/new, /reset in the same session) ends the chunk: what came before it is one finished segment.
      if (result !== null && result.kind === 'boundary') {
        segmentEnded = true;
        break;
      }
      if (candidates >= maxMessages || offset >= maxBytes) break;
    }
    // Look ahead (without consuming) far enough to judge the branch of every consumed entry.
    const decided = nodes.length;
    let moreRows = false;
    if (!eof) {
      const lastEnd = offset;
      for (;;) {
        const row = nextRow();
        if (!row) break;
        moreRows = true;
        const parsed = parse(row);
        offset += parsed.size + 1;
        const node = parsed.entry === undefined ? null : treeNodeOf(parsed.entry);
        if (node) nodes.push({ ...node, end: offset });
        if (nodes.length - decided >= lookAhead.entries || offset - lastEnd >= lookAhead.bytes) break;
      }
    }
    const settled = settleConsumed(consumed, nodes, decided, lookAhead, branch, dedupeWindow);
    branch = settled.branch;
    const messages: Message[] = [];
    for (const { item, message: m } of settled.emitted) {
      const created = numberOf(item.row.created_at);
      if (m.time === '' && created !== null) m.time = new Date(created).toISOString();
      if (m.entryId === '') m.entryId = `seq:${item.row.seq}`;
      messages.push(m);
    }

    const last = consumed[consumed.length - 1];
    const next: DbCursor = {
      v: 1,
      seq: last ? last.row.seq : (cursor?.seq ?? -1),
      fp: last ? rowFingerprint(last.row) : (cursor?.fp ?? ''),
      gen,
      sv: Math.max(cursor?.sv ?? 0, schema.version > KNOWN_SCHEMA_VERSION ? schema.version : 0),
      rewinds: cursor?.rewinds ?? 0,
      ...branch,
    };
    const done = eof || !moreRows;
    if (done && stream.ended) {
      // A finished session: nothing more will come, so the dedupe memory is no longer needed.
      next.recent = '';
      next.cand = '';
    }
    const chunk: StreamChunk = { messages, cursor: next as unknown as Cursor, malformed, done };
    if (segmentEnded) chunk.segmentEnded = true;
    return chunk;
  }

  return { kind: 'openclaw-db', discover, read };
}
