/**
 * The handle on a memory home (lib/api/memory.ts), loaded as a library user
 * loads it: by the package's name, through package.json `exports`, on a temp
 * home with real day files, index and lock. Each operation is checked by what
 * it left in the Markdown files and what the next call finds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { tempHome, writeDay } from '../helpers/search-fixtures.js';
import { localDateTime } from '../../lib/platform/time-zone.js';

type Entry = typeof import('../../lib/api/index.js');

/** `import('oc-memory')` from inside the package: its own name, resolved through `exports`. */
async function entry(): Promise<{ module: Entry; file: string }> {
  const file = createRequire(import.meta.url).resolve('oc-memory');
  return { module: (await import('oc-memory')) as unknown as Entry, file };
}

const today = () => localDateTime(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone).date;

test("the package's name resolves to lib/api/index.js, whose openMemory is the handle's", async () => {
  const { module, file } = await entry();
  assert.match(file, /[/\\]dist[/\\]lib[/\\]api[/\\]index\.js$/);
  assert.equal(typeof module.openMemory, 'function');
  assert.deepEqual(
    module.MEMORY_TOOLS.map((t) => t.name),
    [...module.MEMORY_TOOL_NAMES],
  );
  assert.equal(module.pluginToolName('search_memory'), 'oc_memory_search');
});

test('openMemory: remember, search, get, edit, mark, forget and status on one home, each seen by the next', async (t) => {
  const { module } = await entry();
  const paths = await tempHome();
  await writeDay(paths, '2026-03-02', [{ text: 'The staging database is db-stage-1 on port 5432.', category: 'fact' }]);
  const memory = await module.openMemory(paths.root, { keepOpen: true });
  t.after(() => memory.close());

  const remembered = await memory.remember({
    text: 'User prefers tabs over spaces in Go code.',
    category: 'preference',
    tags: ['go'],
    client: { name: 'api-test' },
  });
  assert.equal(remembered.added, true);
  const day = await readFile(join(paths.memory, `${today()}.md`), 'utf8');
  assert.ok(day.includes(`User prefers tabs over spaces in Go code. #go ^${remembered.observation.id}`), day);
  assert.equal(
    (await memory.remember({ text: 'User prefers tabs over spaces in Go code.', category: 'preference', tags: ['go'] })).added,
    false,
    'the same sentence twice on a day is one observation',
  );

  const page = await memory.list({}, { offset: 0, limit: 1 });
  assert.deepEqual([page.items.map((o) => o.id), page.nextOffset], [[remembered.observation.id], 1], 'newest first, and a next page');
  const rest = await memory.list({}, { offset: 1, limit: 5 });
  assert.deepEqual([rest.items.map((o) => o.date), rest.nextOffset], [['2026-03-02'], undefined]);
  assert.deepEqual(
    (await memory.list({ categories: ['preference'] }, { offset: 0, limit: 5 })).items.map((o) => o.id),
    [remembered.observation.id],
  );
  const found = await memory.search({ query: 'tabs spaces', limit: 5 });
  assert.equal(found.results[0]?.id, remembered.observation.id);
  const staging = await memory.search({ query: 'staging database port', limit: 5 });
  assert.match(staging.results[0]?.text ?? '', /db-stage-1/);
  const id = staging.results[0]!.id;

  const got = await memory.get(id);
  assert.equal(got.kind, 'observation');
  assert.equal(got.kind === 'observation' && got.provenance.source, 'openclaw');

  const edited = await memory.edit(id, { text: 'The staging database is db-stage-2 on port 5433.', priority: 'high', pinned: true });
  assert.equal(edited.id, id);
  assert.equal(edited.tier, 'hot');
  const file = await readFile(edited.path, 'utf8');
  assert.match(file, new RegExp(`- 🔴 \\d\\d:\\d\\d The staging database is db-stage-2 on port 5433\\. #pin \\^${id}`));
  assert.match(
    (await memory.search({ query: 'db-stage-2', limit: 3 })).results[0]?.text ?? '',
    /db-stage-2/,
    'the edit is searchable at once',
  );
  await assert.rejects(
    memory.edit(id, { text: '   ' }),
    (e: Error & { code?: string; details?: Record<string, unknown> }) => e.code === 'BAD_INPUT' && e.details?.reason === 'emptyText',
  );
  await assert.rejects(memory.edit('o-0000000000', { priority: 'low' }), (e: Error & { code?: string }) => e.code === 'NOT_FOUND');

  const marked = await memory.mark(id, { kind: 'done' });
  assert.equal(marked.mark?.kind, 'done');
  assert.match(await readFile(edited.path, 'utf8'), /\(done \d{4}-\d\d-\d\d\)/);

  const status = await memory.status();
  assert.equal(status.observations.total, 2);

  const forgotten = await memory.forget({ selector: { ids: [id] } });
  assert.equal(forgotten.kind, 'forgotten');
  assert.doesNotMatch(
    await readFile(edited.path, 'utf8').catch(() => ''),
    /db-stage/,
    'gone from its day file (a day left empty is removed)',
  );
  assert.deepEqual(
    (await memory.search({ query: 'staging database', limit: 5 })).results.map((r) => r.id),
    [],
    'forgotten everywhere, the open index too',
  );
  assert.match(await readFile(paths.audit, 'utf8'), /"action":"forget"/, 'journaled in the audit log as `ocm-run forget` does');
});

test('openMemory: active memory, prompt recall above the relevance floor, and the memory tools on the handle', async (t) => {
  const { module } = await entry();
  const paths = await tempHome();
  const memory = await module.openMemory(paths.root, { keepOpen: true });
  t.after(() => memory.close());
  await memory.remember({ agent: 'work', text: 'The release train leaves every second Tuesday.', category: 'decision' });
  const active = await memory.activeMemory('work');
  assert.equal(active?.agent, 'work');
  assert.match(active?.text ?? '', /release train/);
  assert.match(memory.promptActiveMemory('work'), /release train/);
  assert.equal(memory.promptActiveMemory('main'), '', "no other agent's file");

  const recalled = await memory.recall({ query: 'when does the release train leave', agents: ['work'], limit: 3, minRelevance: 0.3 });
  assert.match(recalled.results[0]?.text ?? '', /release train/);
  assert.deepEqual(
    (await memory.recall({ query: 'when does the release train leave', agents: ['main'], limit: 3, minRelevance: 0.3 })).results,
    [],
    "only the asking agent's memory",
  );

  const context = await memory.toolContext({ agent: 'work', sharedFrom: [], client: { name: 'api-test' } });
  const search = module.findMemoryTool('search_memory')!;
  const out = await search.run({ query: 'release train' }, context);
  assert.match(out.text, /release train/);
  await assert.rejects(
    search.run({ query: 'release train', agent: 'main' }, context),
    (e: Error & { code?: string }) => e.code === 'BAD_INPUT',
    'the scope holds',
  );
});
