/**
 * The relevance of a search result (what the agent hooks and the OpenClaw
 * plugin keep above their floor for unasked injection): a natural question
 * with context words injects the memory it is about, an unrelated prompt
 * injects nothing — through `ocm-run search --json` and `ocm-run hook prompt`,
 * on a home of 3,000 observations over 60 days.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome, writeDay, type Obs } from '../helpers/search-fixtures.js';
import { openMemory } from '../../lib/api/index.js';

const PEOPLE = ['Priya', 'Marco', 'Lena', 'Tomas', 'Aiko', 'Sven', 'Noor', 'Jonas'];
const TOPICS = [
  'billing service',
  'invoice export',
  'login flow',
  'release notes',
  'staging cluster',
  'quarterly report',
  'budget sheet',
  'onboarding guide',
  'search index',
  'mobile app',
];
const ACTS = ['reviewed', 'rewrote', 'tested', 'planned', 'discussed', 'shipped', 'postponed', 'estimated'];
const WHEN = ['in the morning', 'after lunch', 'before the standup', 'late at night', 'on the train'];

/** Observations of a busy life: work, errands, people — none about a pet, a vet or a form. */
function filler(day: number, n: number): Obs[] {
  const out: Obs[] = [];
  for (let i = 0; i < n; i++) {
    const k = day * 50 + i;
    const who = PEOPLE[k % PEOPLE.length]!;
    const topic = TOPICS[(k * 7) % TOPICS.length]!;
    const act = ACTS[(k * 3) % ACTS.length]!;
    const when = WHEN[(k * 11) % WHEN.length]!;
    out.push({
      text: `User ${act} the ${topic} with ${who} ${when}; the name of the branch is ${topic.split(' ')[0]}-${k}.`,
      category: k % 5 === 0 ? 'task' : 'fact',
      time: `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    });
  }
  return out;
}

const DOG = "User's dog is called Biscuit and User is allergic to penicillin.";

async function busyHome() {
  const paths = await tempHome();
  const start = Date.UTC(2026, 0, 1);
  for (let day = 0; day < 60; day++) {
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const obs = filler(day, 50);
    if (day === 0) obs[0] = { text: DOG, category: 'fact', priority: 'high', time: '08:00' };
    await writeDay(paths, date, obs);
  }
  const indexed = await runCli(['index', '--home', paths.root], { timeoutMs: 120_000 });
  assert.equal(indexed.code, 0, indexed.stderr);
  return paths.root;
}

async function injected(home: string, prompt: string): Promise<string> {
  const r = await runCli(['hook', 'prompt', '--home', home], {
    input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt }),
    env: { HOME: home, OCM_HOOK_TIMEOUT_MS: '20000' },
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

test('a question with context words no memory has injects the memory it is about; an unrelated prompt injects nothing (3,000 observations, 60 days)', {
  timeout: 300_000,
}, async () => {
  const home = await busyHome();
  const question = "What's my dog's name again? I need it for the vet form.";
  const found = JSON.parse((await runCli(['search', question, '--home', home, '--json'])).stdout) as {
    results: Array<{ snippet: string; relevance: number }>;
  };
  assert.match(found.results[0]!.snippet, /Biscuit/);
  assert.ok(found.results[0]!.relevance >= 0.5, `the dog's line is relevant to the question: ${found.results[0]!.relevance}`);
  assert.match(await injected(home, question), /dog is called Biscuit/);
  // The same question framed with other context words.
  assert.match(await injected(home, 'Quick one before I fill in the clinic paperwork. What is my dog called?'), /dog is called Biscuit/);

  for (const prompt of [
    'I want to buy some bananas',
    'Tell me a joke about cats in Paris',
    'What is the capital of Peru? I need it for a quiz.',
  ]) {
    const results = JSON.parse((await runCli(['search', prompt, '--home', home, '--json'])).stdout) as {
      results: Array<{ relevance: number }>;
    };
    assert.ok(
      results.results.every((r) => r.relevance < 0.5),
      `nothing relevant to "${prompt}": ${results.results.map((r) => r.relevance).join(', ')}`,
    );
    assert.equal(await injected(home, prompt), '', `nothing injected for "${prompt}"`);
  }
});

/** A Korean user's memory: no vectors for Hangul (the bundled model is English-only), so the gate weighs words alone. */
const KOREAN: Obs[] = [
  { text: '민수는 치과 예약을 금요일 오후 3시로 잡았다.', category: 'event' },
  { text: '민수는 건강검진 결과 혈압이 높게 나왔다고 했다.', category: 'fact' },
  { text: '민수는 회사 보고서 마감을 다음 주 월요일로 미뤘다.', category: 'task' },
  { text: '민수는 주말에 자전거를 타고 한강에 갔다.', category: 'event' },
  { text: '민수는 새 노트북으로 맥북 에어를 골랐다.', category: 'decision' },
  { text: '민수는 이사할 집으로 망원동 투룸을 계약했다.', category: 'decision' },
  { text: '민수의 보드게임 모임은 한 달에 두 번 합정에서 모여.', category: 'fact' },
  { text: '민수는 빵굼터는 리뷰에 불친절하다는 얘기가 있어서 소금빵집으로 할래.', category: 'decision' },
];

test('a Korean question injects the memory it is about: question words, spoken endings and framing adverbs do not veto it; an unrelated Korean prompt injects nothing', {
  timeout: 120_000,
}, async () => {
  const paths = await tempHome();
  const filler: Obs[] = [];
  for (let i = 0; i < 60; i++)
    filler.push({ text: `민수는 ${['장보기', '빨래', '운동', '독서', '청소'][i % 5]} 계획을 ${i + 1}번째로 정리했다.`, category: 'fact' });
  await writeDay(paths, '2026-03-02', filler);
  await writeDay(paths, '2026-03-03', KOREAN);
  const env = { OCM_LOCAL_EMBEDDINGS: 'off' };
  const top = async (q: string) => {
    const r = await runCli(['search', q, '--home', paths.root, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { results: Array<{ snippet: string; relevance: number }> }).results;
  };
  for (const [question, memory] of [
    ['민수 건강검진 결과는 어땠어?', /혈압이 높게/],
    ['치과 예약은 언제야?', /치과 예약/],
    ['이사할 집은 어디로 계약했어?', /망원동/],
    // Frequency and time hedges (요즘, 자주) are how the question is asked; the memory states the answer without them.
    ['보드게임은 요즘 얼마나 자주 모여?', /한 달에 두 번/],
    // The predicate and adverb are said otherwise in the memory (골랐어 / 할래; 가까운, 대신 in no memory): its subject answers.
    ['왜 더 가까운 빵굼터 대신 소금빵집을 골랐어?', /소금빵집으로 할래/],
  ] as const) {
    const results = await top(question);
    assert.match(results[0]!.snippet, memory, question);
    assert.ok(results[0]!.relevance >= 0.5, `"${question}" is answered by its memory: relevance ${results[0]!.relevance}`);
  }
  // What is left without the unheld predicate must still be a subject: not one name (민수 is in every memory), not only
  // words many memories hold (민수, 계획), and a noun with its particle (생일은, 날은) still vetoes.
  for (const prompt of [
    '오늘 저녁 뭐 먹을까?',
    '비행기 표는 얼마였어?',
    '민수는 어디 살아?',
    '민수는 계획을 왜 미뤘어?',
    '민수 생일은 언제야?',
    '민수가 이사한 날은 언제야?',
  ]) {
    const results = await top(prompt);
    assert.ok(
      results.every((r) => r.relevance < 0.5),
      `nothing relevant to "${prompt}": ${results.map((r) => r.relevance).join(', ')}`,
    );
  }
});

test('a question asking for a quantity is not answered by a memory that only shares its subject: how much, what number, 얼마 need a number the question does not give', async () => {
  const paths = await tempHome();
  const day = await writeDay(paths, '2026-05-04', [
    { text: 'Helen wants a Speedball pottery wheel for the market stall.', category: 'preference' },
    { text: "Walter's Medicare card is in the blue folder.", category: 'fact' },
    { text: 'Nadia moved the bakery site to a Hetzner CX22 server.', category: 'decision' },
    { text: '오사카 왕복 항공권을 예약했다.', category: 'event' },
    // A date is when, not how much; "one" is as often a pronoun.
    {
      text: "Walter's Medicare card renewal is due 8 July (2026-07-08); pharmacies mail by unit number, so that's the main one.",
      category: 'task',
    },
  ]);
  const [wheel, medicare, hetzner, osaka, renewal] = day.ids;
  const relevanceOf = async (question: string, id: string) => {
    const r = await runCli(['search', question, '--home', paths.root, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const found = (JSON.parse(r.stdout) as { results: Array<{ id: string; relevance: number }> }).results.find((x) => x.id === id);
    assert.ok(found, `"${question}" still finds its subject: ${r.stdout}`);
    return found.relevance;
  };
  for (const [question, id] of [
    ['How much did the Speedball wheel cost?', wheel],
    ["What is Walter's Medicare number?", medicare],
    ['How much does the Hetzner CX22 cost per month?', hetzner],
    ['오사카 왕복 항공권은 얼마였어?', osaka],
    ["What is Walter's Medicare number?", renewal],
  ] as const) {
    const relevance = await relevanceOf(question, id!);
    assert.ok(relevance < 0.5, `"${question}": the memory holds no amount, not injected unasked (relevance ${relevance})`);
  }
  // The same subjects asked without a quantity are still answered.
  assert.ok((await relevanceOf('Which pottery wheel does Helen want?', wheel!)) >= 0.5);
  assert.ok((await relevanceOf('Where is the Hetzner server?', hetzner!)) >= 0.5);
  // A memory with the amount is.
  const priced = await writeDay(paths, '2026-05-05', [{ text: 'The Speedball wheel cost $420 in the end.', category: 'fact' }]);
  assert.ok((await relevanceOf('How much did the Speedball wheel cost?', priced.ids[0]!)) >= 0.5);
});

/** A question's turn and its answer's (the answer holds part of the question's words), among unrelated work. */
async function questionAndAnswerHome() {
  const paths = await tempHome();
  const filler: Obs[] = [];
  for (let i = 0; i < 40; i++)
    filler.push({
      text: `User ${['reviewed', 'planned', 'tested', 'shipped'][i % 4]} the ${['billing page', 'login flow', 'search box', 'release notes'][i % 4]} with Priya, part ${i + 1}.`,
      category: 'fact',
    });
  await writeDay(paths, '2026-04-01', filler);
  const day = await writeDay(paths, '2026-04-02', [
    { text: 'Nadia asked which email service should send the order reminders to the cafés.', category: 'fact', time: '10:00' },
    {
      text: 'Claude said Postmark: it sends the order reminder mails through its API from the bakery domain.',
      category: 'fact',
      time: '10:01',
    },
  ]);
  const [asked, answer] = day.ids as [string, string];
  return { paths, asked, answer };
}

test('a memory that shares part of the question rides with a clear answer ranked above it; alone it injects nothing', async () => {
  const { paths, asked, answer } = await questionAndAnswerHome();
  const results = async (question: string) => {
    const r = await runCli(['search', question, '--home', paths.root, '--json'], { env: { OCM_LOCAL_EMBEDDINGS: 'off' } });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { results: Array<{ id: string; relevance: number }> }).results;
  };
  const both = await results('Which email service sends the order reminders?');
  const lead = both.find((x) => x.id === asked);
  const follower = both.find((x) => x.id === answer);
  assert.ok(lead && lead.relevance >= 0.5, `the question's own words: ${JSON.stringify(both)}`);
  assert.ok(follower && follower.relevance >= 0.5, `the answer, in the company of the question it answers: ${JSON.stringify(both)}`);
  // Without a clear answer above it, the same partial match stays below the floor.
  const alone = await results('Which mail provider handles the reminders?');
  assert.ok(
    alone.every((x) => x.relevance < 0.5),
    `nothing clear, nothing injected: ${alone.map((x) => `${x.id} ${x.relevance}`).join(', ')}`,
  );
});

test("the OpenClaw plugin's minRelevance is the gate's floor: what rides with a clear answer is raised to it, not to the default", async (t) => {
  const { paths, asked, answer } = await questionAndAnswerHome();
  const memory = await openMemory(paths.root, { keepOpen: true });
  t.after(() => memory.close());
  const question = 'Which email service sends the order reminders?';
  const recalled = async (minRelevance: number) =>
    (await memory.recall({ query: question, agents: ['main'], limit: 5, minRelevance })).results.map((r) => [r.id, r.relevance]);
  for (const floor of [0.5, 0.8]) {
    const got = await recalled(floor);
    const ids = got.map(([id]) => id);
    assert.ok(ids.includes(asked) && ids.includes(answer), `floor ${floor}: the question's turn and its answer: ${JSON.stringify(got)}`);
    assert.ok(
      got.every(([, relevance]) => (relevance as number) >= floor),
      `floor ${floor}: every result at the floor: ${JSON.stringify(got)}`,
    );
  }
  // The search a user runs reports relevance as the default gate judges it.
  const r = await runCli(['search', question, '--home', paths.root, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const follower = (JSON.parse(r.stdout) as { results: Array<{ id: string; relevance: number }> }).results.find((x) => x.id === answer);
  assert.equal(follower?.relevance, 0.5);
});

/** A home where a decision was reversed and a task was done, among a busy week's other memories. */
async function revisedHome(): Promise<{ home: string; ids: Record<'postgres' | 'sqlite' | 'task' | 'closer', string> }> {
  const paths = await tempHome();
  for (let day = 0; day < 6; day++) await writeDay(paths, `2026-04-0${day + 2}`, filler(day, 30));
  const ids = { postgres: 'o-1111111111', sqlite: 'o-2222222222', task: 'o-3333333333', closer: 'o-4444444444' };
  await writeFile(
    join(paths.root, 'memory', '2026-04-01.md'),
    '# 2026-04-01\n\n' +
      `- 🔴 09:00 [decision] For the crumbline billing database we use Postgres 16. (superseded 2026-04-08 by ${ids.sqlite}) ^${ids.postgres}\n` +
      `- ✅ 🟡 09:10 [task] Assistant will add the invoice index to the crumbline billing database. (done 2026-04-08 by ${ids.closer}) ^${ids.task}\n`,
  );
  await writeFile(
    join(paths.root, 'memory', '2026-04-08.md'),
    `# 2026-04-08\n\n- 🔴 10:00 [decision] We switched to SQLite now. ^${ids.sqlite}\n- 🟡 10:05 [outcome] The index is added and the export is fast again. ^${ids.closer}\n`,
  );
  const indexed = await runCli(['index', '--home', paths.root]);
  assert.equal(indexed.code, 0, indexed.stderr);
  return { home: paths.root, ids };
}

test('unasked injection brings what is true today: the replacement of a reversed decision, not the decision; the outcome of a done task, not the task (plugin recall and prompt hook)', async (t) => {
  const { home, ids } = await revisedHome();
  const question = 'Which database does the crumbline billing service use? I need it for the migration plan.';

  // Asked, search shows the history below what replaced it.
  const asked = JSON.parse((await runCli(['search', question, '--home', home, '--json'])).stdout) as { results: Array<{ id: string }> };
  const order = asked.results.map((r) => r.id);
  assert.ok(order.includes(ids.postgres) && order.indexOf(ids.sqlite) < order.indexOf(ids.postgres), order.join(' '));

  // The OpenClaw plugin's recall.
  const memory = await openMemory(home, { keepOpen: true });
  t.after(() => memory.close());
  const recalled = (await memory.recall({ query: question, agents: ['main'], limit: 5, minRelevance: 0.5 })).results.map((r) => r.id);
  assert.ok(recalled.includes(ids.sqlite), `the current decision: ${recalled.join(' ')}`);
  assert.ok(!recalled.includes(ids.postgres) && !recalled.includes(ids.task), `no history: ${recalled.join(' ')}`);
  const task = (
    await memory.recall({
      query: 'Is the invoice index on the crumbline billing database there yet?',
      agents: ['main'],
      limit: 5,
      minRelevance: 0.5,
    })
  ).results.map((r) => r.id);
  assert.ok(task.includes(ids.closer) && !task.includes(ids.task), `the outcome, not the done task: ${task.join(' ')}`);

  // The agents' prompt hook.
  const context = await injected(home, question);
  assert.match(context, /We switched to SQLite now/);
  assert.doesNotMatch(context, /Postgres 16/);
  // Nothing related, nothing injected, history or not.
  assert.doesNotMatch(await injected(home, 'Can you suggest a good banana bread recipe?'), /SQLite|Postgres/);
});
