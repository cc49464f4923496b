/**
 * pi's session tree (OpenClaw file era, the pi agent, and OpenClaw's agent
 * database, which keeps the same entries): which entries lie on an abandoned
 * branch, which messages are copies re-appended after a branch switch or a
 * re-read, and the small per-stream state (`BranchState`, kept in the cursor)
 * that carries this from one read to the next. Entries come in normalised by
 * pi-entries.ts; the readers (openclaw-files.ts, openclaw-db.ts) hand each
 * read's consumed entries and look-ahead nodes to settleConsumed. Pure: no I/O.
 */
import * as crypto from 'node:crypto';
import { addRecalled, withoutRestatedMemory } from '../core/injected-context.js';
import type { Message } from '../core/types.js';
import type { PiEntryResult } from './pi-entries.js';
import { isObject, type Json } from './message-text.js';

/** The tree link of an entry (every entry but the header has one). */
export interface TreeNode {
  id: string;
  parentId: string | null;
}

/** The tree node of a parsed entry, or null (header, or no id). */
export function treeNodeOf(entry: unknown): TreeNode | null {
  const node = lookAheadNodeOf(entry, 0);
  return node && { id: node.id, parentId: node.parentId };
}

/** The tree node of a parsed entry whose line ends at byte `end`, as one object (readers make one per line). */
export function lookAheadNodeOf(entry: unknown, end: number): LookAheadNode | null {
  if (!isObject(entry) || entry.type === 'session') return null;
  const id = entry.id;
  if (typeof id !== 'string' || id.length === 0) return null;
  return { id, parentId: parentIdOf(entry), end };
}

function parentIdOf(entry: Json): string | null {
  return typeof entry.parentId === 'string' && entry.parentId.length > 0 ? entry.parentId : null;
}

// The rules (also in docs/transcripts.md):
// 1. Abandoned branches. pi appends every entry at the current leaf, so in
//    file order an entry's parent is normally the previous entry. An entry
//    whose parent is something else starts a new branch (a "fork"). An entry
//    E is on an abandoned branch when it is NOT an ancestor-or-self of the
//    newest entry within E's look-ahead window (the next `lookAheadEntries`
//    entries and at most `lookAheadBytes` bytes after E). The window is
//    relative to E, so for a given file the decision does not depend on how
//    the reads were chunked; for a live file it only sees what is written so
//    far (an entry observed before the user branched away stays observed).
// 2. Re-appended copies. On a fork from parent P, the hashes of the messages
//    emitted after P (from the per-stream `recent` list in the cursor) become
//    dedupe candidates; a message on the new branch whose dedupe key hash is
//    a candidate is not emitted again (each candidate matches once). The
//    candidate phase ends after 8 consecutive non-matching messages. A
//    whole-file re-read (shrink / replacement) is a fork from the root: all
//    remembered hashes are candidates. `recent` keeps the last `dedupeWindow`
//    entries (default 5,000; trimmed in batches, so up to 1.5× that).
// 3. Dedupe keys: role + whitespace-normalised masked text; tool results use
//    tool name + toolCallId (a copy may carry a trimmed output).

export interface BranchState {
  /** Id of the previous tree entry in file order (null at the start). */
  lastId: string | null;
  /** Fixed-width records: 8-char id digest + 8-char message hash ("........" = no message). */
  recent: string;
  /** Concatenated 8-char hashes that a copy may still match. */
  cand: string;
  /** Consecutive non-matching messages during a candidate phase. */
  miss: number;
  /** Inside a housekeeping turn (a heartbeat, a wake, a hook): its messages are not emitted. */
  quiet: boolean;
  /** What OC-Memory recalled in this stream, one item per line (see lib/core/injected-context.ts): restating it is not news. */
  recalled: string;
}

export const DEFAULT_DEDUPE_WINDOW = 5000;
const RECORD = 16;
const NO_HASH = '........';
const CANDIDATE_PATIENCE = 8;

export function emptyBranchState(): BranchState {
  return { lastId: null, recent: '', cand: '', miss: 0, quiet: false, recalled: '' };
}

/** The branch state kept in a stored cursor (either era's), each field checked; missing ones start empty. */
export function branchStateOf(stored: Partial<Record<keyof BranchState, unknown>>): BranchState {
  return {
    lastId: typeof stored.lastId === 'string' ? stored.lastId : null,
    recent: typeof stored.recent === 'string' ? stored.recent : '',
    cand: typeof stored.cand === 'string' ? stored.cand : '',
    miss: typeof stored.miss === 'number' ? stored.miss : 0,
    quiet: stored.quiet === true,
    recalled: typeof stored.recalled === 'string' ? stored.recalled : '',
  };
}

/** Whole-file re-read: everything remembered may come again. */
export function rewindBranchState(state: BranchState): BranchState {
  return { lastId: null, recent: state.recent, cand: hashesAfter(state.recent, -1), miss: 0, quiet: false, recalled: '' };
}

