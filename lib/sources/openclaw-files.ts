/**
 * OpenClaw file-era transcripts (and the pi agent's own sessions): pi session
 * format v3 JSONL files, read incrementally and read-only.
 *
 * Layout (docs/transcripts.md):
 *   <state>/agents/<agentId>/sessions/<sessionId>.jsonl          active session
 *   <sessionId>-topic-<threadId>.jsonl                            Telegram topic: its own session
 *   <sessionId>.jsonl.reset.<ISO, ':'→'-'>                        after /new or /reset
 *   <sessionId>.jsonl.deleted.<ts>                                deleted in OpenClaw
 *   <sessionId>.jsonl.bak.<ts>                                    backup copy
 *   <sessionId>.checkpoint.<uuid>.jsonl                           copy: ignored
 *   ~/.pi/agent/sessions/--<cwd>--/<ts>_<uuid>.jsonl             pi (agent "pi")
 *
 * One stream per (agent, session id), key `<kind>:<agent>:<sessionId>`, so a
 * renamed file keeps its cursor. The rules for rotated files, backups,
 * shrink/replace detection and dedupe are in docs/transcripts.md.
 *
 * This module finds the streams and decides which file of a session a read
 * continues, and from where; the read of that file is pi-file-chunk.ts's,
 * its entries pi-entries.ts's, their branches pi-branches.ts's.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorCode } from '../core/errors.js';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, ReadLimits, SourceKind, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { DEFAULT_MAX_LINE_BYTES } from './jsonl-tail.js';
import { readTranscriptFile, statFile } from './tailed-file.js';
import { DEFAULT_DEDUPE_WINDOW, DEFAULT_LOOK_AHEAD, type LookAheadWindow } from './pi-branches.js';
import { parseFileCursor, PiFileChunkReader, rewoundFileCursor } from './pi-file-chunk.js';

export interface OpenClawFileSourceOptions {
  /** OpenClaw state dirs (see defaultOpenClawStateDirs). Used when kind is 'openclaw'. */
  stateDirs: string[];
  /** Agent ids to read; empty/undefined = all. */
  agents?: string[];
  /** 'openclaw' (default) reads state dirs; 'pi' reads piSessionsDir. */
  kind?: 'openclaw' | 'pi';
  /** pi's sessions folder (see defaultPiSessionsDir). Used when kind is 'pi'. */
  piSessionsDir?: string;
  masking: MaskingOptions;
  logger?: Logger;
  /** Lines longer than this are skipped as malformed (default 4 MiB: inline images are base64). */
  maxLineBytes?: number;
  /** How far after an entry to look for a branch switch that abandons it. */
  lookAhead?: LookAheadWindow;
  /** Entries remembered per stream for dedupe after a branch switch or re-read. */
  dedupeWindow?: number;
}

/** The home folder OpenClaw uses: `$OPENCLAW_HOME` when set (`~` in it is the user's home), else the user's. */
export function openClawHomeDir(env: Record<string, string | undefined>, homedir: string): string {
  const explicit = env.OPENCLAW_HOME?.trim();
  return explicit ? expandHome(explicit, homedir) : homedir;
}

/**
 * Where OpenClaw keeps its state, as OpenClaw decides it: `$OPENCLAW_STATE_DIR` if set, else the
 * existing ones of .openclaw, .clawdbot, .moltbot in OpenClaw's home — `$OPENCLAW_HOME` when set
 * (OpenClaw's own override of the home folder; `~` in either is that home), else the user's.
 */
export function defaultOpenClawStateDirs(
  env: Record<string, string | undefined>,
  homedir: string,
  exists: (path: string) => boolean = existsSync,
): string[] {
  const openClawHome = openClawHomeDir(env, homedir);
  const override = env.OPENCLAW_STATE_DIR?.trim();
  if (override) return [expandHome(override, openClawHome)];
  return ['.openclaw', '.clawdbot', '.moltbot'].map((name) => join(openClawHome, name)).filter((dir) => exists(dir));
}

/**
 * Where pi keeps its sessions, as pi itself decides it (its dist/main.js and
 * config.js): `$PI_CODING_AGENT_SESSION_DIR`; else the `sessionDir` of
 * `<agent dir>/settings.json`; else `<agent dir>/sessions`, the agent dir being
 * `$PI_CODING_AGENT_DIR` or ~/.pi/agent. (A `--session-dir` given on pi's
 * command line is not known here: set `sources.pi.dir` to it.)
 */
export function defaultPiSessionsDir(
  env: Record<string, string | undefined>,
  homedir: string,
  readSettings: (path: string) => string | undefined = readTextIfPresent,
): string {
  const sessionDir = env.PI_CODING_AGENT_SESSION_DIR?.trim();
  if (sessionDir) return expandHome(sessionDir, homedir);
  const envAgentDir = env.PI_CODING_AGENT_DIR?.trim();
  const agentDir = envAgentDir ? expandHome(envAgentDir, homedir) : join(homedir, '.pi', 'agent');
  const configured = settingsSessionDir(readSettings(join(agentDir, 'settings.json')));
  return configured ? expandHome(configured, homedir) : join(agentDir, 'sessions');
}

function readTextIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The `sessionDir` of a pi settings.json text, if it names one. */
function settingsSessionDir(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const settings = JSON.parse(text) as unknown;
    const dir = typeof settings === 'object' && settings !== null ? (settings as { sessionDir?: unknown }).sessionDir : undefined;
    return typeof dir === 'string' && dir.trim().length > 0 ? dir.trim() : undefined;
  } catch {
    return undefined;
  }
}

function expandHome(path: string, homedir: string): string {
  if (path === '~') return homedir;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir, path.slice(2));
  return path;
}

// ---------------------------------------------------------------------------
// File names

export type TranscriptFileRole = 'active' | 'reset' | 'deleted' | 'bak';

export interface TranscriptFileName {
  session: string;
  role: TranscriptFileRole;
  /** Rotation stamp (as in the name) for reset/deleted/bak files. */
  stamp?: string;
}

/** Classify a file name in an OpenClaw sessions folder; null = not a transcript we read. */
export function parseOpenClawFileName(name: string): TranscriptFileName | null {
  if (name.startsWith('.')) return null;
  if (/\.checkpoint\.[^/\\]+\.jsonl$/.test(name)) return null;
  const rotated = /^(.+)\.jsonl\.(reset|deleted|bak)\.(.+)$/.exec(name);
  if (rotated) {
    const stamp = rotated[3] ?? '';
    // Temporary files of atomic writers (…​.tmp) are not rotations.
    if (/\.tmp$|\.lock$/.test(stamp)) return null;
    return { session: rotated[1] ?? '', role: rotated[2] as TranscriptFileRole, stamp };
  }
  const active = /^(.+)\.jsonl$/.exec(name);
  if (active) return { session: active[1] ?? '', role: 'active' };
  return null;
}

