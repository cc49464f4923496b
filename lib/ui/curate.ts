/**
 * What the dashboard changes, each through the code the CLI uses for it
 * (docs/dashboard.md, "Correcting and curating"):
 * - an edit (text, priority, category, tags, pin, done) is made on the parsed
 *   day file (lib/memory/day-file/ keeps every other byte as it was), written with
 *   one atomic rename (lib/platform/atomic-file.ts) under the home lock, then the
 *   search index and the agent's active memory are brought up to date — the
 *   file reads as if the line had been changed in an editor;
 * - "remember this" is the `remember` tool's rememberObservation;
 * - forget is `ocm-run forget`'s journaled planForget / applyForget;
 * - approve, reject and rollback are the tier job's, as `ocm-run approvals`
 *   and `ocm-run tier --rollback` run them.
 * Text a user types is masked before it is written, as everywhere.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { Config } from '../config/config-schema.js';
import { assertWritable, decodeSavedBytes, encodeSavedBytes, formatDayFile, parseDayFile, updateObservation } from '../memory/day-file/index.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import { withHomeLock } from '../platform/lock.js';
import type { Logger } from '../platform/log.js';
import { maskSecrets } from '../masking/masking.js';
import { oneLine } from '../memory/observation-line.js';
import type { IndexReader } from '../search/engine.js';
import { maskingOptions } from '../sources/registry.js';
import { PIN_TAGS } from '../tiers/plan.js';
import type { TierJobOptions } from '../tiers/tier-job.js';
import type { ObservationMark, Priority } from '../core/types.js';
import { brokenFrontmatter, UiProblem } from './problems.js';
import { findDayFile } from './timeline.js';

export interface CurateContext {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  openIndex: IndexReader;
  /** How long a change waits for a job holding the home lock (ms). */
  lockWaitMs: number;
}

export interface ObservationEdit {
  text?: string;
  priority?: Priority;
  category?: string;
  tags?: string[];
  done?: boolean;
  pinned?: boolean;
  /** A lifecycle mark to set; null clears it (README, "File formats"). */
  mark?: ObservationMark | null;
}

export interface EditResult {
  path: string;
  /** Secrets masked out of the new text. */
  masked: number;
}

const PRIORITIES: readonly Priority[] = ['high', 'medium', 'low'];

export function parsePriority(value: string): Priority {
  if ((PRIORITIES as readonly string[]).includes(value)) return value as Priority;
  throw new UiProblem('BAD_INPUT', 'badPriority', { value });
}

/**
 * Tags as typed (`#a b, c`): words without '#', once each (ignoring case), spelled as typed — a hand-written
 * `#OpenClaw` stays so when only the priority is changed (tag filters ignore case anyway).
 */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[\s,]+/)
    .map((t) => t.replace(/^#/, ''))
    .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}

function tierOptionsOf(ctx: CurateContext): Promise<TierJobOptions> {
  return import('../tiers/search-index.js').then(({ searchIndexUpdater }) => ({
    paths: ctx.paths,
    config: ctx.config,
    logger: ctx.logger,
    now: ctx.now,
    updateIndex: searchIndexUpdater(ctx),
  }));
}

function underLock<T>(ctx: CurateContext, fn: () => Promise<T>): Promise<T> {
  return withHomeLock(ctx.paths.lock, fn, { waitMs: ctx.lockWaitMs });
}

async function forgetOptions(ctx: CurateContext): Promise<import('../tiers/forget.js').ForgetOptions> {
  const { forgetOptionsFor } = await import('../tiers/forget.js');
  const { resolveTimeZone } = await import('../platform/time-zone.js');
  return forgetOptionsFor({ paths: ctx.paths, config: ctx.config, logger: ctx.logger, now: ctx.now, timeZone: async () => resolveTimeZone(ctx.config.timezone) });
}

/**
 * An id on more than one line of a day file (a line copied in an editor keeps its `^o-…`): the program's
 * edits and forgets go by id, so the dashboard would change or erase another line than the one clicked.
 */
export function duplicateId(id: string, fileRef: string, lines: number[]): UiProblem {
  return new UiProblem('BAD_INPUT', 'duplicateId', { id, file: fileRef, count: String(lines.length), lines: lines.join(', ') });
}

/**
 * A day file with a broken frontmatter block is not rewritten (lib/memory/day-file/edit.ts assertWritable,
 * BAD_INPUT naming the file in details.path); its hint is the observer's ("written on the next run,
 * nothing is lost"), untrue for a change made here: the page says that nothing was changed and what to do.
 */
async function unlessBrokenFrontmatter<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const path = error instanceof OcmError && error.code === 'BAD_INPUT' ? error.details?.path : undefined;
    if (typeof path !== 'string') throw error;
    const problem = await readFile(path, 'utf8').then((text) => parseDayFile(text).frontmatter.error, () => undefined);
    if (problem === undefined) throw error;
    throw brokenFrontmatter(path, problem, error);
  }
}

