/**
 * The dashboard's routes (`ocm-run ui`, docs/dashboard.md): a hono app over
 * one memory home. Reading pages read the memory files, state and logs as
 * they are at the moment of the request; changing ones (POST) go through
 * lib/ui/curate.ts and answer with a redirect back to the page they came
 * from. Every text from the memory is masked (lib/masking/masking.ts, the same rules
 * as every other output) before it reaches a page.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secureHeaders } from 'hono/secure-headers';
import { html, raw } from 'hono/html';
import type { Config } from '../config/config-schema.js';
import { activeMemoryPath, DEFAULT_AGENT, readTextIfExists, type HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { maskedText } from '../masking/masking.js';
import { listHotAgents } from '../memory/memory-files.js';
import { packagePath } from '../platform/package-root.js';
import { filtersFromOptions, listOption, parseDateBound, parseLimit, parsePriorities, parseSearchMode, parseTiers } from '../search/filters.js';
import type { SearchFilters } from '../search/types.js';
import { embeddingSettings } from '../search/embeddings.js';
import type { IndexReader } from '../search/engine.js';
import { memoryOf, type MemoryHandle } from '../api/memory.js';
import { makeSnippet } from '../search/snippet.js';
import { maskingOptions } from '../sources/registry.js';
import { formatBytes, headerTokens, proposalWhy, type Proposal } from '../api/index.js';
import { countTokens } from '../core/tokens.js';
import type { Provenance, Tier } from '../core/types.js';
import type { AuditEntry } from '../tiers/audit.js';
import { accessGuard, type Refusal } from './guard.js';
import { mountRestApi } from './rest.js';
import { addObservation, approveMoves, duplicateId, editObservation, forgetObservations, parsePriority, parseTags, rejectMoves, rollbackMove, type CurateContext } from './curate.js';
import { chooseLang, codeWord, messagesFor, whyWords, type Lang, type MessageKey } from './messages.js';
import { checked, problemOf, taking, UiProblem } from './problems.js';
import { localDateTime, resolveTimeZone } from '../platform/time-zone.js';
import type { ObservationMark } from '../core/types.js';
import { addForm, chart, codeLabel, editForm, filterForm, forgetForm, layout, observationItem, postButton, table, tierLabel, type FilterValues, type Html, type ObservationView, type PageFrame } from './pages.js';

export interface UiAppOptions {
  paths: HomePaths;
  config: Config;
  logger: Logger;
  /** Where searches are timed (logs/search.log, as `ocm-run search` does): `stats` and the health page read it. */
  searchLogger?: Logger;
  now: () => Date;
  /** The one-time login token of this run (lib/ui/server.ts). */
  token: string;
  /** The session secret it is exchanged for. */
  session: string;
  /** The REST API's Bearer token (rest.ts). */
  apiToken: string;
  /** Called once, when the login token is used (awaited before the answer). */
  onLogin?: () => void | Promise<void>;
  /** The port the server listens on, once it does. */
  port: () => number;
  /** How long a change waits for a job holding the home lock (ms). */
  lockWaitMs?: number;
}

export interface UiApp {
  app: Hono;
  /** The handle the dashboard keeps open on the home (closed with the server). */
  memory: MemoryHandle;
}

/** Notices a change can come back with (?note=…); nothing else is shown from the address. */
const NOTES = ['saved', 'added', 'alreadyThere', 'forgot', 'approved', 'notMoved', 'rejected', 'rolledBack', 'alreadyForgotten', 'alreadyApproved', 'alreadyRejected'] as const satisfies readonly MessageKey[];
type Note = (typeof NOTES)[number];

/** Address parameters a user types (the search box, the text filters): masked like every text (below). The selects (agent, priority, tier, mode) offer names the memory already has. */
const TYPED_PARAMS = new Set(['q', 'category', 'tag', 'since', 'until']);

const AUDIT_SHOWN = 50;
const INJECTIONS_SHOWN = 20;

