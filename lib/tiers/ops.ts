/**
 * The move journal: every change of tier files is an *op* that is either
 * completed or undone, whatever moment a `kill -9` hits.
 *
 *   .ocm/ops/<op-id>/op.json      the manifest: every file's path, hash before, hash after
 *   .ocm/ops/<op-id>/new.pack     staged new contents of every file (until the op commits)
 *   .ocm/ops/<op-id>/before/<n>   the exact old bytes of file n (hard link; kept for rollback)
 *
 * Steps: stage every new content (fsync, verify hash) → write the manifest
 * (state "prepared": from here on the op rolls forward) → write destinations
 * (atomic rename, verify hash) → update the index → remove / rewrite sources
 * (old bytes kept in before/) → append the audit line → state "committed".
 *
 * Every step is idempotent: a file already at its "after" hash is skipped, so
 * a recovering run just applies the manifest again. An op whose manifest was
 * never written left nothing behind but its staging folder, which recovery
 * deletes. A file found in neither its before nor its after state (changed by
 * someone else meanwhile) stops the op and undoes it from the kept copies.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { OcmError, isNotFound } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { appendAudit, auditPath, hasAuditEntry, type AuditAction } from './audit.js';
import { fsyncPath, hashFile, installFile, preserveCopy, readBytesIfExists, removeDurable, sha256, writeDurable } from './files.js';

export type OpKind = 'hot-to-warm' | 'hot-to-cold' | 'warm-to-cold' | 'warm-to-hot' | 'rollback';

/** What a file is to the op: written first (destination, aux) or changed last (source). */
export type ChangeRole = 'destination' | 'source' | 'aux';

export interface FileChange {
  /** Position in the op; names the staged and kept copies. */
  n: number;
  path: string;
  role: ChangeRole;
  /** sha256 before the op; null when the file did not exist. */
  before: string | null;
  /** sha256 after the op; null when the op removes the file. */
  after: string | null;
  mode: number;
  /** Where the new content sits in the op's staged pack. */
  staged?: { offset: number; length: number };
}

export interface OpCounts {
  files: number;
  observations: number;
  bytes: number;
}

export interface OpManifest {
  version: 1;
  id: string;
  kind: OpKind;
  createdAt: string;
  state: 'prepared' | 'committed' | 'aborted';
  committedAt?: string;
  changes: FileChange[];
  counts: OpCounts;
  /** The audit line written when the op commits. */
  audit: { action: AuditAction; [key: string]: unknown };
  meta: Record<string, unknown>;
  rolledBackBy?: string;
  /** `forget` removed observations from this op's kept copies: no exact rollback any more. */
  scrubbed?: boolean;
}

export interface PlannedChange {
  path: string;
  role: ChangeRole;
  /** Hash of the file as planned (null: absent). */
  before: string | null;
  /** New content; null removes the file. */
  content: string | Uint8Array | null;
  mode?: number;
}

/** Named points of an op, for tests that crash a run at a chosen moment. */
export type OpStep = 'staged' | 'prepared' | 'copied-one' | 'copied' | 'indexed' | 'removed-one' | 'removed' | 'audited' | 'committed';

export interface OpContext {
  paths: HomePaths;
  now: () => Date;
  logger: Logger;
  /** Called at every named step (test hook; may never return). */
  onStep?: (step: OpStep, opId: string) => void;
  /** Files the op changed, once they are in place: update the search index. */
  onChanged?: (paths: string[], phase: 'destinations' | 'sources') => Promise<void>;
}

export function opsDir(paths: HomePaths): string {
  return join(paths.machine, 'ops');
}

function opDir(paths: HomePaths, id: string): string {
  if (!/^op-[0-9A-Za-z-]+$/.test(id)) {
    throw new OcmError('BAD_INPUT', `"${id}" is not an op id.`, {
      hint: 'Op ids look like op-20260212-101500-3fa9c1; `ocm-run tier --history` lists them.',
    });
  }
  return join(opsDir(paths), id);
}

export function newOpId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `op-${stamp}-${randomBytes(3).toString('hex')}`;
}

export class OpConflictError extends OcmError {
  constructor(op: string, path: string, found: string | null, expected: Array<string | null>) {
    super(
      'IO_ERROR',
      `${path} changed while op ${op} was moving it (sha256 ${found ?? 'missing'}; expected ${expected.map((e) => e ?? 'missing').join(' or ')}).`,
      {
        hint: 'The op is undone from its kept copies and nothing is lost; run the tier job again to re-plan from the current files.',
        details: { op, path },
      },
    );
  }
}

