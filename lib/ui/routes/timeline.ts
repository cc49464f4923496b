/**
 * The timeline (`/`: every tier's observations by day, newest first, with
 * the search filters, a page at a time) and search (`/search`: the engine
 * and filters of `ocm-run search` on the index the dashboard keeps open).
 */
import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { Provenance } from '../../core/types.js';
import { embeddingSettings } from '../../search/embeddings.js';
import { parseLimit, parseSearchMode } from '../../search/filters.js';
import { makeSnippet } from '../../search/snippet.js';
import { checked, taking } from '../problems.js';
import { addForm, filterForm, layout, observationItem, type Html, type ObservationView } from '../pages.js';
import { readFilters, type PageContext } from '../page-context.js';

export function mountTimeline(app: Hono, page: PageContext): void {
  const { config, options, memory, mask, frameOf, maskView, filterValues, knownAgents } = page;
  app.get('/', async (c) => {
    const frame = frameOf(c, 'timeline');
    const { m } = frame;
    const values = filterValues(c);
    const filters = readFilters(values, options.now(), config.timezone);
    const day = c.req.query('day');
    const skip = Number(c.req.query('skip') ?? 0);
    const from = day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? { day, skip: Number.isInteger(skip) && skip > 0 ? skip : 0 } : undefined;
    const page = await memory.timeline(filters, from);
    const back = frame.here;
    const agents = [...new Set([...page.agents, ...(await knownAgents())])].sort();
    let olderUrl: string | undefined;
    if (page.older) {
      const url = new URL(frame.here, 'http://x');
      url.searchParams.set('day', page.older.day);
      url.searchParams.set('skip', String(page.older.skip));
      url.searchParams.delete('note');
      url.searchParams.delete('about');
      olderUrl = `${url.pathname}${url.search}`;
    }
    const body = html`${filterForm(frame, '/', values, agents)}
${addForm(frame, agents, back)}
${page.days.length === 0 ? html`<p class="empty">${m.noObservations}</p>` : ''}
${page.days.map(
  (
    day,
  ) => html`<section class="day" aria-labelledby="d-${day.date}"><h2 id="d-${day.date}">${day.date} <small>${day.observations.length} ${day.observations.length === 1 ? m.observation : m.observations}</small></h2>
<ul class="observations">${day.observations.map((o) => observationItem(frame, maskView(o), back))}</ul></section>`,
)}
<nav class="pager">${from ? html`<a href="/">${m.newest}</a>` : ''} ${olderUrl ? html`<a href="${olderUrl}" rel="next">${m.older}</a>` : ''}</nav>`;
    return c.html(layout(frame, m.timelineTitle, body));
  });

  // Search: the engine and filters of `ocm-run search` on the index this process keeps open.
  app.get('/search', async (c) => {
    const frame = frameOf(c, 'search');
    const { m } = frame;
    const query = (c.req.query('q') ?? '').trim();
    const values = filterValues(c);
    const agents = await knownAgents();
    // Text or hybrid, as `ocm-run search --mode`: hybrid is offered only when embeddings are configured.
    const mode = checked('badMode', c.req.query('mode') ?? '', parseSearchMode);
    const hybridOffered = embeddingSettings(config) !== undefined;
    const modeChoice = hybridOffered
      ? html` <label>${m.searchMode} <select name="mode">${(['hybrid', 'text'] as const).map((x) => html`<option value="${x}"${x === (mode ?? 'hybrid') ? raw(' selected') : ''}>${x === 'text' ? m.modeText : m.modeHybrid}</option>`)}</select></label>`
      : '';
    const queryBox = html`<label class="q">${m.searchTitle} <input type="search" name="q" value="${query}" placeholder="${m.searchPlaceholder}" autofocus data-search></label>${modeChoice}`;
    let results: Html | string = '';
    if (query) {
      const filters = readFilters(values, options.now(), config.timezone);
      // The default number of results is `ocm-run search`'s (search.default_limit); ?limit= asks for more.
      const limit = checked('badLimit', c.req.query('limit') ?? '', (v) => parseLimit(v, config.search.default_limit));
      const started = performance.now();
      const response = await taking('search', {}, () => memory.search({ query, limit, filters, mode }));
      const ms = Math.round((performance.now() - started) * 10) / 10;
      // Timings for `stats` and the health page (average search time), in the log `ocm-run search` writes them to.
      (options.searchLogger ?? options.logger).log('info', 'search.done', {
        ms,
        results: response.results.length,
        mode: response.mode,
        cached: false,
        via: 'ui',
      });
      const views = response.results.map((r): ObservationView => {
        const text = mask(r.text);
        return maskView({
          id: r.id,
          date: r.date,
          time: r.time,
          priority: r.priority,
          done: r.done,
          ...(r.mark ? { mark: r.mark } : {}),
          category: r.category,
          text,
          tags: r.tags,
          agent: r.agent,
          provenance: r.provenance as Provenance,
          startLine: r.startLine,
          endLine: r.endLine,
          tier: r.tier,
          file: r.path,
          pinned: r.tags.some((t) => ['pin', 'pinned', 'user_marked', 'user-marked'].includes(t.toLowerCase())),
          anonymous: !/^[or]-/.test(r.id) || r.id.startsWith('r-'),
          snippet: makeSnippet(text, response.terms, 400),
        });
      });
      results = html`<p class="summary" data-results="${views.length}">${views.length} · ${m.searchMode} ${response.mode === 'text' ? m.modeText : m.modeHybrid} · ${ms} ${m.searchMs}</p>
${response.warnings.map((w) => html`<p class="warn">${m.searchWarning} <span lang="en">${mask(w)}</span></p>`)}
${views.length === 0 ? html`<p class="empty">${m.searchNone}</p>` : html`<ul class="observations results">${views.map((v) => observationItem(frame, v, frame.here))}</ul>`}`;
    }
    return c.html(layout(frame, m.searchTitle, html`${filterForm(frame, '/search', values, agents, queryBox)}${results}`));
  });
}
