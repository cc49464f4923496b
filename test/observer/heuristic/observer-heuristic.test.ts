import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHeuristicObserver, observeWithRules, type HeuristicObserverOptions } from '../../../lib/observer/heuristic/observer.js';
import { findDateAnchors, localClock, localDateTime } from '../../../lib/observer/heuristic/time.js';
import { splitSentences } from '../../../lib/observer/heuristic/sentences.js';
import { detectTags } from '../../../lib/observer/heuristic/tags.js';
import { expandShorthand } from '../../../lib/observer/heuristic/rules/en.js';
import { observationId } from '../../../lib/memory/observation-line.js';
import { maskSecrets } from '../../../lib/masking/masking.js';
import type { Message, Observation, ObserverBatch, Role } from '../../../lib/core/types.js';

// ---------------------------------------------------------------------------
// helpers

type Turn = [Role, string] | [Role, string, string];

/** A batch of messages; each turn may carry its own ISO time. */
function batch(turns: Turn[], opts: { timeZone?: string; time?: string; session?: string } = {}): ObserverBatch {
  const session = opts.session ?? 's1';
  const messages: Message[] = turns.map(([role, text, time], i) => ({
    role,
    text,
    time: time ?? opts.time ?? '2026-04-08T01:30:00Z',
    entryId: `e${String(i).padStart(7, '0')}`,
    source: 'demo',
    agent: 'main',
    session,
  }));
  return { source: 'demo', agent: 'main', session, messages, timeZone: opts.timeZone ?? 'UTC', now: '2026-04-10T00:00:00Z' };
}

function observe(turns: Turn[], opts: Parameters<typeof batch>[1] = {}, options: HeuristicObserverOptions = {}): Observation[] {
  return observeWithRules(batch(turns, opts), options).observations;
}

function only(observations: Observation[]): Observation {
  assert.equal(observations.length, 1, `expected one observation, got: ${JSON.stringify(observations.map((o) => o.text))}`);
  return observations[0]!;
}

function find(observations: Observation[], re: RegExp): Observation {
  const o = observations.find((x) => re.test(x.text));
  assert.ok(
    o,
    `no observation matches ${re}: ${JSON.stringify(
      observations.map((x) => `[${x.category}] ${x.text}`),
      null,
      1,
    )}`,
  );
  return o;
}

// ---------------------------------------------------------------------------
// the Observer contract

test('createHeuristicObserver: kind, label and an async observe', async () => {
  const observer = createHeuristicObserver();
  assert.equal(observer.kind, 'heuristic');
  assert.equal(observer.label, 'heuristic (offline)');
  const result = await observer.observe(batch([['user', 'I prefer TypeScript over JavaScript.']]));
  assert.equal(result.observations.length, 1);
});

test('an empty batch, tool and system messages give no observations', () => {
  assert.deepEqual(observe([]), []);
  assert.deepEqual(
    observe([
      ['tool', '[tool result bash: Container ledger-postgres Started]'],
      ['system', 'You are a helpful assistant.'],
    ]),
    [],
  );
  assert.deepEqual(
    observe([
      ['user', '[image]'],
      ['assistant', '[tool call: read path=src/db.ts]'],
    ]),
    [],
  );
});

// ---------------------------------------------------------------------------
// English categories and priorities

test('English preference: high priority, restated for the user, tagged', () => {
  const o = only(observe([['user', 'I prefer TypeScript over JavaScript for backend services.']]));
  assert.equal(o.category, 'preference');
  assert.equal(o.priority, 'high');
  assert.equal(o.done, false);
  assert.equal(o.text, 'User prefers TypeScript over JavaScript for backend services.');
  assert.deepEqual(o.tags, ['typescript', 'javascript']);
  for (const text of ['I really hate tabs in YAML files.', 'Please never use semicolons in my code.', 'My favourite editor is Helix.']) {
    assert.equal(only(observe([['user', text]])).category, 'preference', text);
  }
});

test('English decision: high priority, names kept', () => {
  const o = only(observe([['user', "We'll use PostgreSQL as the main database and Redis for caching."]]));
  assert.equal(o.category, 'decision');
  assert.equal(o.priority, 'high');
  assert.match(o.text, /PostgreSQL/);
  assert.match(o.text, /Redis/);
  assert.deepEqual(o.tags, ['postgres', 'redis']);
  assert.equal(only(observe([['user', "Let's go with Fly.io for hosting."]])).category, 'decision');
  assert.equal(only(observe([['user', 'We decided to drop the GraphQL layer.']])).category, 'decision');
});

test('English state change, completed task (✅), and a plain fact', () => {
  const state = only(observe([['user', 'We switched from MySQL to PostgreSQL last month.']]));
  assert.equal(state.category, 'state');
  assert.match(state.text, /MySQL to PostgreSQL/);

  const done = only(observe([['user', 'I fixed the login bug.']]));
  assert.equal(done.category, 'task');
  assert.equal(done.done, true);
  assert.equal(done.text, 'User fixed the login bug.');

  const fact = only(observe([['user', 'Our staging cluster runs on 3 nodes in Frankfurt.']]));
  assert.equal(fact.category, 'fact');
  assert.equal(fact.priority, 'medium');

  // The thing first, without an article: "physio is done!" closes something as "the physio is done" does.
  const bare = only(observe([['user', 'also physio is done! discharged, just keep doing the bands at home']]));
  assert.equal(bare.category, 'task');
  assert.equal(bare.done, true);
  assert.match(bare.text, /physio is done/);
});

test('a completion inside "until" / "once" / "if" is no finish; a past one after "after" is', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  for (const text of [
    'stay on 3.12 until the accounting stuff is done, I want one moving part at a time',
    'once the migration is finished we deploy to production',
    'ship the docs if the rewrite is merged',
    'hold the release till the security review is complete',
  ]) {
    const out = observe([['user', text]], {}, names);
    assert.ok(!out.some((o) => o.done), `${text} → ${JSON.stringify(out.map((o) => o.text))}`);
  }
  // Near misses: a finish said plainly, or in the past after "after", is still a ✅ task.
  const done = observe([['user', 'the accounting stuff is done, so we can move to 3.13']], {}, names);
  assert.ok(
    done.some((o) => o.done),
    JSON.stringify(done.map((o) => o.text)),
  );
  const after = observe([['user', 'after the migration was done we fixed the login bug']], {}, names);
  assert.ok(
    after.some((o) => o.done),
    JSON.stringify(after.map((o) => o.text)),
  );
});

test('a reverting choice ("let\'s go back to weasyprint") is a decision; a past return is not', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  for (const text of [
    "let's go back to weasyprint and fix the image size some other way",
    "we'll switch back to Heroku for the staging app",
    'i will revert back to the old parser',
  ]) {
    const out = observe([['user', text]], {}, names);
    const d = out.find((o) => o.category === 'decision');
    assert.ok(d, `${text} → ${JSON.stringify(out.map((o) => `[${o.category}] ${o.text}`))}`);
    assert.equal(d.priority, 'high');
  }
  // Near misses: going back to a place, a return already made, a question.
  for (const text of [
    'I went back to the office after lunch',
    'we got back to Lisbon on Sunday',
    'should we go back to weasyprint?',
    "Painting is fun now, but who knows, maybe I'll go back to the guitar someday.",
  ]) {
    const out = observe([['user', text]], {}, names);
    assert.ok(!out.some((o) => o.category === 'decision'), `${text} → ${JSON.stringify(out.map((o) => `[${o.category}] ${o.text}`))}`);
  }
});

