/**
 * What a pending proposal would move, read from its day file: the counts by
 * priority and category, the commonest tags and the first few observations
 * (`ocm-run approvals`, the dashboard's tiers page). Its own module: it
 * loads the day-file parser, which the approvals file itself never needs.
 */
import { readFile } from 'node:fs/promises';
import type { Priority } from '../core/types.js';
import { listObservations, parseDayFile } from '../memory/day-file/index.js';
import { PRIORITY_EMOJI } from '../memory/observation-line.js';
import type { Proposal } from './approvals.js';

export interface ProposalDetails extends Proposal {
  exists: boolean;
  byPriority: Record<Priority, number>;
  categories: Record<string, number>;
  tags: string[];
  /** The first few observations, shortened. */
  sample: string[];
}

/** Read each proposal's file for a summary of its contents. */
export async function describeProposals(proposals: Proposal[], sampleSize = 3): Promise<ProposalDetails[]> {
  const out: ProposalDetails[] = [];
  for (const p of proposals) {
    const d: ProposalDetails = { ...p, exists: false, byPriority: { high: 0, medium: 0, low: 0 }, categories: {}, tags: [], sample: [] };
    try {
      const obs = listObservations(parseDayFile(await readFile(p.source, 'utf8')), { date: p.date, agent: p.agent });
      d.exists = true;
      const tags = new Map<string, number>();
      for (const o of obs) {
        d.byPriority[o.priority]++;
        d.categories[o.category] = (d.categories[o.category] ?? 0) + 1;
        for (const t of o.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
      }
      d.tags = [...tags]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([t]) => t);
      d.sample = obs
        .slice(0, sampleSize)
        .map((o) => `${PRIORITY_EMOJI[o.priority]} ${o.text.length > 70 ? `${o.text.slice(0, 69)}…` : o.text}`);
    } catch {
      /* gone since it was proposed */
    }
    out.push(d);
  }
  return out;
}
