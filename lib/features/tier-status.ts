/** What `status` shows about tiers and sync: day files per tier, pending approvals, interrupted moves, the sync queue. */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { Tier } from '../core/types.js';
import { syncStatus, type SyncState } from '../jobs/sync/index.js';
import { readApprovals } from '../tiers/approvals.js';
import { listTierFiles } from '../tiers/locations.js';
import { listOpIds, readManifest } from '../tiers/ops.js';

export interface TierStatus {
  /** Day files per tier. */
  days: Record<Tier, number>;
  pendingApprovals: number;
  /** Moves a killed run left; the next tick finishes them. */
  interruptedOps: string[];
  vault: string;
  sync: { configured: boolean } & SyncState;
}

export async function collectTierStatus(paths: HomePaths, config: Config): Promise<TierStatus> {
  const days: Record<Tier, number> = { hot: 0, warm: 0, cold: 0 };
  for (const t of ['hot', 'warm', 'cold'] as const) days[t] = (await listTierFiles(paths, config.tiers.vault_path, t)).length;
  const interruptedOps: string[] = [];
  for (const id of await listOpIds(paths)) {
    const m = await readManifest(paths, id);
    if (!m || m.state === 'prepared') interruptedOps.push(id);
  }
  return {
    days,
    pendingApprovals: (await readApprovals(paths.approvals)).pending.length,
    interruptedOps,
    vault: config.tiers.vault_path,
    sync: await syncStatus(paths, config),
  };
}

/** Lines for the human `status` output. */
export function formatTierStatus(s: TierStatus): string[] {
  const lines = [
    `Tiers: ${s.days.hot} hot, ${s.days.warm} warm, ${s.days.cold} cold day files${s.vault ? ` (vault ${s.vault})` : ' (no vault set for the cold tier)'}`,
  ];
  if (s.pendingApprovals) lines.push(`  ${s.pendingApprovals} move(s) wait for approval — \`ocm-run approvals\``);
  if (s.interruptedOps.length)
    lines.push(`  ${s.interruptedOps.length} interrupted move(s) are finished by the next run: ${s.interruptedOps.join(', ')}`);
  if (!s.sync.configured) lines.push('Sync: not configured (sync.git.enabled / sync.command)');
  else {
    lines.push(`Sync: last success ${s.sync.lastSuccess?.slice(0, 19).replace('T', ' ') ?? 'never'}`);
    const p = s.sync.pending;
    if (p)
      lines.push(
        `  queued since ${p.since.slice(0, 19).replace('T', ' ')}: ${p.attempts} failed attempt(s), next retry after ` +
          `${p.nextAttemptAt.slice(0, 19).replace('T', ' ')} — ${p.lastError}`,
      );
  }
  return lines;
}
