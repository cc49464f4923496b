/**
 * Several renderings of one question, text only, fused by 'linear' (the best
 * rendering's score, lib/search/fusion.ts): each rendering offers only `limit`
 * candidates (searcher.ts candidatesPerList), which must rank exactly as a
 * deep candidate list would — the first results of a small limit are the first
 * results of a large one, in order and with the same scores (of results that
 * tie, either). Reciprocal rank fusion, which sums ranks, keeps its deep lists
 * and is checked the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateIndex } from '../../lib/search/indexer.js';
import { searchMemory } from '../../lib/search/search.js';
import { tempHome, testConfig, writeDay, type Obs } from '../helpers/search-fixtures.js';

const SUBJECTS = ['database', 'deploy', 'dentist', 'login', 'invoice', 'migration', 'hiking', 'review'];
const KOREAN = ['데이터베이스', '배포', '치과', '로그인', '청구서', '마이그레이션', '등산', '리뷰'];
const EXTRA = ['Postgres', 'staging', 'Friday', 'token', 'Marco', 'index', 'Seoul', 'tests'];

/** Days of lines mixing the subjects in both languages, so that both renderings of a question have long lists. */
function days(): Array<{ date: string; lines: Obs[] }> {
  const out: Array<{ date: string; lines: Obs[] }> = [];
  for (let d = 0; d < 12; d++) {
    const lines: Obs[] = [];
    for (let i = 0; i < 14; i++) {
      const a = (d * 3 + i) % SUBJECTS.length;
      const b = (d + i * 5) % SUBJECTS.length;
      const text =
        i % 3 === 0
          ? `${KOREAN[a]} 관련해서 ${KOREAN[b]} 얘기를 ${i}번 했어.`
          : `User talked about the ${SUBJECTS[a]} and ${SUBJECTS[b]} with ${EXTRA[(d + i) % EXTRA.length]} (${d}-${i}).`;
      lines.push({ text, time: `1${i % 10}:${String(10 + d).padStart(2, '0')}` });
    }
    out.push({ date: `2026-03-${String(d + 1).padStart(2, '0')}`, lines });
  }
  return out;
}

for (const fusion of ['linear', 'rrf'] as const) {
  test(`renderings fused by ${fusion}: a small limit gives the first results of a large one, in order and score`, async () => {
    const paths = await tempHome();
    for (const { date, lines } of days()) await writeDay(paths, date, lines);
    const config = testConfig({ search: { fusion } });
    await updateIndex(paths, config);
    const questions = [
      'What did we decide about the database migration?',
      'When is the dentist appointment?',
      'deploy review with Marco',
      '치과 예약 언제야?',
    ];
    for (const query of questions) {
      const shallow = await searchMemory(paths, config, { query, limit: 4, cache: false });
      const deep = await searchMemory(paths, config, { query, limit: 60, cache: false });
      assert.ok(deep.results.length > 8, `${query}: only ${deep.results.length} results`);
      // The same scores in the same order; of results that tie, either may be kept (the candidate list keeps the first offered).
      assert.deepEqual(
        shallow.results.map((r) => r.score),
        deep.results.slice(0, 4).map((r) => r.score),
        query,
      );
      for (const r of shallow.results) {
        const same = deep.results.find((d) => d.id === r.id);
        assert.equal(same?.score, r.score, `${query}: ${r.id} ${r.score} is not a result of the deep list with that score`);
      }
    }
  });
}