async function writeManifest(paths: HomePaths, m: OpManifest): Promise<void> {
  await writeFileAtomic(join(opDir(paths, m.id), 'op.json'), `${JSON.stringify(m, null, 1)}\n`);
}

export async function readManifest(paths: HomePaths, id: string): Promise<OpManifest | undefined> {
  const bytes = await readBytesIfExists(join(opDir(paths, id), 'op.json'));
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as OpManifest;
  } catch {
    return undefined;
  }
}

/** Ids of every op folder, oldest first. */
export async function listOpIds(paths: HomePaths): Promise<string[]> {
  try {
    return (await readdir(opsDir(paths))).filter((n) => n.startsWith('op-')).sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

function stagedPack(paths: HomePaths, id: string): string {
  return join(opDir(paths, id), 'new.pack');
}

export function keptCopyPath(paths: HomePaths, id: string, n: number): string {
  return join(opDir(paths, id), 'before', String(n));
}

/**
 * Run a planned op from start to end. Returns the committed manifest.
 * Changes whose content equals what is there already are dropped.
 */
export async function runOp(
  ctx: OpContext,
  spec: {
    kind: OpKind;
    changes: PlannedChange[];
    counts: Omit<OpCounts, 'files'>;
    audit: OpManifest['audit'];
    meta?: Record<string, unknown>;
  },
): Promise<OpManifest> {
  const id = newOpId(ctx.now());
  const dir = opDir(ctx.paths, id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const changes: FileChange[] = [];
  const chunks: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const planned of spec.changes) {
    if (seen.has(planned.path)) throw new OcmError('INTERNAL', `Op ${id} would change ${planned.path} twice.`);
    seen.add(planned.path);
    const after = planned.content === null ? null : sha256(planned.content);
    if (after === planned.before) continue;
    const change: FileChange = {
      n: changes.length,
      path: planned.path,
      role: planned.role,
      before: planned.before,
      after,
      mode: planned.mode ?? 0o600,
    };
    if (planned.content !== null) {
      const bytes = typeof planned.content === 'string' ? Buffer.from(planned.content, 'utf8') : Buffer.from(planned.content);
      change.staged = { offset, length: bytes.length };
      chunks.push(bytes);
      offset += bytes.length;
    }
    changes.push(change);
  }
  // Every new content in one staged file: one fsync for the whole op.
  const pack = Buffer.concat(chunks);
  await writeDurable(stagedPack(ctx.paths, id), pack);
  const reread = await readBytesIfExists(stagedPack(ctx.paths, id));
  if (!reread || sha256(reread) !== sha256(pack))
    throw new OcmError('IO_ERROR', `The staged copy for op ${id} does not read back as written.`, {
      hint: 'Check the disk; nothing was moved.',
    });
  await fsyncPath(dir);
  ctx.onStep?.('staged', id);
  const manifest: OpManifest = {
    version: 1,
    id,
    kind: spec.kind,
    createdAt: ctx.now().toISOString(),
    state: 'prepared',
    changes,
    counts: { files: changes.length, ...spec.counts },
    audit: spec.audit,
    meta: spec.meta ?? {},
  };
  await writeManifest(ctx.paths, manifest);
  ctx.onStep?.('prepared', id);
  await applyAndCommit(ctx, manifest, false);
  return manifest;
}

/** Run `fn` over items with at most `limit` at once; the first error stops new work and is thrown. */
async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== undefined) throw failed;
}

interface PhaseState {
  pack: Buffer | undefined;
}

/**
 * Apply a group of changes: keep the old bytes of each file (hard links, one
 * folder fsync), install new contents (temp file, fsync, rename) and removals,
 * then fsync every touched folder once and verify each file by hash.
 * Idempotent: a file already at its "after" hash is left alone.
 */
