/**
 * An edit of one observation (text, priority, category, tags, pin, done, a
 * lifecycle mark), made on the parsed day file (lib/memory/day-file/ keeps
 * every other byte as it was), written with one atomic rename under the home
 * lock; then the search index and, for a hot file, the agent's active memory
 * are brought up to date — the file reads as if the line had been changed in
 * an editor. Text is masked before it is written. The dashboard and the REST
 * API edit through here.
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '../config/config-schema.js';
import { OcmError, type ErrorCode } from '../core/errors.js';
import type { ObservationMark, Priority, Tier } from '../core/types.js';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { HomePaths } from '../platform/home.js';
import { withHomeLock } from '../platform/lock.js';
import type { Logger } from '../platform/log.js';
import {
  assertWritable,
  decodeSavedBytes,
  encodeSavedBytes,
  formatDayFile,
  parseDayFile,
  updateObservation,
} from '../memory/day-file/index.js';
import { oneLine } from '../memory/observation-line.js';
import { maskSecrets } from '../masking/masking.js';
import { maskingOptions } from '../sources/registry.js';
import { PIN_TAGS } from '../tiers/plan.js';

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

export interface EditContext {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** How long a change waits for a job holding the home lock (ms). */
  lockWaitMs: number;
}

/** The day file an observation is in, as the index or the dashboard's timeline found it. */
export interface EditTarget {
  /** Absolute path. */
  path: string;
  tier: Tier;
  agent: string;
  /** How the caller named it (a path relative to the home): what a refusal says. */
  ref: string;
}

/** Why an edit was refused, with what the message names: a front end says it in its own words. */
export type EditRefusal = 'notInFile' | 'duplicateId' | 'emptyText' | 'badCategory' | 'brokenFrontmatter';

const REFUSALS: Record<EditRefusal, { code: ErrorCode; text: (p: Record<string, string>) => string; hint: string }> = {
  notInFile: {
    code: 'NOT_FOUND',
    text: (p) => `Observation ${p.id} is no longer in ${p.file}; nothing was changed.`,
    hint: 'A job or an editor changed the file meanwhile: look it up again.',
  },
  duplicateId: {
    code: 'BAD_INPUT',
    text: (p) => `Observation ${p.id} is on ${p.count} lines of ${p.file} (lines ${p.lines}); nothing was changed.`,
    hint: 'A line was copied with its ^o-… id: remove or change the copy in an editor, then edit again.',
  },
  emptyText: { code: 'BAD_INPUT', text: () => 'The text is empty.', hint: 'To remove an observation, forget it.' },
  badCategory: {
    code: 'BAD_INPUT',
    text: (p) => `Category "${p.value}" must be one word (letters, digits, - or _).`,
    hint: 'For example: decision, preference, task, fact.',
  },
  brokenFrontmatter: {
    code: 'BAD_INPUT',
    text: (p) => `${p.path} has a broken frontmatter block (${p.problem}); nothing was changed.`,
    hint: 'Fix the YAML between the --- lines in an editor, then edit again.',
  },
};

/** An edit refused: `reason` and `params` say why, for a front end that words it itself (the dashboard). */
export class EditRefused extends OcmError {
  readonly reason: EditRefusal;
  readonly params: Readonly<Record<string, string>>;
  constructor(reason: EditRefusal, params: Record<string, string> = {}) {
    const r = REFUSALS[reason];
    super(r.code, r.text(params), { hint: r.hint, details: { reason, ...params } });
    this.name = 'EditRefused';
    this.reason = reason;
    this.params = params;
  }
}

/** Change observation `id` of the day file `file`. */
export async function editInFile(ctx: EditContext, file: EditTarget, id: string, edit: ObservationEdit): Promise<EditResult> {
  let masked = 0;
  const patch: Parameters<typeof updateObservation>[2] = {};
  if (edit.text !== undefined) {
    const m = maskSecrets(oneLine(edit.text.trim()), maskingOptions(ctx.config));
    if (!m.text) throw new EditRefused('emptyText');
    patch.text = m.text;
    masked = m.count;
  }
  if (edit.priority !== undefined) patch.priority = edit.priority;
  if (edit.category !== undefined) {
    const category = edit.category.trim().toLowerCase();
    if (!/^[\p{L}\p{N}_-]{1,40}$/u.test(category)) throw new EditRefused('badCategory', { value: edit.category });
    patch.category = category;
  }
  if (edit.done !== undefined) patch.done = edit.done;
  const [{ forgetOptionsFor }, { resolveTimeZone }] = await Promise.all([import('../tiers/forget.js'), import('../platform/time-zone.js')]);
  const options = await forgetOptionsFor({
    paths: ctx.paths,
    config: ctx.config,
    logger: ctx.logger,
    now: ctx.now,
    timeZone: async () => resolveTimeZone(ctx.config.timezone),
  });
  await withHomeLock(
    ctx.paths.lock,
    async () => {
      const day = parseDayFile(decodeSavedBytes(await readFile(file.path)));
      const lines = day.segments.flatMap((s) => (s.kind === 'obs' && s.line.id === id ? [s.line] : []));
      const current = lines[0];
      if (!current) throw new EditRefused('notInFile', { id, file: file.ref });
      if (lines.length > 1)
        throw new EditRefused('duplicateId', {
          id,
          file: file.ref,
          count: String(lines.length),
          lines: lines.map((l) => l.startLine).join(', '),
        });
      // Not rewritten, as assertWritable refuses (lib/memory/day-file/edit.ts).
      if (day.frontmatter.error !== undefined)
        throw new EditRefused('brokenFrontmatter', { path: file.path, problem: day.frontmatter.error });
      assertWritable(day, file.path);
      let tags = edit.tags ?? current.tags;
      if (edit.pinned === true && !tags.some((t) => PIN_TAGS.has(t.toLowerCase()))) tags = [...tags, 'pin'];
      if (edit.pinned === false) tags = tags.filter((t) => !PIN_TAGS.has(t.toLowerCase()));
      if (edit.tags !== undefined || edit.pinned !== undefined) patch.tags = tags;
      if (edit.mark !== undefined) {
        // Clearing a done mark reopens the task; setting one closes it.
        patch.mark = edit.mark ?? undefined;
        patch.done =
          edit.mark?.kind === 'done' ? true : edit.mark === null && current.mark?.kind === 'done' ? false : (patch.done ?? current.done);
      } else if (edit.done === false && current.mark?.kind === 'done') patch.mark = undefined;
      updateObservation(day, id, patch);
      await writeFileAtomic(file.path, encodeSavedBytes(formatDayFile(day)));
      await options.updateIndex?.([file.path]);
      if (file.tier === 'hot') await options.rebuildActiveMemory?.(file.agent);
    },
    { waitMs: ctx.lockWaitMs },
  );
  return { path: file.path, masked };
}
