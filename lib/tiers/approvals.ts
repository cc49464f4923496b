/**
 * `.ocm/approvals.json`: moves that wait for the user's yes — warm → cold by
 * default (`tiers.cold_requires_approval`), hot → warm too when
 * `tiers.auto_hot_to_warm` is off. It names files and counts, never the text
 * of an observation (`approvals list` reads the summary from the file:
 * proposal-details.ts).
 */
import { readFile, rename } from 'node:fs/promises';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { OcmError, isNotFound } from '../core/errors.js';
import type { Tier } from '../core/types.js';
import { sha256 } from './files.js';

export interface Proposal {
  /** Stable for a source file: p-<8 hex>. */
  id: string;
  from: Tier;
  to: Tier;
  /** Absolute path of the day file to move. */
  source: string;
  date: string;
  agent: string;
  observations: number;
  bytes: number;
  proposedAt: string;
  /** Why it is proposed, in English for the CLI ("older than 365 days (tiers.warm_ttl_days)"). */
  reason: string;
  /** The same as a code, for a page in another language (files written before it have only `reason`: proposalWhy). */
  why?: ProposalWhy;
}

/** Why a move is proposed: past tiers.hot_ttl_days / tiers.warm_ttl_days, or `archive --older-than <days>`. */
export interface ProposalWhy {
  code: 'hot_ttl' | 'warm_ttl' | 'archive';
  days: number;
}

/** A proposal's reason as a code: its `why`, else read from the reason the tier job wrote before `why` was kept; undefined for any other text. */
export function proposalWhy(p: Pick<Proposal, 'reason' | 'why'>): ProposalWhy | undefined {
  if (p.why && ['hot_ttl', 'warm_ttl', 'archive'].includes(p.why.code) && Number.isInteger(p.why.days)) return p.why;
  const ttl = /^older than (\d+) days \(tiers\.(hot|warm)_ttl_days\)$/.exec(p.reason ?? '');
  if (ttl) return { code: ttl[2] === 'hot' ? 'hot_ttl' : 'warm_ttl', days: Number(ttl[1]) };
  const archive = /^archive --older-than (\d+)$/.exec(p.reason ?? '');
  return archive ? { code: 'archive', days: Number(archive[1]) } : undefined;
}

export interface Rejection {
  id: string;
  source: string;
  date: string;
  agent: string;
  to: Tier;
  rejectedAt: string;
}

export interface ApprovalsFile {
  version: 1;
  pending: Proposal[];
  /** Not proposed again by the daily job (`archive --to cold` proposes them again). */
  rejected: Rejection[];
}

export function proposalId(source: string, to: Tier): string {
  return `p-${sha256(`${to}\u0000${source}`).slice(0, 8)}`;
}

export function emptyApprovals(): ApprovalsFile {
  return { version: 1, pending: [], rejected: [] };
}

export async function readApprovals(path: string): Promise<ApprovalsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return emptyApprovals();
    throw error;
  }
  try {
    const data = JSON.parse(text) as Partial<ApprovalsFile>;
    return {
      version: 1,
      pending: Array.isArray(data.pending) ? data.pending : [],
      rejected: Array.isArray(data.rejected) ? data.rejected : [],
    };
  } catch {
    // A hand-broken file: keep it aside, start over (the daily job proposes again).
    await rename(path, `${path}.corrupt-${Date.now()}`).catch(() => undefined);
    return emptyApprovals();
  }
}

export async function writeApprovals(path: string, data: ApprovalsFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Add proposals for sources not pending yet (pending ones get fresh counts).
 * Rejected sources are skipped unless `again` (an explicit `archive`).
 */
export function addProposals(file: ApprovalsFile, proposals: Proposal[], options: { again?: boolean } = {}): Proposal[] {
  const added: Proposal[] = [];
  for (const p of proposals) {
    const pending = file.pending.find((q) => q.id === p.id);
    if (pending) {
      Object.assign(pending, { observations: p.observations, bytes: p.bytes });
      continue;
    }
    const rejected = file.rejected.findIndex((r) => r.id === p.id);
    if (rejected !== -1) {
      if (!options.again) continue;
      file.rejected.splice(rejected, 1);
    }
    file.pending.push(p);
    added.push(p);
  }
  file.pending.sort((a, b) => a.date.localeCompare(b.date) || a.source.localeCompare(b.source));
  return added;
}

/** Pending proposals matching ids ('all' matches every one). Unknown ids are an error. */
export function selectPending(file: ApprovalsFile, ids: string[]): Proposal[] {
  if (ids.length === 1 && ids[0] === 'all') return [...file.pending];
  const out: Proposal[] = [];
  for (const id of ids) {
    const p = file.pending.find((q) => q.id === id);
    if (!p) {
      throw new OcmError('NOT_FOUND', `No pending proposal ${id}.`, {
        hint: 'Run `ocm-run approvals list` to see the pending ids (or use `all`).',
      });
    }
    out.push(p);
  }
  return out;
}
