/**
 * The tiers as the handle shows them (`ocm-run approvals`, the dashboard's
 * tiers page): each tier's day files summarised, and whether a proposal that
 * is no longer pending was decided already — a form sent twice, or a
 * decision made in another tab meanwhile, finds its work done, which is not
 * an error. The moves themselves are the tier job's (lib/tiers/tier-job.ts).
 */
import { stat } from 'node:fs/promises';
import type { Config } from '../config/config-schema.js';
import type { Tier } from '../core/types.js';
import type { HomePaths } from '../platform/home.js';
import type { AuditEntry } from '../tiers/audit.js';

export interface TierSummary {
  tier: Tier;
  files: number;
  bytes: number;
  /** The oldest and newest day of the tier's files (undefined: none). */
  oldest?: string | undefined;
  newest?: string | undefined;
}

/** Each tier's day files: how many, their size, the oldest and newest day. */
export async function tierSummaries(paths: HomePaths, config: Config): Promise<TierSummary[]> {
  const { listTierFiles } = await import('../tiers/locations.js');
  const out: TierSummary[] = [];
  for (const tier of ['hot', 'warm', 'cold'] as const satisfies readonly Tier[]) {
    const files = await listTierFiles(paths, config.tiers.vault_path, tier);
    let bytes = 0;
    for (const f of files)
      bytes += await stat(f.path).then(
        (s) => s.size,
        () => 0,
      );
    const dates = files.map((f) => f.date).sort();
    out.push({ tier, files: files.length, bytes, oldest: dates[0], newest: dates.at(-1) });
  }
  return out;
}

/** What the audit log says was last done to an observation (forget) or a proposal (approve, reject) of this id. */
export function decidedIn(
  audit: readonly AuditEntry[],
  id: string,
  actions: ReadonlyArray<'forget' | 'approve' | 'reject'>,
): 'forget' | 'approve' | 'reject' | undefined {
  for (const e of [...audit].reverse()) {
    if (!(actions as readonly string[]).includes(e.action)) continue;
    const listed = e.action === 'forget' ? e.ids : e.proposals;
    const ids = Array.isArray(listed) ? listed.map((x: unknown) => (typeof x === 'string' ? x : (x as { id?: unknown } | null)?.id)) : [];
    if (ids.includes(id)) return e.action as 'forget' | 'approve' | 'reject';
  }
  return undefined;
}

/** One proposal no longer pending that the audit log says was approved or rejected (asked under the home lock, before deciding). */
export async function alreadyDecided(paths: HomePaths, ids: readonly string[]): Promise<'approve' | 'reject' | undefined> {
  if (ids.length !== 1) return undefined;
  const [{ readApprovals }, { readAudit }] = await Promise.all([import('../tiers/approvals.js'), import('../tiers/audit.js')]);
  if ((await readApprovals(paths.approvals)).pending.some((p) => p.id === ids[0])) return undefined;
  return decidedIn(await readAudit(paths.audit), ids[0]!, ['approve', 'reject']) as 'approve' | 'reject' | undefined;
}
