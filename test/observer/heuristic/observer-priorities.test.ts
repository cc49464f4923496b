/**
 * Priorities that mean something (docs/priorities.md): who a person is, decisions, standing rules,
 * deadlines and what the speaker asks to remember are 🔴; what happened and the facts of the work
 * 🟡; passing opinions 🟢; chit-chat, acknowledgements and the assistant's promise to remember are
 * no memory at all — in English and Korean. npm run eval -- priorities scores the labelled set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { observeWithRules } from '../../../lib/observer/heuristic/observer.js';
import { parseObserverOutput } from '../../../lib/observer/llm.js';
import { formatObservationLine } from '../../../lib/memory/observation-line.js';
import type { Message, Observation, ObserverBatch, Role } from '../../../lib/core/types.js';

type Turn = [Role, string];

function observe(turns: Turn[]): Observation[] {
  const messages: Message[] = turns.map(([role, text], i) => ({
    role,
    text,
    time: `2026-11-25T10:${String(10 + i).padStart(2, '0')}:00Z`,
    entryId: `e${i}`,
    source: 'demo',
    agent: 'main',
    session: 's1',
  }));
  return observeWithRules({ source: 'demo', agent: 'main', session: 's1', messages, timeZone: 'UTC', now: '2026-11-25T12:00:00Z' })
    .observations;
}

const texts = (obs: Observation[]) => JSON.stringify(obs.map((o) => `${o.priority} [${o.category}] ${o.text}`));

/** The highest priority written for one message said alone, or 'none'. */
function priorityOf(role: Role, text: string): string {
  const obs = observe([[role, text]]);
  return obs.length === 0
    ? 'none'
    : obs.some((o) => o.priority === 'high')
      ? 'high'
      : obs.some((o) => o.priority === 'medium')
        ? 'medium'
        : 'low';
}

test("the assistant's promise to remember is not a second (🔴) copy of the user's fact, and 'Let me check…' is no memory", () => {
  const obs = observe([
    ['user', 'My daughter Lena has a peanut allergy.'],
    ['assistant', "I'll remember that Lena has a peanut allergy."],
    ['assistant', 'Let me check the Envoy config.'],
  ]);
  assert.equal(obs.length, 1, texts(obs));
  assert.deepEqual(obs[0]!.provenance!.entryIds[0], 'e0');
  assert.equal(obs[0]!.priority, 'high');
  assert.doesNotMatch(texts(obs), /Let Assistant/);
});

test('"please remember that <fact>", "That\'s a team rule", "Write that down" raise the fact they point at; the lead-in is not kept', () => {
  const partitioned = observe([['user', 'Oh, and please remember that the orders table is partitioned by created_at, not by order_date.']]);
  assert.equal(partitioned.length, 1, texts(partitioned));
  assert.equal(partitioned[0]!.priority, 'high');
  assert.notEqual(partitioned[0]!.category, 'task');
  assert.doesNotMatch(partitioned[0]!.text, /remember/i);
  const card = observe([['user', 'Remember this: the model card has to list the ticket export date, 2026-10-31.']]);
  assert.equal(card[0]!.priority, 'high');
  assert.doesNotMatch(card[0]!.text, /remember this/i);
  for (const marker of ["That's a team rule.", 'Write that down as a team convention.', "That's a legal requirement."]) {
    const obs = observe([['user', `Every nightly job writes its logs to the shared bucket. ${marker}`]]);
    assert.equal(obs.length, 1, texts(obs));
    assert.equal(obs[0]!.priority, 'high', marker);
  }
  const ko = observe([['user', '커밋 전에 린트를 돌려요. 이건 팀 규칙이에요.']]);
  assert.equal(ko.length, 1, texts(ko));
  assert.equal(ko[0]!.priority, 'high');
  // An assistant explaining goes on with "keep in mind that …": that raises nothing.
  assert.notEqual(priorityOf('assistant', 'Keep in mind that the cache is warmed on every deploy of the API.'), 'high');
});

