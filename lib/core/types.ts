/**
 * Core data types shared by every module: transcript messages, observations,
 * provenance, and the contracts of transcript sources and observers.
 */

/** Where a transcript came from. */
export type SourceKind =
  | 'openclaw' // OpenClaw file era (pi session format v3 JSONL)
  | 'openclaw-db' // OpenClaw database era (SQLite transcript_events)
  | 'pi' // the pi coding agent's own sessions
  | 'claude-code'
  | 'codex'
  | 'generic'
  | 'demo';

export type Role = 'user' | 'assistant' | 'tool' | 'system';

/**
 * One normalised transcript message, already stripped of transport noise
 * (timestamp prefixes, untrusted-metadata blocks) and secret-masked before any
 * Observer sees it.
 */
export interface Message {
  role: Role;
  /** Plain text an Observer needs (tool calls/results reduced to a short line). */
  text: string;
  /** ISO 8601 timestamp of the entry. */
  time: string;
  /** Transcript entry id (pi: 8 hex; Claude Code: uuid; DB: seq as string…). */
  entryId: string;
  source: SourceKind;
  agent: string;
  session: string;
  /** For tool messages: the tool name. */
  toolName?: string;
}

/** high 🔴, medium 🟡, low 🟢. */
export type Priority = 'high' | 'medium' | 'low';

/** Known categories; hand-edited files may carry any other word. */
export const KNOWN_CATEGORIES = ['preference', 'decision', 'task', 'state', 'fact', 'event'] as const;
export type Category = string;

export type Tier = 'hot' | 'warm' | 'cold';

/** Where an observation came from: recoverable by id, returned by `search --json`. */
export interface Provenance {
  source: SourceKind | string;
  agent: string;
  session: string;
  entryIds: string[];
}

export interface Observation {
  /** Stable unique id, written as the Obsidian block id `^o-…`. */
  id: string;
  /** Local date YYYY-MM-DD (configured time zone). */
  date: string;
  /** Local time HH:MM, or '' when unknown. */
  time: string;
  /**
   * The zone `date` and `time` are in, when known: an IANA name (the zone the observation was written
   * in) or a UTC offset (`-08:00`, as a line written in another zone than its file's carries it). Orders
   * observations by absolute time across a time-zone change (README "File formats").
   */
  zone?: string;
  priority: Priority;
  /** ✅ marks a completed task. */
  done: boolean;
  category: Category;
  text: string;
  /** Tags without '#'. */
  tags: string[];
  agent: string;
  provenance?: Provenance;
  /** Where the observation is in its life: done (a task closed) or superseded by a newer one (README, "File formats"). */
  mark?: ObservationMark;
}

/**
 * A lifecycle mark, written at the end of the observation's line as `(done 2026-04-08 by o-…)` or
 * `(superseded 2026-05-02 by o-…)`; the date and the `by` are optional, so a person can write `(done)`.
 */
export interface ObservationMark {
  kind: 'done' | 'superseded';
  /** YYYY-MM-DD the mark was set. */
  date?: string;
  /** The observation that closed or replaced this one. */
  by?: string;
}

/** What an Observer is asked to look at: one session's new messages. */
export interface ObserverBatch {
  source: SourceKind;
  agent: string;
  session: string;
  messages: Message[];
  /** IANA time zone for dates/times of observations. */
  timeZone: string;
  /** Wall clock of the run (ISO), for anchoring relative dates when messages lack one. */
  now: string;
  /** These are the last messages of a session that has ended (idle, a flush, the stream ended): the LLM Observer summarises it. */
  sessionEnds?: boolean;
}

export interface LlmUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

export interface ObserverResult {
  observations: Observation[];
  /** What the user is working on now, if the batch tells. */
  currentTask?: string;
  /** The LLM Observer's prose summary of the session, when the batch ended it (lib/observe/session-summary.ts). */
  sessionSummary?: string;
  usage?: LlmUsage[];
}

export interface Observer {
  /** 'heuristic' (offline rules) or 'llm'. Shown by `status`. */
  readonly kind: 'heuristic' | 'llm';
  /** A human label, e.g. "heuristic (offline)" or "llm gpt-4o-mini". */
  readonly label: string;
  observe(batch: ObserverBatch): Promise<ObserverResult>;
  /**
   * Optional: observe several sessions' small batches in one call (the LLM
   * Observer: one system prompt for many short sessions). Results in the
   * same order; the call's usage is reported once.
   */
  observeMany?(batches: ObserverBatch[]): Promise<ObserverResult[]>;
  /**
   * Optional: a large backlog is about to be read. An Observer that needs
   * time to get ready (the heuristic one starts a worker thread) starts now,
   * while the job reads the first chunk. Only a hint: observe() works without it.
   */
  prepare?(): void;
}

/** A line or row that could not be read. Counted and logged, never fatal. */
export interface MalformedRecord {
  path: string;
  /** 1-based line number (file sources) or row key. */
  line: number | string;
  reason: string;
}

/** One readable unit of a source: a transcript file, or a DB session. */
export interface SourceStream {
  /** Stable key for the cursor, e.g. "openclaw:main:<sessionId>". */
  key: string;
  kind: SourceKind;
  agent: string;
  session: string;
  /** File path (or database path) it is read from now. */
  path: string;
  /** Size in bytes (files) for progress/status. */
  size?: number;
  /** The stream will not grow any more (renamed by /reset, deleted, ...). */
  ended?: boolean;
}

/** Opaque, JSON-serialisable per-stream cursor kept in `.ocm/state.json`. */
export type Cursor = Record<string, unknown>;

export interface StreamChunk {
  messages: Message[];
  /** Cursor after the last entry of this chunk. Persist only once its messages are observed. */
  cursor: Cursor;
  malformed: MalformedRecord[];
  /** True when the stream has nothing more to read after this chunk (for now). */
  done: boolean;
  /**
   * The chunk ends a segment of the session (OpenClaw 2026.9's `/new` or
   * `/reset` appends a reset event to the same session): its messages are
   * complete, as if the stream had ended, and are not held for more.
   */
  segmentEnded?: boolean;
}

export interface ReadLimits {
  /** Stop a chunk after about this many bytes (files). */
  maxBytes: number;
  /** Stop a chunk after this many messages. */
  maxMessages: number;
}

export interface TranscriptSource {
  readonly kind: SourceKind;
  /** Find every stream this source can read now. */
  discover(): Promise<SourceStream[]>;
  /** Read the messages after `cursor` (undefined: from the start). */
  read(stream: SourceStream, cursor: Cursor | undefined, limits: ReadLimits): Promise<StreamChunk>;
}
