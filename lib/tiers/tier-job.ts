/**
 * The tier job (docs/tiers-and-sync.md) and the commands built on it: the daily
 * `tier` run, `archive`, `approvals approve|reject`, `tier --rollback`.
 *
 * Callers hold the home lock. Every run first finishes whatever a killed run
 * left (lib/tiers/ops.ts), so a move is never half done.
 */
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { resolveTimeZone } from '../platform/time-zone.js';
import type { Tier } from '../core/types.js';
import { ensureVault, loadColdNoteTemplate, type VaultSetup } from './vault.js';
import { localToday } from './age.js';
import { addProposals, proposalId, readApprovals, selectPending, writeApprovals, type Proposal, type ProposalWhy } from './approvals.js';
import { appendAudit, auditPath } from './audit.js';
import { coldRoot, listTierFiles, type TierFile } from './locations.js';
import { buildMoves, readFacts, type ParsedCache } from './moves.js';
import { pruneOps, recoverOps, rollbackOp, runOp, type OpContext, type OpKind, type OpManifest, type RecoveryResult } from './ops.js';
import { flatTtlRule, hotTtlRule, planMoves, summarizeMoves, type Move, type MoveSummary, type TtlRule } from './plan.js';
import type { IndexUpdater } from './search-index.js';

export interface TierJobOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** Search index hook (lib/tiers/search-index.ts); none = index untouched. */
  updateIndex?: IndexUpdater | undefined;
  /** Test hook: called at every op step. */
  onStep?: OpContext['onStep'] | undefined;
}

export interface OpReport {
  id: string;
  kind: OpKind;
  files: number;
  observations: number;
  bytes: number;
}

export interface TierRunResult {
  dryRun: boolean;
  today: string;
  recovered: RecoveryResult;
  /** What moved (or, in a dry run, would move) now. */
  moved: MoveSummary[];
  /** What was (or would be) proposed for approval. */
  proposed: MoveSummary[];
  ops: OpReport[];
  proposals: { added: Proposal[]; pending: number };
  skipped: Array<{ path: string; reason: string }>;
  vault?: VaultSetup;
  notes: string[];
  pruned: string[];
}

/** Rollback data is kept this many days (tiers.rollback_days). */
export function rollbackDays(config: Config): number {
  return config.tiers.rollback_days;
}

function opContext(options: TierJobOptions): OpContext {
  const update = options.updateIndex;
  return {
    paths: options.paths,
    now: options.now,
    logger: options.logger,
    onStep: options.onStep,
    onChanged: update && ((changed: string[]) => update(changed)),
  };
}

function opKind(from: Tier, to: Tier): OpKind {
  return `${from}-to-${to}` as OpKind;
}

function today(options: TierJobOptions): string {
  return localToday(options.now(), resolveTimeZone(options.config.timezone));
}

function minTtl(config: Config): number {
  const values = [
    config.tiers.hot_ttl_days,
    ...Object.values(config.tiers.ttl_by_priority).filter((v): v is number => typeof v === 'number'),
  ];
  return Math.min(...values);
}

/** Facts of the files of a tier that are at least `minAge` days old (younger files are not even read). */
async function factsOf(options: TierJobOptions, tier: Tier, todayDate: string, minAge: number, cache?: ParsedCache) {
  const { ageInDays } = await import('./age.js');
  const files = (await listTierFiles(options.paths, options.config.tiers.vault_path, tier)).filter(
    (f) => ageInDays(f.date, todayDate) >= minAge,
  );
  return readFacts(files, cache);
}

