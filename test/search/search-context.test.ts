/**
 * Conversation context in the ranking (lib/search/searcher.ts, withContext;
 * README, "Search" → "Ranking"): an answer that names little of what it answers
 * ranks above an unrelated memory that matches as weakly, because the
 * observation just before it — the question — matches well; a neighbour that
 * contains none of the query's words is still not a result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { tempHome, testConfig, writeDay } from '../helpers/search-fixtures.js';

const config = testConfig();
const QUESTION = 'Dana asked which database the billing service should use.';
// Names no database of the kind the question asks for (a member would match by kind, search/kind-expansion.ts).
const ANSWER = 'Version 16 with a cache in front, Dana said.';
const UNRELATED = 'Dana went hiking.';

/** One day file of these lines, indexed; the ids of its lines and of the results for a question about the first. */
async function ranked(lines: Array<{ text: string; time: string }>): Promise<{ ids: string[]; order: string[] }> {
  const paths = await tempHome();
  const { ids } = await writeDay(paths, '2026-03-02', lines);
  await updateIndex(paths, config);
  const res = await searchMemory(paths, config, { query: 'Which database does Dana want for billing?', cache: false });
  return { ids, order: res.results.map((r) => r.id) };
}

test('an answer is found through the question just before it, not an unrelated line that matches as weakly', async () => {
  const { ids, order } = await ranked([
    { text: QUESTION, time: '10:00' },
    { text: ANSWER, time: '10:01' },
    { text: 'The office plants need water on Fridays.', time: '10:02' },
    { text: UNRELATED, time: '16:40' },
  ]);
  const [question, answer, plants, hiking] = ids;
  assert.equal(order[0], question);
  // Both match only "Dana"; the shorter, newer line would win on words alone.
  assert.ok(
    order.indexOf(answer!) >= 0 && order.indexOf(answer!) < order.indexOf(hiking!),
    `the answer ranks above the unrelated line: ${order.join(', ')}`,
  );
  // Context orders the matches; it adds no result without the query's words.
  assert.ok(!order.includes(plants!));
  assert.equal(order.length, 3);
});

test('a line written more than ten minutes later is another conversation: no context from the question', async () => {
  const { ids, order } = await ranked([
    { text: QUESTION, time: '10:00' },
    { text: ANSWER, time: '10:30' },
    { text: UNRELATED, time: '16:40' },
  ]);
  const [question, answer, hiking] = ids;
  // On words alone the shorter, newer line comes first.
  assert.deepEqual(order, [question, hiking, answer]);
});
