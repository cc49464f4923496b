/**
 * A question that asks which one of a kind finds the memory that names a member of the kind without the
 * kind's own word (lib/search/kind-expansion.ts); other questions get no expansion.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { asksVersion, kindExpansion } from '../../lib/search/kind-expansion.js';
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

test('hosting is asked by the noun, not by the verb: what an app is hosted on, not what a person hosted', () => {
  for (const q of [
    'Which hosting provider does crumbline use?',
    'What is crumbline hosted on?',
    'What host runs the API?',
    '호스팅은 뭐 써?',
  ])
    assert.ok(kindExpansion(q).includes('hetzner'), q);
  for (const q of [
    'What did John host for the veterans in May 2023?',
    'When is Nate hosting a gaming party?',
    'How many people attended the gaming party hosted by Nate?',
    'What type of show did Nate host where he taught vegan ice cream recipes?',
    "What is Nate's favorite dish from the cooking show he hosted?",
  ])
    assert.deepEqual(kindExpansion(q), [], q);
});

test('"Which Python version …?" ranks the line with a version number first and lets it through the gate', async () => {
  const paths = await tempHome();
  const { ids } = await writeDay(paths, '2026-07-03', [
    { text: 'Nadia said the deploy script calls python from the venv.', time: '08:00' },
    { text: 'Claude said the version table must be wiped.', time: '09:00' },
    { text: 'Then not now: stay on 3.12 for python until the accounting work is done.', time: '10:09' },
  ]);
  const [deploy, table, pinned] = ids;
  await updateIndex(paths, config);
  const res = await searchMemory(paths, config, { query: 'Which Python version are we on?', cache: false });
  const byId = new Map(res.results.map((r) => [r.id, r]));
  assert.equal(res.results[0]?.id, pinned, `the pinned version first: ${res.results.map((r) => r.id).join(', ')}`);
  assert.ok((byId.get(pinned!)?.relevance ?? 0) >= 0.5, `a version number answers "version": ${byId.get(pinned!)?.relevance}`);
  assert.ok((byId.get(deploy!)?.relevance ?? 0) < 0.5, 'python without a version number is not injected');
  assert.ok(res.results.findIndex((r) => r.id === table) > 0, 'the word "version" alone ranks below the number');
});

test('a kind or "version" inside quotation marks is not what the question asks for', () => {
  assert.deepEqual(kindExpansion('Which café had both the "database is locked" error and the double invoice?'), []);
  assert.deepEqual(kindExpansion('Which café had both the `database is locked` error and the double invoice?'), []);
  assert.ok(kindExpansion("Which database does Nadia's app use?").includes('sqlite'));
  assert.ok(asksVersion('Which Python version does crumbline run on?'));
  assert.ok(asksVersion('노드 버전은 뭐야?'));
  assert.ok(!asksVersion('What did "version 2 of the plan" change?'));
});
