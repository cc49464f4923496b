/**
 * The REST API (docs/rest-api.md), served beside the dashboard by `ocm-run
 * ui` under /api/v1, on the home's handle (lib/api/memory.ts) the dashboard
 * keeps open: list and search memories, get one, remember, change, forget,
 * archive. The contract is openapi.ts (served at /api/v1/openapi.json);
 * request bodies are checked against it, answers are JSON, errors are
 * `{"error": {code, message, hint}}`, and every text that leaves is masked.
 *
 * Who may call: the Host must be the loopback address the server listens on
 * and an Origin, when sent, its own (as for the dashboard, lib/ui/guard.ts);
 * the caller shows the API token as `Authorization: Bearer …`, or is the
 * dashboard's own page (its session cookie; a change must then carry the
 * Origin). No CORS headers are ever sent.
 */
import { timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Ajv, ValidateFunction } from 'ajv';
import { OcmError, describeError, type ListedObservation, type MemoryHandle, type Priority, type SearchResult } from '../api/index.js';
import { filtersFromOptions } from '../search/filters.js';
import { allowedHosts, cookieName } from './guard.js';
import { OPENAPI, type SchemaName } from './openapi.js';

export interface RestOptions {
  memory: MemoryHandle;
  /** The Bearer token of this run. */
  apiToken: string;
  /** The dashboard's session secret (its page may call the API with its cookie). */
  session: string;
  port: () => number;
  now: () => Date;
  /** Masks a text the way every output is masked (lib/masking/). */
  mask: (text: string) => string;
  log: (level: 'info' | 'warn', event: string, fields: Record<string, unknown>) => void;
}

const LIMIT_DEFAULT = 20;
const LIMIT_MAX = 100;

type Status = 200 | 201 | 400 | 401 | 403 | 404 | 409 | 500 | 503;