test('English deadline: task, high priority, relative date anchored', () => {
  // 2026-04-08 is a Wednesday.
  const o = only(observe([['user', 'The demo is on Friday, so the login must work by Thursday.']], { time: '2026-04-08T10:00:00Z' }));
  assert.equal(o.category, 'task');
  assert.equal(o.priority, 'high');
  assert.match(o.text, /on Friday \(2026-04-10\)/);
  assert.match(o.text, /by Thursday \(2026-04-09\)/);
});

test('a user question is an observation; an assistant question and content-free questions are not', () => {
  const q = only(observe([['user', 'How do I validate JWT refresh tokens?']]));
  assert.equal(q.category, 'task');
  assert.equal(q.text, 'User asked how to validate JWT refresh tokens.');
  assert.deepEqual(q.tags, ['jwt']);
  assert.deepEqual(observe([['assistant', 'Which database do you want?']]), []);
  assert.deepEqual(
    observe([
      ['user', 'How are you?'],
      ['user', 'What now?'],
      ['user', 'Any thoughts?'],
    ]),
    [],
  );
});

test('requests, standing rules and facts about the user', () => {
  assert.equal(only(observe([['user', 'Can you set up the CI, please?']])).text, 'User asked Assistant to set up the CI.');
  const rule = only(observe([['user', 'Remember: never commit directly to main, always open a PR.']]));
  assert.equal(rule.category, 'preference');
  assert.equal(rule.priority, 'high');
  const obs = observe([['user', 'Merged it. Btw, my name is Dana and I work at Fintech GmbH in Berlin.']]);
  assert.equal(obs.length, 2, 'a topic change is not merged into the short lead');
  const me = find(obs, /Dana/);
  assert.equal(me.text, "User's name is Dana and User works at Fintech GmbH in Berlin.");
  assert.equal(me.priority, 'high');
  assert.deepEqual(
    observe([
      ['assistant', 'Let me know if you also want a release job.'],
      ['assistant', 'Hope this helps!'],
    ]),
    [],
  );
});

test('greetings, thanks and chit-chat are skipped; the facts around them are kept', () => {
  assert.deepEqual(
    observe([
      ['user', 'Hi!'],
      ['user', 'Thanks so much!'],
      ['assistant', "You're welcome!"],
      ['user', 'Wow, that sounds great!'],
      ['assistant', 'Talk to you soon!'],
      ['user', 'ok'],
    ]),
    [],
  );
  const o = only(observe([['user', 'Hey! Thanks a lot. By the way, our API runs on port 8443 now.']]));
  assert.match(o.text, /port 8443/);
  assert.doesNotMatch(o.text, /Thanks|Hey/);
});

test('assistant facts are kept and attributed to the assistant', () => {
  const obs = observe([
    [
      'assistant',
      'Keep access tokens short: 15 minutes is common. Store only a SHA-256 hash of each refresh token in Redis with a 30-day TTL.',
    ],
  ]);
  assert.ok(obs.length >= 1);
  const all = obs.map((o) => o.text).join(' ');
  assert.match(all, /^Assistant/);
  assert.match(all, /15 minutes/);
  assert.match(all, /SHA-256/);
  assert.match(all, /30-day TTL/);
});

test('the learner struggling with async/await is a high-priority observation', () => {
  const o = find(observe([['user', "I'm still struggling with async/await. Why does my forEach loop finish early?"]]), /struggling/);
  assert.equal(o.priority, 'high');
  assert.equal(o.text, 'User is still struggling with async/await.');
  assert.ok(o.tags.includes('async'));
});

test('speaker names replace roles, first and second person are restated', () => {
  const obs = observe(
    [
      ['user', 'I went to a support group yesterday and it was so powerful.', '2023-05-08T13:56:00Z'],
      ['assistant', "Wow, Caroline! You're so brave. I painted a lake sunrise last year.", '2023-05-08T13:57:00Z'],
    ],
    {},
    { speakerNames: { user: 'Caroline', assistant: 'Melanie' } },
  );
  const c = find(obs, /support group/);
  // Condensed: the closing evaluation ("and it was so powerful") is not part of the memory (issue 20).
  assert.equal(c.text, 'Caroline went to a support group yesterday (2023-05-07).');
  assert.equal(c.category, 'event');
  const m = find(obs, /sunrise/);
  // Issue 20: no "Melanie:" prefix, and the compliment ("You're so brave") is a reaction, not a memory.
  assert.equal(m.text, 'Melanie painted a lake sunrise last year (2022).');
  assert.deepEqual(m.provenance?.entryIds, ['e0000001']);
});

test('speaker names are learned from how the two address each other', () => {
  const turns: Turn[] = [
    ['user', 'Hey Mel! I adopted a dog named Max last week.'],
    ['assistant', 'Aww, congrats Caroline! I started pottery classes.'],
    ['user', 'I love hiking with Max on weekends.'],
  ];
  const obs = observe(turns, {}, { inferSpeakerNames: true });
  // The first message names only the listener; from the reply on, both are known.
  assert.match(find(obs, /adopted/).text, /^User adopted a dog named Max last week/);
  assert.equal(find(obs, /pottery/).text, 'Mel started pottery classes.');
  assert.equal(find(obs, /hiking/).text, 'Caroline loves hiking with Max on weekends.');
  // Given names win; by default roles stay "User"/"Assistant" in every batch.
  assert.match(find(observe(turns, {}, { inferSpeakerNames: true, speakerNames: { user: 'Caro' } }), /hiking/).text, /^Caro loves/);
  assert.match(find(observe(turns), /hiking/).text, /^User loves/);
});

test('re-observing a longer batch from the same start restates earlier messages identically', () => {
  const turns: Turn[] = [
    ['user', 'Hey Mel! How do I validate JWT refresh tokens?'],
    ['assistant', 'Hi Caroline! Rotate them on every use and store a hash in Redis.'],
    ['user', 'Thanks! We decided to use PostgreSQL. The demo is on Friday.'],
    ['assistant', "What colour are Mira's eyes?"],
    ['user', 'Grey-green. I fixed the login bug yesterday.'],
    ['user', 'I prefer TypeScript over JavaScript.'],
  ];
  const options = { inferSpeakerNames: true };
  const full = observe(turns, {}, options);
  for (let k = 1; k < turns.length; k++) {
    for (const o of observe(turns.slice(0, k), {}, options)) {
      const same = full.find((f) => f.id === o.id);
      if (!same) {
        // The two exceptions: a question the next message answers is folded into the answer,
        // which cites its entry; and a statement whose follow-up question was answered is joined
        // by the answer (the full batch's observation starts with it and cites both).
        const answer = full.find((f) => f.provenance!.entryIds.slice(1).includes(o.provenance!.entryIds[0]!));
        const joined = full.find(
          (f) => f.provenance!.entryIds[0] === o.provenance!.entryIds[0] && f.text.startsWith(o.text.replace(/\.$/, '')),
        );
        assert.ok(
          (answer && o.category === 'task' && / asked\b/.test(o.text)) || joined,
          `prefix of ${k} messages produced ${o.text}, missing from the full batch`,
        );
        continue;
      }
      assert.equal(same.text, o.text);
    }
  }
});

