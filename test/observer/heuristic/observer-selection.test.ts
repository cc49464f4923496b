/**
 * The heuristic Observer's selection and condensing stage (lib/observer/heuristic/selection.ts and its use
 * in lib/observer/heuristic/observer.ts): what a message says that is worth remembering, said once and
 * short — and the user-visible defects of issue 20, each shown here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { observeWithRules, readableStart, type HeuristicObserverOptions } from '../../../lib/observer/heuristic/observer.js';
import { contentWords, isEcho } from '../../../lib/observer/heuristic/selection.js';
import type { Message, Observation, Role } from '../../../lib/core/types.js';

type Turn = [Role, string] | [Role, string, string];

function observe(turns: Turn[], options: HeuristicObserverOptions = {}): Observation[] {
  const messages: Message[] = turns.map(([role, text, time], i) => ({
    role,
    text,
    time: time ?? `2026-04-08T01:${String(30 + i).padStart(2, '0')}:00Z`,
    entryId: `e${i}`,
    source: 'demo',
    agent: 'main',
    session: 's1',
  }));
  return observeWithRules({ source: 'demo', agent: 'main', session: 's1', messages, timeZone: 'UTC', now: '2026-04-10T00:00:00Z' }, options)
    .observations;
}

const texts = (obs: Observation[]) => obs.map((o) => `${o.priority} [${o.category}] ${o.text}`);

test('no "User:"/"Assistant:" prefix and no quoted question: the answer is the memory, the question is in its provenance', () => {
  const obs = observe([
    ['assistant', 'What did you do last weekend?'],
    ['user', 'I went hiking at Mount Tam with my brother Leo.'],
  ]);
  assert.equal(obs.length, 1, JSON.stringify(texts(obs)));
  // The question's topic ("last weekend") goes with an answer that does not name it; the question is not quoted.
  assert.equal(obs[0]!.text, "User went hiking at Mount Tam with User's brother Leo (on: last weekend)");
  assert.deepEqual(obs[0]!.provenance!.entryIds, ['e1', 'e0']);
  for (const o of observe([
    ['user', 'The staging database lives in Frankfurt.'],
    ['assistant', 'Run the migrations with --dry-run first.'],
  ])) {
    assert.doesNotMatch(o.text, /^(?:User|Assistant):/, o.text);
    assert.doesNotMatch(o.text, /reply to/, o.text);
  }
});

test('acknowledgements, reactions, compliments and small-talk questions are not memories; the facts beside them are', () => {
  const obs = observe([
    ['user', 'I adopted a rescue greyhound named Biscuit last week.'],
    ['assistant', "Wow, that's so cool! You're such a kind person. What made you choose a greyhound?"],
    ['user', 'Thanks! I love that you asked.'],
    ['assistant', 'Good call: strict TypeScript catches a lot of mistakes early.'],
    ['assistant', 'Keep it up! Taking care of ourselves is vital.'],
  ]);
  assert.equal(obs.length, 1, JSON.stringify(texts(obs)));
  assert.match(obs[0]!.text, /^User adopted a rescue greyhound named Biscuit last week/);
  // The other speaker's replies that only react belong to the exchange: the memory cites them.
  const cited = obs[0]!.provenance!.entryIds;
  for (const id of ['e0', 'e1', 'e3', 'e4']) assert.ok(cited.includes(id), cited.join(','));
});

test("the assistant's echo of the user's fact is not a second memory (nor a 🔴 task), in English and Korean", () => {
  const ko = observe([
    ['user', '원고 마감은 3월 15일이고 출판사는 푸른숲이에요.'],
    ['assistant', '3월 15일 마감, 푸른숲 출판사로 기억해 둘게요.'],
  ]);
  assert.equal(ko.length, 1, JSON.stringify(texts(ko)));
  assert.match(ko[0]!.text, /푸른숲/);
  assert.deepEqual(ko[0]!.provenance!.entryIds, ['e0']);
  const en = observe([
    ['user', "Mira's eyes are grey-green, and her brother Tomas keeps the lighthouse at Cabo da Roca."],
    ['assistant', 'Noted for the novel: Mira has grey-green eyes, and her brother Tomas is the lighthouse keeper at Cabo da Roca.'],
  ]);
  assert.equal(en.length, 1, JSON.stringify(texts(en)));
  // The same words as the user's own answer to a question are not an echo.
  assert.equal(
    isEcho(contentWords('Yes, I made this bowl in my pottery class.'), contentWords('Did you make that bowl in your pottery class?')),
    true,
  );
  const answer = observe([
    ['user', 'Did you make that bowl in your pottery class?'],
    ['assistant', 'Yes, I made this bowl in my pottery class.'],
  ]);
  assert.equal(answer.length, 1, JSON.stringify(texts(answer)));
  // "Noted: …" marks what follows as said back: half of it in the user's words is enough, and the
  // assistant's own suggestion after it stays.
  const noted = observe([
    ['user', "For the database, we'll use PostgreSQL as the main store and Redis for caching and rate limiting."],
    [
      'assistant',
      'Noted: PostgreSQL 16 for the ledger tables, Redis for the cache and rate limits. I suggest Drizzle for migrations, since it keeps the schema in TypeScript.',
    ],
  ]);
  assert.deepEqual(
    noted.map((o) => o.text),
    [
      'For the database, User decided to use PostgreSQL as the main store and Redis for caching and rate limiting.',
      'Assistant suggests Drizzle for migrations, since it keeps the schema in TypeScript.',
    ],
  );
  // Without the acknowledgement the same sentence adds too much to be an echo.
  assert.equal(
    observe([
      ['user', "For the database, we'll use PostgreSQL as the main store and Redis for caching and rate limiting."],
      ['assistant', 'PostgreSQL 16 for the ledger tables, Redis for the cache and rate limits.'],
    ]).length,
    2,
  );
});

test('"remember this" / "꼭 기억해 줘" raises the fact it points at to 🔴 instead of becoming a task', () => {
  for (const turns of [
    [['user', 'The spare key is under the blue flowerpot on the balcony. Please remember that!']],
    [
      ['user', 'The spare key is under the blue flowerpot on the balcony.'],
      ['user', 'Please remember that.'],
    ],
  ] as Turn[][]) {
    const obs = observe(turns);
    assert.equal(obs.length, 1, JSON.stringify(texts(obs)));
    assert.match(obs[0]!.text, /spare key is under the blue flowerpot on the balcony\.$/);
    assert.equal(obs[0]!.priority, 'high');
    assert.equal(obs[0]!.category, 'fact');
  }
  const ko = observe([['user', '제 동생 이름은 하나예요. 꼭 기억해 줘.']]);
  assert.equal(ko.length, 1, JSON.stringify(texts(ko)));
  assert.equal(ko[0]!.priority, 'high');
  assert.notEqual(ko[0]!.category, 'task');
  // Without the request the same fact is not high.
  assert.notEqual(observe([['user', 'The spare key is under the blue flowerpot on the balcony.']])[0]!.priority, 'high');
});

test('a fact of the work that names nothing is kept; a sentence keeps its own first letter; a name keeps its capital', () => {
  const fixed = observe([['user', 'Fixed it. Migrations run cleanly on staging now.']]);
  assert.equal(fixed.length, 1, JSON.stringify(texts(fixed)));
  assert.match(fixed[0]!.text, /Migrations run cleanly on staging now\.$/);
  assert.equal(fixed[0]!.done, true);
  // Said short, still how the work stands.
  assert.match(observe([['user', 'Thanks, tests pass now. Deploy on Friday.']])[0]!.text, /tests pass now/);
  assert.match(observe([['user', 'Here is the error screenshot.']])[0]!.text, /error screenshot/);
  assert.equal(
    observe([['assistant', 'Login is done; the invoice export is next.']])[0]!.text,
    'Assistant said login is done; the invoice export is next.',
  );
  assert.match(observe([['user', "Mira's eyes are grey-green, like her brother Tomas's."]])[0]!.text, /said Mira's eyes/);
  const split = observe([['assistant', 'Use a for...of loop, or await Promise.all(items.map(...)) to run them in parallel.']]);
  assert.doesNotMatch(split.map((o) => o.text).join(' '), / To run/);
});

test('chit-chat never reaches 🔴', () => {
  const obs = observe([
    ['user', "I'm so happy for you!"],
    ['assistant', 'I love that! You got this.'],
    ['user', 'Haha, totally agree, Mel.'],
    ['assistant', 'Talk to you soon, Caroline!'],
  ]);
  assert.deepEqual(texts(obs), []);
});

test('"decided" does not anchor a weekday into the past: said on Wednesday 2026-11-25, Thursday is 2026-11-26', () => {
  const wednesday = '2026-11-25T10:00:00Z';
  const en = observe([['user', 'We decided to meet on Thursday.', wednesday]]);
  assert.match(en[0]!.text, /Thursday \(2026-11-26\)/);
  const ko = observe([['user', '목요일에 만나기로 결정했어요.', wednesday]]);
  assert.match(ko[0]!.text, /2026-11-26/);
  // A weekday that is past stays past.
  assert.match(observe([['user', 'We met the landlord on Monday and signed the lease.', wednesday]])[0]!.text, /Monday \(2026-11-23\)/);
});

test('condensed rewrites: no "New topic:" lead-in, no doubled words, no intensifiers, no junk #let tag', () => {
  const topic = observe([['user', 'New topic: I switched my editor to Helix.']]);
  assert.equal(topic[0]!.text, "User switched User's editor to Helix.");
  const doubled = observe([['user', 'The the cron job runs at 5 am on the build server.']]);
  assert.doesNotMatch(doubled[0]!.text, /\bthe the\b/i);
  assert.match(doubled[0]!.text, /cron job runs at 5 am/);
  const intensified = observe([['user', "I'm really super excited about the Lisbon trip in May, which is pretty exciting."]]);
  assert.doesNotMatch(intensified[0]!.text, /really|super|pretty exciting/);
  const lets = observe([['user', "Let's go with Fly.io for hosting."]]);
  assert.ok(!lets[0]!.tags.includes('let'), lets[0]!.tags.join(','));
});

test('a message cut at the reading cap is cut between words, and a 2 MB paste is not kept as a fact', () => {
  const sentence = 'We decided the launch is on Friday. ';
  const long = sentence.repeat(Math.ceil(25_000 / sentence.length));
  const start = readableStart(long);
  assert.ok(start.length <= 20_001);
  assert.match(start, /Friday\.$/);
  for (const o of observe([['user', long]])) assert.doesNotMatch(o.text, /launc\.|\blaun\b|\blau\.|\bla\.$/, o.text);
  const noBreaks = `We decided ${'x'.repeat(19_990)} the launch is on Friday`;
  assert.match(readableStart(noBreaks), /…$/);
  assert.doesNotMatch(readableStart(noBreaks), /\bthe launc…$/);

  const paste = `Here is the worker log from last night.\n\n${'ERROR worker 12 crashed at 0x7f3a in handler\n'.repeat(50_000)}`;
  assert.ok(paste.length > 2_000_000);
  const obs = observe([['user', paste]]);
  assert.ok(obs.length <= 1, JSON.stringify(texts(obs)));
  for (const o of obs) assert.doesNotMatch(o.text, /ERROR/);
});

test('select: false keeps every informative sentence as before (the option is honoured)', () => {
  const turns: Turn[] = [['assistant', "Wow, that's a great photo of the lake! You're so talented."]];
  assert.deepEqual(observe(turns), []);
  assert.ok(observe(turns, { select: false }).length >= 1);
});

test("a user's question followed by more of the same message is folded into the answer (no 'User asked how to validate JWT refresh tokens' task)", () => {
  const obs = observe([
    ['user', "How do I validate JWT refresh tokens? Access tokens are short-lived, but I'm not sure where to keep the refresh tokens."],
    ['assistant', 'Make refresh tokens opaque random strings and store only a SHA-256 hash of each one in Redis.'],
  ]);
  assert.ok(!obs.some((o) => /asked/.test(o.text)), JSON.stringify(texts(obs)));
  const answer = obs.find((o) => /SHA-256/.test(o.text))!;
  assert.deepEqual(answer.provenance!.entryIds, ['e1', 'e0']);
  assert.ok(
    obs.some((o) => /not sure where to keep the refresh tokens/.test(o.text)),
    JSON.stringify(texts(obs)),
  );
  // Unanswered, the question stays.
  assert.ok(
    observe([['user', 'How do I validate JWT refresh tokens? Access tokens are short-lived.']]).some((o) =>
      /asked how to validate JWT/.test(o.text),
    ),
  );
});

test('a pastime ("writing a novel in the evenings") is a fact about the person, not a task nor the current task', () => {
  const batch = (text: string) =>
    observeWithRules({
      source: 'demo',
      agent: 'main',
      session: 's1',
      timeZone: 'UTC',
      now: '2026-04-10T00:00:00Z',
      messages: [{ role: 'user', text, time: '2026-04-09T19:30:00Z', entryId: 'e0', source: 'demo', agent: 'main', session: 's1' }],
    });
  const novel = batch("Switching hats: I'm also writing a novel in the evenings. Keep this straight for me: Mira's eyes are grey-green.");
  assert.equal(novel.observations.length, 1, JSON.stringify(texts(novel.observations)));
  assert.equal(novel.observations[0]!.category, 'fact');
  assert.equal(novel.observations[0]!.priority, 'high', '"Keep this straight for me" still raises it');
  assert.equal(novel.currentTask, undefined);
  const ko = batch('주말마다 기타를 배우고 있어요.');
  assert.equal(ko.observations[0]!.category, 'fact');
  // The work at hand is still a task.
  assert.equal(batch("I'm building the invoice export this week.").observations[0]!.category, 'task');
});

test('Korean memories are written as notes in the plain style, not as polite speech ("사용자는 … 선호한다", not "선호해요")', () => {
  const said = (turns: Turn[]) => observe(turns).map((o) => o.text);
  assert.deepEqual(said([['user', '저는 자바스크립트보다 타입스크립트를 선호해요. 테스트는 Vitest로 하기로 했어요.']]), [
    '사용자는 자바스크립트보다 타입스크립트를 선호한다.',
    '사용자는 테스트는 Vitest로 하기로 했다.',
  ]);
  assert.deepEqual(said([['user', '그리고 async/await가 아직 너무 헷갈려요.']]), ['사용자는 async/await가 아직 헷갈린다.']);
  assert.deepEqual(said([['user', '다음 주 금요일까지 회계사 모임 발표 자료를 준비해야 해요.']]), [
    '사용자는 다음 주 금요일 (2026-04-17)까지 회계사 모임 발표 자료를 준비해야 한다.',
  ]);
  assert.deepEqual(said([['assistant', 'await 호출을 try/catch로 감싸면 됩니다. 하나가 실패해도 나머지 결과를 받을 수 있어요.']]), [
    '어시스턴트는 await 호출을 try/catch로 감싸면 된다고 조언했다. 하나가 실패해도 나머지 결과를 받을 수 있다.',
  ]);
  // An adjective keeps 하다; an ending we cannot conjugate safely stays as said; a question stays a question.
  assert.match(said([['user', '이 마이그레이션은 정말 중요해요.']])[0]!, /중요하다\.$/);
  assert.match(said([['user', '매일 아침 김치를 먹고 출근해요.']])[0]!, /출근한다\.$/);
});

test('restated for the speaker: "Fixed it." → "User fixed it.", "Let\'s go with X" (a decision) → "User decided to go with X", "Because …" → "explained that …"', () => {
  assert.match(observe([['user', 'Fixed it! Migrations run cleanly on staging now.']])[0]!.text, /^User fixed it\. Migrations run cleanly/);
  assert.match(observe([['user', 'Been reading a lot about Rust lately.']])[0]!.text, /^User has been reading a lot about Rust lately/);
  assert.equal(
    observe([['user', "Let's go with rotating opaque refresh tokens in Redis."]])[0]!.text,
    'User decided to go with rotating opaque refresh tokens in Redis.',
  );
  // A decision said as "we'll use": the demo wrote "User said for the database, we'll use PostgreSQL …".
  assert.equal(
    observe([['user', "For the database, we'll use PostgreSQL as the main store and Redis for caching."]])[0]!.text,
    'For the database, User decided to use PostgreSQL as the main store and Redis for caching.',
  );
  assert.equal(
    observe([['user', "We'll go with Vitest for the unit tests."]])[0]!.text,
    'User decided to go with Vitest for the unit tests.',
  );
  // Korean advice ("…감싸면 돼요") is what the assistant advised, not what the assistant is ("어시스턴트는 … 감싸면 된다").
  const advice = observe([
    ['user', 'async/await에서 에러 처리는 어떻게 해요?'],
    ['assistant', 'await 호출을 try/catch로 감싸면 돼요.'],
  ]);
  assert.ok(
    advice.some((o) => /await 호출을 try\/catch로 감싸면 된다고 조언했다\.$/.test(o.text)),
    advice.map((o) => o.text).join('\n'),
  );
  const why = observe([
    ['user', 'Why does my forEach loop finish before the awaits inside it are done?'],
    ['assistant', 'Because forEach ignores the promises your callback returns.'],
  ]);
  assert.match(why[0]!.text, /^Assistant explained that forEach ignores the promises/);
  // Handing something over ("Here is X: value — do this please"; the Observer gets the text masked) is said as what it is: the demo wrote
  // "User said here is the OpenAI key for the receipt parser: [REDACTED:openai-key] — put it in .env please."
  assert.equal(
    observe([['user', 'Here is the OpenAI key for the receipt parser: [REDACTED:openai-key] — put it in .env please.']])[0]!.text,
    'User gave the OpenAI key for the receipt parser: [REDACTED:openai-key], and asked to put it in .env.',
  );
  assert.equal(
    observe([['user', "Here's the staging URL: https://staging.ledger.example.com"]])[0]!.text,
    'User gave the staging URL: https://staging.ledger.example.com.',
  );
});

test('an offer taken ("Do you want me to draft the panel list?" — "Yes please. …") gives the answer no "(on: …)" topic', () => {
  const obs = observe([
    ['assistant', 'Do you want me to draft the panel list?'],
    ['user', 'Yes please. The report is due next Wednesday, and Priya owns the latency section.'],
  ]);
  assert.equal(obs.length, 1, JSON.stringify(texts(obs)));
  assert.doesNotMatch(obs[0]!.text, /\(on:/);
});

test('a follow-up answer is the same memory: statement, "What made you pick it?", answer → one observation citing the three turns', () => {
  const obs = observe([
    ['user', "I'm researching adoption agencies; I picked one in Portland."],
    ['assistant', 'Wow, that agency looks great! What made you pick it?'],
    ['user', 'They help LGBTQ+ folks with adoption, and their counselors speak Swedish.'],
  ]);
  assert.equal(obs.length, 1, JSON.stringify(texts(obs)));
  assert.match(
    obs[0]!.text,
    /^User is researching adoption agencies; User picked one in Portland\. User said they help LGBTQ\+ folks with adoption/,
  );
  assert.deepEqual([...obs[0]!.provenance!.entryIds].sort(), ['e0', 'e1', 'e2']);
  // Not when the one asking also said something of their own (the answer may be about that), nor into a decision.
  const own = observe([
    ['user', 'I picked an adoption agency in Portland.'],
    ['assistant', 'I adopted my cat Miso from a shelter in Lyon. What made you pick it?'],
    ['user', 'They help LGBTQ+ folks with adoption.'],
  ]);
  assert.equal(own.filter((o) => /^User/.test(o.text)).length, 2, JSON.stringify(texts(own)));
  const decision = observe([
    ['user', 'We decided to use PostgreSQL for the ledger.'],
    ['assistant', 'Which version?'],
    ['user', 'Version 16, on the managed plan.'],
  ]);
  assert.equal(decision.length, 2, JSON.stringify(texts(decision)));
});

test('remarks that name nothing are not memories: sayings, resolves, goodbyes, agreement, cheering — facts about people and things stay', () => {
  const dropped = [
    'Hard work pays off eventually.',
    'Taking risks is scary but it is the only way to grow.',
    "I won't give up on my dreams.",
    "I'm going to keep pushing forward.",
    'See you tomorrow!',
    'I 100% agree, Mel.',
    "Let's make tomorrow unforgettable!",
    'Thanks, Jon! <3',
  ];
  for (const text of dropped)
    assert.deepEqual(
      texts(
        observe([
          ['assistant', 'I opened my dance studio downtown last week.'],
          ['user', text],
        ]),
      ).slice(1),
      [],
      text,
    );
  for (const text of [
    'She had to leave and find a new place in a hurry.',
    'The spare key is under the blue flowerpot on the balcony.',
    'We even won a trophy at the regional finals!',
    'Migrations run cleanly on staging now.',
  ]) {
    assert.equal(observe([['user', text]]).length, 1, text);
  }
});

test('a name the Observer knows is not cut out of a word: "as a career." with Caroline (…"Car") keeps "career"', () => {
  const obs = observe([['user', "Lately, I've been looking into counseling and mental health as a career."]], {
    speakerNames: { user: 'Caroline', assistant: 'Melanie' },
  });
  assert.match(obs[0]!.text, /as a career\.$/);
  // A real vocative still goes.
  const hey = observe([['user', 'Thanks, Melanie! I went to Paris last week, Melanie.']], {
    speakerNames: { user: 'Caroline', assistant: 'Melanie' },
  });
  assert.match(hey[0]!.text, /^Caroline went to Paris last week/);
  assert.doesNotMatch(hey[0]!.text, /Melanie/);
});

test('said short: a closing evaluation and a lead-in word go; of a long message the sentences that say most are kept', () => {
  const camping = observe([
    ['assistant', 'Actually, I took my kids camping in the mountains last week – it was a really nice time together!'],
  ]);
  assert.match(camping[0]!.text, /^Assistant took Assistant's kids camping in the mountains last week \(week of 2026-03-30\)\.$/);
  const long = observe([
    [
      'user',
      'The view from the top was amazing. It was so fun. My sister Ana flew in from Lisbon for it on Saturday. I keep thinking about it.',
    ],
  ]);
  assert.equal(long.length, 1, JSON.stringify(texts(long)));
  assert.match(long[0]!.text, /Ana flew in from Lisbon/);
  assert.doesNotMatch(long[0]!.text, /view from the top was amazing/);
});

test('going on about the same thing after a reaction is the same memory; "By the way, …" starts another', () => {
  const same = observe([
    ['user', 'I went camping at Lake Tahoe last week.'],
    ['assistant', "Wow, that's great!"],
    ['user', 'We roasted marshmallows and hiked up to Eagle Peak.'],
  ]);
  assert.equal(same.length, 1, JSON.stringify(texts(same)));
  for (const id of ['e0', 'e2']) assert.ok(same[0]!.provenance!.entryIds.includes(id));
  const other = observe([
    ['user', 'I went camping at Lake Tahoe last week.'],
    ['assistant', "Wow, that's great!"],
    ['user', 'By the way, I got a new job at Acme.'],
  ]);
  assert.equal(other.length, 2, JSON.stringify(texts(other)));
});

test('a question that asks about nothing in particular gives its answer no topic ("(on: What\'s up with lately)")', () => {
  const obs = observe([
    ['assistant', "What's up with you lately?"],
    ['user', "I've been looking into counseling as a career."],
  ]);
  assert.doesNotMatch(obs[0]!.text, /\(on:/);
  // A question that names something still does.
  assert.match(
    observe([
      ['assistant', 'How often do you work out together?'],
      ['user', 'Three times a week.'],
    ])[0]!.text,
    /\(on: work out together\)/,
  );
});

test('an ellipsis inside a sentence does not end it: "Promise.all(items.map(...)) to run them in parallel" stays whole', () => {
  const obs = observe([
    ['assistant', 'Use a for...of loop with await inside, or await Promise.all(items.map(...)) to run them in parallel.'],
  ]);
  assert.match(obs[0]!.text, /\(\.\.\.\)\) to run them in parallel\.$/);
});

test('a saying is no answer either ("Life\'s about learning and exploring"), cheering in the first person plural is no task; a 🔴 fact is never joined into a longer line', () => {
  const answers = observe([
    ['assistant', 'What do you love most about travelling?'],
    ['user', "Life's about learning and exploring."],
    ['assistant', 'So true!'],
    ['user', "Let's keep doing our part for the world!"],
  ]);
  assert.deepEqual(texts(answers), []);
  // "Spring break was fun" is no saying; a gerund that is a noun is not read as one.
  assert.equal(observe([['user', 'Spring break in Kyoto was fun.']]).length, 1);
  const key = observe([
    ['user', 'I went camping at Lake Tahoe last week.'],
    ['assistant', 'Nice!'],
    ['user', 'My sister Ana is a nurse in Reno.'],
  ]);
  assert.equal(key.length, 2, JSON.stringify(texts(key)));
  assert.equal(key.find((o) => /Ana/.test(o.text))!.priority, 'high');
});

test('numbers are not emoticons: "release number 83" keeps its 83 (an "8" + "3" was read as a face); "<3" and ":)" go', () => {
  const obs = observe([['user', 'I decided to name release number 83 after the color violet 83.']]);
  assert.equal(obs[0]!.text, 'User decided to name release number 83 after the color violet 83.');
  assert.equal(
    observe([['user', 'The cluster has 8 nodes :) and 3 spares <3']])[0]!.text,
    'User said the cluster has 8 nodes and 3 spares.',
  );
});
