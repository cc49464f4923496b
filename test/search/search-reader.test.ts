import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { updateIndex } from '../../lib/search/indexer.js';
import { IndexUnavailable, TIERS, type RankRequest } from '../../lib/search/engine.js';
import { SegmentEngine } from '../../lib/search/segment-engine.js';
import { indexStaleness } from '../../lib/search/freshness.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';

const config = testConfig();
const request: RankRequest = { tiers: TIERS, filters: {}, limit: 10, vectorWeight: 0.7, textWeight: 0.3, minScore: 0 };

test('an open reader answers as the engine does, keeps its load until an update, and sees the update', async () => {
  const paths = await tempHome();
  const day = await writeDay(paths, '2026-02-10', [
    { text: 'Decided to keep PostgreSQL as the main database.', category: 'decision', priority: 'high' },
    { text: 'User prefers TypeScript for backend services.', category: 'preference', priority: 'medium' },
  ]);
  await updateIndex(paths, config);
  const engine = new SegmentEngine(paths.index);
  const reader = engine.openReader();

  const asks: Array<[string, RankRequest['filters']]> = [
    ['database', {}],
    ['typescript', { agents: ['main'] }],
    ['typescript', { agents: ['work'] }],
  ];
  for (const [query, filters] of asks) {
    const asked = { ...request, filters };
    // The same results; the counts differ by design (a one-off load leaves out the files the filters rule out, an open one holds them all).
    const [open, once] = [reader.rank(query, asked), engine.rank(query, asked)];
    assert.deepEqual(open.results, once.results, `${query} ${JSON.stringify(filters)}`);
    assert.deepEqual(open.generations, once.generations);
  }
  assert.equal(reader.rank('database', request).results[0]?.id, day.ids[0]);
  assert.deepEqual(reader.find(day.ids[1]!, 'hot'), engine.find(day.ids[1]!, 'hot'));
  assert.equal(reader.find('o-0000000000', 'hot'), undefined);
  assert.equal(reader.loads, 1, 'every query above reused one load');

  const before = reader.generations(TIERS).generations;
  const later = await writeDay(paths, '2026-02-11', [
    { text: 'Moved the staging database to a bigger disk.', category: 'task', priority: 'low' },
  ]);
  assert.equal((await indexStaleness(paths, config.tiers.vault_path, TIERS)).reason, 'memory/2026-02-11.md is new');
  await updateIndex(paths, config);
  assert.equal((await indexStaleness(paths, config.tiers.vault_path, TIERS)).stale, false);
  assert.notEqual(reader.generations(TIERS).generations.hot, before.hot);
  assert.ok(reader.rank('staging', request).results.some((r) => r.id === later.ids[0]));
  assert.equal(reader.loads, 2);

  // An unreadable tier: generations names it, rank throws; close() forgets the load.
  await rm(join(paths.index, 'hot'), { recursive: true, force: true });
  reader.close();
  assert.ok(reader.generations(TIERS).problems.some((p) => p.tier === 'hot'));
  assert.throws(() => reader.rank('database', request), IndexUnavailable);
});