test('a question the next message answers is folded into the answer (mergeAnsweredQuestions)', () => {
  const turns: Turn[] = [
    ['user', 'How do I validate JWT refresh tokens?'],
    ['assistant', 'Rotate them on every use and store a hash in Redis.'],
  ];
  const merged = observeWithRules(batch(turns));
  const answer = only(merged.observations);
  // Issue 20: the answer is the memory — no "Assistant:" prefix, no quoted question; the question's entry is in its provenance.
  // An answer that does not name its topic gets the question's topic words.
  assert.equal(answer.text, 'Assistant advised to rotate them on every use and store a hash in Redis (on: validate JWT refresh tokens)');
  assert.deepEqual(answer.provenance!.entryIds, ['e0000001', 'e0000000']);
  // The question still counts as what the user is working on.
  assert.equal(merged.currentTask, 'User asked how to validate JWT refresh tokens.');
  // Unanswered (or with the option off), the question is an observation of its own.
  assert.equal(find(observe(turns.slice(0, 1)), /asked/).category, 'task');
  const separate = observe(turns, {}, { mergeAnsweredQuestions: false });
  assert.equal(separate.length, 2);
  assert.equal(find(separate, /asked/).text, 'User asked how to validate JWT refresh tokens.');
});

test('a reply cites the question it answers; the question is quoted only with replyContext', () => {
  const obs = observe(
    [
      ['assistant', 'What pet do you have?'],
      ['user', 'A tabby cat named Oliver.'],
    ],
    {},
    { speakerNames: { user: 'Jon', assistant: 'Gina' } },
  );
  const o = only(obs);
  // Issue 20: no "Jon:" prefix and no quoted question by default.
  assert.equal(o.text, 'Jon said a tabby cat named Oliver (on: pet)');
  assert.deepEqual(o.provenance!.entryIds, ['e0000001', 'e0000000']);
  const quoted = only(
    observe(
      [
        ['assistant', 'What pet do you have?'],
        ['user', 'A tabby cat named Oliver.'],
      ],
      {},
      { speakerNames: { user: 'Jon', assistant: 'Gina' }, replyContext: true },
    ),
  );
  assert.equal(quoted.text, 'Jon said a tabby cat named Oliver. (reply to Gina: "What pet do you have?")');
  // An answer that names its topic needs none.
  assert.equal(
    only(
      observe([
        ['assistant', 'What pet do you have?'],
        ['user', 'My pet is a tabby cat named Oliver.'],
      ]),
    ).text,
    "User's pet is a tabby cat named Oliver.",
  );
});

test('the quoted question is part of the provenance of the reply; an attachment after the question keeps it pending', () => {
  const obs = observe(
    [
      ['assistant', 'Great news! How often do you all work out together? [image: a photo of a family at a gym]'],
      ['user', 'Three times a week; it keeps us on track.'],
    ],
    {},
    { speakerNames: { user: 'John', assistant: 'Maria' } },
  );
  const reply = find(obs, /^John said three times a week/);
  assert.equal(reply.text, 'John said three times a week; it keeps us on track (on: work out together)');
  assert.deepEqual(reply.provenance!.entryIds, ['e0000001', 'e0000000']);
  // A statement after the question leaves it asked: the reply answers it all the same.
  const after = observe(
    [
      ['assistant', 'How often do you work out? I go to the YMCA gym every day.'],
      ['user', 'Three times a week, at the Hilltop Gym.'],
    ],
    {},
    { speakerNames: { user: 'John', assistant: 'Maria' } },
  );
  const answer = find(after, /^John said three times a week/);
  assert.equal(answer.text, 'John said three times a week, at the Hilltop Gym (on: work out)');
  assert.deepEqual(answer.provenance!.entryIds, ['e0000001', 'e0000000']);
});

// ---------------------------------------------------------------------------
// Korean

test('Korean preference and decision in one message become two observations', () => {
  const obs = observe([['user', '저는 자바스크립트보다 타입스크립트를 선호해요. 테스트는 Vitest로 하기로 했어요.']]);
  const pref = find(obs, /선호/);
  assert.equal(pref.category, 'preference');
  assert.equal(pref.priority, 'high');
  assert.equal(pref.text, '사용자는 자바스크립트보다 타입스크립트를 선호한다.');
  assert.ok(pref.tags.includes('typescript'));
  const dec = find(obs, /Vitest/);
  assert.equal(dec.category, 'decision');
  assert.equal(dec.priority, 'high');
});

test('chat shorthand is spelled out, every pattern', () => {
  const cases: [string, string][] = [
    ['my fav pic', 'my favorite picture'],
    ['two favs', 'two favorite'],
    ['the fave', 'the favorite'],
    ['those pics and pix', 'those pictures and pictures'],
    ['my b-day and bdays', 'my birthday and birthday'],
    ['gonna, wanna, gotta', 'going to, want to, got to'],
    ['kinda sorta', 'kind of sort of'],
    ['thx!', 'thanks!'],
    ['lemme see, gimme that', 'let me see, give me that'],
    ['vids of the vid', 'videos of the video'],
    ['pls and plz', 'please and please'],
    ['cuz coz bc', 'because because because'],
    ['a long convo', 'a long conversation'],
    ['our vacay', 'our vacation'],
    ['higher edu', 'higher education'],
    ['my biz', 'my business'],
    ['coffee w/ milk', 'coffee with milk'],
    ['tmrw', 'tomorrow'],
    ['thru the night', 'through the night'],
    ['ppl', 'people'],
    ['10 mins, 2 hrs, 3 yrs', '10 minutes, 2 hours, 3 years'],
    ['2 mos ago and 3 months ago', '2 months ago and 3 months ago'],
    ["thinkin' doin' goin' nothin' somethin'", 'thinking doing going nothing something'],
    ['Fav Pics', 'Favorite Pictures'],
    ['nothing to expand here', 'nothing to expand here'],
  ];
  for (const [input, expected] of cases) assert.equal(expandShorthand(input), expected, input);
});

test('localClock agrees with localDateTime across zones, DST and odd offsets', () => {
  const zones = [
    'UTC',
    'Asia/Seoul',
    'America/New_York',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'America/St_Johns',
    'Pacific/Chatham',
    'Not/AZone',
  ];
  let x = 12345;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const zone of zones) {
    const clock = localClock(zone);
    // Random instants 1960–2040, then a dense walk (7 s steps, in and out of order) across 2026's DST changes.
    const instants: number[] = [];
    for (let i = 0; i < 2000; i++) instants.push(Math.floor(Date.UTC(1960, 0, 1) + rand() * (Date.UTC(2040, 0, 1) - Date.UTC(1960, 0, 1))));
    for (const start of [
      Date.UTC(2026, 2, 8, 5),
      Date.UTC(2026, 2, 29, 0),
      Date.UTC(2026, 3, 4, 14),
      Date.UTC(2026, 9, 4, 14),
      Date.UTC(2026, 10, 1, 5),
    ]) {
      for (let t = start; t < start + 3 * 3_600_000; t += 7_000) instants.push(t, t - 3_600_000);
    }
    for (const ms of instants) {
      const iso = new Date(ms).toISOString();
      assert.deepEqual(clock(ms), localDateTime(iso, zone), `${zone} ${iso}`);
    }
  }
});

test('a parenthetical aside joins the sentence before it', () => {
  assert.deepEqual(splitSentences('I finished the migration today. (ticket 4242)'), ['I finished the migration today (ticket 4242).']);
  assert.deepEqual(splitSentences('Can you explain how Redis handles retries? (item 7)'), [
    'Can you explain how Redis handles retries (item 7)?',
  ]);
  // At the start there is nothing to join it to.
  assert.deepEqual(splitSentences('(item 1) Hello there. Bye.'), ['(item 1) Hello there.', 'Bye.']);
  const o = only(observe([['user', 'I finished the billing migration today. (ticket 4242)']]));
  assert.equal(o.text, 'User finished the billing migration today (2026-04-08) (ticket 4242).');
});

