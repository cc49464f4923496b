import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, ASCII_ONLY, HANGUL_WORDS, prefixEligible, queryTerms, RAW_TOKEN, RAW_TOKEN_ASCII } from '../../lib/search/tokenizer.js';
import { koreanStem } from '../../lib/core/korean.js';
import { makeSnippet, markSnippet } from '../../lib/search/snippet.js';

const shares = (doc: string, query: string) => {
  const d = new Set(analyze(doc));
  return queryTerms(query).filter((t) => d.has(t));
};

test('Korean: a word with a particle or verb ending matches the bare word, and the other way round', () => {
  const cases: Array<[string, string]> = [
    ['데이터베이스를 PostgreSQL로 바꿨다', '데이터베이스'],
    ['인증은 JWT로 처리한다', '인증'],
    ['서버에서는 로그를 남긴다', '서버'],
    ['배포했다', '배포'],
    ['배포하기로 결정했다', '결정'],
    ['캐시에 저장한다', '캐시'],
    ['사용자의 설정', '사용자'],
    ['데이터베이스', '데이터베이스를'],
    ['결제 모듈', '결제가'],
  ];
  for (const [doc, query] of cases) assert.ok(shares(doc, query).length > 0, `${query} should match "${doc}"`);
  assert.equal(koreanStem('데이터베이스를'), '데이터베이스');
  assert.equal(koreanStem('인증은'), '인증');
  assert.equal(koreanStem('데이터베이스에서는'), '데이터베이스');
});

test('Korean: one-syllable stems are not cut off (나이, 회의 stay whole) and bare particles are dropped', () => {
  assert.equal(koreanStem('나이'), '나이');
  assert.equal(koreanStem('회의'), '회의');
  assert.deepEqual(analyze('을'), []);
  // A Latin word with a particle glued on splits at the script boundary.
  assert.deepEqual(analyze('PostgreSQL을'), ['postgresql']);
});

test('English: case folding, stop words and light stemming', () => {
  assert.deepEqual(analyze('The USER Deployed the Services'), ['user', 'deploi', 'servic']);
  for (const form of ['deploying', 'deploys', 'deployed', 'Deploy']) assert.deepEqual(shares(`We are ${form} today`, 'deploy'), ['deploi']);
  assert.deepEqual(shares('User prefers TypeScript', 'preferences'), ['prefer']);
  assert.deepEqual(shares('two databases', 'database'), ['databas']);
  assert.deepEqual(analyze("it's what I'm doing"), []);
});

test('English: irregular verb forms and plurals match their base form; look-alike nouns stay themselves', () => {
  assert.deepEqual(
    shares('Maria bought a puppy and took it home', 'What did Maria buy? Where did she take it?'),
    queryTerms('maria buy take'),
  );
  assert.deepEqual(shares('The children ran a 5K', 'How far did the child run?'), queryTerms('child run'));
  assert.deepEqual(
    shares('Joanna felt proud and wrote a script', 'How does Joanna feel about writing?'),
    queryTerms('joanna feel writing'),
  );
  // "left", "ground", "rose", "wound" are also nouns: not folded into leave / grind / rise / wind.
  assert.deepEqual(analyze('left ground rose wound'), ['left', 'ground', 'rose', 'wound']);
});

test('identifiers stay findable as written, and by their parts', () => {
  const terms = analyze('Set POSTGRES_URL for ticket-4242 in getUserById (v1.2.3)');
  for (const t of ['postgres_url', 'ticket-4242', 'getuserbyid', 'v1.2.3']) assert.ok(terms.includes(t), t);
  for (const t of ['url', '4242', 'user']) assert.ok(terms.includes(t), t);
  assert.deepEqual(queryTerms('POSTGRES_URL').slice(0, 1), ['postgres_url']);
  assert.deepEqual(queryTerms('ticket-4242').slice(0, 1), ['ticket-4242']);
  // A different ticket shares only the generic part.
  assert.deepEqual(shares('ticket-4243 closed', 'ticket-4242'), ['ticket']);
});

test('Chinese and Japanese: character bigrams', () => {
  assert.deepEqual(analyze('数据库'), ['数据', '据库']);
  assert.ok(shares('データベースを使う', 'データベース').length >= 4);
  assert.deepEqual(analyze('猫'), ['猫']);
});

