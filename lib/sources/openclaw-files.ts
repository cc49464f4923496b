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
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { errorCode } from '../core/errors.js';
import type { Logger } from '../platform/log.js';
import type { MaskingOptions } from '../masking/masking.js';
import type { Cursor, MalformedRecord, Message, ReadLimits, SourceKind, SourceStream, StreamChunk, TranscriptSource } from '../core/types.js';
import { DEFAULT_MAX_LINE_BYTES, headHash, iterateLineBatches, readBytes, type LineRecord } from './jsonl-tail.js';
import { HEAD_BYTES, readTranscriptFile, rereadReason, statFile } from './tailed-file.js';
import { normalizePiEntry, type PiContext, type PiEntryResult } from './pi-entries.js';
import {
  DEFAULT_DEDUPE_WINDOW,
  DEFAULT_LOOK_AHEAD,
  emptyBranchState,
  lookAheadNodeOf,
  rewindBranchState,
  settleConsumed,
  type BranchState,
  type ConsumedEntry,
  type LookAheadNode,
  type LookAheadWindow,
} from './pi-branches.js';
import { invalidJsonReason } from './log-safe.js';

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

/** `$OPENCLAW_STATE_DIR` if set, else the existing ones of ~/.openclaw, ~/.clawdbot, ~/.moltbot. */
export function defaultOpenClawStateDirs(
  env: Record<string, string | undefined>,
  homedir: string,
  exists: (path: string) => boolean = existsSync,
): string[] {
  const override = env.OPENCLAW_STATE_DIR?.trim();
  if (override) return [expandHome(override, homedir)];
  return ['.openclaw', '.clawdbot', '.moltbot'].map((name) => join(homedir, name)).filter((dir) => exists(dir));
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
// Cursor

interface FileCursor {
  v: 1;
  /** File last read (informational; the inode decides). */
  path: string;
  ino: string;
  /** Byte offset just after the last consumed line. */
  offset: number;
  /** Line number of the last consumed line. */
  line: number;
  size: number;
  headLen: number;
  headHash: string;
  lastId: string | null;
  recent: string;
  cand: string;
  miss: number;
  quiet: boolean;
  recalled: string;
  /** How many times the stream was re-read from the start (shrink / replace). */
  rewinds: number;
}

function parseCursor(cursor: Cursor | undefined): FileCursor | undefined {
  if (!cursor || cursor.v !== 1) return undefined;
  const c = cursor as Partial<FileCursor>;
  if (typeof c.ino !== 'string' || typeof c.offset !== 'number' || typeof c.line !== 'number') return undefined;
  return {
    v: 1,
    path: typeof c.path === 'string' ? c.path : '',
    ino: c.ino,
    offset: c.offset,
    line: c.line,
    size: typeof c.size === 'number' ? c.size : c.offset,
    headLen: typeof c.headLen === 'number' ? c.headLen : 0,
    headHash: typeof c.headHash === 'string' ? c.headHash : '',
    lastId: typeof c.lastId === 'string' ? c.lastId : null,
    recent: typeof c.recent === 'string' ? c.recent : '',
    cand: typeof c.cand === 'string' ? c.cand : '',
    miss: typeof c.miss === 'number' ? c.miss : 0,
    quiet: c.quiet === true,
    recalled: typeof c.recalled === 'string' ? c.recalled : '',
    rewinds: typeof c.rewinds === 'number' ? c.rewinds : 0,
  };
}

function branchOf(c: FileCursor): BranchState {
  return { lastId: c.lastId, recent: c.recent, cand: c.cand, miss: c.miss, quiet: c.quiet, recalled: c.recalled };
}

/** An entry a read consumed. */
interface Consumed extends ConsumedEntry {
  /** Where its line ends and its number (not the line itself: the text is garbage once parsed). */
  end: number;
  lineNo: number;
}

// ---------------------------------------------------------------------------
// Look-ahead lines carried to the next read

/** A line with its entry once parsed and normalised (undefined: not yet, blank, or not JSON). */
interface ReadLine extends LineRecord {
  prepared?: PreparedEntry;
}

/** What a parsed line is: its tree node and its normalised result. */
interface PreparedEntry {
  node: LookAheadNode | null;
  result: PiEntryResult;
}

function prepareEntry(entry: unknown, end: number, ctx: PiContext): PreparedEntry {
  return { node: lookAheadNodeOf(entry, end), result: normalizePiEntry(entry, ctx) };
}

/**
 * The lines a read looked ahead at (parsed and normalised, not consumed), kept
 * for the next read of the same stream and file, which starts right there: a
 * chunked read of a long transcript then decodes and parses each line once
 * instead of once more per look-ahead. A line is kept as its result, not as
 * its text and parsed entry (a tool output of kilobytes): what is kept from
 * one read to the next outlives young-generation collections and is copied
 * to the old generation. The next read takes them only when its cursor is where they
 * start and the file still holds the very same bytes there (compared byte for
 * byte); only newline-terminated lines are kept, so the same bytes are the
 * same lines and the result is what reading them again would give.
 */
interface CarriedLines {
  /** The stream (the results are normalised for it). */
  key: string;
  ino: string;
  /** Byte offset and line number just before the first carried line. */
  offset: number;
  lineNo: number;
  bytes: Buffer;
  lines: ReadLine[];
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
  /** What the last read looked ahead at (see CarriedLines). */
  let carried: CarriedLines | null = null;

  /** The carried lines if they start at this file's `offset` and the file still holds the same bytes there. */
  async function takeCarried(handle: FileHandle, key: string, ino: string, offset: number, lineNo: number): Promise<CarriedLines | null> {
    const offered = carried;
    carried = null;
    if (!offered || offered.key !== key || offered.ino !== ino || offered.offset !== offset || offered.lineNo !== lineNo) return null;
    const now = await readBytes(handle, offset, offered.bytes.length);
    return now.equals(offered.bytes) ? offered : null;
  }

  /** Keep the newline-terminated lines looked ahead at, with the bytes they were read from. */
  async function carry(handle: FileHandle, key: string, ino: string, offset: number, lineNo: number, lines: ReadLine[]): Promise<void> {
    const count = terminatedLines(lines);
    if (count === 0) return;
    const kept = count === lines.length ? lines : lines.slice(0, count);
    carried = { key, ino, offset, lineNo, bytes: await readBytes(handle, offset, kept[count - 1]!.end - offset), lines: kept };
  }

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
    let cursor = parseCursor(rawCursor);
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
      cursor = rewound(cursor);
    }
    const isLast = target.path === lastPath;
    return readTranscriptFile(target.path, { key: stream.key, cursor: rawCursor, logger: options.logger }, (handle) => readFile(handle, stream, target.path, target.ended, cursor, limits, isLast));
  }

  function rewound(cursor: FileCursor): FileCursor {
    const branch = rewindBranchState(branchOf(cursor));
    return { ...cursor, ...branch, ino: '', offset: 0, line: 0, size: 0, headLen: 0, headHash: '', rewinds: cursor.rewinds + 1 };
  }

  async function readFile(
    handle: FileHandle,
    stream: SourceStream,
    path: string,
    ended: boolean,
    previous: FileCursor | undefined,
    limits: ReadLimits,
    isLastFile: boolean,
  ): Promise<StreamChunk> {
    const st = await handle.stat({ bigint: true });
    const ino = String(st.ino);
    const size = Number(st.size);
    let cursor = previous;
    if (cursor && cursor.ino !== '' && cursor.ino !== ino) {
      log('info', 'transcripts.reread', { key: stream.key, path, reason: 'inode changed' });
      cursor = rewound(cursor);
    }
    if (cursor && cursor.ino === ino) {
      const reason = await rereadReason(handle, cursor, size);
      if (reason) {
        log('info', 'transcripts.reread', { key: stream.key, path, reason });
        cursor = rewound(cursor);
      }
    }
    let branch = cursor ? branchOf(cursor) : emptyBranchState();
    const offset = cursor?.offset ?? 0;
    const lineNo = cursor?.line ?? 0;

    const ctx: PiContext = { source: kind, agent: stream.agent, session: stream.session, masking: options.masking };
    const malformed: MalformedRecord[] = [];
    const consumed: Consumed[] = [];
    const nodes: LookAheadNode[] = [];
    const maxMessages = Math.max(1, limits.maxMessages);
    const maxBytes = Math.max(1, limits.maxBytes);

    // Lines come in batches (one per buffer read): an await per batch, not per line. The first
    // batch may be the previous read's look-ahead, already parsed.
    const reuse = await takeCarried(handle, stream.key, ino, offset, lineNo);
    let batch: ReadLine[] = reuse ? reuse.lines : [];
    let at = 0;
    const resume = reuse ? { offset: offset + reuse.bytes.length, lineNo: batch[batch.length - 1]!.lineNo } : { offset, lineNo };
    const batches = iterateLineBatches(handle, { ...resume, maxLineBytes, includeUnterminated: ended });
    /** The next line, or undefined at the end of the file. */
    const nextLine = async (): Promise<ReadLine | undefined> => {
      if (at === batch.length) {
        const next = await batches.next();
        if (next.done) return undefined;
        batch = next.value;
        at = 0;
      }
      return batch[at++];
    };
    let bytes = 0;
    let candidates = 0;
    let eof = false;
    let segmentEnded = false;
    for (;;) {
      const record = at < batch.length ? batch[at++]! : await nextLine();
      if (record === undefined) {
        eof = true;
        break;
      }
      let prepared = record.prepared;
      if (prepared === undefined) {
        const parsed = parseLine(record, path, malformed, maxLineBytes);
        if (parsed !== undefined) prepared = prepareEntry(parsed, record.end, ctx);
      }
      const node = prepared === undefined ? null : prepared.node;
      let result: Consumed['result'] = null;
      if (prepared !== undefined) {
        result = prepared.result;
        if (prepared.result.kind === 'invalid') malformed.push({ path, line: record.lineNo, reason: prepared.result.reason });
        if (prepared.result.kind === 'message') candidates += 1;
      }
      let nodeIndex = -1;
      if (node) {
        nodeIndex = nodes.length;
        nodes.push(node);
      }
      consumed.push({ end: record.end, lineNo: record.lineNo, nodeIndex, result, node });
      bytes += record.end - record.start;
      // A reset boundary ends the chunk: what came before it is one finished segment.
      if (result !== null && result.kind === 'boundary') {
        segmentEnded = true;
        break;
      }
      if (candidates >= maxMessages || bytes >= maxBytes) break;
    }

    // Look ahead (without consuming) far enough to judge the branch of every consumed entry.
    let moreLines = false;
    const lookedAt: ReadLine[] = [];
    const lastEnd = consumed[consumed.length - 1]?.end ?? offset;
    if (!eof) {
      const decided = nodes.length;
      for (;;) {
        const record = at < batch.length ? batch[at++]! : await nextLine();
        if (record === undefined) break;
        moreLines = true;
        if (record.prepared === undefined && record.text !== undefined) {
          const entry = safeParse(record.text);
          if (entry !== undefined) {
            record.prepared = prepareEntry(entry, record.end, ctx);
            record.text = undefined; // not needed any more (a line that did not parse keeps it for its error)
          }
        }
        const node = record.prepared === undefined ? null : record.prepared.node;
        if (node) nodes.push(node);
        lookedAt.push(record);
        if (nodes.length - decided >= lookAhead.entries || record.end - lastEnd >= lookAhead.bytes) break;
      }
    }
    await batches.return(undefined);
    await carry(handle, stream.key, ino, lastEnd, consumed[consumed.length - 1]?.lineNo ?? lineNo, lookedAt);
    const decideCount = consumed.reduce((n, c) => (c.nodeIndex >= 0 ? n + 1 : n), 0);
    const settled = settleConsumed(consumed, nodes, decideCount, lookAhead, branch, dedupeWindow);
    branch = settled.branch;
    const messages = settled.emitted.map((e) => e.message);

    const last = consumed[consumed.length - 1];
    const endOffset = last ? last.end : offset;
    const headLen = Math.min(HEAD_BYTES, size);
    const done = (eof || !moreLines) && isLastFile;
    const next: FileCursor = {
      v: 1,
      path,
      ino,
      offset: endOffset,
      line: last ? last.lineNo : lineNo,
      size: Math.max(size, endOffset),
      headLen,
      headHash: await headHash(handle, headLen),
      ...branch,
      rewinds: cursor?.rewinds ?? 0,
    };
    if (done && ended) {
      // A finished rotated file: nothing more will come, so the dedupe memory is no longer needed.
      next.recent = '';
      next.cand = '';
    }
    const chunk: StreamChunk = { messages, cursor: next as unknown as Cursor, malformed, done };
    if (segmentEnded) chunk.segmentEnded = true;
    return chunk;
  }

  return {
    kind,
    discover: () => (kind === 'pi' ? discoverPi() : discoverOpenClaw()),
    read,
  };
}

/**
 * How many lines from the first end with a newline (an unterminated line may still grow). A
 * function of its own: as a loop inside the async `carry`, it had that whole function optimised.
 */
function terminatedLines(lines: readonly LineRecord[]): number {
  let count = 0;
  while (count < lines.length && lines[count]!.end - lines[count]!.start === lines[count]!.bytes + 1) count++;
  return count;
}

function safeParse(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Parse one line; problems are recorded and yield undefined. Blank lines are silently skipped. */
function parseLine(record: LineRecord, path: string, malformed: MalformedRecord[], maxLineBytes: number): unknown {
  if (record.problem === 'too-long') {
    malformed.push({ path, line: record.lineNo, reason: `line of ${record.bytes} bytes exceeds the ${maxLineBytes}-byte limit` });
    return undefined;
  }
  if (record.problem === 'invalid-utf8') {
    malformed.push({ path, line: record.lineNo, reason: 'invalid UTF-8' });
    return undefined;
  }
  const text = record.text ?? '';
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    malformed.push({ path, line: record.lineNo, reason: invalidJsonReason(error) });
    return undefined;
  }
}