/** Change one observation of one day file (identified as the timeline and search name it). */
export async function editObservation(ctx: CurateContext, fileRef: string, id: string, edit: ObservationEdit): Promise<EditResult> {
  const file = await findDayFile(ctx.paths, ctx.config, fileRef);
  if (!file) throw new UiProblem('NOT_FOUND', 'notDayFile', { file: fileRef });
  let masked = 0;
  const patch: Parameters<typeof updateObservation>[2] = {};
  if (edit.text !== undefined) {
    const m = maskSecrets(oneLine(edit.text.trim()), maskingOptions(ctx.config));
    if (!m.text) throw new UiProblem('BAD_INPUT', 'emptyText');
    patch.text = m.text;
    masked = m.count;
  }
  if (edit.priority !== undefined) patch.priority = edit.priority;
  if (edit.category !== undefined) {
    const category = edit.category.trim().toLowerCase();
    if (!/^[\p{L}\p{N}_-]{1,40}$/u.test(category)) throw new UiProblem('BAD_INPUT', 'badCategory', { value: edit.category });
    patch.category = category;
  }
  if (edit.done !== undefined) patch.done = edit.done;
  const options = await forgetOptions(ctx);
  await underLock(ctx, async () => {
    const day = parseDayFile(decodeSavedBytes(await readFile(file.path)));
    const lines = day.segments.flatMap((s) => (s.kind === 'obs' && s.line.id === id ? [s.line] : []));
    const current = lines[0];
    if (!current) throw new UiProblem('NOT_FOUND', 'notInFile', { id, file: fileRef });
    if (lines.length > 1) throw duplicateId(id, fileRef, lines.map((l) => l.startLine));
    // Not rewritten, as assertWritable refuses (lib/memory/day-file/edit.ts).
    if (day.frontmatter.error !== undefined) throw brokenFrontmatter(file.path, day.frontmatter.error);
    assertWritable(day, file.path);
    let tags = edit.tags ?? current.tags;
    if (edit.pinned === true && !tags.some((t) => PIN_TAGS.has(t.toLowerCase()))) tags = [...tags, 'pin'];
    if (edit.pinned === false) tags = tags.filter((t) => !PIN_TAGS.has(t.toLowerCase()));
    if (edit.tags !== undefined || edit.pinned !== undefined) patch.tags = tags;
    if (edit.mark !== undefined) {
      // Clearing a done mark reopens the task; setting one closes it.
      patch.mark = edit.mark ?? undefined;
      patch.done = edit.mark?.kind === 'done' ? true : edit.mark === null && current.mark?.kind === 'done' ? false : (patch.done ?? current.done);
    } else if (edit.done === false && current.mark?.kind === 'done') patch.mark = undefined;
    updateObservation(day, id, patch);
    await writeFileAtomic(file.path, encodeSavedBytes(formatDayFile(day)));
    await options.updateIndex?.([file.path]);
    if (file.tier === 'hot') await options.rebuildActiveMemory?.(file.agent);
  });
  ctx.openIndex.close();
  ctx.logger.log('info', 'ui.edit', { id, fields: Object.keys(edit), masked });
  return { path: file.path, masked };
}

/** "Remember this": the remember tool's write (masked, today's day file of the agent, index updated). */
export async function addObservation(
  ctx: CurateContext,
  args: { agent: string; text: string; priority: Priority; category: string; tags: string[] },
): Promise<import('../integrations/mcp/memory-tools.js').Remembered> {
  const { charCount, rememberObservation, REMEMBER_MAX_CHARS } = await import('../integrations/mcp/memory-tools.js');
  const length = charCount(args.text.trim());
  if (length > REMEMBER_MAX_CHARS) throw new UiProblem('BAD_INPUT', 'longRemember', { count: String(length), max: String(REMEMBER_MAX_CHARS) });
  const remembered = await unlessBrokenFrontmatter(() => rememberObservation(
    { paths: ctx.paths, config: ctx.config, agent: args.agent, client: () => ({ name: 'ocm-run ui' }), openIndex: ctx.openIndex, logger: ctx.logger, now: ctx.now, lockWaitMs: ctx.lockWaitMs },
    { text: args.text, priority: args.priority, category: args.category, tags: args.tags },
  ));
  ctx.openIndex.close();
  return remembered;
}