async function executeMoves(
  options: TierJobOptions,
  moves: Move[],
  from: Tier,
  to: Tier,
  audit: Record<string, unknown> = {},
  parsed?: ParsedCache,
): Promise<{ op?: OpManifest; skipped: TierRunResult['skipped']; vault?: VaultSetup }> {
  if (moves.length === 0) return { skipped: [] };
  let vault: VaultSetup | undefined;
  if (to === 'cold') vault = await ensureVault(options.config.tiers.vault_path);
  const built = await buildMoves(
    {
      paths: options.paths,
      vaultPath: options.config.tiers.vault_path,
      coldTemplate: to === 'cold' ? await loadColdNoteTemplate(options.paths) : '',
      parsed,
    },
    moves,
  );
  if (built.changes.length === 0) return { skipped: built.skipped, vault };
  const op = await runOp(opContext(options), {
    kind: opKind(from, to),
    changes: built.changes,
    counts: { observations: built.observations, bytes: built.bytes },
    audit: { action: 'move', from, to, ...audit },
  });
  options.logger.log('info', 'tier.moved', { op: op.id, from, to, files: op.counts.files, observations: op.counts.observations });
  // Proposals for days that are gone from where they were proposed are settled.
  await dropPending(
    options,
    op.changes.filter((c) => c.role === 'source' && c.after === null).map((c) => c.path),
  );
  return { op, skipped: built.skipped, vault };
}

function report(op: OpManifest): OpReport {
  return { id: op.id, kind: op.kind, files: op.counts.files, observations: op.counts.observations, bytes: op.counts.bytes };
}

function proposalsFor(moves: Move[], why: ProposalWhy, now: Date): Proposal[] {
  return moves.map((m) => ({
    id: proposalId(m.source.path, m.to),
    from: m.source.tier,
    to: m.to,
    source: m.source.path,
    date: m.source.date,
    agent: m.source.agent,
    observations: m.observations,
    bytes: m.bytes,
    proposedAt: now.toISOString(),
    reason: reasonText(why),
    why,
  }));
}

/** The reason as the CLI shows it (`approvals list`), and as files written before `why` hold it (proposalWhy reads it back). */
function reasonText(why: ProposalWhy): string {
  return why.code === 'archive' ? `archive --older-than ${why.days}` : `older than ${why.days} days (tiers.${why.code}_days)`;
}

async function propose(
  options: TierJobOptions,
  moves: Move[],
  why: ProposalWhy,
  again: boolean,
): Promise<{ added: Proposal[]; pending: number }> {
  const file = await readApprovals(options.paths.approvals);
  const added = addProposals(file, proposalsFor(moves, why, options.now()), { again });
  if (added.length > 0) {
    await writeApprovals(options.paths.approvals, file);
    await appendAudit(options.paths.audit, {
      time: options.now().toISOString(),
      action: 'propose',
      proposals: added.map((p) => ({
        id: p.id,
        from: p.from,
        to: p.to,
        path: auditPath(options.paths.root, p.source),
        observations: p.observations,
      })),
      counts: { files: added.length, observations: added.reduce((n, p) => n + p.observations, 0) },
    });
  }
  return { added, pending: file.pending.length };
}

function emptyResult(dryRun: boolean, todayDate: string, recovered: RecoveryResult): TierRunResult {
  return {
    dryRun,
    today: todayDate,
    recovered,
    moved: [],
    proposed: [],
    ops: [],
    proposals: { added: [], pending: 0 },
    skipped: [],
    notes: [],
    pruned: [],
  };
}

/** Finish interrupted ops only (every tick does this; it is cheap when there are none). */
export async function recoverTierOps(options: TierJobOptions): Promise<RecoveryResult> {
  return recoverOps(opContext(options));
}

/**
 * The daily job: hot files past their TTL move to warm (or are proposed,
 * when auto_hot_to_warm is off); warm files past warm_ttl_days are proposed
 * for the cold tier (or moved, when cold_requires_approval is off).
 */