async function applyPhase(ctx: OpContext, m: OpManifest, changes: FileChange[], state: PhaseState, firstStep: OpStep): Promise<void> {
  const current = new Map<FileChange, string | null>();
  await inParallel(changes, 8, async (c) => {
    current.set(c, await hashFile(c.path));
  });
  const todo: FileChange[] = [];
  for (const c of changes) {
    const now = current.get(c) ?? null;
    if (now === c.after) continue;
    if (now !== c.before) throw new OpConflictError(m.id, c.path, now, [c.before, c.after]);
    todo.push(c);
  }
  if (todo.length === 0) return;
  const keep = todo.filter((c) => c.before !== null);
  if (keep.length > 0) {
    await mkdir(join(opDir(ctx.paths, m.id), 'before'), { recursive: true, mode: 0o700 });
    await inParallel(keep, 8, (c) => preserveCopy(c.path, keptCopyPath(ctx.paths, m.id, c.n), c.before!, { sync: false }));
    await fsyncPath(join(opDir(ctx.paths, m.id), 'before'));
  }
  const dirs = new Set<string>();
  state.pack ??= todo.some((c) => c.after !== null) ? await readBytesIfExists(stagedPack(ctx.paths, m.id)) : undefined;
  let done = 0;
  // Files are independent within a phase: install them a few at a time, so
  // their fsyncs share the file system's journal commits.
  await inParallel(todo, 8, async (c) => {
    if (c.after === null) {
      await removeDurable(c.path, { sync: false });
    } else {
      const bytes = c.staged && state.pack ? state.pack.subarray(c.staged.offset, c.staged.offset + c.staged.length) : undefined;
      if (bytes === undefined || bytes.length !== c.staged?.length || sha256(bytes) !== c.after) {
        throw new OcmError('IO_ERROR', `The staged content of ${c.path} for op ${m.id} is missing or damaged.`, {
          hint: `Nothing was lost: the file still holds its old content. Remove ${opDir(ctx.paths, m.id)} and run the tier job again.`,
        });
      }
      await installFile(c.path, bytes, c.mode);
    }
    dirs.add(dirname(c.path));
    if (done++ === 0) ctx.onStep?.(firstStep, m.id);
  });
  for (const d of dirs) await fsyncPath(d);
  await inParallel(
    todo.filter((c) => c.after !== null),
    8,
    async (c) => {
      const written = await hashFile(c.path);
      if (written !== c.after)
        throw new OcmError('IO_ERROR', `${c.path} does not read back as written (sha256 ${written} ≠ ${c.after}).`, {
          hint: 'Check the disk; the op is undone on the next run.',
        });
    },
  );
}

/** Apply every change (idempotent), update the index, audit, commit. Undo on conflict. */
async function applyAndCommit(ctx: OpContext, m: OpManifest, recovering: boolean): Promise<void> {
  const first = m.changes.filter((c) => c.role !== 'source');
  const last = m.changes.filter((c) => c.role === 'source');
  const state: PhaseState = { pack: undefined };
  try {
    await applyPhase(ctx, m, first, state, 'copied-one');
    ctx.onStep?.('copied', m.id);
    if (first.length > 0)
      await ctx.onChanged?.(
        first.map((c) => c.path),
        'destinations',
      );
    ctx.onStep?.('indexed', m.id);
    await applyPhase(ctx, m, last, state, 'removed-one');
    ctx.onStep?.('removed', m.id);
    if (last.length > 0)
      await ctx.onChanged?.(
        last.map((c) => c.path),
        'sources',
      );
  } catch (error) {
    if (error instanceof OpConflictError) {
      await abortOp(ctx, m, error.message);
    }
    throw error;
  }
  await commitOp(ctx, m, recovering);
}

async function commitOp(ctx: OpContext, m: OpManifest, recovering: boolean): Promise<void> {
  if (!(await hasAuditEntry(ctx.paths.audit, m.id, m.audit.action))) {
    await appendAudit(ctx.paths.audit, {
      time: ctx.now().toISOString(),
      op: m.id,
      ...m.audit,
      counts: m.counts,
      files: m.changes.map((c) => ({ path: auditPath(ctx.paths.root, c.path), before: c.before, after: c.after })),
      recovered: recovering || undefined,
    });
  }
  ctx.onStep?.('audited', m.id);
  const target = typeof m.meta.rollbackOf === 'string' ? m.meta.rollbackOf : undefined;
  if (target) {
    const t = await readManifest(ctx.paths, target);
    if (t && t.rolledBackBy !== m.id) {
      t.rolledBackBy = m.id;
      await writeManifest(ctx.paths, t);
    }
  }
  m.state = 'committed';
  m.committedAt = ctx.now().toISOString();
  await writeManifest(ctx.paths, m);
  await rm(stagedPack(ctx.paths, m.id), { force: true });
  ctx.onStep?.('committed', m.id);
}

