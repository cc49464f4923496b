/**
 * A question in one language finds memory written in the other, offline and
 * with no rendering from the agent: `ocm-run search` renders the question
 * through the bundled English ↔ Korean lexicon (lib/search/bridge.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome, writeDay } from '../helpers/search-fixtures.js';
import { bilingualLexicon, bridgeRendering, englishKey } from '../../lib/search/bridge.js';
import { KO_EN_LEXICON } from '../../lib/search/bilingual-lexicon.js';

type Found = { results: Array<{ id: string; relevance: number }> };

async function search(home: string, ...args: string[]): Promise<Found> {
  const r = await runCli(['search', ...args, '--home', home, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Found;
}

test('ocm-run search: an English question finds the Korean memory and a Korean question the English one; an unrelated prompt finds nothing relevant; bridge_languages: false turns it off', async () => {
  const paths = await tempHome();
  const home = paths.root;
  const day = await writeDay(paths, '2026-03-02', [
    { text: '3월 14일 오후 3시에 치과 예약했어.', category: 'event', priority: 'high' },
    { text: '다음 달에 연남동으로 이사 가기로 했어.', category: 'decision', priority: 'high' },
    { text: 'For the database, User decided to use PostgreSQL over MySQL.', category: 'decision', priority: 'high' },
    { text: 'User finished the quarterly report with Marco.', category: 'fact' },
  ]);
  const [dentist, moving, database] = day.ids;
  assert.equal((await runCli(['index', '--home', home])).code, 0);

  const english = await search(home, 'When is my dentist appointment?');
  assert.equal(english.results[0]?.id, dentist, JSON.stringify(english));
  assert.ok(english.results[0]!.relevance >= 0.5, `injected unasked: ${english.results[0]!.relevance}`);
  const move = await search(home, 'Where are we moving next month?');
  assert.equal(move.results[0]?.id, moving, JSON.stringify(move));

  const korean = await search(home, '데이터베이스 결정은 뭐였지?');
  assert.equal(korean.results[0]?.id, database, JSON.stringify(korean));
  assert.ok(korean.results[0]!.relevance >= 0.5, `injected unasked: ${korean.results[0]!.relevance}`);

  const unrelated = await search(home, 'I want to buy some bananas');
  assert.deepEqual(
    unrelated.results.filter((r) => r.relevance >= 0.5),
    [],
    JSON.stringify(unrelated),
  );

  // The agent's own rendering in the other language is used instead of the lexicon's.
  assert.equal(bridgeRendering(['치과 예약', 'dentist appointment']), undefined);
  assert.match(bridgeRendering(['When is my dentist appointment?'])?.text ?? '', /치과/);

  await writeFile(join(home, 'config.yaml'), 'search:\n  bridge_languages: false\n');
  const off = await search(home, 'When is my dentist appointment?');
  assert.ok(!off.results.some((r) => r.id === dentist), JSON.stringify(off));
});

test('the lexicon files each English word on the shelf its stem is looked up on, so that every word is found as eagerly analysed', () => {
  const lexicon = bilingualLexicon();
  const misfiled: string[] = [];
  for (const line of KO_EN_LEXICON.split('\n')) {
    const [en, ko] = line.trim().startsWith('#') ? [] : line.split('|');
    if (en === undefined || ko === undefined) continue;
    for (const word of en.split(',').map((w) => w.trim())) {
      const key = word ? englishKey(word) : undefined;
      if (!key) continue;
      const korean = ko.split(',').map((w) => w.trim());
      const found = lexicon.toKorean(key) ?? [];
      if (!korean.every((k) => found.includes(k))) misfiled.push(`${word} → ${key}: ${found.join(', ')}`);
    }
  }
  assert.deepEqual(misfiled, []);
  // A word of the other side's shelf is not found under a wrong stem.
  assert.equal(lexicon.toKorean('zzz'), undefined);
});