export async function runTierJob(options: TierJobOptions & { dryRun?: boolean }): Promise<TierRunResult> {
  const dryRun = Boolean(options.dryRun);
  const todayDate = today(options);
  const recovered = dryRun ? { completed: [], aborted: [], discarded: [] } : await recoverOps(opContext(options));
  const result = emptyResult(dryRun, todayDate, recovered);
  const t = options.config.tiers;

  const hotRule: TtlRule = hotTtlRule({ hotTtlDays: t.hot_ttl_days, ttlByPriority: t.ttl_by_priority });
  const hotParsed: ParsedCache = new Map();
  const hotMoves = planMoves(await factsOf(options, 'hot', todayDate, minTtl(options.config), dryRun ? undefined : hotParsed), {
    to: 'warm',
    today: todayDate,
    ttl: hotRule,
  });
  const hotSummary = summarizeMoves(hotMoves, 'hot', 'warm');
  if (t.auto_hot_to_warm) {
    if (hotMoves.length > 0) result.moved.push(hotSummary);
    if (!dryRun) {
      const done = await executeMoves(options, hotMoves, 'hot', 'warm', { reason: 'hot_ttl' }, hotParsed);
      hotParsed.clear();
      if (done.op) result.ops.push(report(done.op));
      result.skipped.push(...done.skipped);
    }
  } else if (hotMoves.length > 0) {
    result.proposed.push(hotSummary);
    if (!dryRun) result.proposals = await propose(options, hotMoves, { code: 'hot_ttl', days: t.hot_ttl_days }, false);
  }

  // In a dry run the hot files have not moved: count them as warm for the cold plan.
  const warmParsed: ParsedCache = new Map();
  const warmFacts = await factsOf(options, 'warm', todayDate, t.warm_ttl_days, dryRun ? undefined : warmParsed);
  if (dryRun && t.auto_hot_to_warm) {
    const { ageInDays } = await import('./age.js');
    const wouldBeWarm = hotMoves.filter((m) => m.whole && ageInDays(m.source.date, todayDate) >= t.warm_ttl_days);
    warmFacts.push(...(await readFacts(wouldBeWarm.map((m) => ({ ...m.source })))));
  }
  const coldMoves = planMoves(warmFacts, { to: 'cold', today: todayDate, ttl: flatTtlRule(t.warm_ttl_days) });
  if (coldMoves.length > 0) {
    if (!coldRoot(t.vault_path)) {
      result.notes.push(
        `${coldMoves.length} warm day(s) are older than ${t.warm_ttl_days} days, but no vault is configured for the ` +
          `cold tier: set tiers.vault_path to your Obsidian vault.`,
      );
    } else if (t.cold_requires_approval) {
      result.proposed.push(summarizeMoves(coldMoves, 'warm', 'cold'));
      if (!dryRun) {
        const p = await propose(options, coldMoves, { code: 'warm_ttl', days: t.warm_ttl_days }, false);
        result.proposals = { added: [...result.proposals.added, ...p.added], pending: p.pending };
      }
    } else {
      result.moved.push(summarizeMoves(coldMoves, 'warm', 'cold'));
      if (!dryRun) {
        const done = await executeMoves(options, coldMoves, 'warm', 'cold', { reason: 'warm_ttl' }, warmParsed);
        if (done.op) result.ops.push(report(done.op));
        if (done.vault) result.vault = done.vault;
        result.skipped.push(...done.skipped);
      }
    }
  }
  if (!dryRun) {
    if (result.proposals.pending === 0) result.proposals.pending = (await readApprovals(options.paths.approvals)).pending.length;
    result.pruned = await pruneOps(opContext(options), rollbackDays(options.config));
  }
  return result;
}

export interface ArchiveOptions extends TierJobOptions {
  olderThanDays: number;
  to: 'warm' | 'cold';
  dryRun?: boolean;
  approveAll?: boolean;
}

/**
 * `archive --older-than DAYS --to warm|cold`: move hot days older than DAYS to
 * warm now; or propose hot and warm days older than DAYS for the cold tier
 * (moved at once with --approve-all, or when cold_requires_approval is off).
 */