const require = createRequire(import.meta.url);

interface Asset {
  path: () => string;
  type: string;
}

const ASSETS: Record<string, Asset> = {
  'ui.css': { path: () => packagePath('templates', 'ui', 'ui.css'), type: 'text/css; charset=utf-8' },
  'ui.js': { path: () => packagePath('templates', 'ui', 'ui.js'), type: 'text/javascript; charset=utf-8' },
  // uPlot (MIT) from node_modules: no CDN, the dashboard works offline.
  'uplot.js': { path: () => require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
  'uplot.css': { path: () => require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

/** A path of the REST API (rest.ts), not a page. */
function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A path inside the dashboard to go back to (never another site). */
function safeBack(value: unknown, fallback = '/'): string {
  const s = typeof value === 'string' ? value : '';
  // No backslash or control character anywhere: a browser drops tabs and newlines from a URL and reads '\\' as '/',
  // so '/\t/evil.example' would be '//evil.example', another site.
  return s.startsWith('/') && !s.startsWith('//') && !/[\\\u0000-\u001f\u007f]/.test(s) ? s : fallback;
}

/** The path of the page a request came from (same origin: the CSP and Referrer-Policy keep it so), '/' when there is none. */
function refererPath(referer: string | undefined): string {
  try {
    return referer ? new URL(referer).pathname : '/';
  } catch {
    return '/';
  }
}

function withNote(back: string, note: Note, about?: string): string {
  const url = new URL(back, 'http://x');
  url.searchParams.set('note', note);
  if (about) url.searchParams.set('about', about);
  else url.searchParams.delete('about');
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The timeline's and the search's filters as `ocm-run search` reads them; a value that is none (typed
 * into the address) is said as the filter it is in, not as the command line's flag.
 */
function readFilters(values: FilterValues, now: Date, timeZone: string): SearchFilters {
  const since = listOption(values.since)[0];
  const until = listOption(values.until)[0];
  const from = since === undefined ? undefined : checked('badSince', since, (v) => parseDateBound(v, now, timeZone));
  const to = until === undefined ? undefined : checked('badUntil', until, (v) => parseDateBound(v, now, timeZone));
  if (from && to && from > to) throw new UiProblem('BAD_INPUT', 'datesSwapped', { since: from, until: to });
  for (const v of listOption(values.priority)) checked('badPriorityFilter', v, (x) => parsePriorities([x]));
  for (const v of listOption(values.tier)) checked('badTier', v, (x) => parseTiers([x]));
  return filtersFromOptions(values as Record<string, unknown>, now, timeZone);
}

function statusOf(code: string): 400 | 404 | 409 | 500 | 503 {
  if (code === 'BAD_INPUT' || code === 'PATH_OUTSIDE_ROOTS') return 400;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'LOCKED') return 409;
  if (code === 'DISK_FULL' || code === 'PERMISSION_DENIED') return 503;
  return 500;
}

export function createUiApp(options: UiAppOptions): UiApp {
  const { paths, config } = options;
  const memory = memoryOf(paths.root, config, { keepOpen: true, logger: options.logger, now: options.now, lockWaitMs: options.lockWaitMs ?? 20_000 });
  const masking = maskingOptions(config);
  const mask = (text: string) => maskedText(text, masking);
  const curate: CurateContext = { paths, config, logger: options.logger, now: options.now, memory, lockWaitMs: options.lockWaitMs ?? 20_000 };
  const app = new Hono();

  const langOf = (c: Context): Lang => chooseLang(c.req.query('lang') ?? getCookie(c, 'ocm_ui_lang'), c.req.header('accept-language'));

  const frameOf = (c: Context, section: PageFrame['section']): PageFrame => {
    const lang = langOf(c);
    if (c.req.query('lang')) setCookie(c, 'ocm_ui_lang', lang, { sameSite: 'Strict', path: '/' });
    const url = new URL(c.req.url);
    url.searchParams.delete('lang');
    const noteKey = c.req.query('note');
    const m = messagesFor(lang);
    const about = c.req.query('about');
    const notice = (NOTES as readonly string[]).includes(noteKey ?? '') ? `${m[noteKey as Note]}${about ? ` ${mask(about)}` : ''}` : undefined;
    return { lang, m, here: `${url.pathname}${url.search}`, section, notice };
  };

  const refuse = (c: Context, why: Refusal) => {
    const m = messagesFor(langOf(c));
    const text = why === 'foreign-host' ? m.foreignHost : why === 'foreign-origin' ? m.foreignOrigin : why === 'login-used' ? m.loginUsed : m.denied;
    options.logger.log('warn', 'ui.refused', { why, path: c.req.path });
    return c.text(text, why === 'no-token' ? 401 : 403);
  };

  const guard = accessGuard({ token: options.token, session: options.session, port: options.port, refuse, ...(options.onLogin ? { onLogin: options.onLogin } : {}) });
  // The REST API (rest.ts) answers in JSON with its own token check; the dashboard's pages behind the login.
  app.use('*', (c, next) => (isApi(c.req.path) ? next() : guard(c, next)));
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'"], imgSrc: ["'self'", 'data:'], formAction: ["'self'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
      // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form POST, which the guard must refuse.
      referrerPolicy: 'same-origin',
      crossOriginResourcePolicy: 'same-origin',
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    if (!c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-store');
  });
  // A secret typed into an address (a key pasted into the search box or a filter) is masked there before any page
  // echoes it — in the box, the links and the address bar. The search engine masks a query anyway, so it finds the
  // same. Only what a user types: a file, id or way back names a file, and a long path (a vault's) can look like a
  // high-entropy secret to the masking rules.
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' || isApi(c.req.path)) return next();
    const url = new URL(c.req.url);
    const params = [...url.searchParams].map(([k, v]): [string, string] => [k, TYPED_PARAMS.has(k) ? mask(v) : v]);
    if (params.every(([k, v]) => url.searchParams.getAll(k).includes(v))) return next();
    return c.redirect(`${url.pathname}?${new URLSearchParams(params).toString()}`, 303);
  });

  // Every error reaches the page in its language (lib/ui/problems.ts): the routes name the step they were taking.
  const problemPage = (c: Context, problem: UiProblem) => {
    options.logger.log(problem.code === 'INTERNAL' ? 'error' : 'warn', 'ui.error', { path: c.req.path, code: problem.code, problem: problem.key, error: mask(problem.message) });
    const back = safeBack(refererPath(c.req.header('referer')));
    // After a change (POST) the page's own address cannot be opened again: its language link goes to the page it came from.
    const frame = { ...frameOf(c, 'error'), ...(c.req.method === 'GET' ? {} : { here: back }) };
    const { text, hint } = problem.textIn(frame.lang, mask);
    const original = problem.original;
    const body = html`<p class="error" role="alert">${text}</p>
${original ? html`<p class="original">${frame.m.originalMessage} <span lang="en">${mask(original.message)}</span></p>` : ''}
${original?.hint ? html`<p class="hint" lang="en">→ ${mask(original.hint)}</p>` : hint ? html`<p class="hint">→ ${hint}</p>` : ''}
<p><a href="${back}">${frame.m.back}</a></p>`;
    return c.html(layout(frame, frame.m.errorTitle, body), statusOf(problem.code));
  };
  mountRestApi(app, { memory, apiToken: options.apiToken, session: options.session, port: options.port, now: options.now, mask, log: (level, event, fields) => options.logger.log(level, event, fields) });
  app.onError((error, c) => problemPage(c, problemOf(error, 'page')));
  app.notFound((c) => problemPage(c, new UiProblem('NOT_FOUND', 'noPage', { path: c.req.path })));

  app.get('/assets/:name', async (c) => {
    const asset = Object.hasOwn(ASSETS, c.req.param('name')) ? ASSETS[c.req.param('name')] : undefined;
    if (!asset) return c.notFound();
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', 'private, max-age=3600');
    return c.body(await readFile(asset.path()));
  });

  const maskView = (o: ObservationView): ObservationView => ({
    ...o,
    text: mask(o.text),
    tags: o.tags.map(mask),
    provenance: o.provenance && { ...o.provenance, session: mask(o.provenance.session) },
  });

  const filterValues = (c: Context): FilterValues => {
    const q = c.req.query();
    const out: FilterValues = {};
    for (const key of ['agent', 'priority', 'category', 'tier', 'tag', 'since', 'until'] as const) if (q[key]) out[key] = q[key];
    return out;
  };

  const knownAgents = async (): Promise<string[]> => [...new Set([DEFAULT_AGENT, ...(await listHotAgents(paths))])].sort();

  // ---- Timeline
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
${page.days.map((day) => html`<section class="day" aria-labelledby="d-${day.date}"><h2 id="d-${day.date}">${day.date} <small>${day.observations.length} ${day.observations.length === 1 ? m.observation : m.observations}</small></h2>
<ul class="observations">${day.observations.map((o) => observationItem(frame, maskView(o), back))}</ul></section>`)}
<nav class="pager">${from ? html`<a href="/">${m.newest}</a>` : ''} ${olderUrl ? html`<a href="${olderUrl}" rel="next">${m.older}</a>` : ''}</nav>`;
    return c.html(layout(frame, m.timelineTitle, body));
  });

  // ---- Search: the engine and filters of `ocm-run search` on the index this process keeps open.
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
      (options.searchLogger ?? options.logger).log('info', 'search.done', { ms, results: response.results.length, mode: response.mode, cached: false, via: 'ui' });
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

  // ---- One observation: edit and forget
  const findObservation = async (fileRef: string, id: string): Promise<ObservationView> => {
    const file = await memory.dayFile(fileRef);
    const same = file ? (await memory.dayObservations(file)).filter((o) => o.id === id && !o.anonymous) : [];
    if (same.length > 1) throw duplicateId(id, fileRef, same.map((o) => o.startLine));
    const found = same[0];
    if (!found) throw new UiProblem('NOT_FOUND', 'notInFile', { id, file: fileRef });
    return found;
  };

  app.get('/observation', async (c) => {
    const frame = frameOf(c, 'timeline');
    const o = await findObservation(c.req.query('file') ?? '', c.req.query('id') ?? '');
    return c.html(layout(frame, frame.m.editTitle, editForm(frame, maskView(o), safeBack(c.req.query('back')))));
  });

  app.get('/observation/forget', async (c) => {
    const frame = frameOf(c, 'timeline');
    const o = await findObservation(c.req.query('file') ?? '', c.req.query('id') ?? '');
    return c.html(layout(frame, frame.m.forgetTitle, forgetForm(frame, maskView(o), safeBack(c.req.query('back')))));
  });

  const form = async (c: Context): Promise<Record<string, string>> => {
    const body = await c.req.parseBody();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
    return out;
  };

  app.post('/observation/edit', async (c) => {
    const f = await form(c);
    // Text left as the page showed it is not written: the page shows it masked, and writing that back would
    // replace a secret (or a false positive of the masking rules) in the file by [REDACTED:…] on a change of priority.
    const unchanged = f.shown !== undefined && (f.text ?? '').trim() === f.shown.trim();
    const r = await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () =>
      editObservation(curate, f.file ?? '', f.id ?? '', {
        text: unchanged ? undefined : (f.text ?? ''),
        priority: parsePriority(f.priority ?? ''),
        category: f.category ?? '',
        tags: parseTags(f.tags ?? ''),
        done: f.done === 'true',
      }),
    );
    return c.redirect(withNote(safeBack(f.back), 'saved', `${f.id} → ${r.path}`), 303);
  });

  app.post('/observation/pin', async (c) => {
    const f = await form(c);
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () => editObservation(curate, f.file ?? '', f.id ?? '', { pinned: f.pinned === 'true' }));
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/done', async (c) => {
    const f = await form(c);
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () => editObservation(curate, f.file ?? '', f.id ?? '', { done: f.done === 'true' }));
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/mark', async (c) => {
    const f = await form(c);
    const kind = f.mark ?? 'clear';
    if (kind !== 'clear' && kind !== 'done' && kind !== 'superseded') throw new UiProblem('BAD_INPUT', 'badMark', { value: kind });
    const by = (f.by ?? '').trim().replace(/^\^/, '');
    if (kind === 'superseded' && !/^o-[0-9a-f]{6,}$/.test(by)) throw new UiProblem('BAD_INPUT', 'badMarkBy', { value: by });
    const today = localDateTime(options.now(), resolveTimeZone(config.timezone)).date;
    const mark: ObservationMark | null = kind === 'clear' ? null : { kind, date: today, ...(kind === 'superseded' ? { by } : {}) };
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () => editObservation(curate, f.file ?? '', f.id ?? '', { mark }));
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/forget', async (c) => {
    const f = await form(c);
    const r = await taking('forget', { id: f.id ?? '' }, () => forgetObservations(curate, [f.id ?? '']));
    // The page it came from may have been the observation's own: go back to where it was listed.
    return c.redirect(withNote(safeBack(f.back), typeof r === 'string' ? r : 'forgot', f.id), 303);
  });

  app.post('/observation/add', async (c) => {
    const f = await form(c);
    const agent = (f.agent ?? DEFAULT_AGENT).trim() || DEFAULT_AGENT;
    if (!(f.text ?? '').trim()) throw new UiProblem('BAD_INPUT', 'emptyRemember');
    const r = await taking('add', {}, () =>
      addObservation(curate, { agent, text: f.text ?? '', priority: parsePriority(f.priority ?? 'high'), category: (f.category ?? 'fact').trim().toLowerCase() || 'fact', tags: parseTags(f.tags ?? '') }),
    );
    return c.redirect(withNote(safeBack(f.back), r.added ? 'added' : 'alreadyThere', r.observation.id), 303);
  });

  // ---- A day file, line by line (the target of every "in memory/…:12" link)
  app.get('/file', async (c) => {
    const frame = frameOf(c, 'file');
    const ref = c.req.query('path') ?? '';
    const file = await memory.dayFile(ref);
    // A search result from a reflection links to its line as well.
    const reflection = file ? undefined : await memory.reflectionFile(ref);
    if (!file && !reflection) throw new UiProblem('NOT_FOUND', 'notAFile', { file: ref });
    const lines = maskedLines(await readFile(file?.path ?? reflection!, 'utf8'), mask);
    if (lines.at(-1) === '') lines.pop();
    const body = html`<p class="meta">${file ? `${tierLabel(frame.m, file.tier)} · ${file.agent} · ${file.date}` : frame.m.reflection}</p><ol class="file">${lines.map((line, i) => html`<li id="L${i + 1}"><code>${line}</code></li>`)}</ol>`;
    return c.html(layout(frame, ref, body));
  });

  // ---- Active memory
  app.get('/active', async (c) => {
    const frame = frameOf(c, 'active');
    const { m } = frame;
    const budget = config.active_memory.budget_tokens;
    const sections: Html[] = [];
    for (const agent of await knownAgents()) {
      const text = await readTextIfExists(activeMemoryPath(paths, agent));
      if (text === undefined && agent !== DEFAULT_AGENT) continue;
      // The count the builder wrote in the header line (exact BPE of a hand-edited file otherwise).
      const tokens = text ? (headerTokens(text) ?? countTokens(text)) : 0;
      sections.push(html`<section class="active" aria-labelledby="a-${agent}"><h2 id="a-${agent}">${agent}</h2>
${text ? html`<p class="tokens"><meter min="0" max="${budget}" value="${Math.min(tokens, budget)}" high="${Math.round(budget * 0.9)}"></meter> <strong data-tokens="${tokens}">${tokens}</strong> ${m.tokensOfBudget} ${budget}${tokens > budget ? html` <span class="warn">${m.overBudget}</span>` : ''}</p>
<pre class="active-text">${mask(text)}</pre>` : html`<p class="empty">${m.activeNone}</p>`}</section>`);
    }
    const injections = await lastInjections(paths);
    const injectionRows = injections.map((r) => {
      const went = Array.isArray(r.injected) ? (r.injected as Array<{ id?: unknown; relevance?: unknown }>).filter((x) => typeof x?.id === 'string') : [];
      const what: Html | string =
        r.event === 'hook.session_start'
          ? `${m.activeTitle}: ${String(r.chars ?? 0)} ${m.injectedChars}`
          : went.length
            ? html`${went.map((x, i) => html`${i ? ', ' : ''}<a href="/search?q=${encodeURIComponent(String(x.id))}&amp;tier=hot,warm,cold"><code>${String(x.id)}</code></a>${typeof x.relevance === 'number' ? ` (${x.relevance})` : ''}`)}`
            : String(r.results ?? '');
      return [String(r.time ?? '').slice(0, 19).replace('T', ' '), String(r.event ?? ''), mask(String(r.agent ?? '')), String(r.via ?? ''), what, String(r.ms ?? '')];
    });
    // What the suspicious-text detector holds out of every injection (memory/suspicious.ts), for the user to review.
    const { heldForReview } = await import('../api/index.js');
    const { listHotDayFiles, readObservations } = await import('../memory/memory-files.js');
    const held = heldForReview(await readObservations(await listHotDayFiles(paths)));
    const heldRows = held.slice(0, 100).map((h) => [
      html`<a href="/search?q=${encodeURIComponent(h.id)}&amp;tier=hot"><code>${h.id}</code></a>`,
      h.date,
      mask(h.agent),
      codeWord(frame.lang, 'suspicion', h.reason) ?? h.why,
      mask(h.text.length > 300 ? `${h.text.slice(0, 299)}…` : h.text),
    ]);
    const heldSection = html`<section class="held" id="held"><h2>${m.heldTitle} (${held.length})</h2><p class="hint">${m.heldNote}</p>
${heldRows.length ? table(['id', m.heldDate, m.filterAgent, m.heldWhy, m.observation], heldRows) : html`<p class="empty">${m.heldNone}</p>`}</section>`;
    const body = html`${sections}${heldSection}<section><h2>${m.injectionsTitle}</h2><p class="hint">${m.injectionsNote}</p>
${injectionRows.length ? table([m.time, m.event, m.filterAgent, m.via, m.injectedWhat, 'ms'], injectionRows) : html`<p class="empty">${m.injectionsNone}</p>`}</section>`;
    return c.html(layout(frame, m.activeTitle, body));
  });

  // ---- Tiers
  app.get('/tiers', async (c) => {
    const frame = frameOf(c, 'tiers');
    const { m } = frame;
    const rows = (await memory.tiers()).map((t) => [tierLabel(m, t.tier), t.files, formatBytes(t.bytes), t.oldest ?? '—', t.newest ?? '—']);
    const pending = await memory.approvals();
    const fullAudit = await memory.audit();
    // A move already rolled back offers no second rollback (it would only say so): its row names the rollback.
    const rolledBackBy = new Map(fullAudit.flatMap((e) => (e.action === 'rollback' && typeof e.target === 'string' && e.op ? [[e.target, e.op] as const] : [])));
    const audit = fullAudit.slice(-AUDIT_SHOWN).reverse();
    const moveCell = (op: string) => {
      const by = rolledBackBy.get(op);
      return by ? html`<span class="rolled-back">${m.rolledBackBy} <code>${by}</code></span>` : postButton('/tiers/rollback', { op, back }, m.rollback);
    };
    const back = '/tiers';
    const body = html`${table(['', m.tierFiles, m.tierBytes, m.tierOldest, m.tierNewest], rows)}
<section><h2>${m.pendingTitle}</h2>
${pending.length === 0 ? html`<p class="empty">${m.pendingNone}</p>` : byReason(pending).map((group) => html`<p class="reason-group">${reasonOf(frame, group[0]!)}:</p><ul class="proposals">${group.map((p) => html`<li class="proposal" data-proposal="${p.id}"><strong>${tierLabel(m, p.from)} → ${tierLabel(m, p.to)}</strong> ${p.date} · ${p.agent} · ${p.observations} ${p.observations === 1 ? m.observation : m.observations} · ${formatBytes(p.bytes)} · <code>${p.id}</code>
${p.sample.length ? html`<ul class="sample">${p.sample.map((s) => html`<li>${mask(s)}</li>`)}</ul>` : ''}
${postButton('/tiers/approve', { id: p.id, back }, m.approve)} ${postButton('/tiers/reject', { id: p.id, back }, m.reject)}</li>`)}</ul>`)}</section>
<section><h2>${m.auditTitle}</h2>
${audit.length === 0 ? html`<p class="empty">${m.auditNone}</p>` : table([m.time, m.action, m.op, ''], audit.map((e) => [e.time.slice(0, 19).replace('T', ' '), codeLabel(frame, 'action', e.action), e.op ?? '', e.action === 'move' && e.op ? moveCell(e.op) : auditSummary(frame, e)]))}</section>`;
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

  // ---- Health and figures (each day file's tally is read again only when the file changed: MemoryHandle.health)
  app.get('/health', async (c) => {
    const frame = frameOf(c, 'health');
    const { m } = frame;
    const status = await memory.health();
    const { stats, searchTimes: times } = status;
    const when = (s: string | undefined) => (s ? s.slice(0, 19).replace('T', ' ') : '—');
    const jobs = Object.entries(status.jobs).map(([name, j]) => [codeLabel(frame, 'job', name), when(j.lastRun), when(j.lastSuccess), j.lastError ? mask(`${when(j.lastError.at)} ${j.lastError.code}: ${j.lastError.message}`) : m.none]);
    const streams = status.streams
      .slice(0, 200)
      .map((s) => [codeLabel(frame, 'source', s.kind), mask(s.agent), mask(s.session), mask(s.path), mask(JSON.stringify(s.cursor))]);
    const usage = stats.llm.rows.map((r) => [r.role, r.model, r.inputTokens, r.outputTokens, r.calls, r.costUsd === null ? '—' : r.costUsd.toFixed(4)]);
    const latencies = times.slice(-200);
    const active = stats.tokens.activeMemory;
    // The ratio of the two figures shown beside it (every agent's active memory, not main's alone), and only
    // when active memory is the smaller: "condensed 0.8×" would say the opposite of what happened.
    const activeTotal = Object.values(active).reduce((a, b) => a + b, 0);
    const ratio = activeTotal > 0 ? stats.tokens.transcriptRead / activeTotal : 0;
    const condensed = ratio > 1 ? html` · ${m.efficiency} <strong>${ratio.toFixed(1)}×</strong> (${stats.tokens.transcriptRead} ÷ ${activeTotal})` : '';
    const body = html`<section><h2>${m.jobsTitle}</h2>${jobs.length ? table([m.job, m.lastRun, m.lastOk, m.lastError], jobs) : html`<p class="empty">${m.none}</p>`}
${status.lastError ? html`<p class="error">${m.lastError}: ${codeLabel(frame, 'job', status.lastError.job)} ${when(status.lastError.at)} — ${mask(status.lastError.message)}</p>` : ''}</section>
<section><h2>${m.sourcesTitle}</h2>
${table([m.source, m.filterAgent, m.streams, m.messages, m.malformed, m.lastRead], status.sources.map((s) => [codeLabel(frame, 'source', s.kind), mask(s.agent), s.streams, s.messages, s.malformed, when(s.lastRead)]))}
<details><summary>${m.cursors} (${streams.length})</summary>${table([m.source, m.filterAgent, m.session, m.path, m.cursor], streams)}</details></section>
<section><h2>${m.llmTitle}</h2>${usage.length ? table([m.role, m.model, m.inputTokens, m.outputTokens, m.calls, m.cost], usage) : html`<p class="empty">${m.llmNone}</p>`}</section>
<section><h2>${m.chartsTitle}</h2>
<p>${m.transcriptTokens}: <strong>${stats.tokens.transcriptRead}</strong> · ${m.activeTokens}: <strong>${activeTotal}</strong>${condensed} · ${m.searchLatency}: <strong>${stats.search.p95Ms ?? '—'}</strong> ms</p>
${chart('per-day', m.chartPerDay, { x: stats.observations.perDay.map((d) => d.date), xLabel: m.chartDay, series: [{ label: m.observationCount, values: stats.observations.perDay.map((d) => d.count) }] }, m.none)}
${chart('llm-per-day', m.chartLlm, { x: stats.llm.byDay.map((d) => d.date), xLabel: m.chartDay, series: [{ label: m.inputTokens, values: stats.llm.byDay.map((d) => d.inputTokens) }, { label: m.outputTokens, values: stats.llm.byDay.map((d) => d.outputTokens) }] }, m.llmNone)}
${chart('tokens', m.chartTokens, { x: [m.transcriptTokens, ...Object.keys(active).map((a) => `${m.activeTokens} · ${a}`)], xLabel: m.chartWhat, series: [{ label: m.tokens, values: [stats.tokens.transcriptRead, ...Object.values(active)] }], bars: true }, m.none)}
${chart('search-ms', m.chartSearch, { x: latencies.map((_, i) => String(i + 1)), xLabel: m.chartSearchNumber, series: [{ label: 'ms', values: latencies }] }, m.none)}
</section>`;
    return c.html(layout(frame, m.healthTitle, body));
  });

  return { app, memory };
}

/**
 * A file's lines, masked, numbered as in the file. The whole text is masked at once (a private key spans
 * lines: masked line by line, its body could show); a secret over several lines becomes one
 * `[REDACTED:…]` line, so the lines it took after its first are shown as '⋯' and every later line keeps
 * its number — the target of a link `…/2026-04-10.md#L12` is line 12 of the file.
 */
export function maskedLines(text: string, mask: (text: string) => string): string[] {
  const original = text.split('\n');
  const masked = mask(text).split('\n');
  if (masked.length === original.length) return masked;
  const out: string[] = [];
  let i = 0;
  for (let k = 0; k < masked.length; k++) {
    out.push(masked[k]!);
    i++;
    const next = masked[k + 1];
    // Lines the k-th masked line stands for: while there are more file lines left than masked ones, and the
    // file's line is not the next masked line (as it is, or masked on its own).
    while (original.length - i > masked.length - (k + 1) && (next === undefined || (original[i] !== next && mask(original[i]!) !== next))) {
      out.push('⋯');
      i++;
    }
  }
  return out;
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
    if (key === 'byTier') return html`${parts.map(([tier, n], i) => html`${i ? ', ' : ''}${tierLabel(frame.m, tier as Tier)} ${String(n)}`)}`;
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

/** The last injections the hooks logged (logs/hooks.log: hook.prompt, hook.session_start). */
async function lastInjections(paths: HomePaths): Promise<Array<Record<string, unknown>>> {
  const text = (await readTextIfExists(join(paths.logs, 'hooks.log'))) ?? '';
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"hook.prompt"') && !line.includes('"hook.session_start"')) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut short by a crash: skipped, as every log reader does.
    }
  }
  return out.slice(-INJECTIONS_SHOWN).reverse();
}
