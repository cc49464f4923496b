/**
 * What every page of the dashboard shares: the options it runs with, the
 * handle on the home, masking, the page's frame (language, notice, where it
 * is), the filters as `search` reads them, the way back after a change, and
 * the error page in the page's language.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { Config } from '../config/config-schema.js';
import type { MemoryHandle } from '../api/memory.js';
import type { HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import { filtersFromOptions, listOption, parseDateBound, parsePriorities, parseTiers } from '../search/filters.js';
import type { SearchFilters } from '../search/types.js';
import type { CurateContext } from './curate.js';
import { chooseLang, messagesFor, type Lang, type MessageKey } from './messages.js';
import { checked, UiProblem } from './problems.js';
import { layout, type FilterValues, type ObservationView, type PageFrame } from './pages.js';

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

/** Notices a change can come back with (?note=…); nothing else is shown from the address. */
const NOTES = [
  'saved',
  'added',
  'alreadyThere',
  'forgot',
  'approved',
  'notMoved',
  'rejected',
  'rolledBack',
  'alreadyForgotten',
  'alreadyApproved',
  'alreadyRejected',
] as const satisfies readonly MessageKey[];
type Note = (typeof NOTES)[number];

export interface PageContext {
  paths: HomePaths;
  config: Config;
  options: UiAppOptions;
  /** The handle the dashboard keeps open on the home. */
  memory: MemoryHandle;
  curate: CurateContext;
  /** Every text from the memory is masked before it reaches a page (the same rules as every other output). */
  mask: (text: string) => string;
  langOf: (c: Context) => Lang;
  frameOf: (c: Context, section: PageFrame['section']) => PageFrame;
  maskView: (o: ObservationView) => ObservationView;
  filterValues: (c: Context) => FilterValues;
  knownAgents: () => Promise<string[]>;
  form: (c: Context) => Promise<Record<string, string>>;
  problemPage: (c: Context, problem: UiProblem) => Response | Promise<Response>;
}

/** A path inside the dashboard to go back to (never another site). */
export function safeBack(value: unknown, fallback = '/'): string {
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

export function withNote(back: string, note: Note, about?: string): string {
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
export function readFilters(values: FilterValues, now: Date, timeZone: string): SearchFilters {
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

export function pageContext(options: UiAppOptions, memory: MemoryHandle, mask: (text: string) => string): PageContext {
  const { paths, config } = options;
  const curate: CurateContext = {
    paths,
    config,
    logger: options.logger,
    now: options.now,
    memory,
    lockWaitMs: options.lockWaitMs ?? 20_000,
  };
  const langOf = (c: Context): Lang => chooseLang(c.req.query('lang') ?? getCookie(c, 'ocm_ui_lang'), c.req.header('accept-language'));

  const frameOf = (c: Context, section: PageFrame['section']): PageFrame => {
    const lang = langOf(c);
    if (c.req.query('lang')) setCookie(c, 'ocm_ui_lang', lang, { sameSite: 'Strict', path: '/' });
    const url = new URL(c.req.url);
    url.searchParams.delete('lang');
    const noteKey = c.req.query('note');
    const m = messagesFor(lang);
    const about = c.req.query('about');
    const notice = (NOTES as readonly string[]).includes(noteKey ?? '')
      ? `${m[noteKey as Note]}${about ? ` ${mask(about)}` : ''}`
      : undefined;
    return { lang, m, here: `${url.pathname}${url.search}`, section, notice };
  };

  // Every error reaches the page in its language (lib/ui/problems.ts): the routes name the step they were taking.
  const problemPage = (c: Context, problem: UiProblem) => {
    options.logger.log(problem.code === 'INTERNAL' ? 'error' : 'warn', 'ui.error', {
      path: c.req.path,
      code: problem.code,
      problem: problem.key,
      error: mask(problem.message),
    });
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

  const knownAgents = (): Promise<string[]> => memory.agents();

  const form = async (c: Context): Promise<Record<string, string>> => {
    const body = await c.req.parseBody();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
    return out;
  };

  return { paths, config, options, memory, curate, mask, langOf, frameOf, maskView, filterValues, knownAgents, form, problemPage };
}