test('Korean chit-chat — thanks, greetings, wishes, a verdict on the choice, encouragement — is no memory, never 🔴', () => {
  for (const said of [
    '좋은 결정이에요.',
    '원고 마감 응원할게요!',
    '오늘도 감사해요!',
    '좋은 아침이에요!',
    '즐거운 시간 보내세요!',
    'Zustand 좋은 선택이에요.',
    '푹 쉬세요.',
    '오늘 날씨 진짜 좋네요.',
  ]) {
    for (const role of ['user', 'assistant'] as const) assert.equal(priorityOf(role, said), 'none', `${role}: ${said}`);
  }
  // A sentence with a number or more to say is not chit-chat.
  assert.notEqual(priorityOf('user', '12월 15일에 발표가 있어서 자료 감사 인사 슬라이드를 넣을 거예요.'), 'none');
});

test('Korean chat in the plain style, with laughter or an emoji after it, is chit-chat too; the marks leave what is said', () => {
  for (const said of [
    '부럽네 ㅋㅋ',
    '좋겠다 ㅎㅎ',
    '대박 👍',
    '고마워 ㅋㅋ',
    '굿굿',
    '굿나잇!',
    '푹 자!',
    '어서 와!',
    '언제든지!',
    '긴장되겠다 ㅠㅠ',
    '신나겠다!',
    '나 이제 자러 간다',
    'ㅋㅋㅋ',
  ]) {
    for (const role of ['user', 'assistant'] as const) assert.equal(priorityOf(role, said), 'none', `${role}: ${said}`);
  }
  // What is said beside the laughter stays, without it.
  const deployed = observe([['user', 'ㅋㅋ 배포 드디어 끝났어 🎉']]);
  assert.equal(deployed.length, 1, texts(deployed));
  assert.match(deployed[0]!.text, /배포 드디어 끝났/);
  assert.doesNotMatch(deployed[0]!.text, /ㅋ|🎉/u);
  assert.notEqual(priorityOf('user', '금요일까지 발표 자료 보내야 해 ㅠㅠ'), 'none');
  assert.notEqual(priorityOf('user', '지수 결혼식이 10월 3일이래 ㅋㅋ'), 'none');
});

test('who the speaker is, in English and Korean, is 🔴; a plan with a date is 🟡', () => {
  for (const said of [
    "Hi, I'm Jonas. I lead the payments team at Kestrel.",
    "Quick context: I'm Priya, a data engineer at Harbor, and I work from Toronto.",
    "I'm the only reviewer for the payments module, so ping me for anything there.",
    "I'm colorblind, so please never rely on red and green alone in UI suggestions.",
    'My daughter Lena has a peanut allergy.',
    "We're moving to Lisbon in March.",
    '저는 김민지이고, 핀테크 스타트업에서 백엔드 개발자로 일해요.',
    '우리 아들 지호는 초등학교 2학년이에요.',
    '저는 다음 달에 부산으로 이사해요.',
  ])
    assert.equal(priorityOf('user', said), 'high', said);
  assert.equal(priorityOf('user', "I'm off next week for my sister's wedding in Vancouver."), 'medium');
});

test('standing rules and deadlines are 🔴: "going forward", ", never …", "꼭 … 주세요", "due on December 4", "크리스마스 전까지 … 보내야 해요"', () => {
  for (const said of [
    'Going forward, every DAG must have retries=2 and an SLA of 2 hours.',
    "We'll keep all training data in the eu-central-1 bucket, never outside the EU.",
    '그리고 커밋 메시지는 꼭 영어로 써 주세요.',
    'The Snowflake migration plan is due on December 4.',
    '크리스마스 전까지 출판사에 원고를 보내야 해요.',
    '분기 리포트는 12월 15일까지 제출해야 해요.',
  ])
    assert.equal(priorityOf('user', said), 'high', said);
  const ko = observe([['user', '크리스마스 전까지 출판사에 원고를 보내야 해요.']]);
  assert.equal(ko[0]!.category, 'task');
});