test('tags: trigger words and proper nouns, ASCII and not', () => {
  assert.deepEqual(detectTags('We moved from MySQL to PostgreSQL and Redis'), ['mysql', 'postgres', 'redis']);
  assert.deepEqual(detectTags('Deploy with K8S, then ask GPT-4'), ['kubernetes', 'llm']);
  // Trigger words count only as whole words.
  assert.deepEqual(detectTags('the pgadmin and tsconfig files'), []);
  // Code languages: known ones map to a tag; a label that is an Object.prototype key is no language.
  assert.deepEqual(detectTags('see the snippet', ['ts', 'constructor', 'tostring', 'bash']), ['typescript', 'shell']);
  // A capitalised word inside a sentence is a name; the first word only before "'s".
  assert.deepEqual(detectTags('We hiked near Banff with Mira'), ['banff']);
  assert.deepEqual(detectTags("Mira's sister likes hiking"), ['mira']);
  assert.deepEqual(detectTags('Then Tom-Kat arrived, Zoe too'), ['tom-kat']);
  assert.deepEqual(detectTags('met Zed3 and then Ann'), ['ann']);
  assert.deepEqual(detectTags('We hiked near Banff with Mira', [], 3, ['banff']), ['mira']);
  // A speaker named after a technology is the speaker: "Claude" the assistant is no #llm; another mention still is.
  assert.deepEqual(detectTags('Claude set up the Postgres tables', [], 3, ['Claude']), ['postgres']);
  assert.deepEqual(detectTags('Claude asked whether Claude or GPT-4 should name it', [], 3, ['Claude']), ['llm']);
  const byClaude = observe(
    [['assistant', "Next I'd set up the SQLAlchemy models for the cafés."]],
    {},
    { speakerNames: { user: 'Nadia', assistant: 'Claude' } },
  );
  assert.match(byClaude[0]!.text, /Claude would set up/);
  assert.ok(!byClaude[0]!.tags.includes('llm'), JSON.stringify(byClaude[0]!.tags));
  // Non-ASCII text takes the exact Unicode rules: Émile is a name, Ünal too.
  assert.deepEqual(detectTags('We met Émile in Zürich'), ['émile']);
  assert.deepEqual(detectTags('café owner Ünal uses Redis'), ['redis', 'ünal']);
});

test('Korean sentences split without punctuation', () => {
  assert.deepEqual(splitSentences('저는 타입스크립트를 좋아해요 데이터베이스는 PostgreSQL로 정했어요'), [
    '저는 타입스크립트를 좋아해요',
    '데이터베이스는 PostgreSQL로 정했어요',
  ]);
});

test('Korean deadline, done, state, struggle and question', () => {
  // 2026-04-09 is a Thursday: "다음 주 금요일" is Friday of the next week.
  const deadline = only(observe([['user', '다음 주 금요일까지 발표 자료를 준비해야 해요.']], { time: '2026-04-09T07:00:00Z' }));
  assert.equal(deadline.category, 'task');
  assert.equal(deadline.priority, 'high');
  assert.match(deadline.text, /다음 주 금요일 \(2026-04-17\)까지/);

  const done = only(observe([['user', '로그인 버그 수정 완료했어요!']]));
  assert.equal(done.done, true);
  assert.equal(done.category, 'task');

  assert.equal(only(observe([['user', '데이터베이스를 MySQL에서 PostgreSQL로 바꿨어요.']])).category, 'state');

  const obs = observe([['user', 'async/await가 너무 헷갈려요. 에러 처리는 어떻게 하나요?']]);
  assert.equal(find(obs, /헷갈/).priority, 'high');
  const q = find(obs, /질문/);
  assert.equal(q.text, '사용자 질문: 에러 처리는 어떻게 하나요?');
  assert.equal(q.category, 'task');
});

test('Korean greetings and thanks are skipped; "내일" is anchored', () => {
  assert.deepEqual(
    observe([
      ['user', '안녕하세요!'],
      ['assistant', '감사합니다!'],
      ['user', '네, 좋아요 ㅎㅎ'],
    ]),
    [],
  );
  const o = only(observe([['user', '내일 배포할 예정이에요.']], { time: '2026-04-08T01:30:00Z', timeZone: 'Asia/Seoul' }));
  assert.match(o.text, /내일 \(2026-04-09\)/);
  assert.equal(o.category, 'task');
});

// ---------------------------------------------------------------------------
// time zones and relative dates

test('date and time come from the message time in the batch time zone', () => {
  // 2026-04-08T20:30Z is already 2026-04-09 05:30 in Seoul.
  const seoul = only(observe([['user', 'I prefer tabs.']], { time: '2026-04-08T20:30:00Z', timeZone: 'Asia/Seoul' }));
  assert.equal(seoul.date, '2026-04-09');
  assert.equal(seoul.time, '05:30');
  const utc = only(observe([['user', 'I prefer tabs.']], { time: '2026-04-08T20:30:00Z', timeZone: 'UTC' }));
  assert.equal(utc.date, '2026-04-08');
  assert.equal(utc.time, '20:30');
  // …and so does the anchor of "tomorrow".
  const t1 = only(observe([['user', 'I will deploy tomorrow.']], { time: '2026-04-08T20:30:00Z', timeZone: 'Asia/Seoul' }));
  const t2 = only(observe([['user', 'I will deploy tomorrow.']], { time: '2026-04-08T20:30:00Z', timeZone: 'UTC' }));
  assert.match(t1.text, /tomorrow \(2026-04-10\)/);
  assert.match(t2.text, /tomorrow \(2026-04-09\)/);
});

test('relative date expressions resolve against the local day', () => {
  const wed = localDateTime('2026-04-08T12:00:00Z', 'UTC')!; // Wednesday
  const resolved = (s: string) => findDateAnchors(s, wed).map((a) => a.resolved);
  assert.deepEqual(resolved('yesterday'), ['2026-04-07']);
  assert.deepEqual(resolved('the day after tomorrow'), ['2026-04-10']);
  assert.deepEqual(resolved('next Friday'), ['2026-04-17']);
  assert.deepEqual(resolved('by Friday'), ['2026-04-10']);
  assert.deepEqual(resolved('last Friday'), ['2026-04-03']);
  assert.deepEqual(resolved('I went there on Monday'), ['2026-04-06']);
  assert.deepEqual(resolved('last week'), ['week of 2026-03-30']);
  assert.deepEqual(resolved('next month'), ['May 2026']);
  assert.deepEqual(resolved('last year'), ['2025']);
  assert.deepEqual(resolved('three days ago'), ['2026-04-05']);
  assert.deepEqual(resolved('in 2 weeks'), ['week of 2026-04-20']);
  assert.deepEqual(resolved('어제'), ['2026-04-07']);
  assert.deepEqual(resolved('이번 주 금요일'), ['2026-04-10']);
  assert.deepEqual(resolved('지난주'), ['2026-03-30 주']);
  assert.deepEqual(resolved('다음 달'), ['2026년 5월']);
  assert.deepEqual(resolved('작년'), ['2025년']);
  assert.deepEqual(resolved('3일 전'), ['2026-04-05']);
});