/** An answer of the API that is an error (thrown by a route, said by `fail`). */
class ApiError extends Error {
  constructor(
    readonly status: Status,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

function statusOf(code: string): Status {
  if (code === 'BAD_INPUT' || code === 'PATH_OUTSIDE_ROOTS') return 400;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'LOCKED') return 409;
  if (code === 'DISK_FULL' || code === 'PERMISSION_DENIED') return 503;
  if (code === 'CONFIG_MISSING' || code === 'CONFIG_INVALID') return 400;
  return 500;
}

function same(given: string | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

let ajv: Ajv | undefined;
const validators = new Map<SchemaName, ValidateFunction>();

/** The request body checked against its schema in openapi.ts (BAD_INPUT naming what is wrong). */
function checked<T>(schema: SchemaName, body: unknown): T {
  let validate = validators.get(schema);
  if (!validate) {
    // Loaded on the first change (~40 ms): the dashboard's pages do not pay for it.
    const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020') as { default: new (o: object) => Ajv };
    ajv ??= new Ajv2020({ allErrors: true, strict: false, unicodeRegExp: true });
    if (!ajv.getSchema('openapi')) ajv.addSchema({ $id: 'openapi', components: OPENAPI.components }, 'openapi');
    validate = ajv.getSchema(`openapi#/components/schemas/${schema}`)!;
    validators.set(schema, validate);
  }
  if (validate(body)) return body as T;
  const why = (validate.errors ?? []).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
    if (e.keyword === 'additionalProperties')
      return `unknown field "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
    if (e.keyword === 'required') return `missing field "${String((e.params as { missingProperty: string }).missingProperty)}"`;
    return `${where} ${e.message ?? 'is not valid'}`;
  });
  throw new ApiError(
    400,
    'BAD_INPUT',
    `Invalid request body: ${[...new Set(why)].join('; ')}.`,
    `See the ${schema} schema in /api/v1/openapi.json.`,
  );
}

export function mountRestApi(app: Hono, options: RestOptions): void {
  const { memory, mask } = options;

  const fail = (c: Context, error: unknown) => {
    const e =
      error instanceof ApiError
        ? error
        : error instanceof OcmError
          ? new ApiError(statusOf(error.code), error.code, error.message, error.hint)
          : (() => {
              const d = describeError(error);
              return new ApiError(500, 'INTERNAL', d.message, d.hint);
            })();
    options.log(e.status >= 500 ? 'warn' : 'info', 'api.error', {
      path: c.req.path,
      method: c.req.method,
      status: e.status,
      code: e.code,
      error: mask(e.message),
    });
    return c.json({ error: { code: e.code, message: mask(e.message), ...(e.hint ? { hint: mask(e.hint) } : {}) } }, e.status);
  };

  // Host and Origin as for the dashboard; then the token (or the dashboard's own cookie).
  app.use('/api/*', async (c, next) => {
    const hosts = allowedHosts(options.port());
    if (!hosts.has((c.req.header('host') ?? '').toLowerCase()))
      return fail(
        c,
        new ApiError(
          403,
          'FORBIDDEN',
          'This API answers only on its loopback address.',
          'Use http://127.0.0.1:<port>/api/v1 (a foreign Host header is refused: DNS rebinding).',
        ),
      );
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      let host = '';
      try {
        const url = new URL(origin);
        if (url.protocol === 'http:') host = url.host.toLowerCase();
      } catch {
        host = '';
      }
      if (!hosts.has(host))
        return fail(
          c,
          new ApiError(
            403,
            'FORBIDDEN',
            `Requests from ${origin} are refused.`,
            'Only the dashboard itself, or a client that sends no Origin, may call this API.',
          ),
        );
    }
    if (c.req.path === '/api/v1/openapi.json') return next();
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (same(bearer, options.apiToken)) return next();
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    if (bearer === undefined && same(getCookie(c, cookieName(options.port())), options.session) && (!changes || origin !== undefined))
      return next();
    c.header('WWW-Authenticate', 'Bearer');
    return fail(
      c,
      new ApiError(
        401,
        'UNAUTHORIZED',
        bearer === undefined ? 'This API needs a Bearer token.' : 'The Bearer token is not this server’s.',
        'Send Authorization: Bearer <apiToken> (printed by `ocm-run ui --json`, or $OCM_API_TOKEN when set).',
      ),
    );
  });

  const route = (handler: (c: Context) => Promise<Response>) => async (c: Context) => {
    try {
      return await handler(c);
    } catch (error) {
      return fail(c, error);
    }
  };

  const body = async (c: Context): Promise<unknown> => {
    try {
      return await c.req.json();
    } catch {
      throw new ApiError(400, 'BAD_INPUT', 'The request body is not JSON.', 'Send Content-Type: application/json with a JSON object.');
    }
  };

  /** An observation as the API shows it: every text masked. */
  const shown = (o: ListedObservation | SearchResult): Record<string, unknown> => ({
    id: o.id,
    date: o.date,
    ...(o.time ? { time: o.time } : {}),
    priority: o.priority,
    category: mask(o.category),
    agent: o.agent,
    tier: o.tier,
    tags: o.tags.map(mask),
    done: o.done,
    mark: o.mark ? { kind: o.mark.kind, ...(o.mark.date ? { date: o.mark.date } : {}), ...(o.mark.by ? { by: o.mark.by } : {}) } : null,
    pinned: o.tags.some((t) => ['pin', 'pinned', 'user_marked', 'user-marked'].includes(t.toLowerCase())),
    text: mask(o.text),
    path: shownPath(o.path),
    startLine: o.startLine,
    endLine: o.endLine,
    ...(o.provenance
      ? {
          provenance: {
            source: o.provenance.source,
            agent: o.provenance.agent,
            ...(o.provenance.session ? { session: mask(o.provenance.session) } : {}),
            entryIds: o.provenance.entryIds,
          },
        }
      : {}),
    ...('score' in o && typeof o.score === 'number' ? { score: o.score } : {}),
    ...('relevance' in o && typeof o.relevance === 'number' ? { relevance: o.relevance } : {}),
  });

  const shownPath = (path: string): string => {
    const root = `${memory.paths.root.replace(/[/\\]+$/, '')}/`;
    return path.startsWith(root) ? path.slice(root.length) : path;
  };

  const found = async (id: string): Promise<SearchResult> => {
    const o = await memory.find(id);
    if (!o)
      throw new ApiError(404, 'NOT_FOUND', `No observation with id ${id}.`, 'Ids look like o-7f3a9c21e0; GET /api/v1/memories lists them.');
    return o;
  };

  const integer = (value: string | undefined, name: string, min: number, max: number, fallback: number): number => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new ApiError(
        400,
        'BAD_INPUT',
        `${name} "${value}" is not a whole number from ${min} to ${max}.`,
        `For example ${name}=${fallback}.`,
      );
    return n;
  };

  app.get('/api/v1/openapi.json', (c) => c.json(OPENAPI));

  app.get(
    '/api/v1/memories',
    route(async (c) => {
      const q = c.req.query();
      const limit = integer(q.limit, 'limit', 1, LIMIT_MAX, LIMIT_DEFAULT);
      const offset = integer(q.offset, 'offset', 0, 1_000_000, 0);
      if (q.current !== undefined && q.current !== 'true' && q.current !== 'false')
        throw new ApiError(400, 'BAD_INPUT', `current "${q.current}" is not true or false.`);
      let filters;
      try {
        filters = filtersFromOptions(
          {
            since: q.since,
            until: q.until,
            priority: q.priority,
            category: q.category,
            tier: q.tier,
            agent: q.agent,
            tag: q.tag,
            current: q.current === 'true',
          },
          options.now(),
          memory.config.timezone,
        );
      } catch (error) {
        // The filters' messages name command-line flags (--since); here they are parameters.
        if (!(error instanceof OcmError)) throw error;
        throw new ApiError(400, error.code, error.message.replace(/--(\w+)/g, '$1'), error.hint?.replace(/--(\w+) /g, '$1='));
      }
      const question = (q.q ?? '').trim();
      if (question) {
        const response = await memory.search({ query: question, limit: offset + limit + 1, filters });
        const page = response.results.slice(offset, offset + limit);
        const more = response.results.length > offset + limit;
        return c.json({
          items: page.map(shown),
          nextOffset: more ? offset + limit : null,
          mode: response.mode,
          warnings: response.warnings.map(mask),
        });
      }
      const page = await memory.list(filters, { offset, limit });
      return c.json({ items: page.items.map(shown), nextOffset: page.nextOffset ?? null });
    }),
  );

  app.post(
    '/api/v1/memories',
    route(async (c) => {
      const input = checked<{ text: string; priority?: Priority; category?: string; tags?: string[]; agent?: string }>(
        'NewMemory',
        await body(c),
      );
      const r = await memory.remember({ ...input, client: { name: 'rest-api' } });
      const o = await found(r.observation.id);
      options.log('info', 'api.remember', { id: o.id, added: r.added, masked: r.masked });
      return c.json({ added: r.added, masked: r.masked, memory: shown(o) }, 201);
    }),
  );

  app.get(
    '/api/v1/memories/:id',
    route(async (c) => c.json(shown(await found(c.req.param('id') ?? '')))),
  );

  app.patch(
    '/api/v1/memories/:id',
    route(async (c) => {
      const patch = checked<{
        text?: string;
        priority?: Priority;
        category?: string;
        tags?: string[];
        pinned?: boolean;
        done?: boolean;
        supersededBy?: string | null;
      }>('MemoryPatch', await body(c));
      const id = (await found(c.req.param('id') ?? '')).id;
      const { supersededBy, ...edit } = patch;
      if (Object.keys(edit).length > 0) await memory.edit(id, edit);
      if (supersededBy !== undefined)
        await memory.mark(id, supersededBy === null ? { kind: 'clear' } : { kind: 'superseded', by: supersededBy });
      options.log('info', 'api.edit', { id, fields: Object.keys(patch) });
      return c.json(shown(await found(id)));
    }),
  );

  app.delete(
    '/api/v1/memories/:id',
    route(async (c) => {
      const id = (await found(c.req.param('id') ?? '')).id;
      const outcome = await memory.forget({ selector: { ids: [id] } });
      if (outcome.kind !== 'forgotten') throw new ApiError(404, 'NOT_FOUND', `No observation with id ${id}.`);
      options.log('info', 'api.forget', { id });
      return c.json({ id, forgotten: outcome.result.observations });
    }),
  );

  app.post(
    '/api/v1/archive',
    route(async (c) => {
      const input = checked<{ olderThanDays: number; to?: 'warm' | 'cold'; dryRun?: boolean }>('ArchiveRequest', await body(c));
      const r = await memory.archive({ olderThanDays: input.olderThanDays, to: input.to ?? 'cold', dryRun: input.dryRun === true });
      const summary = (m: (typeof r.moved)[number]) => ({ from: m.from, to: m.to, files: m.files, observations: m.observations });
      return c.json({
        dryRun: r.dryRun,
        moved: r.moved.map(summary),
        proposed: r.proposed.map(summary),
        proposals: r.proposals.added.map((p) => ({
          id: p.id,
          from: p.from,
          to: p.to,
          date: p.date,
          agent: p.agent,
          observations: p.observations,
        })),
      });
    }),
  );

  app.all(
    '/api/*',
    route(async () => {
      throw new ApiError(404, 'NOT_FOUND', 'No such route of the API.', 'The routes are in /api/v1/openapi.json.');
    }),
  );
}