/**
 * base64url sha256 of a string. The one-shot `crypto.hash` (Node ≥ 20.12) is
 * about twice as fast as a Hash object for short keys; older Node 20 releases
 * lack it. Both give the same digest.
 */
const sha256: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64url')
    : (text) => crypto.createHash('sha256').update(text).digest('base64url');

function digest8(text: string): string {
  return sha256(text).slice(0, 8);
}

function idDigest(id: string): string {
  return /^[0-9a-f]{8}$/i.test(id) ? id.toLowerCase() : digest8(`id:${id}`);
}

/** Hash of a dedupe key (8 chars of base64url sha256). */
export function dedupeHash(key: string): string {
  return digest8(key);
}

function hashesAfter(recent: string, recordIndex: number): string {
  let out = '';
  for (let at = (recordIndex + 1) * RECORD; at + RECORD <= recent.length; at += RECORD) {
    const hash = recent.slice(at + 8, at + RECORD);
    if (hash !== NO_HASH) out += hash;
  }
  return out;
}

function findRecord(recent: string, id: string): number {
  const d = idDigest(id);
  for (let at = recent.length - RECORD; at >= 0; at -= RECORD) {
    if (recent.startsWith(d, at)) return at / RECORD;
  }
  return -1;
}

function removeCandidate(cand: string, hash: string): string | null {
  for (let at = 0; at + 8 <= cand.length; at += 8) {
    if (cand.startsWith(hash, at)) return cand.slice(0, at) + cand.slice(at + 8);
  }
  return null;
}

/**
 * Feed one consumed entry (in file order) through the branch state. Returns
 * whether its message (if any) is emitted. `active` is the look-ahead verdict
 * (false: on an abandoned branch).
 */
export function advanceBranchState(
  state: BranchState,
  node: TreeNode | null,
  dedupeKey: string | null,
  active: boolean,
  dedupeWindow = DEFAULT_DEDUPE_WINDOW,
): { state: BranchState; emit: boolean } {
  const next = copyBranchState(state);
  const emit = stepBranchState(next, node, dedupeKey, active, dedupeWindow);
  return { state: next, emit };
}

/** The branch fields only (a reader may pass its whole cursor as the state). */
function copyBranchState(state: BranchState): BranchState {
  return { lastId: state.lastId, recent: state.recent, cand: state.cand, miss: state.miss, quiet: state.quiet, recalled: state.recalled };
}

/** advanceBranchState on a state the caller owns: updates it in place (no objects per entry). */
function stepBranchState(
  state: BranchState,
  node: TreeNode | null,
  dedupeKey: string | null,
  active: boolean,
  dedupeWindow: number,
): boolean {
  if (node && state.lastId !== null && node.parentId !== state.lastId) {
    // A fork: copies of what was said after the fork point may be re-appended. A parent we never
    // saw (a torn or malformed line) is not a fork: the entry continues the line.
    const at = node.parentId === null ? -1 : findRecord(state.recent, node.parentId);
    if (node.parentId === null || at >= 0) {
      state.cand = hashesAfter(state.recent, at);
      state.miss = 0;
    }
  }
  let emit = false;
  let hash = NO_HASH;
  if (dedupeKey !== null && active) {
    hash = dedupeHash(dedupeKey);
    const remaining = state.cand.length > 0 ? removeCandidate(state.cand, hash) : null;
    if (remaining !== null) {
      state.cand = remaining;
      state.miss = 0;
    } else {
      emit = true;
      if (state.cand.length > 0 && ++state.miss >= CANDIDATE_PATIENCE) {
        state.cand = '';
        state.miss = 0;
      }
    }
  }
  if (node) {
    const recent = state.recent + (idDigest(node.id) + hash);
    // Trim in batches (amortised O(1) per entry): keep between 1 and 1.5 windows, deterministically.
    const excess = recent.length - dedupeWindow * RECORD;
    state.recent = recent.slice(excess > Math.max(RECORD, Math.floor(dedupeWindow / 2) * RECORD) ? excess : 0);
    state.lastId = node.id;
  }
  return emit;
}

export interface LookAheadNode extends TreeNode {
  /** Byte offset just after the entry's line. */
  end: number;
}

export interface LookAheadWindow {
  entries: number;
  bytes: number;
}

export const DEFAULT_LOOK_AHEAD: LookAheadWindow = { entries: 256, bytes: 2 * 1024 * 1024 };

/** Whether `id` is among the entries remembered in `state.recent` (entries before the current read). */
export function rememberedEntry(state: BranchState, id: string): boolean {
  return findRecord(state.recent, id) >= 0;
}

/**
 * For nodes[0..decideCount) decide which lie on an abandoned branch, using the
 * nodes after each one (nodes must hold everything up to each window's end, or
 * up to the end of the file). `isEarlier(id)` tells whether an id belongs to an
 * entry before nodes[0] (already read). A parent found nowhere (a torn or
 * malformed line) is taken to be the entry just before its child.
 * Returns the indexes that are abandoned.
 */