/** pi: `<ts>_<uuid>.jsonl` → the uuid; other `*.jsonl` → the base name. */
export function parsePiFileName(name: string): string | null {
  if (name.startsWith('.') || !name.endsWith('.jsonl')) return null;
  const base = name.slice(0, -'.jsonl'.length);
  const match = /_([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/.exec(base);
  return match ? (match[1] ?? base) : base;
}

interface SessionFile {
  path: string;
  name: TranscriptFileName;
}

/**
 * The files that hold one session, in reading order: rotated files (reset /
 * deleted) oldest first, then the active file. Backups are used only when a
 * session has nothing else (then the newest backup alone).
 */
export function orderSessionFiles<T extends { name: TranscriptFileName }>(files: readonly T[]): T[] {
  const main = files.filter((f) => f.name.role !== 'bak');
  const chosen = main.length > 0 ? main : [...files].sort(byStamp).slice(-1);
  return [...chosen].sort((a, b) => {
    const aActive = a.name.role === 'active' ? 1 : 0;
    const bActive = b.name.role === 'active' ? 1 : 0;
    return aActive - bActive || byStamp(a, b);
  });
}

function byStamp(a: { name: TranscriptFileName }, b: { name: TranscriptFileName }): number {
  const x = a.name.stamp ?? '';
  const y = b.name.stamp ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------
// The source

export function createOpenClawFileSource(options: OpenClawFileSourceOptions): TranscriptSource {
  const kind: SourceKind = options.kind ?? 'openclaw';
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const lookAhead = options.lookAhead ?? DEFAULT_LOOK_AHEAD;
  const dedupeWindow = options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW;
  const agentFilter = options.agents && options.agents.length > 0 ? new Set(options.agents) : null;
  const log = (level: 'info' | 'warn', event: string, fields: Record<string, unknown>) => options.logger?.log(level, event, fields);
  const chunks = new PiFileChunkReader({ kind, masking: options.masking, maxLineBytes, lookAhead, dedupeWindow, logger: options.logger });

  async function listDir(path: string): Promise<string[]> {
    try {
      return await readdir(path);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      if (code === 'EACCES' || code === 'EPERM') {
        log('warn', 'transcripts.unreadable_dir', { path, code });
        return [];
      }
      throw error;
    }
  }

  async function sessionFiles(stream: SourceStream): Promise<SessionFile[]> {
    if (kind === 'pi') return [{ path: stream.path, name: { session: stream.session, role: 'active' } }];
    const dir = dirname(stream.path);
    const files: SessionFile[] = [];
    for (const name of await listDir(dir)) {
      const parsed = parseOpenClawFileName(name);
      if (parsed && parsed.session === stream.session) files.push({ path: join(dir, name), name: parsed });
    }
    return orderSessionFiles(files);
  }

  async function discoverOpenClaw(): Promise<SourceStream[]> {
    const streams = new Map<string, SourceStream>();
    const seenDirs = new Set<string>();
    for (const stateDir of options.stateDirs) {
      let real: string;
      try {
        real = realpathSync(stateDir);
      } catch {
        continue; // missing state dir: nothing to read
      }
      if (seenDirs.has(real)) continue; // ~/.clawdbot symlinked to ~/.openclaw
      seenDirs.add(real);
      const agentsDir = join(stateDir, 'agents');
      for (const agent of (await listDir(agentsDir)).sort()) {
        if (agent.startsWith('.') || (agentFilter && !agentFilter.has(agent))) continue;
        const sessionsDir = join(agentsDir, agent, 'sessions');
        const groups = new Map<string, SessionFile[]>();
        for (const name of await listDir(sessionsDir)) {
          const parsed = parseOpenClawFileName(name);
          if (!parsed || parsed.session.length === 0) continue;
          const group = groups.get(parsed.session) ?? [];
          group.push({ path: join(sessionsDir, name), name: parsed });
          groups.set(parsed.session, group);
        }
        for (const [session, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          const ordered = orderSessionFiles(group);
          const current = ordered[ordered.length - 1];
          if (!current) continue;
          const key = `${kind}:${agent}:${session}`;
          if (streams.has(key)) {
            log('warn', 'transcripts.duplicate_session', { key, path: current.path, kept: streams.get(key)?.path });
            continue;
          }
          const stream: SourceStream = { key, kind, agent, session, path: current.path };
          if (current.name.role !== 'active') stream.ended = true;
          try {
            stream.size = (await stat(current.path)).size;
          } catch {
            continue; // vanished between readdir and stat
          }
          streams.set(key, stream);
        }
      }
    }
    return [...streams.values()];
  }

  /**
   * pi's default folder has one sub-folder per working directory
   * (`--<cwd>--/<ts>_<uuid>.jsonl`); a folder set with `--session-dir`,
   * `PI_CODING_AGENT_SESSION_DIR` or `sessionDir` holds the files flat. Both are found.
   */
  async function discoverPi(): Promise<SourceStream[]> {
    const root = options.piSessionsDir;
    if (!root) return [];
    const streams = new Map<string, SourceStream>();
    const add = async (path: string, session: string): Promise<void> => {
      const key = `pi:pi:${session}`;
      if (streams.has(key)) return;
      try {
        const st = await stat(path);
        if (st.isFile()) streams.set(key, { key, kind: 'pi', agent: 'pi', session, path, size: st.size });
      } catch {
        // vanished between readdir and stat
      }
    };
    for (const entry of (await listDir(root)).sort()) {
      const path = join(root, entry);
      const flat = parsePiFileName(entry);
      if (flat) {
        await add(path, flat);
        continue;
      }
      for (const name of (await listDir(path)).sort()) {
        const session = parsePiFileName(name);
        if (session) await add(join(path, name), session);
      }
    }
    return [...streams.values()];
  }

  async function read(stream: SourceStream, rawCursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk> {
    let cursor = parseFileCursor(rawCursor);
    let lastPath = stream.path;

    // Which file, and from where.
    let target: { path: string; ended: boolean } | null = null;
    let startFresh = false;
    const direct = await statFile(stream.path);
    if (cursor && direct && direct.ino === cursor.ino) {
      target = { path: stream.path, ended: stream.ended === true };
    } else if (kind === 'pi') {
      if (!direct) return { messages: [], cursor: rawCursor ?? {}, malformed: [], done: true };
      target = { path: stream.path, ended: false };
      startFresh = cursor !== undefined; // replaced file: re-read with dedupe
    } else {
      const ordered = await sessionFiles(stream);
      if (ordered.length === 0) return { messages: [], cursor: rawCursor ?? {}, malformed: [], done: true };
      let index = 0;
      if (cursor) {
        const inodes = await Promise.all(ordered.map((f) => statFile(f.path)));
        const at = inodes.findIndex((s) => s !== null && s.ino === cursor!.ino);
        if (at === -1) {
          startFresh = true; // the file we were reading is gone or replaced
        } else if ((inodes[at]?.size ?? 0) > cursor.offset || at === ordered.length - 1) {
          index = at;
        } else {
          index = at + 1; // finished this file; the next one of the session starts (it may repeat content)
          startFresh = true;
        }
      }
      const file = ordered[index]!;
      lastPath = ordered[ordered.length - 1]!.path;
      // Every file but the session's current one is finished: its last line counts even without a newline.
      target = { path: file.path, ended: file.name.role !== 'active' || index < ordered.length - 1 };
    }
    if (startFresh && cursor) {
      log('info', 'transcripts.reread', { key: stream.key, path: target.path, reason: 'file replaced or rotated' });
      cursor = rewoundFileCursor(cursor);
    }
    const isLast = target.path === lastPath;
    return readTranscriptFile(target.path, { key: stream.key, cursor: rawCursor, logger: options.logger }, (handle) =>
      chunks.read(handle, { stream, path: target.path, ended: target.ended, cursor, limits, isLastFile: isLast }),
    );
  }

  return {
    kind,
    discover: () => (kind === 'pi' ? discoverPi() : discoverOpenClaw()),
    read,
  };
}