test('prefix matching is for longer words only', () => {
  assert.equal(prefixEligible('postg'), true);
  assert.equal(prefixEligible('api'), false);
  assert.equal(prefixEligible('4242'), false);
  assert.equal(prefixEligible('데이터'), true);
  assert.equal(prefixEligible('数据'), false);
});

test('snippets mark the words that matched, through the same analyzer', () => {
  const s = makeSnippet('We deployed the 데이터베이스를 migration to staging.', queryTerms('deploy 데이터베이스'));
  assert.equal(markSnippet(s, '[', ']'), 'We [deployed] the [데이터베이스를] migration to staging.');
  const long = `${'filler words here '.repeat(30)}the POSTGRES_URL was wrong ${'more text '.repeat(30)}`;
  const cut = makeSnippet(long, queryTerms('POSTGRES_URL'), 120);
  assert.ok(cut.text.length <= 122 && cut.text.startsWith('…') && cut.text.endsWith('…'));
  assert.ok(markSnippet(cut, '[', ']').includes('[POSTGRES_URL]'));
});

test('dates in a query find what was observed that day (or mentioned it)', async () => {
  const { dateTerms } = await import('../../lib/search/tokenizer.js');
  const { documentTerms } = await import('../../lib/search/segment.js');
  assert.deepEqual(dateTerms('What did we decide on October 13, 2023?'), ['@2023-10-13', '@2023-10']);
  assert.deepEqual(dateTerms('the 8th December, 2023 call'), ['@2023-12-08', '@2023-12']);
  assert.deepEqual(dateTerms('anything in December 2023'), ['@2023-12']);
  assert.deepEqual(dateTerms('2026년 2월 12일 회의'), ['@2026-02-12', '@2026-02']);
  assert.deepEqual(dateTerms('released yesterday (2023-05-07)'), ['@2023-05-07', '@2023-05']);
  const doc = documentTerms({ text: 'Painted a sunset.', tags: [], category: 'event', date: '2023-10-13' });
  assert.ok(doc.includes('@2023-10-13') && doc.includes('@2023-10'));
  assert.equal(prefixEligible('@2023-10'), false);
});

test('ASCII text is split by the cheap ASCII pattern exactly as by the Unicode one', () => {
  const chars = 'abcxyzABCXYZ0189 _-./:@+#\'’\t,;!?()[]"';
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const samples = [
    "don't stop",
    'POSTGRES_URL=x',
    'ticket-4242.',
    'v1.2.3-rc.1',
    "it's api.example.com/v2#a+b@c",
    'a__b--c..d',
    "'quoted' -x- _y_",
  ];
  for (let n = 0; n < 3000; n++)
    samples.push(Array.from({ length: 1 + Math.floor(random() * 30) }, () => chars[Math.floor(random() * chars.length)]).join(''));
  for (const text of samples) {
    if (!ASCII_ONLY.test(text)) continue;
    const unicode = [...text.matchAll(RAW_TOKEN)].map((m) => [m.index, m[0]]);
    const ascii = [...text.matchAll(RAW_TOKEN_ASCII)].map((m) => [m.index, m[0]]);
    assert.deepEqual(ascii, unicode, text);
  }
});

test('words of Hangul syllables are split at their spaces exactly as by the Unicode pattern', () => {
  const chars = ['배', '포', '릴', '리', '스', '가', '힣', ' ', ' ', 'ㄱ', 'a', '1', '.', '\u3000'];
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const samples = ['배포 릴리스', '치과', '치과  예약', ' 치과', '치과 ', '치과ㄱ', '치과.'];
  for (let n = 0; n < 3000; n++)
    samples.push(Array.from({ length: 1 + Math.floor(random() * 12) }, () => chars[Math.floor(random() * chars.length)]).join(''));
  let checked = 0;
  for (const text of samples) {
    if (!HANGUL_WORDS.test(text)) continue;
    checked++;
    assert.deepEqual(text.split(/ +/), text.match(RAW_TOKEN), text);
  }
  assert.ok(checked > 100, `${checked} samples were Hangul words`);
  assert.deepEqual(analyze('치과 예약'), [...analyze('치과'), ...analyze('예약')]);
});
