/**
 * `forget` — the right to erasure. Finds observations by id, by a text query
 * (with an optional date range) or all of them, in every tier, and removes
 * them from:
 *   - the day files (hot, warm, cold; a day left with nothing but its title
 *     is deleted),
 *   - the rollback copies of tier moves (.ocm/ops/*: those ops can then no
 *     longer be rolled back exactly),
 *   - reflections that quote or link them (the home's and the vault's copies:
 *     the lines that hold the text or the id),
 *   - the search index and the embedding vectors (segments of changed files
 *     are rebuilt; cached vectors of the forgotten texts are dropped),
 *   - active_memory.md (rebuilt), the current-task note in state.json and
 *     log lines that carry the text.
 * The audit log records the ids and counts, never the text or the query.
 * Callers hold the home lock.
 */
import { readFile, rm, stat, unlink } from 'node:fs/promises';
import { filesUnder } from '../platform/files-under.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { Config } from '../config/config-schema.js';
import {
  conflictError,
  decodeSavedBytes,
  encodeSavedBytes,
  formatDayFile,
  listObservations,
  observationIds,
  parseDayFile,
  removeObservations,
  type DayFile,
} from '../memory/day-file/index.js';
import { OcmError, isNotFound } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { readState, writeState } from '../platform/state.js';
import type { Tier } from '../core/types.js';
import { appendAudit, auditPath, hasAuditEntry } from './audit.js';
import {
  type ForgetCounts,
  newForgetId,
  readForgetJournals,
  removeForgetJournal,
  writeForgetJournal,
  type ForgetJournal,
  type ForgetJournalTarget,
} from './forget-journal.js';
import { coldRoot, listAllTierFiles, VAULT_REFLECTIONS, type TierFile } from './locations.js';
import { listOpCopies, listOpIds, markScrubbed, opsDir } from './ops.js';
import { readApprovals, writeApprovals } from './approvals.js';
import type { IndexUpdater } from './search-index.js';

export interface ForgetSelector {
  ids?: string[] | undefined;
  /** Case-insensitive text (or #tag) to match in observations. */
  query?: string | undefined;
  /** Inclusive date range (YYYY-MM-DD) on the observation's day. */
  since?: string | undefined;
  until?: string | undefined;
  all?: boolean | undefined;
  /**
   * The user confirmed (`--query … --all`) that the query may match most of
   * the memory; without it such a query is refused (a typo or an empty-ish
   * query must not erase everything).
   */
  broad?: boolean | undefined;
}

/** One observation to forget (as the journal keeps it, lib/tiers/forget-journal.ts). */
export type ForgetTarget = ForgetJournalTarget;

export interface ForgetPlan {
  targets: ForgetTarget[];
  /** Requested ids that were not found. */
  notFound: string[];
  byTier: Record<Tier, number>;
  /** Every observation in the memory (all tiers), to tell a query that matches most of it. */
  total: number;
}

export interface ForgetResult extends ForgetCounts {
  activeMemory: string[];
  notFound: string[];
}