export async function runArchive(options: ArchiveOptions): Promise<TierRunResult> {
  const dryRun = Boolean(options.dryRun);
  const todayDate = today(options);
  const recovered = dryRun ? { completed: [], aborted: [], discarded: [] } : await recoverOps(opContext(options));
  const result = emptyResult(dryRun, todayDate, recovered);
  const rule = flatTtlRule(options.olderThanDays);
  if (options.to === 'warm') {
    const parsed: ParsedCache = new Map();
    const moves = planMoves(await factsOf(options, 'hot', todayDate, options.olderThanDays, dryRun ? undefined : parsed), {
      to: 'warm',
      today: todayDate,
      ttl: rule,
    });
    if (moves.length > 0) result.moved.push(summarizeMoves(moves, 'hot', 'warm'));
    if (!dryRun) {
      const done = await executeMoves(options, moves, 'hot', 'warm', { reason: `archive --older-than ${options.olderThanDays}` }, parsed);
      if (done.op) result.ops.push(report(done.op));
      result.skipped.push(...done.skipped);
    }
    return result;
  }
  if (!coldRoot(options.config.tiers.vault_path)) {
    throw new OcmError('CONFIG_MISSING', 'No vault is configured for the cold tier.', {
      hint: 'Set it with `ocm-run config set tiers.vault_path ~/Obsidian/MyVault` (created from the template when missing).',
    });
  }
  const direct = Boolean(options.approveAll) || !options.config.tiers.cold_requires_approval;
  for (const from of ['hot', 'warm'] as const) {
    const parsed: ParsedCache = new Map();
    const moves = planMoves(await factsOf(options, from, todayDate, options.olderThanDays, dryRun ? undefined : parsed), {
      to: 'cold',
      today: todayDate,
      ttl: rule,
    });
    if (moves.length === 0) continue;
    const summary = summarizeMoves(moves, from, 'cold');
    if (direct) {
      result.moved.push(summary);
      if (!dryRun) {
        const done = await executeMoves(
          options,
          moves,
          from,
          'cold',
          { reason: `archive --older-than ${options.olderThanDays}`, approved: 'approve-all' },
          parsed,
        );
        if (done.op) result.ops.push(report(done.op));
        if (done.vault) result.vault = done.vault;
        result.skipped.push(...done.skipped);
      }
    } else {
      result.proposed.push(summary);
      if (!dryRun) {
        const p = await propose(options, moves, { code: 'archive', days: options.olderThanDays }, true);
        result.proposals = { added: [...result.proposals.added, ...p.added], pending: p.pending };
      }
    }
  }
  return result;
}

/** Drop pending proposals whose source file was moved away. */
async function dropPending(options: TierJobOptions, sources: string[]): Promise<void> {
  if (sources.length === 0) return;
  const gone = new Set(sources);
  const file = await readApprovals(options.paths.approvals);
  const before = file.pending.length;
  file.pending = file.pending.filter((p) => !gone.has(p.source));
  if (file.pending.length !== before) await writeApprovals(options.paths.approvals, file);
}

export interface ApprovalResult {
  approved: Proposal[];
  ops: OpReport[];
  /** Proposals whose file was gone (dropped). */
  stale: Proposal[];
  skipped: Array<{ path: string; reason: string }>;
  vault?: VaultSetup;
}

