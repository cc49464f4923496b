/**
 * A question that asks which one of a kind finds the memory that names a member of the kind without the
 * kind's own word (lib/search/kind-expansion.ts); other questions get no expansion.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { kindExpansion } from '../../lib/search/kind-expansion.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';

const config = testConfig();

test('"Which database …?" ranks the line naming a database above one that shares only the name', async () => {
  const paths = await tempHome();
  const { ids } = await writeDay(paths, '2026-03-02', [
    { text: 'Mia decided on SQLite for the shop app.', time: '09:00' },
    { text: 'Mia went hiking.', time: '16:40' },
  ]);
  const [choice, hiking] = ids;
  await updateIndex(paths, config);
  const res = await searchMemory(paths, config, { query: 'Which database does Mia use?', cache: false });
  const order = res.results.map((r) => r.id);
  assert.equal(order[0], choice, `the database choice first: ${order.join(', ')}`);
  assert.ok(order.includes(hiking!));
});

test('only a question asking which one of a named kind is expanded, and not by its own words', () => {
  assert.ok(kindExpansion('Which database does Mia use?').includes('sqlite'));
  assert.ok(kindExpansion('RouteNote 백엔드는 뭐 써?').some((t) => t.startsWith('supabas')));
  assert.deepEqual(kindExpansion('Is the database backup done?'), []);
  assert.deepEqual(kindExpansion('Which trail did Mia hike?'), []);
  assert.ok(!kindExpansion('Which database, Postgres or SQLite?').some((t) => t === 'postgr' || t === 'sqlite'));
});
