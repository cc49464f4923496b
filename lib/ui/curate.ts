/**
 * What the dashboard changes, each through the code the CLI uses for it
 * (docs/dashboard.md, "Correcting and curating"):
 * - an edit (text, priority, category, tags, pin, done) is lib/api/edit.ts's,
 *   on the day file the page names; its refusals are said in the page's language;
 * - "remember this" and forget are the home's handle's (lib/api/memory.ts),
 *   as the `remember` tool and `ocm-run forget ID… --yes` do them;
 * - approve, reject and rollback are the handle's too, as `ocm-run approvals`
 *   and `ocm-run tier --rollback` run them.
 * Text a user types is masked before it is written, as everywhere.
 */
import type { Config } from '../config/config-schema.js';
import { readFile } from 'node:fs/promises';
import { parseDayFile } from '../memory/day-file/index.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { MemoryHandle } from '../api/memory.js';
import type { ApprovalResult } from '../tiers/tier-job.js';
import type { ForgetResult } from '../tiers/forget.js';
import type { Priority } from '../core/types.js';
import { brokenFrontmatter, UiProblem } from './problems.js';

export interface CurateContext {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** The home's handle (open for as long as the dashboard runs). */
  memory: MemoryHandle;
  /** How long a change waits for a job holding the home lock (ms). */
  lockWaitMs: number;
}

export type { EditResult, ObservationEdit } from '../api/edit.js';
import type { EditResult, ObservationEdit } from '../api/edit.js';

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
    const problem = await readFile(path, 'utf8').then(
      (text) => parseDayFile(text).frontmatter.error,
      () => undefined,
    );
    if (problem === undefined) throw error;
    throw brokenFrontmatter(path, problem, error);
  }
}

/** Change one observation of one day file (identified as the timeline and search name it). */
export async function editObservation(ctx: CurateContext, fileRef: string, id: string, edit: ObservationEdit): Promise<EditResult> {
  const file = await ctx.memory.dayFile(fileRef);
  if (!file) throw new UiProblem('NOT_FOUND', 'notDayFile', { file: fileRef });
  const { EditRefused, editInFile } = await import('../api/edit.js');
  let result: EditResult;
  try {
    result = await editInFile(ctx, { path: file.path, tier: file.tier, agent: file.agent, ref: fileRef }, id, edit);
  } catch (error) {
    if (!(error instanceof EditRefused)) throw error;
    // Said in the page's language (lib/ui/messages.ts).
    if (error.reason === 'brokenFrontmatter') throw brokenFrontmatter(error.params.path!, error.params.problem!, error);
    throw new UiProblem(error.code, error.reason, error.params, { cause: error });
  }
  ctx.memory.refresh();
  ctx.logger.log('info', 'ui.edit', { id, fields: Object.keys(edit), masked: result.masked });
  return result;
}

/** "Remember this": the remember tool's write (masked, today's day file of the agent, index updated). */
export async function addObservation(
  ctx: CurateContext,
  args: { agent: string; text: string; priority: Priority; category: string; tags: string[] },
): Promise<import('../api/remember.js').Remembered> {
  const { charCount, REMEMBER_MAX_CHARS } = await import('../api/remember.js');
  const length = charCount(args.text.trim());
  if (length > REMEMBER_MAX_CHARS)
    throw new UiProblem('BAD_INPUT', 'longRemember', { count: String(length), max: String(REMEMBER_MAX_CHARS) });
  return unlessBrokenFrontmatter(() =>
    ctx.memory.remember({
      agent: args.agent,
      client: { name: 'ocm-run ui' },
      text: args.text,
      priority: args.priority,
      category: args.category,
      tags: args.tags,
    }),
  );
}

/**
 * What the audit log says was already done to an observation or a proposal: a
 * form sent twice (a double click) or a change made in another tab meanwhile
 * finds its work done, which is not an error.
 */
export type AlreadyDone = 'alreadyForgotten' | 'alreadyApproved' | 'alreadyRejected';

const ALREADY: Record<'forget' | 'approve' | 'reject', AlreadyDone> = {
  forget: 'alreadyForgotten',
  approve: 'alreadyApproved',
  reject: 'alreadyRejected',
};

/** `ocm-run forget ID… --yes`: interrupted forgets and moves are completed first, as there. */
export async function forgetObservations(ctx: CurateContext, ids: string[]): Promise<ForgetResult | AlreadyDone> {
  const outcome = await ctx.memory.forget({ selector: { ids } });
  if (outcome.kind === 'forgotten') return outcome.result;
  const { decidedIn } = await import('../api/tiers.js');
  const done = ids.length === 1 ? decidedIn(await ctx.memory.audit(), ids[0]!, ['forget']) : undefined;
  if (done) return ALREADY[done];
  throw new UiProblem('NOT_FOUND', 'forgetNotFound', { id: ids.join(', ') });
}

/** One pending proposal by its id (never `all`, which `ocm-run approvals` accepts: a page approves what it shows). */
function oneProposal(id: string): string[] {
  if (!/^[\w.:-]+$/.test(id) || id === 'all') throw new UiProblem('BAD_INPUT', 'notAProposal', { id });
  return [id];
}

/** Approve one proposal; one the audit log says was decided already (a form sent twice) says so. */
export async function approveMoves(ctx: CurateContext, id: string): Promise<ApprovalResult | AlreadyDone> {
  const result = await ctx.memory.approve(oneProposal(id), { unlessDecided: true });
  return result.alreadyDecided ? ALREADY[result.alreadyDecided] : result;
}

export async function rejectMoves(ctx: CurateContext, id: string): Promise<number | AlreadyDone> {
  const result = await ctx.memory.reject(oneProposal(id), { unlessDecided: true });
  return result.alreadyDecided ? ALREADY[result.alreadyDecided] : result.rejected.length;
}

export async function rollbackMove(ctx: CurateContext, opId: string): Promise<string> {
  return (await ctx.memory.rollback(opId)).id;
}
