/**
 * The REST API (docs/rest-api.md) on the real server: `ocm-run ui` as a
 * child process on 127.0.0.1 over a temp home. Every answer is checked
 * against the OpenAPI document the server itself serves (Ajv, JSON Schema
 * 2020-12), the files are checked for what each change did, and every text
 * that comes back is checked for masking.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { tempDir } from '../helpers/cli.js';
import { startUi, sessionCookie, type RunningUi } from '../helpers/ui-server.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { dayFilePath } from '../../lib/platform/home.js';

const KEY = 'AKIAIOSFODNN7EXAMPLE';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: Record<string, unknown>;
};

/** The answers these tests read, as the OpenAPI document describes them (the checker validates each against it first). */
interface ApiError {
  error: { code: string; message: string; hint?: string };
}
interface ShownMemory {
  id: string;
  text: string;
  priority: string;
  tags: string[];
  pinned: boolean;
  done: boolean;
  tier: string;
  path: string;
  mark: { kind: string; date?: string; by?: string } | null;
}
interface MemoryPage {
  items: ShownMemory[];
  nextOffset: number | null;
  mode?: string;
}
interface Remembered {
  added: boolean;
  masked: number;
  memory: ShownMemory;
}
interface Archived {
  dryRun: boolean;
  moved: Array<{ from: string; to: string; files: number; observations: number }>;
}

/** Checks an answer against the document (path template, method, status → its schema) and gives it as the type the caller expects. */
type ContractCheck = <Answer>(path: string, method: string, res: Response) => Promise<Answer>;

/** A checker of answers by the document the server serves. */
async function contract(ui: RunningUi): Promise<ContractCheck> {
  const doc = (await (await fetch(`${ui.origin}/api/v1/openapi.json`, { signal: AbortSignal.timeout(60_000) })).json()) as Doc;
  const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020') as {
    default: new (o: object) => { addSchema(s: object, k: string): void; compile(s: object): Validate };
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false, unicodeRegExp: true });
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  return async <Answer>(path: string, method: string, res: Response) => {
    const body = (await res.json()) as Answer;
    const operation = doc.paths[path]?.[method];
    assert.ok(operation, `${method} ${path} is in the document`);
    const schema = operation.responses[String(res.status)]?.content?.['application/json']?.schema;
    assert.ok(schema, `${method} ${path} documents status ${res.status} (${JSON.stringify(body)})`);
    const validate = ajv.compile({ $ref: `openapi${(schema as { $ref: string }).$ref}` });
    assert.ok(
      validate(body),
      `${method} ${path} ${res.status} matches the document: ${JSON.stringify(validate.errors)} ${JSON.stringify(body)}`,
    );
    assert.doesNotMatch(JSON.stringify(body), new RegExp(KEY), 'masked');
    return body;
  };
}

async function home(dir: string, extra = '') {
  const paths = await newHome(dir);
  await writeFile(paths.config, `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n${extra}`);
  const today = new Date().toISOString().slice(0, 10);
  const old = makeObservation(1, '2026-01-05', { text: 'The staging database is db-stage-1 on port 5432.', category: 'fact' });
  const secret = makeObservation(2, today, {
    text: `The deploy user of staging has the access key ${KEY} in the vault.`,
    category: 'fact',
  });
  await writeHot(paths, [old, secret]);
  return { paths, today, old, secret };
}