test('a working rule stated without a verb, or as a standing request, is a 🔴 preference', () => {
  const named = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  const rule = (text: string, options: HeuristicObserverOptions = named) => {
    const os = observe([['user', text]], {}, options);
    const o = os.find((x) => x.category === 'preference');
    assert.ok(o, `no preference in ${JSON.stringify(os.map((x) => `[${x.category}] ${x.text}`))}`);
    assert.equal(o.priority, 'high', o.text);
    return o.text;
  };
  assert.equal(rule('one thing — SQLAlchemy Core only. I want to see every query'), 'Nadia wants SQLAlchemy Core only.');
  assert.equal(rule('Metric units only, please.'), 'Nadia wants metric units only.');
  assert.equal(
    rule('No ORM models, no Session, no relationship() magic.'),
    'Nadia wants no ORM models, no Session, no relationship() magic.',
  );
  assert.equal(rule('Only decaf after lunch.'), 'Nadia wants only decaf after lunch.');
  // Korean: how to be spoken to, and a rule with its time ("오후엔 디카페인만"); the laughter and the lead go.
  const ko = { speakerNames: { user: '지훈', assistant: '모리' } };
  assert.equal(rule('아 그리고 존댓말 말고 반말로 편하게 해줘 ㅋㅋ', ko), '지훈은 존댓말 말고 반말로 편하게 해줘.');
  assert.match(rule('앞으로 영어로 답해 줘', ko), /영어로 답해 줘/);
  assert.match(rule('커피는 하루 한 잔으로 줄이고 오후엔 디카페인만 마시려고', ko), /오후엔 디카페인만/);
  assert.match(rule('평일엔 샐러드만 먹어요', ko), /평일엔 샐러드만/);
  // Not rules: a fact about a thing, and something done only once.
  for (const text of ['It works only on Linux.', 'Only two tickets were left.', '주말엔 잠만 잤어.']) {
    assert.ok(!observe([['user', text]]).some((o) => o.category === 'preference'), text);
  }
});