test('an error of the work is 🟡 (what failed); the user struggling is 🔴; a passing opinion is 🟢', () => {
  assert.equal(priorityOf('user', "The error is 'relation orders_staging does not exist' in the load step."), 'medium');
  assert.equal(priorityOf('user', '배포할 때마다 타임아웃 에러가 나요.'), 'medium');
  assert.equal(priorityOf('user', "I'm still struggling with async/await."), 'high');
  assert.equal(priorityOf('user', '정규식이 아직 너무 헷갈려요.'), 'high');
  assert.equal(priorityOf('user', 'The CSS feels a bit bloated too.'), 'low');
  assert.equal(priorityOf('user', 'The beta feedback has been mostly positive.'), 'low');
  assert.equal(priorityOf('user', '디자인이 좀 밋밋한 것 같아요.'), 'low');
  // A number makes it a fact of the work.
  assert.equal(priorityOf('user', 'The bundle feels heavy at 1.4 MB.'), 'medium');
});

test('a short confirmation of an offered choice is the decision: "OK, class weights it is."', () => {
  const obs = observe([
    ['user', 'Is it better to use class weights or oversampling for the rare labels?'],
    ['assistant', 'Start with class weights in the loss; oversampling duplicates the 40 refund tickets and tends to overfit them.'],
    ['user', 'OK, class weights it is.'],
  ]);
  const decision = obs.find((o) => o.provenance!.entryIds[0] === 'e2');
  assert.ok(decision, texts(obs));
  assert.equal(decision.priority, 'high');
  assert.equal(decision.category, 'decision');
});

test('"Let\'s go with X" after the assistant suggested X is the user\'s 🔴 decision, not "let\'s go!" cheering (it was dropped as a reaction)', () => {
  const obs = observe([
    ['assistant', 'The slow queries use a wildcard on the title field; an edge n-gram subfield would make prefix search cheap.'],
    ['user', "Let's go with the edge n-gram subfield, and no more wildcard queries in new code."],
  ]);
  const decision = obs.find((o) => o.provenance!.entryIds[0] === 'e1');
  assert.ok(decision, texts(obs));
  assert.equal(decision.priority, 'high');
  assert.equal(decision.category, 'decision');
  // Cheering stays out.
  assert.equal(priorityOf('user', "Let's go!"), 'none');
});

test('the projects a person owns are who they are: "I\'m starting a side project called ledger-api" is 🔴 (the demo wrote it 🟡), and still the current task', () => {
  const result = observeWithRules({
    source: 'demo',
    agent: 'main',
    session: 's1',
    timeZone: 'UTC',
    now: '2026-04-06T08:00:00Z',
    messages: [
      {
        role: 'user',
        text: "Hi! I'm starting a side project called ledger-api, a small bookkeeping service for freelancers.",
        time: '2026-04-06T07:10:05Z',
        entryId: 'e0',
        source: 'demo',
        agent: 'main',
        session: 's1',
      },
    ],
  });
  const project = result.observations.find((o) => /ledger-api/.test(o.text));
  assert.ok(project, texts(result.observations));
  assert.equal(project.priority, 'high');
  assert.match(result.currentTask ?? '', /ledger-api/);
  assert.equal(priorityOf('user', 'We run a small podcast called Null Pointers.'), 'high');
});

