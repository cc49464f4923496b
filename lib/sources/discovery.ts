/**
 * Discovery (`ocm-run sources`): every transcript source found on this
 * machine — whether observed or not — with its kind, path, agents, sessions,
 * size, last entry time, how far the cursors have read, and whether it is
 * enabled. Read-only: databases are opened read-only, files only stat'ed
 * (the sessions are found by the sources' own discover()).
 *
 * Defaults (config-schema.ts): every OpenClaw agent is observed (file and
 * database era); pi, Claude Code, Codex and generic logs are opt-in.
 */
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { describeError } from '../core/errors.js';
import type { Config } from '../config/config-schema.js';
import { readState, type StreamState } from '../platform/state.js';
import type { SourceKind, SourceStream, TranscriptSource } from '../core/types.js';
import { isoTime } from './message-text.js';
import { openRegularFile } from './jsonl-tail.js';
import { maskingOptions } from './registry.js';
import { AGENT_SOURCES, openClawStateDirs, SOURCE_DESCRIPTORS } from './descriptors.js';
import { exists } from '../platform/home.js';

export interface SourceCursorSummary {
  /** Sessions that have a cursor. */
  sessionsObserved: number;
  /** Sessions with content the cursor has not reached yet. */
  sessionsBehind: number;
  /** Bytes read of `sizeBytes` (file sources). */
  bytesRead?: number;
  /** Rows not read yet (database source). */
  rowsBehind?: number;
  messages: number;
  /** When a cursor last moved. */
  updatedAt: string | null;
}

export interface SourceReport {
  kind: SourceKind;
  /** Display name: the kind, or `generic:<name>`. */
  name: string;
  /** The folder, database file or glob read. */
  path: string;
  /** Something exists there. */
  found: boolean;
  /** Read by observe/run with the current config. */
  enabled: boolean;
  /** The config key that turns it on or off. */
  configKey: string;
  agents: string[];
  sessions: number;
  sizeBytes: number;
  /** Newest entry (ISO): the last database row, the last timestamped line of a JSONL transcript, or a log file's modification time. */
  lastEntryAt: string | null;
  cursor: SourceCursorSummary;
  notes: string[];
}

export interface DiscoveryOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  /** `.ocm/state.json`, for cursor positions. */
  statePath: string;
  home?: string;
}