test('a decision that only points back ("let\'s go with that", "그걸로 가자") names what it points at, or is no decision', () => {
  const en = observe(
    [
      ['assistant', "I'd replicate the SQLite file to B2 with Litestream, every second."],
      ['user', "Sounds good, let's go with that."],
    ],
    {},
    { speakerNames: { user: 'Nadia', assistant: 'Claude' } },
  );
  const decided = find(en, /decided to go with that/);
  assert.equal(decided.category, 'decision');
  assert.equal(decided.priority, 'high');
  assert.match(decided.text, /\(on: .*Litestream/);
  assert.deepEqual(decided.provenance!.entryIds, ['e0000001', 'e0000000']);
  const ko = observe(
    [
      ['assistant', 'Then it is time for the materialized view. Refresh it every 10 minutes with pg_cron.'],
      ['user', '좋아 10분마다. 그걸로 가자'],
    ],
    {},
    { speakerNames: { user: '지훈', assistant: '모리' } },
  );
  const koDecided = find(ko, /그걸로 가자/);
  assert.equal(koDecided.priority, 'high');
  assert.match(koDecided.text, /\(주제: .*pg_cron/);
  assert.ok(koDecided.provenance!.entryIds.includes('e0000000'));
  // Nothing before it to point at: said, but not a 🔴 decision.
  for (const text of ['지훈은 그걸로 가자.', "OK, let's do that."]) {
    const alone = observe([['user', text]]);
    assert.ok(!alone.some((o) => o.category === 'decision' || o.priority === 'high'), JSON.stringify(alone));
  }
  // A decision that names its object is one as before.
  assert.equal(only(observe([['user', "Let's go with Litestream."]])).category, 'decision');
});

test('a name alone after a list of options chooses one: a decision that names it; a name not offered, none', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  const offer: Turn = [
    'assistant',
    'Options that work fine at this volume:\n\n- **Postmark** — great deliverability, simple API, free tier of 100 emails a month;\n- **Amazon SES** — cheapest, but domain verification takes a while;\n- **Resend** — nice API, newer.',
  ];
  const out = observe([offer, ['user', 'postmark. I made an account yesterday.']], {}, names);
  const chose = find(out, /decided to go with Postmark/);
  assert.equal(chose.category, 'decision');
  assert.equal(chose.priority, 'high');
  assert.match(chose.text, /\(on: .*deliverability/);
  assert.deepEqual([...chose.provenance!.entryIds].sort(), ['e0000000', 'e0000001']);
  // What follows the choice is news of its own, not part of the decision.
  assert.doesNotMatch(chose.text, /account/);
  assert.ok(
    out.some((o) => o !== chose && /made an account/.test(o.text)),
    JSON.stringify(out.map((o) => o.text)),
  );
  // One word of a longer name, with agreeing words and "then": the option as the list names it.
  assert.match(find(observe([offer, ['user', 'ok, ses then']], {}, names), /decided to/).text, /go with Amazon SES/);
  // Near misses: a name the list does not offer, a name said in prose, a sentence that says more, the agent's reply.
  for (const turns of [
    [offer, ['user', 'mailgun.']],
    [
      ['assistant', 'Postmark has great deliverability and a simple API.'],
      ['user', 'postmark.'],
    ],
    [offer, ['user', 'postmark has a free tier, right?']],
    [
      ['user', 'Which do you like?\n- Postmark: simple\n- Resend: newer'],
      ['assistant', 'Postmark.'],
    ],
  ] as Turn[][]) {
    const got = observe(turns, {}, names);
    assert.ok(!got.some((o) => /decided to go with/.test(o.text)), JSON.stringify(got.map((o) => o.text)));
  }
});

test('"then not now" puts off what was proposed: a decision that carries its subject; alone or with more said, none', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  const out = observe(
    [
      ['user', "while we're at it, python 3.13?"],
      ['assistant', 'I tried it on a scratch branch: everything passes on 3.13. The question is timing rather than compatibility.'],
      ['user', 'then not now. stay on 3.12 until the accounting stuff is done'],
    ],
    {},
    names,
  );
  const put = find(out, /not now/);
  assert.equal(put.category, 'decision');
  assert.equal(put.priority, 'high');
  assert.match(put.text, /\(on: .*3\.13/);
  assert.ok(put.provenance!.entryIds.includes('e0000001'), JSON.stringify(put.provenance));
  // What was decided is said in the same decision, and the question its topic quotes is cited too.
  assert.match(put.text, /not now.*stay on 3\.12 until the accounting stuff is done/i);
  assert.ok(put.provenance!.entryIds.includes('e0000000'), JSON.stringify(put.provenance));
  assert.equal(out.filter((o) => /3\.12/.test(o.text)).length, 1, JSON.stringify(out.map((o) => o.text)));
  // What follows a decision and is a task, or another topic, stays a memory of its own.
  for (const [rest, kept] of [
    ["Let's do it. I'll write the export script this weekend.", /export script/],
    ["Let's do it. Btw, my sister Ana is visiting next week.", /sister Ana/],
  ] as const) {
    const more = observe(
      [
        ['assistant', 'I could replicate the SQLite file to B2 with Litestream, every second. Want me to?'],
        ['user', rest],
      ],
      {},
      names,
    );
    const decided = find(more, /decided to do it/);
    assert.doesNotMatch(decided.text, kept, JSON.stringify(more.map((o) => o.text)));
    assert.ok(
      more.some((o) => o !== decided && kept.test(o.text)),
      JSON.stringify(more.map((o) => o.text)),
    );
  }
  // The agent's turn in two messages (prose, a tool call, its result): the second still answers the question.
  const split = observe(
    [
      ['user', "while we're at it, python 3.13?"],
      ['assistant', 'I tried it on a scratch branch:'],
      ['assistant', 'Everything passes on 3.13. The question is timing rather than compatibility.'],
      ['user', 'then not now.'],
    ],
    {},
    names,
  );
  assert.match(find(split, /not now/).text, /\(on: .*python 3\.13 — everything passes/, JSON.stringify(split.map((o) => o.text)));
  // Once the user has spoken in between, the agent's next message answers nothing.
  const after = observe(
    [
      ['user', 'python 3.13?'],
      ['assistant', 'Everything passes on 3.13.'],
      ['user', 'the invoice PDF looks wrong in docker, all the text is in a fallback font'],
      ['assistant', 'The fonts never make it into the image: the Dockerfile only copies app/.'],
      ['user', "let's do it"],
    ],
    {},
    names,
  );
  assert.doesNotMatch(find(after, /decided to do it/).text, /python/, JSON.stringify(after.map((o) => o.text)));
  // Near misses: nothing proposed before it; a refusal that goes on to say something else; the agent's own words.
  assert.ok(!observe([['user', 'then not now.']], {}, names).some((o) => o.category === 'decision'));
  const driving = observe(
    [
      ['assistant', 'Want me to add dark mode?'],
      ['user', 'not now, I am driving to Porto for the weekend'],
    ],
    {},
    names,
  );
  assert.ok(!driving.some((o) => o.category === 'decision'), JSON.stringify(driving.map((o) => `[${o.category}] ${o.text}`)));
  const agent = observe(
    [
      ['user', 'Should we add dark mode?'],
      ['assistant', 'Not yet.'],
    ],
    {},
    names,
  );
  assert.ok(!agent.some((o) => o.category === 'decision'), JSON.stringify(agent.map((o) => `[${o.category}] ${o.text}`)));
});

test('"let\'s do it" after a proposal is a decision on what was proposed; "I\'ll do it" is no decision', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  const os = observe(
    [
      ['assistant', 'For this workload SQLite is a very reasonable choice: no database server to upgrade.'],
      ['user', "let's do it. replicate to backblaze b2, we already have an account there"],
    ],
    {},
    names,
  );
  const decided = find(os, /decided to do it/);
  assert.equal(decided.category, 'decision');
  assert.equal(decided.priority, 'high');
  assert.match(decided.text, /\(on: .*SQLite/);
  assert.deepEqual(decided.provenance!.entryIds, ['e0000001', 'e0000000']);
  // What was proposed may be the user's own question the agent answered: the decision names it.
  const asked = observe(
    [
      ['user', 'postgres is overkill for this. what about sqlite + litestream?'],
      ['assistant', 'A very reasonable choice here. Litestream streams the WAL to object storage continuously.'],
      ['user', "let's do it."],
    ],
    {},
    names,
  );
  assert.match(find(asked, /decided to do it/).text, /\(on: what about sqlite \+ litestream/);
  // The user taking a task on is a promise, not a decision; with nothing before it, nothing is decided.
  const promise = observe(
    [
      ['assistant', 'The export script could move the test data over from Postgres.'],
      ['user', "I'll do it."],
    ],
    {},
    names,
  );
  assert.ok(!promise.some((o) => o.category === 'decision'), JSON.stringify(promise.map((o) => o.text)));
  assert.ok(!observe([['user', "let's do it."]]).some((o) => o.category === 'decision'));
  // The agent agreeing to the user's plan decides nothing.
  const agent = observe(
    [
      ['user', 'I want to start the long-term goals feature now.'],
      ['assistant', "Let's do it."],
    ],
    {},
    names,
  );
  assert.ok(!agent.some((o) => o.category === 'decision'), JSON.stringify(agent.map((o) => o.text)));
});

test('"make it 7 days" sets what the other speaker just spoke of: the line carries that subject and cites it', () => {
  const names = { speakerNames: { user: 'Nadia', assistant: 'Claude' } };
  const os = observe(
    [
      ['assistant', 'One thing I do not like: with the current retention, Litestream only keeps one day of history.'],
      ['user', 'make it 7 days'],
    ],
    {},
    names,
  );
  const set = find(os, /make it 7 days/);
  assert.match(set.text, /\(on: .*current retention/);
  assert.deepEqual(set.provenance!.entryIds, ['e0000001', 'e0000000']);
  // A sentence that names its own subject, or says more than a value, keeps its own words only.
  for (const text of ['make the retention 7 days', 'make it work on my laptop first, then we can look at the cluster']) {
    const own = observe(
      [
        ['assistant', 'With the current retention, Litestream only keeps one day of history.'],
        ['user', text],
      ],
      {},
      names,
    );
    assert.ok(!own.some((o) => /\(on: /.test(o.text)), JSON.stringify(own.map((o) => o.text)));
  }
});

test('a short Korean answer keeps the topic words of the question it answers', () => {
  const os = observe(
    [
      ['assistant', '커피는 여전히 하루 한 잔?'],
      ['user', 'ㅇㅇ 오후엔 디카페인만. 은근 적응됨'],
    ],
    {},
    { speakerNames: { user: '지훈', assistant: '모리' } },
  );
  const o = find(os, /디카페인/);
  assert.match(o.text, /\(주제: 커피/);
  assert.deepEqual(o.provenance!.entryIds, ['e0000001', 'e0000000']);
  const move = observe(
    [
      ['assistant', '이사 날짜는 정해졌어?'],
      ['user', '응 10월 17일 토요일로 잡았어'],
    ],
    {},
    { speakerNames: { user: '지훈', assistant: '모리' } },
  );
  assert.match(find(move, /10월 17일/).text, /주제: 이사 날짜/);
  // An answer that names its topic gets none added.
  const named = observe([
    ['assistant', '커피는 여전히 하루 한 잔?'],
    ['user', '응 커피는 하루 한 잔이야'],
  ]);
  assert.doesNotMatch(find(named, /커피/).text, /주제:/);
});

test('a date written with its month is that date, whatever weekday is written beside it', () => {
  const resolved = (s: string, at: string) => findDateAnchors(s, localDateTime(at, 'UTC')!).map((a) => a.resolved);
  // Said on Monday 2026-04-20: "friday may 15" is 15 May, not the coming Friday (2026-04-24) nor 1 May.
  assert.deepEqual(resolved('Tomás set up a demo on friday may 15 at the bakery', '2026-04-20T10:00:00Z'), ['2026-05-15']);
  assert.deepEqual(resolved('the review is on Tuesday 3 March', '2026-02-10T10:00:00Z'), ['2026-03-03']);
  assert.deepEqual(resolved('Fri, May 15th, 2026 is the day', '2026-04-20T10:00:00Z'), ['2026-05-15']);
  // A date without its year: the year whose date is on the weekday written, else the next one ahead.
  assert.deepEqual(resolved('the conference is on Thursday, January 7', '2026-11-02T10:00:00Z'), ['2027-01-07']);
  assert.deepEqual(resolved('we shipped it on March 3', '2026-12-01T10:00:00Z'), ['2026-03-03']);
  // "may" the verb is no month.
  assert.deepEqual(resolved('I may 15 times have said it', '2026-04-20T10:00:00Z'), []);
  // Korean: "11월 13일 금요일" is 13 November, not this week's Friday; "16일 월요일" the next 16th that is a Monday.
  assert.deepEqual(resolved('11월 13일 금요일부터 16일 월요일까지 3박 4일', '2026-09-01T10:00:00Z'), ['2026-11-13', '2026-11-16']);
  assert.deepEqual(resolved('12월 4일(금)에 송년회 해요', '2026-09-01T10:00:00Z'), ['2026-12-04']);
  // Observed: the anchored date follows the date as written, and a year written is not written twice.
  const o = only(observe([['user', 'The demo for the café owners is on friday may 15 at the bakery.', '2026-04-20T10:00:00Z']]));
  assert.match(o.text, /friday may 15 \(2026-05-15\)/);
  assert.doesNotMatch(only(observe([['user', 'The launch is on May 15, 2026 in Lisbon.', '2026-04-20T10:00:00Z']])).text, /\(2026-05-15\)/);
});

test('a Korean word that starts with 후, 전 or 뒤 is not "after", "before" or "later"', () => {
  const resolved = (s: string) => findDateAnchors(s, localDateTime('2026-09-01T10:00:00Z', 'UTC')!).map((a) => a.resolved);
  // 2박 3일 is the length of a stay, and 후 is the first syllable of 후쿠오카.
  assert.deepEqual(resolved('11월에 2박 3일 후쿠오카 여행'), []);
  assert.deepEqual(resolved('1년 전세 계약을 했어요'), []);
  assert.deepEqual(resolved('3일 후지산에 올라가요'), []);
  // With a particle it is still the word: "3일 후에", "2년 전에는".
  assert.deepEqual(resolved('3일 후에 다시 봐요'), ['2026-09-04']);
  assert.deepEqual(resolved('2년 전에는 부산에 살았어요'), ['2024년']);
  const o = only(observe([['user', '여행지는 2박 3일 후쿠오카로 정했어요.', '2026-09-01T10:00:00Z']]));
  assert.match(o.text, /2박 3일 후쿠오카/);
  assert.doesNotMatch(o.text, /\(\d{4}-\d\d-\d\d\)/);
});

// ---------------------------------------------------------------------------
// ids, provenance, currentTask

test('ids are stable across runs and computed with observationId', () => {
  const turns: Turn[] = [
    ['user', 'I prefer TypeScript over JavaScript.'],
    ['user', "We'll use PostgreSQL. The demo is on Friday."],
    ['assistant', 'Redis keeps the sessions for 30 days.'],
  ];
  const a = observe(turns);
  const b = observe(turns);
  assert.deepEqual(a, b);
  for (const o of a) {
    assert.equal(o.id, observationId({ agent: 'main', session: 's1', date: o.date, category: o.category, text: o.text }));
    assert.match(o.id, /^o-[0-9a-f]{10}$/);
  }
  assert.equal(new Set(a.map((o) => o.id)).size, a.length);
  // Another session gives other ids.
  const c = observe(turns, { session: 's2' });
  assert.notEqual(c[0]!.id, a[0]!.id);
});

test('texts with odd white space, cut texts and quoted questions get observationId ids too', () => {
  // (The Observer skips oneLine() for ids: its texts come out of oneLine() already.)
  const long = Array.from({ length: 80 }, (_, i) => `word${i}\t `).join(' ');
  const obs = observe([
    ['user', 'I  prefer\tTypeScript \u00a0 over   JavaScript !!  '],
    ['user', `We decided:\n\n  use  PostgreSQL ,\r\n  and ${long}`],
    ['user', 'Is   this\tyour own painting ??'],
    ['assistant', '  Yes,   I painted it   last year ,  '],
    ['user', `I need to ${'fix the flaky  login test   ;  '.repeat(40)}`],
  ]);
  assert.ok(obs.length >= 4);
  for (const o of obs)
    assert.equal(o.id, observationId({ agent: 'main', session: 's1', date: o.date, category: o.category, text: o.text }), o.text);
  assert.ok(
    obs.some((o) => o.text.endsWith('…')),
    'a cut text',
  );
  const quoted = observe(
    [
      ['user', 'Is   this\tyour own painting ??'],
      ['assistant', '  Yes,   I painted it   last year ,  '],
    ],
    {},
    { replyContext: true },
  );
  for (const o of quoted)
    assert.equal(o.id, observationId({ agent: 'main', session: 's1', date: o.date, category: o.category, text: o.text }), o.text);
  assert.ok(
    quoted.some((o) => o.text.includes('(reply to')),
    'a quoted question',
  );
});

test('provenance names the source, agent, session and entry ids; duplicates merge', () => {
  const obs = observe([
    ['user', 'I prefer TypeScript over JavaScript.'],
    ['assistant', 'Noted.'],
    ['user', 'I prefer TypeScript over JavaScript.'],
  ]);
  const o = only(obs);
  assert.deepEqual(o.provenance, { source: 'demo', agent: 'main', session: 's1', entryIds: ['e0000000', 'e0000002'] });
  assert.equal(o.agent, 'main');
});

test('currentTask is the latest thing the user is working on', () => {
  const r = observeWithRules(
    batch([
      ['user', "I'm building a bookkeeping API in TypeScript."],
      ['assistant', 'Sounds good.'],
      ['user', 'How do I validate JWT refresh tokens?'],
      ['user', 'I need to add the invoice export next.'],
    ]),
  );
  assert.equal(r.currentTask, 'User needs to add the invoice export next.');
  const q = observeWithRules(batch([['user', 'How do I validate JWT refresh tokens?']]));
  assert.equal(q.currentTask, 'User asked how to validate JWT refresh tokens.');
  assert.equal(observeWithRules(batch([['user', 'I prefer tabs.']])).currentTask, undefined);
});

test('code blocks and tool lines are not observations, their language is a tag', () => {
  const obs = observe([
    [
      'assistant',
      'Use a for...of loop with await inside for sequential work.\n```ts\nfor (const x of xs) {\n  await run(x);\n}\n```\n[tool call: bash command="npm test"]',
    ],
  ]);
  const o = only(obs);
  assert.doesNotMatch(o.text, /run\(x\)|tool call/);
  assert.ok(o.tags.includes('typescript'));
});

test('huge and adversarial messages are observed without error; only the start of a huge message counts', () => {
  const inputs = [
    '**a '.repeat(50_000),
    '.'.repeat(200_000),
    'Dr. '.repeat(20_000),
    '['.repeat(100_000),
    '저는 '.repeat(50_000),
    '```\n'.repeat(20_000),
  ];
  for (const text of inputs) {
    for (const o of observe([['user', text]])) assert.ok(o.text.length <= 700, o.text.slice(0, 80));
  }
  const long = observe([['user', `I prefer TypeScript over JavaScript. ${'Filler words here. '.repeat(5_000)}I prefer tabs over spaces.`]]);
  assert.ok(long.some((o) => /TypeScript/.test(o.text)));
  assert.ok(!long.some((o) => /tabs over spaces/.test(o.text)), 'text past the cap is not read');
});

// ---------------------------------------------------------------------------
// the bundled sample transcripts

const SAMPLES = join(import.meta.dirname, '..', '..', '..', 'samples', 'openclaw', 'agents');

/**
 * A tiny pi v3 reader for the samples (the real one lives in lib/sources/):
 * user/assistant text, tool results as tool messages, delivery-mirror copies
 * and non-message entries skipped, transport noise stripped, secrets masked.
 */
/** A content block of a sample's message: text, a tool call, or a tool result's text. */
interface SampleBlock {
  type: string;
  text?: string;
  name?: string;
  arguments?: unknown;
}

/** A line of a pi v3 session file: the header, then entries chained by parentId. */
interface SampleEntry {
  type: string;
  version?: number;
  id: string;
  parentId?: string | null;
  timestamp: string;
  message: { role: string; provider?: string; model?: string; toolName?: string; content: string | SampleBlock[] };
}

function readSample(path: string, agent: string): { session: string; messages: Message[] } {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SampleEntry);
  const header = lines[0]!;
  assert.equal(header.type, 'session');
  assert.equal(header.version, 3);
  const session = String(header.id);
  const messages: Message[] = [];
  let parent: string | null = null;
  for (const e of lines.slice(1)) {
    assert.match(e.id, /^[0-9a-f]{8}$/);
    assert.equal(e.parentId, parent, 'entries form a parentId chain');
    parent = e.id;
    if (e.type !== 'message') continue;
    const m = e.message;
    if (m.provider === 'openclaw' && m.model === 'delivery-mirror') continue;
    let role: Role;
    let text: string;
    if (m.role === 'user' || m.role === 'assistant') {
      role = m.role;
      const blocks: SampleBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
      text = blocks
        .map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? `[tool call: ${b.name} ${JSON.stringify(b.arguments)}]` : ''))
        .filter(Boolean)
        .join('\n');
      if (role === 'user') {
        text = text
          .replace(/^[^\n]*\(untrusted metadata\):\n```[\s\S]*?```\n*/m, '')
          .replace(/^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [^\]]+\] /, '');
      }
    } else {
      role = 'tool';
      assert.ok(Array.isArray(m.content), 'a tool result holds content blocks');
      text = `[tool result ${m.toolName}: ${m.content.map((b) => b.text).join(' ')}]`;
    }
    messages.push({ role, text: maskSecrets(text).text, time: e.timestamp, entryId: e.id, source: 'openclaw', agent, session });
  }
  return { session, messages };
}

function observeSamples(): Observation[] {
  const all: Observation[] = [];
  for (const agent of readdirSync(SAMPLES)) {
    const dir = join(SAMPLES, agent, 'sessions');
    for (const name of readdirSync(dir).sort()) {
      if (!/\.jsonl(?:\.reset\.[^/]+)?$/.test(name)) continue;
      const { session, messages } = readSample(join(dir, name), agent);
      const result = observeWithRules({
        source: 'openclaw',
        agent,
        session,
        messages,
        timeZone: 'Europe/Berlin',
        now: '2026-04-11T00:00:00Z',
      });
      all.push(...result.observations);
    }
  }
  return all;
}

test('samples: the state dir has the promised shape', () => {
  const main = readdirSync(join(SAMPLES, 'main', 'sessions'));
  assert.ok(main.includes('sessions.json'));
  assert.ok(
    main.some((n) => /\.jsonl\.reset\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}/.test(n)),
    'a /reset-renamed file',
  );
  assert.ok(main.filter((n) => n.endsWith('.jsonl')).length >= 3);
  assert.ok(
    readdirSync(join(SAMPLES, 'work', 'sessions')).some((n) => n.endsWith('.jsonl')),
    'a second agent',
  );
  const index = JSON.parse(readFileSync(join(SAMPLES, 'main', 'sessions', 'sessions.json'), 'utf8')) as Record<
    string,
    { sessionId: string }
  >;
  for (const entry of Object.values(index)) assert.ok(main.includes(`${entry.sessionId}.jsonl`), entry.sessionId);
  const raw = main.map((n) => readFileSync(join(SAMPLES, 'main', 'sessions', n), 'utf8')).join('\n');
  for (const needle of [
    '"delivery-mirror"',
    '"thinking"',
    '"toolCall"',
    '"toolResult"',
    '[Fri 2026-04-10 16:30 CEST] ',
    '(untrusted metadata)',
    'sk-proj-',
    'password=',
  ]) {
    assert.ok(raw.includes(needle), needle);
  }
});

test('samples: the key observations come out, per agent, without secrets', () => {
  const obs = observeSamples();
  const pref = find(obs, /User prefers TypeScript over JavaScript/);
  assert.equal(pref.category, 'preference');
  assert.equal(pref.priority, 'high');
  assert.equal(pref.date, '2026-04-06');
  assert.equal(pref.time, '09:10'); // CEST

  const db = find(obs, /PostgreSQL as the main store and Redis/);
  assert.equal(db.category, 'decision');
  assert.deepEqual(db.tags.slice(0, 2), ['postgres', 'redis']);

  // Issue 20: the question the assistant answers is not a task of its own; the answer cites it.
  assert.ok(!obs.some((o) => /asked how to validate JWT refresh tokens/.test(o.text)));
  const auth = find(obs, /refresh tokens opaque random strings/);
  assert.equal(auth.provenance!.entryIds.length, 2);

  const deadline = find(obs, /demo .* on Friday \(2026-04-10\)/);
  assert.equal(deadline.category, 'task');
  assert.equal(deadline.priority, 'high');

  const eyes = find(obs, /Mira's eyes are grey-green/);
  assert.equal(eyes.agent, 'main');
  // One memory for the message ("writing a novel… Mira's eyes… Tomas…"): a name of the novel is its tag.
  assert.ok(eyes.tags.includes('mira') || eyes.tags.includes('tomas'), eyes.tags.join(','));
  assert.equal(eyes.priority, 'high', '"Keep this straight for me" asks to remember it');

  const struggle = find(obs, /struggling with async\/await/);
  assert.equal(struggle.priority, 'high');
  assert.equal(struggle.date, '2026-04-10');
  assert.equal(struggle.time, '16:30');

  const fixed = find(obs, /Migrations run cleanly on staging/i);
  assert.equal(fixed.done, true);

  const ko = find(obs, /사용자는 자바스크립트보다 타입스크립트를 선호한다/);
  assert.equal(ko.category, 'preference');
  find(obs, /다음 주 금요일 \(2026-04-17\)까지/);

  const work = find(obs, /Grafana/);
  assert.equal(work.agent, 'work');
  assert.equal(work.category, 'decision');
  assert.ok(obs.filter((o) => o.agent === 'work').every((o) => o.provenance?.agent === 'work'));

  // Masked before observing: no secret reaches an observation.
  const text = obs.map((o) => o.text).join('\n');
  assert.doesNotMatch(text, /sk-proj-Q3vX|Tr0ub4dor/);
  // Chit-chat and delivery copies did not become observations.
  assert.doesNotMatch(text, /안녕하세요|Morning!/);
  // Issue 20: the assistant's "Noted for the novel: Mira has grey-green eyes…" echoes the user's fact; it is not a second memory.
  assert.equal(obs.filter((o) => /grey-green/.test(o.text)).length, 1);
});

test('a hedged answer ("조금?", "a bit?") is no question: the proposal after it and the decision on it keep their own subject', () => {
  const ko = observe(
    [
      ['assistant', '리더보드 느려진 건 없어?'],
      ['user', '조금? 기록이 1,800개 넘으니까 리더보드 페이지 열 때 1초 넘게 걸려'],
      ['assistant', 'Then it is time for the materialized view. Refresh it every 10 minutes with pg_cron.'],
      ['user', '좋아 10분마다. 그걸로 가자'],
    ],
    {},
    { speakerNames: { user: '지훈', assistant: '모리' } },
  );
  const decided = find(ko, /그걸로 가자/);
  assert.equal(decided.category, 'decision');
  assert.match(decided.text, /\(주제: [^)]*(?:materialized view|pg_cron)/);
  assert.doesNotMatch(decided.text, /조금/);
  assert.ok(!ko.some((o) => /\((?:on|주제): 조금/.test(o.text)), JSON.stringify(ko.map((o) => o.text)));
  const en = observe(
    [
      ['assistant', 'Is the leaderboard slow at all?'],
      ['user', 'a bit? it takes over a second to open with 1,800 sends.'],
      ['assistant', 'Then it is time for the materialized view, refreshed every 10 minutes.'],
      ['user', "Sounds good, let's go with that."],
    ],
    {},
    { speakerNames: { user: 'Nadia', assistant: 'Claude' } },
  );
  const enDecided = find(en, /go with that/);
  assert.match(enDecided.text, /\(on: [^)]*(?:materialized view|10 minutes)/);
  assert.doesNotMatch(enDecided.text, /a bit/);
  // A word or two that ask ("why?", "언제?") are still a question: the answer after them takes its topic.
  const asked = observe(
    [
      ['assistant', 'You should move the backup job to the other server.'],
      ['user', 'which server?'],
      ['assistant', 'The Hetzner one.'],
    ],
    {},
    { speakerNames: { user: 'Nadia', assistant: 'Claude' } },
  );
  assert.ok(
    asked.some((o) => /Hetzner/.test(o.text) && /\(on: [^)]*server/.test(o.text)),
    JSON.stringify(asked.map((o) => o.text)),
  );
});