test("the LLM Observer's output format is the heuristic's: every heuristic observation, written as the line prompts/observer.md asks for, parses back unrepaired with the same priority, category, text and tags", () => {
  const messages: Message[] = [
    ['user', "Hi! I'm starting a side project called ledger-api. I prefer TypeScript over JavaScript for backend services."],
    ['assistant', 'The tsconfig is in place with strict mode and ES2022 output.'],
    ['user', "The demo for the accountants' meetup is on Friday, so login must work by Thursday evening."],
    ['user', '저는 자바스크립트보다 타입스크립트를 선호해요. 테스트는 Vitest로 하기로 했어요.'],
    ['user', 'Fixed it! Migrations run cleanly on staging now.'],
    ['user', 'The CSS feels a bit bloated too.'],
  ].map(([role, text], i) => ({
    role: role as Role,
    text: text!,
    time: `2026-04-07T08:${String(10 + i).padStart(2, '0')}:00Z`,
    entryId: `e${i}`,
    source: 'demo',
    agent: 'main',
    session: 's1',
  }));
  const batch: ObserverBatch = { source: 'demo', agent: 'main', session: 's1', messages, timeZone: 'UTC', now: '2026-04-07T09:00:00Z' };
  const heuristic = observeWithRules(batch).observations;
  assert.ok(heuristic.length >= 5, texts(heuristic));
  for (const p of ['high', 'medium', 'low'] as const)
    assert.ok(
      heuristic.some((o) => o.priority === p),
      `a ${p} observation in ${texts(heuristic)}`,
    );
  assert.ok(
    heuristic.some((o) => o.done),
    'a done task',
  );
  const answer = ['## 2026-04-07', ...heuristic.map((o) => formatObservationLine({ ...o, id: '' }).replace(/\s*\^\S*$/, ''))].join('\n');
  const parsed = parseObserverOutput(answer, batch);
  assert.equal(parsed.repaired, 0, answer);
  assert.equal(parsed.dropped, 0, answer);
  const shape = (o: Observation) => ({
    priority: o.priority,
    done: o.done,
    category: o.category,
    text: o.text,
    tags: o.tags,
    date: o.date,
    time: o.time,
  });
  assert.deepEqual(parsed.observations.map(shape), heuristic.map(shape));
});

test('agreeing said as what we will do is a decision; a role in a Korean self-introduction is who the user is; "X is confusing" is an opinion, "I\'m confused" a struggle; more sign-offs and wishes are no memory', () => {
  const agreed = observe([
    ['assistant', 'Run both side by side: issue Keycloak tokens on new logins and accept the old session cookie until it expires.'],
    ['user', "Agreed, we'll run both side by side for two weeks."],
  ]).find((o) => o.provenance!.entryIds[0] === 'e1');
  assert.equal(agreed?.category, 'decision');
  assert.equal(agreed?.priority, 'high');
  assert.equal(priorityOf('user', '저는 컴퓨터공학과 대학원생이고, 추천 시스템을 연구해요.'), 'high');
  assert.equal(priorityOf('user', 'The Keycloak admin console is kind of confusing.'), 'low');
  assert.equal(priorityOf('user', "I'm still confused by TypeScript generics."), 'high');
  for (const said of ['See you tomorrow.', '안녕하세요, 오늘도 잘 부탁드려요!', '좋은 경험 되시길 바라요!'])
    assert.equal(priorityOf('user', said), 'none', said);
});

test('the assistant\'s Korean promise "… 실행하겠습니다" is its task, as "I\'ll scaffold …" is; "알겠습니다", "좋겠어요" are not', () => {
  const obs = observe([['assistant', '알겠습니다. Vitest로 단위 테스트를 구성하고 CI에서는 GitHub Actions로 실행하겠습니다.']]);
  assert.equal(obs.length, 1, texts(obs));
  assert.equal(obs[0]!.category, 'task', texts(obs));
  assert.equal(obs[0]!.priority, 'medium', texts(obs));
  assert.equal(obs[0]!.text, '어시스턴트는 Vitest로 단위 테스트를 구성하고 CI에서는 GitHub Actions로 실행하겠다.');
  const en = observe([['assistant', "I'll scaffold the project with a strict tsconfig targeting ES2022."]]);
  assert.equal(en[0]!.category, 'task', texts(en));
  for (const said of ['그러면 정말 좋겠어요.', '잘 모르겠어요.']) {
    for (const o of observe([['user', said]])) assert.notEqual(o.category, 'task', `${said}: ${texts([o])}`);
  }
});
