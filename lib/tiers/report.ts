/**
 * Human-readable lines for tier results, dry runs and pending approvals.
 * Pure formatting: the commands print them.
 */
import { PRIORITY_EMOJI } from '../memory/observation-line.js';
import type { ProposalDetails } from './proposal-details.js';
import type { MoveSummary } from './plan.js';
import type { TierRunResult } from './tier-job.js';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function formatSummary(s: MoveSummary): string {
  const range = s.dateRange ? (s.dateRange[0] === s.dateRange[1] ? s.dateRange[0] : `${s.dateRange[0]} … ${s.dateRange[1]}`) : '';
  const parts = [
    `${plural(s.files, 'day file')}${s.splits ? ` (${s.splits} split)` : ''}`,
    plural(s.observations, 'observation'),
    formatBytes(s.bytes),
    range,
  ];
  if (s.from === 'hot') parts.push(`~${s.tokensFreedFromHot.toLocaleString('en-US')} tokens freed from hot`);
  return `${`${s.from} → ${s.to}`.padEnd(12)} ${parts.filter(Boolean).join(' · ')}`;
}

export function formatTierResult(r: TierRunResult): string[] {
  const lines: string[] = [];
  if (r.recovered.completed.length)
    lines.push(`Finished ${plural(r.recovered.completed.length, 'interrupted move')}: ${r.recovered.completed.join(', ')}`);
  if (r.recovered.aborted.length)
    lines.push(
      `Undid ${plural(r.recovered.aborted.length, 'interrupted move')} whose files had changed: ${r.recovered.aborted.join(', ')}`,
    );
  if (r.dryRun) lines.push(`Dry run (today is ${r.today}) — nothing was changed.`);
  if (r.vault?.created === 'vault') lines.push(`Created the Obsidian vault for the cold tier at ${r.vault.root} (from vault-template/).`);
  if (r.vault?.created === 'folder') lines.push(`Added the OC-Memory folder to your vault at ${r.vault.root}.`);
  for (const s of r.moved) lines.push(`${r.dryRun ? 'Would move' : 'Moved'}      ${formatSummary(s)}`);
  for (const s of r.proposed) lines.push(`${r.dryRun ? 'Would propose' : 'Proposed'}   ${formatSummary(s)}`);
  if (r.moved.length === 0 && r.proposed.length === 0) lines.push('Nothing is due to move.');
  for (const op of r.ops)
    lines.push(
      `  op ${op.id}: ${plural(op.files, 'file')} changed, ${plural(op.observations, 'observation')} (undo: ocm-run tier --rollback ${op.id})`,
    );
  if (!r.dryRun && r.proposals.added.length > 0)
    lines.push(
      `${plural(r.proposals.added.length, 'new proposal')}; ${r.proposals.pending} pending in all — review with \`ocm-run approvals\`.`,
    );
  else if (!r.dryRun && r.proposals.pending > 0)
    lines.push(`${r.proposals.pending} proposal(s) wait for approval — \`ocm-run approvals\`.`);
  for (const s of r.skipped) lines.push(`Skipped ${s.path}: ${s.reason}`);
  for (const n of r.notes) lines.push(`Note: ${n}`);
  if (r.pruned.length) lines.push(`Dropped rollback data of ${plural(r.pruned.length, 'old op')}.`);
  return lines;
}

export function formatProposals(list: ProposalDetails[]): string[] {
  if (list.length === 0) return ['No moves wait for approval.'];
  const lines: string[] = [`${plural(list.length, 'proposal')} wait for approval:`, ''];
  for (const p of list) {
    const pr = (['high', 'medium', 'low'] as const).map((k) => `${PRIORITY_EMOJI[k]} ${p.byPriority[k]}`).join(' ');
    const cats = Object.entries(p.categories)
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    lines.push(
      `${p.id}  ${p.from} → ${p.to}  ${p.date}${p.agent !== 'main' ? ` (${p.agent})` : ''}  ${plural(p.observations, 'observation')}, ${formatBytes(p.bytes)}  — ${p.reason}`,
    );
    if (!p.exists) {
      lines.push('    the file is gone; approving or rejecting drops the proposal');
      continue;
    }
    lines.push(`    ${pr}${cats ? ` · ${cats}` : ''}${p.tags.length ? ` · #${p.tags.join(' #')}` : ''}`);
    for (const s of p.sample) lines.push(`    ${s}`);
  }
  lines.push('', 'Approve: ocm-run approvals approve <id…|all> · Reject: ocm-run approvals reject <id…|all>');
  return lines;
}
