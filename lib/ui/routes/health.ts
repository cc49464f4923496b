/** Health and figures (`/health`): the jobs, sources and cursors, LLM usage, and the charts of `ocm-run stats`. */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { chart, codeLabel, layout, table } from '../pages.js';
import type { PageContext } from '../page-context.js';

export function mountHealth(app: Hono, page: PageContext): void {
  const { memory, mask, frameOf } = page;
  // Health and figures (each day file's tally is read again only when the file changed: MemoryHandle.health)
  app.get('/health', async (c) => {
    const frame = frameOf(c, 'health');
    const { m } = frame;
    const status = await memory.health();
    const { stats, searchTimes: times } = status;
    const when = (s: string | undefined) => (s ? s.slice(0, 19).replace('T', ' ') : '—');
    const jobs = Object.entries(status.jobs).map(([name, j]) => [
      codeLabel(frame, 'job', name),
      when(j.lastRun),
      when(j.lastSuccess),
      j.lastError ? mask(`${when(j.lastError.at)} ${j.lastError.code}: ${j.lastError.message}`) : m.none,
    ]);
    const streams = status.streams
      .slice(0, 200)
      .map((s) => [codeLabel(frame, 'source', s.kind), mask(s.agent), mask(s.session), mask(s.path), mask(JSON.stringify(s.cursor))]);
    const usage = stats.llm.rows.map((r) => [
      r.role,
      r.model,
      r.inputTokens,
      r.outputTokens,
      r.calls,
      r.costUsd === null ? '—' : r.costUsd.toFixed(4),
    ]);
    const latencies = times.slice(-200);
    const active = stats.tokens.activeMemory;
    // The ratio of the two figures shown beside it (every agent's active memory, not main's alone), and only
    // when active memory is the smaller: "condensed 0.8×" would say the opposite of what happened.
    const activeTotal = Object.values(active).reduce((a, b) => a + b, 0);
    const ratio = activeTotal > 0 ? stats.tokens.transcriptRead / activeTotal : 0;
    const condensed =
      ratio > 1 ? html` · ${m.efficiency} <strong>${ratio.toFixed(1)}×</strong> (${stats.tokens.transcriptRead} ÷ ${activeTotal})` : '';
    const body = html`<section><h2>${m.jobsTitle}</h2>${jobs.length ? table([m.job, m.lastRun, m.lastOk, m.lastError], jobs) : html`<p class="empty">${m.none}</p>`}
${status.lastError ? html`<p class="error">${m.lastError}: ${codeLabel(frame, 'job', status.lastError.job)} ${when(status.lastError.at)} — ${mask(status.lastError.message)}</p>` : ''}</section>
<section><h2>${m.sourcesTitle}</h2>
${table(
  [m.source, m.filterAgent, m.streams, m.messages, m.malformed, m.lastRead],
  status.sources.map((s) => [codeLabel(frame, 'source', s.kind), mask(s.agent), s.streams, s.messages, s.malformed, when(s.lastRead)]),
)}
<details><summary>${m.cursors} (${streams.length})</summary>${table([m.source, m.filterAgent, m.session, m.path, m.cursor], streams)}</details></section>
<section><h2>${m.llmTitle}</h2>${usage.length ? table([m.role, m.model, m.inputTokens, m.outputTokens, m.calls, m.cost], usage) : html`<p class="empty">${m.llmNone}</p>`}</section>
<section><h2>${m.chartsTitle}</h2>
<p>${m.transcriptTokens}: <strong>${stats.tokens.transcriptRead}</strong> · ${m.activeTokens}: <strong>${activeTotal}</strong>${condensed} · ${m.searchLatency}: <strong>${stats.search.p95Ms ?? '—'}</strong> ms</p>
${chart('per-day', m.chartPerDay, { x: stats.observations.perDay.map((d) => d.date), xLabel: m.chartDay, series: [{ label: m.observationCount, values: stats.observations.perDay.map((d) => d.count) }] }, m.none)}
${chart(
  'llm-per-day',
  m.chartLlm,
  {
    x: stats.llm.byDay.map((d) => d.date),
    xLabel: m.chartDay,
    series: [
      { label: m.inputTokens, values: stats.llm.byDay.map((d) => d.inputTokens) },
      { label: m.outputTokens, values: stats.llm.byDay.map((d) => d.outputTokens) },
    ],
  },
  m.llmNone,
)}
${chart('tokens', m.chartTokens, { x: [m.transcriptTokens, ...Object.keys(active).map((a) => `${m.activeTokens} · ${a}`)], xLabel: m.chartWhat, series: [{ label: m.tokens, values: [stats.tokens.transcriptRead, ...Object.values(active)] }], bars: true }, m.none)}
${chart('search-ms', m.chartSearch, { x: latencies.map((_, i) => String(i + 1)), xLabel: m.chartSearchNumber, series: [{ label: 'ms', values: latencies }] }, m.none)}
</section>`;
    return c.html(layout(frame, m.healthTitle, body));
  });
}