/** A raw request with a Host header of our choosing (fetch does not let one be set). */
function withHost(ui: RunningUi, host: string, path: string, token: string): Promise<{ status: number; body: ApiError }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: ui.port, path, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as ApiError }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('REST API: the token, Host and Origin rules of the dashboard, JSON errors with codes, each answer as the OpenAPI document says', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const { paths } = await home(join(dir, 'home'));
  const ui = await startUi(paths.root);
  t.after(() => ui.stop());
  const check = await contract(ui);
  const api = `${ui.origin}/api/v1`;
  const signal = () => AbortSignal.timeout(60_000);

  const none = await fetch(`${api}/memories`, { signal: signal() });
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Bearer');
  assert.equal(none.headers.get('access-control-allow-origin'), null);
  assert.equal((await check<ApiError>('/memories', 'get', none)).error.code, 'UNAUTHORIZED');
  const wrong = await fetch(`${api}/memories`, { headers: { authorization: `Bearer ${'x'.repeat(32)}` }, signal: signal() });
  assert.equal((await check<ApiError>('/memories', 'get', wrong)).error.code, 'UNAUTHORIZED');
  const loginToken = new URL(ui.url).searchParams.get('token')!;
  assert.equal(
    (await fetch(`${api}/memories`, { headers: { authorization: `Bearer ${loginToken}` }, signal: signal() })).status,
    401,
    "the dashboard's one-time login token is not the API's",
  );
  const auth = { authorization: `Bearer ${ui.apiToken}` };
  const foreignOrigin = await fetch(`${api}/memories`, { headers: { ...auth, origin: 'http://evil.example' }, signal: signal() });
  assert.equal(foreignOrigin.status, 403);
  assert.equal((await check<ApiError>('/memories', 'get', foreignOrigin)).error.code, 'FORBIDDEN');
  const rebinding = await withHost(ui, 'evil.example', '/api/v1/memories', ui.apiToken);
  assert.deepEqual([rebinding.status, rebinding.body.error.code], [403, 'FORBIDDEN'], 'a DNS-rebinding page sends a foreign Host');
  assert.equal((await withHost(ui, `localhost:${ui.port}`, '/api/v1/memories', ui.apiToken)).status, 200);

  // The dashboard's own page may call it with its session cookie; a change must then carry its Origin.
  const cookie = await sessionCookie(ui);
  assert.equal((await fetch(`${api}/memories`, { headers: { cookie }, signal: signal() })).status, 200);
  const noOrigin = await fetch(`${api}/memories`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{"text":"x y z"}',
    signal: signal(),
  });
  assert.equal(noOrigin.status, 401, 'no cross-site request forgery with the cookie');

  const notJson = await fetch(`${api}/memories`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: 'remember this',
    signal: signal(),
  });
  assert.equal((await check<ApiError>('/memories', 'post', notJson)).error.code, 'BAD_INPUT');
  const unknown = await fetch(`${api}/memories`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Fine.', colour: 'red' }),
    signal: signal(),
  });
  assert.equal(unknown.status, 400);
  assert.match((await check<ApiError>('/memories', 'post', unknown)).error.message, /unknown field "colour"/);
  const badLimit = await fetch(`${api}/memories?limit=1000`, { headers: auth, signal: signal() });
  assert.match((await check<ApiError>('/memories', 'get', badLimit)).error.message, /limit "1000"/);
  const badSince = await fetch(`${api}/memories?since=someday`, { headers: auth, signal: signal() });
  const since = await check<ApiError>('/memories', 'get', badSince);
  assert.equal(since.error.code, 'BAD_INPUT');
  assert.doesNotMatch(since.error.message, /--since/, 'said as the parameter, not the command-line flag');
  const missing = await fetch(`${api}/memories/o-0000000000`, { headers: auth, signal: signal() });
  assert.equal((await check<ApiError>('/memories/{id}', 'get', missing)).error.code, 'NOT_FOUND');
  assert.equal((await fetch(`${api}/nothing`, { headers: auth, signal: signal() })).status, 404);
});