/**
 * Put every file of the op back to its "before" state from the kept copies.
 * A file someone else changed meanwhile (neither before nor after) is left as
 * they made it; its old bytes, if kept, stay in the op folder. Returns those.
 */
export async function abortOp(ctx: OpContext, m: OpManifest, reason: string): Promise<string[]> {
  const order = [...m.changes.filter((c) => c.role === 'source'), ...m.changes.filter((c) => c.role !== 'source')];
  const stuck: string[] = [];
  for (const c of order) {
    const current = await hashFile(c.path);
    if (current === c.before) continue;
    if (current !== c.after) {
      stuck.push(c.path);
      continue;
    }
    if (c.before === null) {
      await removeDurable(c.path);
      continue;
    }
    const kept = await readBytesIfExists(keptCopyPath(ctx.paths, m.id, c.n));
    if (kept === undefined || sha256(kept) !== c.before) {
      stuck.push(c.path);
      continue;
    }
    await writeFileAtomic(c.path, kept, { mode: c.mode });
  }
  const touched = m.changes.map((c) => c.path);
  if (touched.length > 0) await ctx.onChanged?.(touched, 'sources');
  await appendAudit(ctx.paths.audit, {
    time: ctx.now().toISOString(),
    action: 'abort',
    op: m.id,
    kind: m.kind,
    reason,
    files: touched.map((p) => auditPath(ctx.paths.root, p)),
    leftAsFound: stuck.length > 0 ? stuck.map((p) => auditPath(ctx.paths.root, p)) : undefined,
  });
  m.state = 'aborted';
  m.committedAt = ctx.now().toISOString();
  await writeManifest(ctx.paths, m);
  await rm(stagedPack(ctx.paths, m.id), { force: true });
  ctx.logger.log('warn', 'tier.op_aborted', { op: m.id, reason, leftAsFound: stuck });
  return stuck;
}

/** Temp files a killed install left beside the op's files (`.<name>.<pid>.<hex>.tmp`). */
async function removeTempFiles(paths: string[]): Promise<void> {
  const byDir = new Map<string, Set<string>>();
  for (const p of paths) byDir.set(dirname(p), (byDir.get(dirname(p)) ?? new Set()).add(basename(p)));
  for (const [dir, names] of byDir) {
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/.exec(e);
      if (m && names.has(m[1]!)) await rm(join(dir, e), { force: true });
    }
  }
}

export interface RecoveryResult {
  completed: string[];
  aborted: string[];
  discarded: string[];
}

/**
 * Finish what a killed run left: a prepared op is applied again (roll
 * forward); a folder without a manifest never touched a user file and is
 * deleted.
 */
export async function recoverOps(ctx: OpContext): Promise<RecoveryResult> {
  const result: RecoveryResult = { completed: [], aborted: [], discarded: [] };
  for (const id of await listOpIds(ctx.paths)) {
    const m = await readManifest(ctx.paths, id);
    if (!m) {
      await rm(opDir(ctx.paths, id), { recursive: true, force: true });
      result.discarded.push(id);
      ctx.logger.log('warn', 'tier.op_discarded', {
        op: id,
        reason: 'interrupted before its manifest was written; no file had been changed',
      });
      continue;
    }
    if (m.state !== 'prepared') continue;
    try {
      await removeTempFiles(m.changes.map((c) => c.path));
      await applyAndCommit(ctx, m, true);
      result.completed.push(id);
      ctx.logger.log('warn', 'tier.op_recovered', { op: id, kind: m.kind, files: m.changes.length });
    } catch (error) {
      if (error instanceof OpConflictError) {
        result.aborted.push(id);
        ctx.logger.log('error', 'tier.op_aborted', { op: id, error: error.message });
        continue;
      }
      throw error;
    }
  }
  return result;
}

/**
 * Undo a committed op exactly: every file it changed gets its old bytes back
 * (verified by hash), as a new journaled op of kind "rollback".
 */
