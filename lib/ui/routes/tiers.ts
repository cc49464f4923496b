/**
 * The tiers (`/tiers`): each tier's files, the moves waiting for approval
 * grouped by why, the audit log with a rollback per move, and the approve,
 * reject and rollback buttons.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { formatBytes, proposalWhy, type Proposal } from '../../api/index.js';
import type { Tier } from '../../core/types.js';
import type { AuditEntry } from '../../tiers/audit.js';
import { approveMoves, rejectMoves, rollbackMove } from '../curate.js';
import { whyWords } from '../messages.js';
import { taking } from '../problems.js';
import { codeLabel, layout, postButton, table, tierLabel, type Html, type PageFrame } from '../pages.js';
import { safeBack, withNote, type PageContext } from '../page-context.js';

const AUDIT_SHOWN = 50;

export function mountTiers(app: Hono, page: PageContext): void {
  const { memory, curate, mask, frameOf, form } = page;
  app.get('/tiers', async (c) => {
    const frame = frameOf(c, 'tiers');
    const { m } = frame;
    const rows = (await memory.tiers()).map((t) => [tierLabel(m, t.tier), t.files, formatBytes(t.bytes), t.oldest ?? '—', t.newest ?? '—']);
    const pending = await memory.approvals();
    const fullAudit = await memory.audit();
    // A move already rolled back offers no second rollback (it would only say so): its row names the rollback.
    const rolledBackBy = new Map(
      fullAudit.flatMap((e) => (e.action === 'rollback' && typeof e.target === 'string' && e.op ? [[e.target, e.op] as const] : [])),
    );
    const audit = fullAudit.slice(-AUDIT_SHOWN).reverse();
    const moveCell = (op: string) => {
      const by = rolledBackBy.get(op);
      return by
        ? html`<span class="rolled-back">${m.rolledBackBy} <code>${by}</code></span>`
        : postButton('/tiers/rollback', { op, back }, m.rollback);
    };
    const back = '/tiers';
    const body = html`${table(['', m.tierFiles, m.tierBytes, m.tierOldest, m.tierNewest], rows)}
<section><h2>${m.pendingTitle}</h2>
${
  pending.length === 0
    ? html`<p class="empty">${m.pendingNone}</p>`
    : byReason(pending).map(
        (group) =>
          html`<p class="reason-group">${reasonOf(frame, group[0]!)}:</p><ul class="proposals">${group.map(
            (
              p,
            ) => html`<li class="proposal" data-proposal="${p.id}"><strong>${tierLabel(m, p.from)} → ${tierLabel(m, p.to)}</strong> ${p.date} · ${p.agent} · ${p.observations} ${p.observations === 1 ? m.observation : m.observations} · ${formatBytes(p.bytes)} · <code>${p.id}</code>
${p.sample.length ? html`<ul class="sample">${p.sample.map((s) => html`<li>${mask(s)}</li>`)}</ul>` : ''}
${postButton('/tiers/approve', { id: p.id, back }, m.approve)} ${postButton('/tiers/reject', { id: p.id, back }, m.reject)}</li>`,
          )}</ul>`,
      )
}</section>
<section><h2>${m.auditTitle}</h2>
${
  audit.length === 0
    ? html`<p class="empty">${m.auditNone}</p>`
    : table(
        [m.time, m.action, m.op, ''],
        audit.map((e) => [
          e.time.slice(0, 19).replace('T', ' '),
          codeLabel(frame, 'action', e.action),
          e.op ?? '',
          e.action === 'move' && e.op ? moveCell(e.op) : auditSummary(frame, e),
        ]),
      )
}</section>`;
    return c.html(layout(frame, m.tiersTitle, body));
  });

  app.post('/tiers/approve', async (c) => {
    const f = await form(c);
    const r = await taking('approve', { id: f.id ?? '' }, () => approveMoves(curate, f.id ?? ''));
    if (typeof r === 'string') return c.redirect(withNote(safeBack(f.back, '/tiers'), r, f.id), 303);
    // Approved and still not moved (every observation pinned since, a broken frontmatter, the file gone): say why.
    if (r.approved.length === 0) {
      const why = r.skipped[0]?.reason ?? (r.stale.length > 0 ? 'the day file is gone' : 'nothing to move');
      return c.redirect(withNote(safeBack(f.back, '/tiers'), 'notMoved', `${f.id}: ${why}`), 303);
    }
    return c.redirect(withNote(safeBack(f.back, '/tiers'), 'approved', f.id), 303);
  });

  app.post('/tiers/reject', async (c) => {
    const f = await form(c);
    const r = await taking('reject', { id: f.id ?? '' }, () => rejectMoves(curate, f.id ?? ''));
    return c.redirect(withNote(safeBack(f.back, '/tiers'), typeof r === 'string' ? r : 'rejected', f.id), 303);
  });

  app.post('/tiers/rollback', async (c) => {
    const f = await form(c);
    const op = await taking('rollback', { op: f.op ?? '' }, () => rollbackMove(curate, f.op ?? ''));
    return c.redirect(withNote(safeBack(f.back, '/tiers'), 'rolledBack', op), 303);
  });
}

/** An audit entry's counts (files 2, observations 5) and what it undid, in the page's words. */
function auditSummary(frame: PageFrame, e: AuditEntry): Html {
  const counts = e.counts && typeof e.counts === 'object' ? Object.entries(e.counts as Record<string, unknown>) : [];
  return html`${counts.map(([k, v], i) => html`${i ? ', ' : ''}${countValue(frame, k, v)}`)}${typeof e.target === 'string' ? html`${counts.length ? ' ' : ''}→ ${e.target}` : ''}`;
}

/** One count of an audit entry: `files 2`; a count per tier (forget's byTier) as `hot 2, warm 1` (tiers with none left out), never "[object Object]". */
function countValue(frame: PageFrame, key: string, value: unknown): Html {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const parts = Object.entries(value as Record<string, unknown>).filter(([, n]) => n !== 0);
    if (key === 'byTier')
      return html`${parts.map(([tier, n], i) => html`${i ? ', ' : ''}${tierLabel(frame.m, tier as Tier)} ${String(n)}`)}`;
    return html`${codeLabel(frame, 'count', key)} (${parts.map(([k, n], i) => html`${i ? ', ' : ''}${k} ${String(n)}`)})`;
  }
  return html`${codeLabel(frame, 'count', key)} ${String(value)}`;
}

/** Pending proposals grouped by why they are proposed (in their order): the reason is said once over its days, not on each. */
function byReason<P extends Proposal>(pending: P[]): P[][] {
  const groups = new Map<string, P[]>();
  for (const p of pending) {
    const why = proposalWhy(p);
    const key = why ? `${why.code}:${why.days}` : p.reason;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()];
}

/** Why a move is proposed, in the page's words with the setting or command behind it; a reason of another kind as written (lang="en"). */
function reasonOf(frame: PageFrame, p: Proposal): Html {
  const why = proposalWhy(p);
  if (!why) return html`<span class="reason" lang="en">${p.reason}</span>`;
  const source = why.code === 'archive' ? `archive --older-than ${why.days}` : `tiers.${why.code}_days`;
  return html`<span class="reason" title="${p.reason}">${whyWords(frame.lang, why)} (<code>${source}</code>)</span>`;
}
