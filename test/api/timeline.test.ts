/** The dashboard's timeline pages (lib/api/timeline.ts) over real day files: every observation once, newest day first, filters as `search`'s. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, testConfig, writeHot } from '../helpers/tier-home.js';
import { PAGE_OBSERVATIONS, timelinePage, type TimelineCursor } from '../../lib/api/timeline.js';
import { addDays } from '../../lib/tiers/age.js';
import type { SearchFilters } from '../../lib/search/types.js';

const TODAY = new Date().toISOString().slice(0, 10);

test('timeline pages: a day with more than a page goes on on the next page; every observation exactly once, newest day first; filters', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const config = testConfig();
  const big = Array.from({ length: PAGE_OBSERVATIONS * 2 + 30 }, (_, i) => makeObservation(i, TODAY));
  const work = Array.from({ length: 40 }, (_, i) => makeObservation(1000 + i, TODAY, { agent: 'work' }));
  const older = Array.from({ length: 25 }, (_, i) => makeObservation(2000 + i, addDays(TODAY, -(1 + (i % 5)))));
  await writeHot(paths, [...big, ...work, ...older]);

  const all = async (filters: SearchFilters) => {
    const seen: Array<{ id: string; date: string }> = [];
    let from: TimelineCursor | undefined;
    for (let pages = 1; ; pages++) {
      assert.ok(pages < 20, 'the pages end');
      const page = await timelinePage(paths, config, filters, from);
      const n = page.days.reduce((a, d) => a + d.observations.length, 0);
      assert.ok(n <= PAGE_OBSERVATIONS, `a page holds at most ${PAGE_OBSERVATIONS} (${n})`);
      for (const d of page.days) for (const o of d.observations) seen.push({ id: o.id, date: d.date });
      if (!page.older) break;
      from = page.older;
    }
    return seen;
  };
  const seen = await all({});
  const expected = [...big, ...work, ...older];
  assert.equal(seen.length, expected.length);
  assert.deepEqual(new Set(seen.map((s) => s.id)), new Set(expected.map((o) => o.id)), 'every observation exactly once');
  assert.deepEqual(
    seen.map((s) => s.date),
    [...seen.map((s) => s.date)].sort().reverse(),
    'newest day first',
  );

  const high = await all({ priorities: ['high'], agents: ['main'] });
  assert.deepEqual(new Set(high.map((s) => s.id)), new Set([...big, ...older].filter((o) => o.priority === 'high').map((o) => o.id)));
  const tagged = await all({ tags: ['project'], since: addDays(TODAY, -2) });
  assert.deepEqual(
    new Set(tagged.map((s) => s.id)),
    new Set(expected.filter((o) => o.tags.includes('project') && o.date >= addDays(TODAY, -2)).map((o) => o.id)),
  );
});