/** Approve pending proposals ('all' for every one): move them now, one op per direction. */
export async function approveProposals(options: TierJobOptions, ids: string[]): Promise<ApprovalResult> {
  await recoverOps(opContext(options));
  const file = await readApprovals(options.paths.approvals);
  const chosen = selectPending(file, ids);
  const result: ApprovalResult = { approved: [], ops: [], stale: [], skipped: [] };
  const todayDate = today(options);
  const groups = new Map<string, { from: Tier; to: Tier; proposals: Proposal[] }>();
  for (const p of chosen) {
    const key = `${p.from}>${p.to}`;
    const g = groups.get(key) ?? { from: p.from, to: p.to, proposals: [] };
    g.proposals.push(p);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    if (g.to === 'cold' && !coldRoot(options.config.tiers.vault_path)) {
      throw new OcmError('CONFIG_MISSING', 'No vault is configured for the cold tier.', {
        hint: 'Set tiers.vault_path (`ocm-run config set tiers.vault_path ~/Obsidian/MyVault`), then approve again.',
      });
    }
    const refs: TierFile[] = g.proposals.map((p) => ({ path: p.source, tier: p.from, agent: p.agent, date: p.date }));
    const facts = await readFacts(refs);
    const present = new Set(facts.map((f) => f.file.path));
    for (const p of g.proposals) if (!present.has(p.source)) result.stale.push(p);
    // Approved: everything in the file goes, except pinned observations.
    const moves = planMoves(facts, { to: g.to, today: todayDate, ttl: flatTtlRule(Number.NEGATIVE_INFINITY) });
    const done = await executeMoves(options, moves, g.from, g.to, { approved: g.proposals.map((p) => p.id) });
    if (done.vault) result.vault = done.vault;
    result.skipped.push(...done.skipped);
    if (done.op) result.ops.push(report(done.op));
    const skippedPaths = new Set(done.skipped.map((s) => s.path));
    const moving = new Set(moves.map((m) => m.source.path));
    for (const p of g.proposals) {
      if (!present.has(p.source) || skippedPaths.has(p.source)) continue;
      if (moving.has(p.source)) result.approved.push(p);
      else result.skipped.push({ path: p.source, reason: 'nothing to move: every observation in it is pinned' });
    }
    await appendAudit(options.paths.audit, {
      time: options.now().toISOString(),
      action: 'approve',
      op: done.op?.id,
      proposals: g.proposals.filter((p) => !skippedPaths.has(p.source)).map((p) => p.id),
      counts: { files: g.proposals.length, observations: done.op?.counts.observations ?? 0 },
    });
  }
  const pinnedOnly = new Set(result.skipped.filter((s) => s.reason.startsWith('nothing to move')).map((s) => s.path));
  const settled = new Set([...result.approved, ...result.stale, ...chosen.filter((p) => pinnedOnly.has(p.source))].map((p) => p.id));
  const latest = await readApprovals(options.paths.approvals);
  latest.pending = latest.pending.filter((p) => !settled.has(p.id));
  await writeApprovals(options.paths.approvals, latest);
  return result;
}

/** Reject pending proposals: they stay where they are and are not proposed again by the daily job. */
export async function rejectProposals(options: TierJobOptions, ids: string[]): Promise<Proposal[]> {
  const file = await readApprovals(options.paths.approvals);
  const chosen = selectPending(file, ids);
  const gone = new Set(chosen.map((p) => p.id));
  file.pending = file.pending.filter((p) => !gone.has(p.id));
  for (const p of chosen)
    file.rejected.push({ id: p.id, source: p.source, date: p.date, agent: p.agent, to: p.to, rejectedAt: options.now().toISOString() });
  await writeApprovals(options.paths.approvals, file);
  await appendAudit(options.paths.audit, {
    time: options.now().toISOString(),
    action: 'reject',
    proposals: chosen.map((p) => ({ id: p.id, path: auditPath(options.paths.root, p.source), to: p.to, observations: p.observations })),
    counts: { files: chosen.length, observations: chosen.reduce((n, p) => n + p.observations, 0) },
  });
  return chosen;
}

/** `tier --rollback OP_ID`: restore every file of a committed op byte for byte. */
export async function rollbackTierOp(options: TierJobOptions, opId: string): Promise<OpReport & { target: string }> {
  await recoverOps(opContext(options));
  const op = await rollbackOp(opContext(options), opId);
  options.logger.log('info', 'tier.rolled_back', { op: op.id, target: opId, files: op.counts.files });
  return { ...report(op), target: opId };
}