test('REST API: list and search with filters and paging, get, create, update (text, priority, tags, pin, done, superseded), delete journaled, archive — the files follow, every text masked', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const { paths, today, old, secret } = await home(join(dir, 'home'));
  const ui = await startUi(paths.root);
  t.after(() => ui.stop());
  const check = await contract(ui);
  const api = `${ui.origin}/api/v1`;
  const headers = { authorization: `Bearer ${ui.apiToken}`, 'content-type': 'application/json' };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${api}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(120_000),
    });

  const page1 = await check<MemoryPage>('/memories', 'get', await call('GET', '/memories?limit=1'));
  assert.deepEqual([page1.items.map((m: { id: string }) => m.id), page1.nextOffset], [[secret.id], 1], 'newest first');
  assert.match(page1.items[0]!.text, /\[REDACTED/, 'the key in a hand-written line is masked on the way out');
  const page2 = await check<MemoryPage>('/memories', 'get', await call('GET', '/memories?limit=1&offset=1'));
  assert.deepEqual([page2.items.map((m: { id: string }) => m.id), page2.nextOffset], [[old.id], null]);
  assert.deepEqual(
    (await check<MemoryPage>('/memories', 'get', await call('GET', '/memories?since=2026-06-01'))).items.map((m: { id: string }) => m.id),
    [secret.id],
  );

  const created = await call('POST', '/memories', {
    text: `User's CI key is ${KEY}; the CI runs on Fridays.`,
    priority: 'medium',
    category: 'fact',
    tags: ['ci'],
  });
  assert.equal(created.status, 201);
  const made = await check<Remembered>('/memories', 'post', created);
  assert.equal(made.added, true);
  assert.equal(made.masked, 1);
  const day = await readFile(dayFilePath(paths, 'hot', 'main', today), 'utf8');
  const line = day.split('\n').find((l) => l.includes(`^${made.memory.id}`)) ?? '';
  assert.match(line, /CI runs on Fridays/, 'written to today’s day file');
  assert.ok(!line.includes(KEY), 'masked before it is written');
  assert.equal(
    (
      await check<Remembered>(
        '/memories',
        'post',
        await call('POST', '/memories', {
          text: `User's CI key is ${KEY}; the CI runs on Fridays.`,
          priority: 'medium',
          category: 'fact',
          tags: ['ci'],
        }),
      )
    ).added,
    false,
  );

  const found = await check<MemoryPage>(
    '/memories',
    'get',
    await call('GET', `/memories?q=${encodeURIComponent('when does the CI run')}&limit=5`),
  );
  assert.equal(found.items[0]?.id, made.memory.id);
  assert.ok(['text', 'hybrid'].includes(found.mode ?? ''));
  const got = await check<ShownMemory>('/memories/{id}', 'get', await call('GET', `/memories/${old.id}`));
  assert.equal(got.text, 'The staging database is db-stage-1 on port 5432.');

  const edited = await check<ShownMemory>(
    '/memories/{id}',
    'patch',
    await call('PATCH', `/memories/${old.id}`, {
      text: 'The staging database is db-stage-2 on port 5433.',
      priority: 'high',
      tags: ['infra'],
      pinned: true,
    }),
  );
  assert.deepEqual(
    [edited.text, edited.priority, edited.tags, edited.pinned],
    ['The staging database is db-stage-2 on port 5433.', 'high', ['infra', 'pin'], true],
  );
  const oldFile = await readFile(join(paths.root, edited.path), 'utf8');
  assert.match(oldFile, new RegExp(`🔴 \\d\\d:\\d\\d The staging database is db-stage-2 on port 5433\\. #infra #pin \\^${old.id}`));
  const superseded = await check<ShownMemory>(
    '/memories/{id}',
    'patch',
    await call('PATCH', `/memories/${old.id}`, { supersededBy: made.memory.id }),
  );
  assert.deepEqual([superseded.mark?.kind, superseded.mark?.by], ['superseded', made.memory.id]);
  const cleared = await check<ShownMemory>('/memories/{id}', 'patch', await call('PATCH', `/memories/${old.id}`, { supersededBy: null }));
  assert.equal(cleared.mark, null);
  const done = await check<ShownMemory>('/memories/{id}', 'patch', await call('PATCH', `/memories/${made.memory.id}`, { done: true }));
  assert.equal(done.done, true);
  assert.equal(
    (await check<ApiError>('/memories/{id}', 'patch', await call('PATCH', `/memories/${old.id}`, {}))).error.code,
    'BAD_INPUT',
    'an empty change is refused',
  );
  assert.equal(
    (await check<ApiError>('/memories/{id}', 'patch', await call('PATCH', `/memories/${old.id}`, { text: '   ' }))).error.code,
    'BAD_INPUT',
  );

  const gone = await check<{ id: string; forgotten: number }>(
    '/memories/{id}',
    'delete',
    await call('DELETE', `/memories/${made.memory.id}`),
  );
  assert.deepEqual(gone, { id: made.memory.id, forgotten: 1 });
  assert.equal((await call('GET', `/memories/${made.memory.id}`)).status, 404);
  assert.doesNotMatch(await readFile(dayFilePath(paths, 'hot', 'main', today), 'utf8'), /CI runs on Fridays/);
  assert.match(
    await readFile(paths.audit, 'utf8'),
    new RegExp(`"action":"forget".*${made.memory.id}`),
    'journaled in the audit log, as `ocm-run forget`',
  );
  assert.equal(
    (await check<ApiError>('/memories/{id}', 'delete', await call('DELETE', `/memories/${made.memory.id}`))).error.code,
    'NOT_FOUND',
  );

  const noVault = await check<ApiError>('/archive', 'post', await call('POST', '/archive', { olderThanDays: 30 }));
  assert.equal(noVault.error.code, 'CONFIG_MISSING', 'the cold tier needs a vault');
  const pinned = await check<Archived>('/archive', 'post', await call('POST', '/archive', { olderThanDays: 30, to: 'warm', dryRun: true }));
  assert.deepEqual([pinned.dryRun, pinned.moved], [true, []], 'a pinned day stays hot');
  assert.equal(
    (await check<ShownMemory>('/memories/{id}', 'patch', await call('PATCH', `/memories/${old.id}`, { pinned: false }))).pinned,
    false,
  );
  const planned = await check<Archived>(
    '/archive',
    'post',
    await call('POST', '/archive', { olderThanDays: 30, to: 'warm', dryRun: true }),
  );
  assert.deepEqual([planned.dryRun, planned.moved[0]?.observations], [true, 1]);
  const moved = await check<Archived>('/archive', 'post', await call('POST', '/archive', { olderThanDays: 30, to: 'warm' }));
  assert.deepEqual(
    moved.moved.map((m: { from: string; to: string; files: number }) => [m.from, m.to, m.files]),
    [['hot', 'warm', 1]],
  );
  assert.equal(
    (await check<ShownMemory>('/memories/{id}', 'get', await call('GET', `/memories/${old.id}`))).tier,
    'warm',
    'the day moved to the warm tier',
  );
});