/**
 * What the audit log says was already done to an observation or a proposal: a
 * form sent twice (a double click) or a change made in another tab meanwhile
 * finds its work done, which is not an error.
 */
export type AlreadyDone = 'alreadyForgotten' | 'alreadyApproved' | 'alreadyRejected';

async function alreadyDone(ctx: CurateContext, id: string, actions: ReadonlyArray<'forget' | 'approve' | 'reject'>): Promise<AlreadyDone | undefined> {
  const { readAudit } = await import('../tiers/audit.js');
  for (const e of (await readAudit(ctx.paths.audit)).reverse()) {
    if (!(actions as readonly string[]).includes(e.action)) continue;
    const listed = e.action === 'forget' ? e.ids : e.proposals;
    const ids = Array.isArray(listed) ? listed.map((x: unknown) => (typeof x === 'string' ? x : (x as { id?: unknown } | null)?.id)) : [];
    if (!ids.includes(id)) continue;
    return e.action === 'forget' ? 'alreadyForgotten' : e.action === 'approve' ? 'alreadyApproved' : 'alreadyRejected';
  }
  return undefined;
}

/** `ocm-run forget ID… --yes`: interrupted forgets and moves are completed first, as there. */
export async function forgetObservations(ctx: CurateContext, ids: string[]): Promise<import('../tiers/forget.js').ForgetResult | AlreadyDone> {
  const { planForget, applyForget, recoverForgets } = await import('../tiers/forget.js');
  const { recoverTierOps } = await import('../tiers/tier-job.js');
  const options = await forgetOptions(ctx);
  const tierOptions = await tierOptionsOf(ctx);
  const result = await underLock(ctx, async () => {
    await recoverTierOps(tierOptions);
    await recoverForgets(options);
    const plan = await planForget(ctx.paths, ctx.config, { ids });
    if (plan.targets.length === 0) {
      const done = ids.length === 1 ? await alreadyDone(ctx, ids[0]!, ['forget']) : undefined;
      if (done) return done;
      throw new UiProblem('NOT_FOUND', 'forgetNotFound', { id: ids.join(', ') });
    }
    return applyForget(options, plan, { ids });
  });
  ctx.openIndex.close();
  return result;
}

/** A proposal no longer pending that the audit log says was approved or rejected (approveMoves, rejectMoves: under the lock). */
async function alreadyDecided(ctx: CurateContext, id: string): Promise<AlreadyDone | undefined> {
  const { readApprovals } = await import('../tiers/approvals.js');
  if ((await readApprovals(ctx.paths.approvals)).pending.some((p) => p.id === id)) return undefined;
  return alreadyDone(ctx, id, ['approve', 'reject']);
}

/** One pending proposal by its id (never `all`, which `ocm-run approvals` accepts: a page approves what it shows). */
function oneProposal(id: string): string[] {
  if (!/^[\w.:-]+$/.test(id) || id === 'all') throw new UiProblem('BAD_INPUT', 'notAProposal', { id });
  return [id];
}

export async function approveMoves(ctx: CurateContext, id: string): Promise<import('../tiers/tier-job.js').ApprovalResult | AlreadyDone> {
  const { approveProposals } = await import('../tiers/tier-job.js');
  const options = await tierOptionsOf(ctx);
  const ids = oneProposal(id);
  const result = await underLock(ctx, async () => (await alreadyDecided(ctx, id)) ?? approveProposals(options, ids));
  ctx.openIndex.close();
  return result;
}

export async function rejectMoves(ctx: CurateContext, id: string): Promise<number | AlreadyDone> {
  const { rejectProposals } = await import('../tiers/tier-job.js');
  const options = await tierOptionsOf(ctx);
  const ids = oneProposal(id);
  return underLock(ctx, async () => (await alreadyDecided(ctx, id)) ?? (await rejectProposals(options, ids)).length);
}

export async function rollbackMove(ctx: CurateContext, opId: string): Promise<string> {
  const { rollbackTierOp } = await import('../tiers/tier-job.js');
  const options = await tierOptionsOf(ctx);
  const result = await underLock(ctx, () => rollbackTierOp(options, opId));
  ctx.openIndex.close();
  return result.id;
}