export interface ForgetOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  updateIndex?: IndexUpdater;
  /** Rebuild active memory for an agent (lib/memory/active-memory-file.ts). */
  rebuildActiveMemory?: (agent: string) => Promise<string>;
  /** Called at every named step (test hook; may never return). */
  onStep?: ((step: ForgetStep, id: string) => void) | undefined;
}

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function matches(o: { text: string; tags: string[] }, query: string): boolean {
  const q = fold(query);
  if (!q) return false;
  if (q.startsWith('#') && !q.includes(' ')) return o.tags.some((t) => fold(t) === q.slice(1));
  return fold(o.text).includes(q) || o.tags.some((t) => fold(t) === q.replace(/^#/, ''));
}

/** Parse a file and give anonymous (hand-written, no block id) lines a temporary id so they can be removed too. */
function parseWithAnonIds(text: string): DayFile {
  const file = parseDayFile(text);
  for (const seg of file.segments) if (seg.kind === 'obs' && !seg.line.id) seg.line.id = `line-${seg.line.startLine}`;
  return file;
}

/** A query matching more than this share of all observations needs `broad` (`--query … --all`). */
export const BROAD_QUERY_SHARE = 0.5;

/** The plan of a query that matches most of the memory, not confirmed as such: refuse it. */
export function assertNarrowEnough(plan: ForgetPlan, selector: ForgetSelector): void {
  if (selector.query === undefined || selector.broad) return;
  const n = plan.targets.length;
  if (n === 0 || n <= plan.total * BROAD_QUERY_SHARE) return;
  throw new OcmError(
    'BAD_INPUT',
    `--query "${selector.query}" matches ${n} of ${plan.total} observations, most of the memory; nothing was forgotten.`,
    {
      hint: 'Check it with --dry-run. If you really mean all of them, add --all to the same command (forget --query TEXT --all).',
    },
  );
}

export async function planForget(paths: HomePaths, config: Config, selector: ForgetSelector): Promise<ForgetPlan> {
  if (selector.query !== undefined && fold(selector.query) === '') {
    throw new OcmError('BAD_INPUT', 'The --query text is empty; it would match every observation. Nothing was forgotten.', {
      hint: 'Give the words to forget, e.g. --query "home address"; to forget everything use --all.',
    });
  }
  const modes = [selector.all ? 1 : 0, selector.ids?.length ? 1 : 0, selector.query !== undefined ? 1 : 0].reduce((a, b) => a + b, 0);
  if (modes !== 1) {
    throw new OcmError('BAD_INPUT', 'Say what to forget: observation ids, --query TEXT, or --all (one of them).', {
      hint: 'Examples: ocm-run forget o-7f3a9c21e0 · ocm-run forget --query "my address" · ocm-run forget --all',
    });
  }
  const wanted = new Set(selector.ids ?? []);
  const found = new Set<string>();
  const targets: ForgetTarget[] = [];
  const conflictLines = new Map<string, number>();
  let total = 0;
  const files: TierFile[] = await listAllTierFiles(paths, config.tiers.vault_path);
  for (const f of files) {
    let text: string;
    try {
      text = await readFile(f.path, 'utf8');
    } catch {
      continue;
    }
    const day = parseDayFile(text);
    if (day.conflict !== undefined) conflictLines.set(f.path, day.conflict);
    const observations = listObservations(day, { date: f.date, agent: f.agent, tier: f.tier });
    total += observations.length;
    if (selector.since && f.date < selector.since) continue;
    if (selector.until && f.date > selector.until) continue;
    // The ids written on the lines (a line without one is listed as `line-N`): one set, not a scan per observation.
    const lineIds = observationIds(day);
    for (const o of observations) {
      const anonymous = !lineIds.has(o.id);
      const hit = selector.all || (wanted.size > 0 ? wanted.has(o.id) : matches(o, selector.query ?? ''));
      if (!hit) continue;
      if (wanted.has(o.id)) found.add(o.id);
      targets.push({
        id: o.id,
        path: f.path,
        tier: f.tier,
        date: o.date || f.date,
        agent: o.agent,
        priority: o.priority,
        text: o.text,
        anonymous,
      });
    }
  }
  // A day file with an unresolved Git conflict is left as it is: nothing is forgotten until it is resolved
  // (a forget that left the observation in one of its copies would not be a forget).
  const conflicted = [...new Set(targets.map((t) => t.path))].filter((p) => conflictLines.has(p));
  if (conflicted.length > 0) throw conflictError(conflicted.join(', '), conflictLines.get(conflicted[0]!)!);
  const byTier: Record<Tier, number> = { hot: 0, warm: 0, cold: 0 };
  for (const t of targets) byTier[t.tier]++;
  return { targets, notFound: [...wanted].filter((id) => !found.has(id)), byTier, total };
}

/** The file is nothing but its title (and blank lines / the cold-note header): delete it. */
function isEmptyDay(file: DayFile): boolean {
  if (file.segments.some((s) => s.kind === 'obs')) return false;
  const body = file.segments.map((s) => (s.kind === 'raw' ? s.text : '')).join('');
  return body
    .split('\n')
    .filter((l) => l.trim() !== '')
    .every((l) => /^#\s+\d{4}-\d{2}-\d{2}\s*$/.test(l) || /\[\[OC-Memory\//.test(l));
}

/** Drop the lines of a text file that hold a forgotten id or text. Returns the new text, or undefined when unchanged. */
function withoutLines(text: string, ids: Set<string>, texts: string[]): string | undefined {
  const lines = text.split('\n');
  const kept = lines.filter((line) => {
    for (const id of ids) if (line.includes(id)) return false;
    for (const t of texts) if (line.includes(t)) return false;
    return true;
  });
  return kept.length === lines.length ? undefined : kept.join('\n');
}

/** Named points of a forget, for tests that kill a run at a chosen moment (OCM_TEST_CRASH_AT). */
export type ForgetStep =
  | 'forget-journaled'
  | 'forget-day-file'
  | 'forget-day-files'
  | 'forget-copies'
  | 'forget-reflections'
  | 'forget-logs'
  | 'forget-state'
  | 'forget-indexed'
  | 'forget-active-memory'
  | 'forget-audited';

/**
 * Forget what the plan found, as a journaled operation: the journal is
 * written first, then every place is cleaned (each step idempotent), the
 * audit entry appended, and the journal removed. A run killed anywhere is
 * completed by recoverForgets (the next forget or tick).
 */
export async function applyForget(options: ForgetOptions, plan: ForgetPlan, selector: ForgetSelector): Promise<ForgetResult> {
  assertNarrowEnough(plan, selector);
  const journal: ForgetJournal = {
    version: 1,
    id: newForgetId(options.now()),
    createdAt: options.now().toISOString(),
    selector: { kind: selector.all ? 'all' : selector.ids?.length ? 'ids' : 'query', since: selector.since, until: selector.until },
    targets: plan.targets,
    byTier: plan.byTier,
    notFound: plan.notFound,
    changed: [],
    counts: { observations: 0, files: 0, filesRemoved: 0, copiesScrubbed: 0, reflectionsEdited: 0, logsEdited: 0 },
  };
  await writeForgetJournal(options.paths, journal);
  options.onStep?.('forget-journaled', journal.id);
  return completeForget(options, journal, false);
}

/**
 * The options a forget (or its recovery in a tick) runs with: the search
 * index updated incrementally, active memory rebuilt in the given zone.
 */
export async function forgetOptionsFor(base: {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  timeZone: () => Promise<string>;
  onStep?: ((step: string, id: string) => void) | undefined;
}): Promise<ForgetOptions> {
  const { searchIndexUpdater } = await import('./search-index.js');
  return {
    paths: base.paths,
    config: base.config,
    logger: base.logger,
    now: base.now,
    updateIndex: searchIndexUpdater(base),
    rebuildActiveMemory: async (agent) => {
      const { rebuildActiveMemory } = await import('../memory/active-memory-file.js');
      return (
        await rebuildActiveMemory({ paths: base.paths, config: base.config, agent, timeZone: await base.timeZone(), now: base.now() })
      ).path;
    },
    onStep: base.onStep,
  };
}

/** Complete every forget a killed run left (the start of every forget and tick). Returns what each did in all. */
export async function recoverForgets(options: ForgetOptions): Promise<ForgetResult[]> {
  const done: ForgetResult[] = [];
  for (const journal of await readForgetJournals(options.paths)) {
    done.push(await completeForget(options, journal, true));
    options.logger.log('warn', 'forget.recovered', { id: journal.id, observations: journal.targets.length });
  }
  return done;
}

async function completeForget(options: ForgetOptions, journal: ForgetJournal, recovering: boolean): Promise<ForgetResult> {
  const { paths, config } = options;
  const step = (name: ForgetStep) => options.onStep?.(name, journal.id);
  const counts = journal.counts;
  const changed = new Set(journal.changed);
  const save = async () => {
    journal.changed = [...changed];
    await writeForgetJournal(paths, journal);
  };
  const byPath = new Map<string, ForgetJournalTarget[]>();
  for (const t of journal.targets) {
    const list = byPath.get(t.path);
    if (list) list.push(t);
    else byPath.set(t.path, [t]);
  }
  const ids = new Set(journal.targets.filter((t) => !t.anonymous).map((t) => t.id));
  // Texts short enough to be common words are matched only through their ids.
  const texts = [...new Set(journal.targets.map((t) => t.text).filter((t) => t.length >= 12))];
  const agents = new Set<string>(['main', ...journal.targets.map((t) => t.agent)]);

  // Day files. A file already without its targets (an earlier, killed run) is left alone.
  for (const [path, targets] of byPath) {
    let text: string;
    try {
      // Bytes that are not UTF-8 (a note saved as Latin-1) are kept as they are (decodeSavedBytes).
      text = decodeSavedBytes(await readFile(path));
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    const file = parseWithAnonIds(text);
    const anonymousTexts = new Set(targets.filter((t) => t.anonymous).map((t) => t.text));
    const drop = listObservations(file)
      .filter((o) => ids.has(o.id) || (o.id.startsWith('line-') && anonymousTexts.has(o.text)))
      .map((o) => o.id);
    const removed = removeObservations(file, drop, path);
    if (removed.length === 0) continue;
    counts.observations += removed.length;
    counts.files++;
    changed.add(path);
    if (isEmptyDay(file)) {
      await unlink(path);
      counts.filesRemoved++;
    } else {
      // Anonymous lines were given temporary ids only to remove them; kept ones format as they were (not dirty).
      const mode = (await stat(path)).mode & 0o777;
      await writeFileAtomic(path, encodeSavedBytes(formatDayFile(file)), { mode });
    }
    await save();
    step('forget-day-file');
  }
  step('forget-day-files');

  // Rollback copies of tier moves.
  for (const copy of await listOpCopies(paths)) {
    const text = await readFile(copy.path, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    if (![...ids].some((id) => text.includes(id)) && !texts.some((t) => text.includes(t))) continue;
    const file = parseWithAnonIds(text);
    const drop = listObservations(file)
      .filter((o) => ids.has(o.id) || texts.includes(o.text))
      .map((o) => o.id);
    removeObservations(file, drop);
    let next = formatDayFile(file);
    next = withoutLines(next, ids, texts) ?? next;
    await writeFileAtomic(copy.path, next);
    await markScrubbed(paths, copy.op);
    counts.copiesScrubbed++;
  }
  await save();
  step('forget-copies');

  // Reflections in the home and their copies in the vault.
  const cold = coldRoot(config.tiers.vault_path);
  const reflectionFiles = [
    ...(await filesUnder(paths.reflections, { suffix: '.md' })),
    ...(cold ? await filesUnder(join(cold, VAULT_REFLECTIONS), { suffix: '.md' }) : []),
  ];
  for (const p of reflectionFiles) {
    const text = await readFile(p, 'utf8');
    const next = withoutLines(text, ids, texts);
    if (next === undefined) continue;
    await writeFileAtomic(p, next, { mode: (await stat(p)).mode & 0o777 });
    changed.add(p);
    counts.reflectionsEdited++;
    await save();
  }
  step('forget-reflections');

  // Log lines that carry the text (JSON-lines logs).
  for (const p of await filesUnder(paths.logs, { suffix: '.log' })) {
    const text = await readFile(p, 'utf8');
    if (!texts.some((t) => text.includes(t) || text.includes(JSON.stringify(t).slice(1, -1)))) continue;
    const escaped = texts.map((t) => JSON.stringify(t).slice(1, -1));
    const next = withoutLines(text, new Set(), [...texts, ...escaped]);
    if (next !== undefined) {
      await writeFileAtomic(p, next);
      counts.logsEdited++;
    }
  }
  await save();
  step('forget-logs');

  // The current-task note and any unwritten observe journal in state.json.
  const { state } = await readState(paths.state);
  const raw = JSON.stringify(state.extra);
  if (texts.some((t) => raw.includes(JSON.stringify(t).slice(1, -1))) || [...ids].some((id) => raw.includes(id))) {
    const tasks = state.extra.currentTask ?? {};
    for (const [agent, task] of Object.entries(tasks)) if (texts.some((t) => task.text.includes(t))) delete tasks[agent];
    for (const j of Object.values(state.extra.observeJournal ?? {}))
      if (j.unwritten) j.unwritten = j.unwritten.filter((o) => !ids.has(o.id) && !texts.includes(o.text));
    await writeState(paths.state, state);
  }

  // Proposals whose day is gone.
  const approvals = await readApprovals(paths.approvals);
  const gone = new Set<string>();
  for (const path of byPath.keys()) if (!(await exists(path))) gone.add(path);
  const pending = approvals.pending.filter((p) => !gone.has(p.source));
  if (pending.length !== approvals.pending.length) await writeApprovals(paths.approvals, { ...approvals, pending });

  if (journal.selector.kind === 'all') {
    for (const p of await filesUnder(paths.reflections, { suffix: '.md' })) await unlink(p).catch(() => undefined);
    if (cold) await rm(join(cold, VAULT_REFLECTIONS), { recursive: true, force: true });
    for (const id of await listOpIds(paths)) await rm(join(opsDir(paths), id), { recursive: true, force: true });
    await rm(paths.index, { recursive: true, force: true });
  }
  step('forget-state');

  // The index drops the changed files' old segments; cached vectors of the
  // forgotten texts go too, and the query cache (its answers quote snippets,
  // its keys are query texts) is dropped whole: it is only a cache.
  await options.updateIndex?.([...changed]);
  await dropCachedVectors(
    paths,
    journal.targets.map((t) => t.text),
  );
  await rm(join(paths.index, 'query-cache.json'), { force: true });
  step('forget-indexed');

  const activeMemory: string[] = [];
  for (const agent of [...agents].sort()) {
    const path = await options.rebuildActiveMemory?.(agent);
    if (path) activeMemory.push(path);
  }
  step('forget-active-memory');

  // The ids travel with sync as tombstones, so that no other device brings them back (tombstones.ts).
  const { recordTombstones } = await import('./tombstones.js');
  await recordTombstones(
    paths.root,
    journal.targets.filter((t) => !t.anonymous).map((t) => t.id),
    options.now(),
  );
  if (!(await hasAuditEntry(paths.audit, journal.id, 'forget'))) {
    await appendAudit(paths.audit, {
      time: options.now().toISOString(),
      action: 'forget',
      op: journal.id,
      selector: journal.selector.kind,
      since: journal.selector.since,
      until: journal.selector.until,
      ids: journal.targets.filter((t) => !t.anonymous).map((t) => t.id),
      files: [...changed].map((p) => auditPath(paths.root, p)),
      counts: { ...counts, byTier: journal.byTier },
      recovered: recovering || undefined,
    });
  }
  step('forget-audited');
  await removeForgetJournal(paths, journal.id);
  options.logger.log('info', 'forget.done', { observations: counts.observations, files: counts.files, recovered: recovering || undefined });
  return { ...counts, activeMemory, notFound: journal.notFound };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The embedding cache (lib/search/vectors.ts) keeps vectors by the hash of the
 * embedded text, which is the observation's text: those rows are taken out of
 * every cache file (the other vectors stay: a local model would otherwise
 * embed the whole home again); per-file vector sidecars of changed files were
 * dropped by the index update.
 */
async function dropCachedVectors(paths: HomePaths, texts: string[]): Promise<void> {
  if (texts.length === 0) return;
  const { dropCachedVectors: dropRows } = await import('../search/vectors.js');
  await dropRows(paths.index, texts);
}