export function abandonedNodes(
  nodes: readonly LookAheadNode[],
  decideCount: number,
  window: LookAheadWindow,
  isEarlier: (id: string) => boolean = () => false,
): Set<number> {
  const abandoned = new Set<number>();
  const forkPrefix = new Int32Array(nodes.length + 1);
  for (let j = 0; j < nodes.length; j += 1) {
    const fork = j > 0 && nodes[j]!.parentId !== nodes[j - 1]!.id ? 1 : 0;
    forkPrefix[j + 1] = forkPrefix[j]! + fork;
  }
  let index: Map<string, number> | null = null;
  let leaf = 0;
  for (let i = 0; i < decideCount && i < nodes.length; i += 1) {
    const limitEnd = nodes[i]!.end + window.bytes;
    if (leaf < i) leaf = i;
    while (leaf + 1 < nodes.length && leaf + 1 <= i + window.entries && nodes[leaf + 1]!.end <= limitEnd) leaf += 1;
    // No fork in (i, leaf]: a straight line from i to the leaf.
    if (forkPrefix[leaf + 1]! - forkPrefix[i + 1]! === 0) continue;
    if (index === null) {
      index = new Map();
      nodes.forEach((n, k) => {
        index!.set(n.id, k);
      });
    }
    let cur = leaf;
    while (cur > i) {
      const parent = nodes[cur]!.parentId;
      if (parent === null) break; // a new root: i is not on the way
      const next = index.get(parent);
      if (next !== undefined && next < cur) cur = next;
      else if (next === undefined && isEarlier(parent))
        break; // forked from before i
      else cur -= 1; // missing parent: assume the entry just before
    }
    if (cur !== i) abandoned.add(i);
  }
  return abandoned;
}

/** One entry a reader consumed: its normalised result and its place among the look-ahead nodes. */
export interface ConsumedEntry {
  /** Index in the look-ahead `nodes` (-1: not a tree entry). */
  nodeIndex: number;
  result: PiEntryResult | null;
  node: TreeNode | null;
}

/**
 * Settle a read: judge each consumed entry's branch with the look-ahead nodes
 * (the first `decideCount` nodes are the consumed ones), advance the branch
 * state, and return the messages to emit, each with the entry it came from.
 * Shared by the file and the database readers.
 */
export function settleConsumed<T extends ConsumedEntry>(
  consumed: readonly T[],
  nodes: readonly LookAheadNode[],
  decideCount: number,
  window: LookAheadWindow,
  branch: BranchState,
  dedupeWindow: number,
): { emitted: Array<{ item: T; message: Message }>; branch: BranchState } {
  const before = branch;
  const abandoned = abandonedNodes(nodes, decideCount, window, (id) => rememberedEntry(before, id));
  const emitted: { item: T; message: Message }[] = [];
  // Nothing read: the state passes through as it came (the database reader passes its whole cursor here).
  if (consumed.length === 0) return { emitted, branch };
  const state = copyBranchState(branch);
  emitEntries(consumed, abandoned, state, dedupeWindow, emitted);
  return { emitted, branch: state };
}

/** settleConsumed's loop: each consumed entry through the branch state, the messages to emit into `emitted`. */
function emitEntries<T extends ConsumedEntry>(
  consumed: readonly T[],
  abandoned: Set<number>,
  state: BranchState,
  dedupeWindow: number,
  emitted: Array<{ item: T; message: Message }>,
): void {
  for (const item of consumed) {
    const result = item.result;
    const active = item.nodeIndex < 0 || !abandoned.has(item.nodeIndex);
    const message = result !== null && result.kind === 'message' ? result : null;
    if (active && result !== null) updateQuiet(state, result);
    if (active && result !== null) rememberRecalled(state, result);
    const emit = stepBranchState(state, item.node, message !== null && !state.quiet ? message.dedupeKey : null, active, dedupeWindow);
    if (message && emit && withoutRestatement(state, message.message)) emitted.push({ item, message: message.message });
  }
}

/** Keep what OC-Memory recalled (its tool's result, the block it injected into a user message). */
function rememberRecalled(state: BranchState, result: PiEntryResult): void {
  const items = result.kind === 'recall' ? result.items : result.kind === 'message' ? result.recalled : null;
  if (items === null || items.length === 0) return;
  state.recalled = addRecalled(state.recalled === '' ? [] : state.recalled.split('\n'), items).join('\n');
}

/** An assistant message without the sentences that restate recalled memory; false when nothing is left. */
function withoutRestatement(state: BranchState, message: Message): boolean {
  if (state.recalled === '' || message.role !== 'assistant') return true;
  const text = withoutRestatedMemory(message.text, state.recalled.split('\n'));
  if (text.length === 0) return false;
  message.text = text;
  return true;
}

/** A housekeeping turn starts quiet; the user's next message (or a segment's end) ends it. */
function updateQuiet(state: BranchState, result: PiEntryResult): void {
  if (result.kind === 'housekeeping') state.quiet = true;
  else if (result.kind === 'boundary') state.quiet = false;
  else if (result.kind === 'message' && result.message.role === 'user') state.quiet = false;
}