export async function rollbackOp(ctx: OpContext, targetId: string): Promise<OpManifest> {
  const m = await readManifest(ctx.paths, targetId);
  if (!m) {
    throw new OcmError('NOT_FOUND', `No op ${targetId} with rollback data in ${opsDir(ctx.paths)}.`, {
      hint: 'Rollback data is kept for tiers.rollback_days days; `ocm-run tier --history` lists the ops that can still be rolled back.',
    });
  }
  if (m.state !== 'committed')
    throw new OcmError('BAD_INPUT', `Op ${targetId} is ${m.state}, not committed; there is nothing to roll back.`, {
      hint: 'Only completed moves can be rolled back.',
    });
  if (m.rolledBackBy)
    throw new OcmError('BAD_INPUT', `Op ${targetId} was already rolled back by ${m.rolledBackBy}.`, {
      hint: `To redo the move, roll back ${m.rolledBackBy}.`,
    });
  if (m.scrubbed) {
    throw new OcmError('BAD_INPUT', `Op ${targetId} touched observations that were forgotten since; it cannot be restored exactly.`, {
      hint: 'Move files by hand if needed (`ocm-run archive`).',
    });
  }
  const changed: string[] = [];
  for (const c of m.changes) if ((await hashFile(c.path)) !== c.after) changed.push(c.path);
  if (changed.length > 0) {
    throw new OcmError(
      'BAD_INPUT',
      `${changed.length} file(s) changed since op ${targetId}: ` +
        `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''}. A rollback would overwrite those changes.`,
      {
        hint: 'Roll back later ops first (`ocm-run tier --history`), or move the files by hand.',
      },
    );
  }
  const planned: PlannedChange[] = [];
  for (const c of m.changes) {
    let content: Buffer | null = null;
    if (c.before !== null) {
      const kept = await readBytesIfExists(keptCopyPath(ctx.paths, m.id, c.n));
      if (kept === undefined || sha256(kept) !== c.before) {
        throw new OcmError('NOT_FOUND', `The kept copy of ${c.path} for op ${targetId} is missing or damaged.`, {
          hint: 'Nothing was changed. The files are where the op put them.',
        });
      }
      content = kept;
    }
    // What the op created (or changed) goes last; what it removed comes back first.
    const role: ChangeRole = c.role === 'aux' ? 'aux' : c.after === null || c.role === 'source' ? 'destination' : 'source';
    planned.push({ path: c.path, role, before: c.after, content, mode: c.mode });
  }
  return runOp(ctx, {
    kind: 'rollback',
    changes: planned,
    counts: { observations: m.counts.observations, bytes: m.counts.bytes },
    audit: { action: 'rollback', target: targetId, targetKind: m.kind },
    meta: { rollbackOf: targetId },
  });
}

/** Delete rollback data of ops finished more than `days` ago. */
export async function pruneOps(ctx: OpContext, days: number): Promise<string[]> {
  const cutoff = ctx.now().getTime() - days * 86_400_000;
  const pruned: string[] = [];
  for (const id of await listOpIds(ctx.paths)) {
    const m = await readManifest(ctx.paths, id);
    if (!m || m.state === 'prepared' || !m.committedAt) continue;
    if (Date.parse(m.committedAt) > cutoff) continue;
    await rm(opDir(ctx.paths, id), { recursive: true, force: true });
    pruned.push(id);
  }
  if (pruned.length > 0)
    await appendAudit(ctx.paths.audit, {
      time: ctx.now().toISOString(),
      action: 'prune',
      ops: pruned,
      reason: `rollback data older than ${days} days`,
    });
  return pruned;
}

/** Every kept copy of a file (for `forget`, which must scrub them too; staged packs exist only while an op runs). */
export async function listOpCopies(paths: HomePaths): Promise<Array<{ op: string; path: string }>> {
  const out: Array<{ op: string; path: string }> = [];
  for (const id of await listOpIds(paths)) {
    for (const sub of ['before']) {
      const dir = join(opDir(paths, id), sub);
      let names: string[] = [];
      try {
        names = await readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) out.push({ op: id, path: join(dir, name) });
    }
  }
  return out;
}

export async function markScrubbed(paths: HomePaths, id: string): Promise<void> {
  const m = await readManifest(paths, id);
  if (m && !m.scrubbed) {
    m.scrubbed = true;
    await writeManifest(paths, m);
  }
}

/** The text of a kept copy, for summaries. */
export async function readKeptCopy(paths: HomePaths, id: string, n: number): Promise<string | undefined> {
  try {
    return await readFile(keptCopyPath(paths, id, n), 'utf8');
  } catch {
    return undefined;
  }
}