function numberField(cursor: unknown, field: string): number | undefined {
  const value = (cursor as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'number' ? value : undefined;
}

function emptyCursor(): SourceCursorSummary {
  return { sessionsObserved: 0, sessionsBehind: 0, messages: 0, updatedAt: null };
}

function newer(a: string | null, b: string | null | undefined): string | null {
  if (!b) return a;
  return a === null || b > a ? b : a;
}

async function mtimeIso(path: string): Promise<string | null> {
  try {
    return (await stat(path)).mtime.toISOString();
  } catch {
    return null;
  }
}

const TAIL_BYTES = 64 * 1024;

/**
 * Time of the last entry of a JSONL transcript: the `timestamp` of the last
 * line that has one (within the file's last 64 KB); else the file's mtime.
 */
export async function lastEntryTime(path: string): Promise<string | null> {
  try {
    const handle = await openRegularFile(path);
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      const lines = buffer.toString('utf8').split('\n');
      for (let i = lines.length - 1; i >= (size > length ? 1 : 0); i--) {
        const line = lines[i]!.trim();
        if (!line.startsWith('{')) continue;
        try {
          const time = isoTime((JSON.parse(line) as Record<string, unknown>).timestamp);
          if (time) return time;
        } catch {
          // a torn or partial line: try the one before
        }
      }
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  return mtimeIso(path);
}

/** Drop dirs that are the same folder as an earlier one (~/.clawdbot → ~/.openclaw). */
function uniqueReal(dirs: string[]): string[] {
  const seen = new Set<string>();
  return dirs.filter((dir) => {
    let real = dir;
    try {
      real = realpathSync(dir);
    } catch {
      // missing: keep it, it is reported as not found
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** Summarise file streams (sizes, mtimes, cursor offsets) into one report. */
async function fileReport(
  base: Omit<SourceReport, 'sessions' | 'sizeBytes' | 'lastEntryAt' | 'cursor' | 'agents'> & { agents?: string[] },
  streams: SourceStream[],
  state: Record<string, StreamState>,
): Promise<SourceReport> {
  const cursor = emptyCursor();
  cursor.bytesRead = 0;
  let size = 0;
  let last: string | null = null;
  const agents = new Set(base.agents ?? []);
  for (const s of streams) {
    agents.add(s.agent);
    const bytes = s.size ?? 0;
    size += bytes;
    last = newer(last, s.kind === 'generic' ? await mtimeIso(s.path) : await lastEntryTime(s.path));
    const st = state[s.key];
    if (!st) {
      if (bytes > 0) cursor.sessionsBehind++;
      continue;
    }
    cursor.sessionsObserved++;
    cursor.messages += st.messages;
    cursor.updatedAt = newer(cursor.updatedAt, st.updatedAt);
    const offset = numberField(st.cursor, 'offset') ?? 0;
    // A cursor on a rotated-away file says nothing about the current one.
    const samePath =
      typeof (st.cursor as Record<string, unknown>).path !== 'string' || (st.cursor as Record<string, unknown>).path === s.path;
    const read = samePath ? Math.min(offset, bytes) : 0;
    cursor.bytesRead += read;
    if (read < bytes) cursor.sessionsBehind++;
  }
  return { ...base, agents: [...agents].sort(), sessions: streams.length, sizeBytes: size, lastEntryAt: last, cursor };
}

async function discoverSafely(source: TranscriptSource, notes: string[]): Promise<SourceStream[]> {
  try {
    return await source.discover();
  } catch (error) {
    notes.push(`could not list: ${describeError(error).message}`);
    return [];
  }
}

export async function discoverSources(options: DiscoveryOptions): Promise<SourceReport[]> {
  const { config, env } = options;
  const home = options.home ?? homedir();
  const masking = maskingOptions(config);
  const { state } = await readState(options.statePath);
  const reports: SourceReport[] = [];
  const agentFilter = config.sources.openclaw.agents;
  const agentObserved = (agent: string) => agentFilter.length === 0 || agentFilter.includes(agent);
  const { openclaw, 'openclaw-db': openclawDb, generic } = SOURCE_DESCRIPTORS;

  // OpenClaw, file era: one report per (state dir, agent).
  const stateDirs = uniqueReal(await openClawStateDirs(config, env, home));
  const { createOpenClawFileSource } = await import('./openclaw-files.js');
  for (const stateDir of stateDirs) {
    const notes: string[] = [];
    const streams = await discoverSafely(createOpenClawFileSource({ stateDirs: [stateDir], masking }), notes);
    const byAgent = new Map<string, SourceStream[]>();
    for (const s of streams) byAgent.set(s.agent, [...(byAgent.get(s.agent) ?? []), s]);
    for (const [agent, list] of [...byAgent].sort(([a], [b]) => a.localeCompare(b))) {
      reports.push(
        await fileReport(
          {
            kind: openclaw.kind,
            name: openclaw.kind,
            path: `${stateDir}/agents/${agent}/sessions`,
            found: true,
            enabled: openclaw.enabled(config) && agentObserved(agent),
            configKey: `sources.${openclaw.configKey}.enabled`,
            agents: [agent],
            notes,
          },
          list,
          state.streams,
        ),
      );
    }
  }

  // OpenClaw, database era: one report per agent database.
  const db = await import('./openclaw-db.js');
  const { withReadOnlyDatabase, isBusyError } = await import('../platform/sqlite.js');
  for (const { agent, path } of await db.findAgentDatabases(stateDirs)) {
    const notes: string[] = [];
    let sessions: import('./openclaw-db.js').DbSession[] = [];
    try {
      sessions = await withReadOnlyDatabase(
        path,
        (handle) => {
          const schema = db.inspectSchema(handle);
          if (schema.version > db.KNOWN_SCHEMA_VERSION)
            notes.push(`schema version ${schema.version} is newer than ${db.KNOWN_SCHEMA_VERSION}: the known columns are read`);
          if (schema.eventColumns.size === 0) notes.push('no transcript_events table (yet)');
          return db.listDbSessions(handle, schema);
        },
        { busyTimeoutMs: 500 },
      );
    } catch (error) {
      notes.push(
        isBusyError(error) ? 'locked by OpenClaw right now; listed on the next try' : `could not read: ${describeError(error).message}`,
      );
    }
    const hooks = sessions.filter((s) => s.hookSource !== undefined).length;
    if (hooks > 0) notes.push(`${hooks} hook session${hooks === 1 ? '' : 's'} (webhook, Gmail) not observed`);
    sessions = sessions.filter((s) => s.hookSource === undefined);
    const cursor = emptyCursor();
    cursor.rowsBehind = 0;
    let last: number | null = null;
    for (const s of sessions) {
      if (s.lastCreatedAt !== undefined) last = last === null ? s.lastCreatedAt : Math.max(last, s.lastCreatedAt);
      const st = state.streams[`openclaw-db:${agent}:${s.sessionId}`];
      const seq = st ? (numberField(st.cursor, 'seq') ?? -1) : -1;
      if (st) {
        cursor.sessionsObserved++;
        cursor.messages += st.messages;
        cursor.updatedAt = newer(cursor.updatedAt, st.updatedAt);
      }
      if (seq < s.lastSeq) {
        cursor.sessionsBehind++;
        cursor.rowsBehind += s.lastSeq - Math.max(seq, 0);
      }
    }
    const ended = sessions.filter((s) => s.ended).length;
    if (ended > 0) notes.push(`${ended} of ${sessions.length} sessions ended (/new or /reset)`);
    reports.push({
      kind: openclawDb.kind,
      name: openclawDb.kind,
      path,
      found: true,
      enabled: openclawDb.enabled(config) && agentObserved(agent),
      configKey: `sources.${openclawDb.configKey}.enabled`,
      agents: [agent],
      sessions: sessions.length,
      sizeBytes: await db.databaseBytes(path),
      lastEntryAt: last === null ? null : new Date(last).toISOString(),
      cursor,
      notes,
    });
  }
  if (stateDirs.length === 0 || !reports.some((r) => r.kind === 'openclaw' || r.kind === 'openclaw-db')) {
    reports.push({
      kind: openclaw.kind,
      name: openclaw.kind,
      path: stateDirs[0] ?? `${home}/.openclaw`,
      found: false,
      enabled: openclaw.enabled(config),
      configKey: `sources.${openclaw.configKey}.enabled`,
      agents: [],
      sessions: 0,
      sizeBytes: 0,
      lastEntryAt: null,
      cursor: emptyCursor(),
      notes: ['no OpenClaw transcripts found (set sources.openclaw.state_dirs or $OPENCLAW_STATE_DIR if they live elsewhere)'],
    });
  }

  // Other agents: opt-in, one report per session-folder descriptor.
  for (const d of AGENT_SOURCES) {
    const dir = await d.dir(config, env, home);
    const notes: string[] = [];
    const found = await exists(dir);
    const streams = found ? await discoverSafely(await d.createReader(dir, config, { masking }), notes) : [];
    reports.push(
      await fileReport(
        {
          kind: d.kind,
          name: d.kind,
          path: dir,
          found: found && streams.length > 0,
          enabled: config.sources[d.configKey].enabled,
          configKey: `sources.${d.configKey}.enabled`,
          agents: [d.agent(config)],
          notes,
        },
        streams,
        state.streams,
      ),
    );
  }

  // Generic logs: as configured.
  const { createGenericSource } = await import('./generic.js');
  for (const [index, g] of config.sources.generic.entries()) {
    const notes: string[] = [];
    let streams: SourceStream[] = [];
    try {
      streams = await discoverSafely(createGenericSource({ config: g, index, masking, home }), notes);
    } catch (error) {
      notes.push(describeError(error).message);
    }
    reports.push(
      await fileReport(
        {
          kind: generic.kind,
          name: `generic:${g.name}`,
          path: g.path,
          found: streams.length > 0,
          enabled: g.enabled,
          configKey: `sources.${generic.configKey}.${index}.enabled`,
          agents: [g.agent || 'main'],
          notes,
        },
        streams,
        state.streams,
      ),
    );
  }
  return reports;
}
