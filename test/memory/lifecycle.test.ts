import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lifecycleMarks } from '../../lib/memory/lifecycle.js';
import { formatObservationLine, observationId, parseObservationContent } from '../../lib/memory/observation-line.js';
import type { Observation } from '../../lib/core/types.js';

function o(text: string, date: string, category: string, time = '10:00'): Observation {
  return {
    id: observationId({ agent: 'main', session: 's', date, category, text }),
    date,
    time,
    priority: 'medium',
    done: false,
    category,
    text,
    tags: [],
    agent: 'main',
  };
}

/** Marks the observations set when each was new in its turn (as the observe job runs them). */
function marks(obs: Observation[], names = ['Nadia', 'Claude']): Map<string, { kind: string; by?: string }> {
  const out = new Map<string, { kind: string; by?: string }>();
  for (const c of lifecycleMarks(obs, { fresh: new Set(obs.map((x) => x.id)), names })) out.set(c.id, c.mark);
  return out;
}

test('line format: done and superseded marks are read and written back, by hand too', () => {
  const done = parseObservationContent('✅ 🟡 11:20 [task] Do the login flow first. (done 2026-04-08 by o-5d2ad17055) ^o-c93e0f55aa')!;
  assert.deepEqual(done.mark, { kind: 'done', date: '2026-04-08', by: 'o-5d2ad17055' });
  assert.equal(done.done, true);
  assert.equal(done.text, 'Do the login flow first.');
  assert.equal(
    formatObservationLine({ ...done, id: done.id! }),
    '- ✅ 🟡 11:20 [task] Do the login flow first. (done 2026-04-08 by o-5d2ad17055) ^o-c93e0f55aa',
  );

  const sup = parseObservationContent(
    '🔴 10:30 [decision] Postgres 16 is the database. #postgres (superseded 2026-05-02 by o-0b41d2e8aa) ^o-7f3a9c21e0',
  )!;
  assert.deepEqual(sup.mark, { kind: 'superseded', date: '2026-05-02', by: 'o-0b41d2e8aa' });
  assert.deepEqual(sup.tags, ['postgres']);
  assert.equal(sup.done, false);
  assert.equal(
    formatObservationLine({ ...sup, id: sup.id! }),
    '- 🔴 10:30 [decision] Postgres 16 is the database. #postgres (superseded 2026-05-02 by o-0b41d2e8aa) ^o-7f3a9c21e0',
  );

  // Written by hand: before the tags, without date or id, any case, with Obsidian's caret.
  const hand = parseObservationContent('🟡 [decision] Use Heroku. (Superseded by ^o-0b41d2e8aa) #infra ^o-1111111111')!;
  assert.deepEqual(hand.mark, { kind: 'superseded', by: 'o-0b41d2e8aa' });
  assert.deepEqual(hand.tags, ['infra']);
  assert.deepEqual(parseObservationContent('🟡 [task] Renew passports (done) ^o-1111111111')!.mark, { kind: 'done' });

  // A text that merely ends like a mark is kept as text.
  const line = formatObservationLine({
    priority: 'medium',
    done: false,
    time: '',
    category: 'fact',
    text: 'Step one (done)',
    tags: [],
    id: 'o-2222222222',
  });
  const back = parseObservationContent(line.slice(2))!;
  assert.equal(back.mark, undefined);
  assert.equal(back.done, false);
});

test('a later message that reports a task finished closes it', () => {
  const task = o('Assistant will do the login flow first.', '2026-04-01', 'task');
  const other = o('Assistant will do the signup flow after that.', '2026-04-01', 'task', '10:05');
  const doneMsg = o('User said login is done.', '2026-04-08', 'fact');
  const m = marks([task, other, doneMsg]);
  assert.deepEqual(m.get(task.id), { kind: 'done', date: '2026-04-08', by: doneMsg.id });
  assert.equal(m.has(other.id), false, 'the signup task stays open');

  const t2 = o('Assistant will do the login flow first.', '2026-04-01', 'task');
  const works = o('The login flow works end to end.', '2026-04-09', 'state');
  assert.equal(marks([t2, works]).get(t2.id)?.kind, 'done');

  // The task verb in the past: "wrote the export script".
  const script = o('Nadia will write a little export script to move the test data over from postgres this weekend.', '2026-04-01', 'task');
  const wrote = o('Nadia wrote the export script on saturday and moved all the test data over.', '2026-04-08', 'event');
  assert.equal(marks([script, wrote]).get(script.id)?.kind, 'done');
});

test('near misses: a plan, another task, an earlier message never close a task', () => {
  const task = o('Assistant will do the login flow first.', '2026-04-01', 'task');
  for (const text of [
    'The login flow should be done by Friday.',
    'Login is not done yet.',
    'The signup page is done.',
    'The deploy works now.',
  ]) {
    const later = o(text, '2026-04-02', 'fact');
    assert.equal(marks([task, later]).has(task.id), false, text);
  }
  // A finish said before the task was set does not close it.
  const before = o('Login is done.', '2026-03-30', 'fact');
  assert.equal(marks([before, task]).has(task.id), false);
  // Only fresh observations mark: a mark a user cleared is not set again by old lines.
  const doneMsg = o('Login is done.', '2026-04-08', 'fact');
  assert.equal(lifecycleMarks([task, doneMsg], { fresh: new Set() }).length, 0);
});

test('a reversed decision and a new database supersede the old one', () => {
  const pg = o('Decided to use Postgres 16 for the crumbline database, in docker compose.', '2026-03-03', 'decision');
  const sqlite = o('Switched from Postgres to SQLite with Litestream backups.', '2026-04-01', 'decision');
  assert.deepEqual(marks([pg, sqlite]).get(pg.id), { kind: 'superseded', date: '2026-04-01', by: sqlite.id });

  // Another choice of the same kind, no "from": the database is now SQLite.
  const sqlite2 = o('We will use SQLite for the database.', '2026-04-01', 'decision');
  assert.equal(marks([pg, sqlite2]).get(pg.id)?.kind, 'superseded');

  // A changed value of the same thing.
  const cutoff = o('The order cutoff is 2 pm the day before.', '2026-03-07', 'decision');
  const noon = o('From now on the order cutoff is noon the day before.', '2026-06-01', 'decision');
  assert.equal(marks([cutoff, noon]).get(cutoff.id)?.kind, 'superseded');

  // Korean: X 대신 Y.
  const fb = o('RouteNote 백엔드는 Firebase로 하기로 했다.', '2026-03-01', 'decision');
  const sb = o('Firebase 대신 Supabase로 가기로 했다.', '2026-04-01', 'decision');
  assert.equal(marks([fb, sb]).get(fb.id)?.kind, 'superseded');

  // A reversed decision: "not X after all" / "drop X".
  const weasy = o('Decided to generate the invoice PDF with ReportLab.', '2026-06-16', 'decision');
  const back = o('Decided to drop ReportLab and go back to WeasyPrint.', '2026-07-03', 'decision');
  assert.equal(marks([weasy, back]).get(weasy.id)?.kind, 'superseded');
});

test('near misses: different decisions are not one subject', () => {
  const cases: Array<[string, string, string?]> = [
    ['Decided to use SQLite for the database.', 'Decided to deploy with Docker on the Hetzner box.'],
    ['Decided to use Postgres for the app database.', 'Decided to use Redis for the session cache.'],
    ['The database backups run at 3 am.', 'The database is now SQLite.'],
    ['User prefers dark mode in the editor.', 'User now prefers tabs in the editor.', 'preference'],
    ['Decided to use conventional commit messages.', 'Decided to squash merge pull requests.'],
    ['The demo is on Friday 15 May at the bakery.', 'The invoice run is on the 1st of every month.'],
    ['Claude said SQLite needs one writer.', 'Claude said the Postgres docs cover replication.', 'fact'],
  ];
  for (const [a, b, category = 'decision'] of cases) {
    const older = o(a, '2026-03-01', category);
    const newer = o(b, '2026-04-01', category);
    assert.equal(marks([older, newer]).size, 0, `${a} / ${b}`);
  }
  // Many decisions in one category stay many (no merging by category).
  const many = Array.from({ length: 40 }, (_, i) =>
    o(`Decided item ${i}: use library number ${i} for feature ${i}.`, `2026-03-${String((i % 28) + 1).padStart(2, '0')}`, 'decision'),
  );
  assert.equal(marks(many).size, 0);
});

test('near misses from a generated conversation: a finish of one thing closes no other task of its subject', () => {
  const demo = o('User said the deadline for the auth service is next Friday (2026-02-13), we need the demo ready.', '2026-02-02', 'task');
  const migrated = o('User finished the migration of the auth service today.', '2026-02-03', 'fact');
  const explain = o('User asked Assistant to explain how Terraform handles retries.', '2026-02-02', 'task');
  const tf = o('User finished the migration of Terraform today.', '2026-02-04', 'fact');
  assert.equal(marks([demo, migrated, explain, tf]).size, 0);
  // A plan that names a finish is no finish ("we need the demo ready").
  const other = o('User said the deadline for the billing API is next Friday, we need the demo ready.', '2026-02-03', 'task');
  assert.equal(marks([demo, other]).size, 0);
  // "switched from MySQL to A", later "switched from MySQL to B": MySQL is what both left, not a shared subject;
  // and preferences that share only their reason are two.
  const a = o('User switched from MySQL to the auth service last week.', '2026-02-01', 'state');
  const b = o('User switched from MySQL to Terraform last week.', '2026-02-02', 'state');
  const p1 = o('User prefers the mobile app for this because it is simpler to operate.', '2026-02-01', 'preference');
  const p2 = o('User prefers Terraform for this because it is simpler to operate.', '2026-02-02', 'preference');
  assert.equal(marks([a, b, p1, p2]).size, 0);
  // The same sentence said again later is the current one.
  const p3 = o('User prefers the mobile app for this because it is simpler to operate.', '2026-02-05', 'preference');
  assert.equal(marks([p1, p3]).get(p1.id)?.kind, 'superseded');
});

test('a rescheduled date supersedes the older one, also when both were written as tasks', () => {
  const first = o(
    'Nadia said deadline: Tomás set up a demo for all the café owners on friday (2026-05-15) at the bakery, 10am.',
    '2026-04-26',
    'task',
  );
  const moved = o('Claude said the demo is now Friday 22 May (2026-05-22) at 10:00 at the bakery.', '2026-05-08', 'task');
  assert.equal(marks([first, moved]).get(first.id)?.kind, 'superseded');
  // Another thing at the bakery with another date is not the demo.
  const other = o('The invoice run is now on the 1st (2026-06-01) of every month.', '2026-05-08', 'task');
  assert.equal(marks([first, other]).size, 0);
});

test('"fixed it" right after a task in the same session closes it; in another session it does not', () => {
  const session = (x: Observation, s: string): Observation => ({
    ...x,
    provenance: { source: 'openclaw', agent: 'main', session: s, entryIds: [] },
  });
  const task = session(
    o(
      'The migration fails because the invoices table already exists on staging. Assistant will mark migration 0003 as applied and run the rest.',
      '2026-04-08',
      'task',
      '13:41',
    ),
    's1',
  );
  const fixed = session({ ...o('User fixed it. Migrations run cleanly on staging now.', '2026-04-08', 'task', '15:05'), done: true }, 's1');
  assert.equal(marks([task, fixed]).get(task.id)?.kind, 'done');
  const elsewhere = session(
    { ...o('User fixed it. Migrations run cleanly on staging now.', '2026-04-08', 'task', '15:05'), done: true },
    's2',
  );
  assert.equal(marks([task, elsewhere]).size, 0);
});

test('an updated dose and a market moved by name supersede the older fact; the sentence that says the change counts', () => {
  const dose = o(
    'Juniper said saved: Walter — Lantus 18 units at bedtime, metformin 1000 mg twice daily; endocrinologist Dr. Patel (Providence).',
    '2026-01-18',
    'fact',
  );
  const lower = o(
    'Juniper updated: Walter — Lantus 14 units at bedtime (metformin unchanged). Juniper will make sure the Rosewood nurse has the new dose.',
    '2026-06-02',
    'task',
  );
  assert.equal(marks([dose, lower]).get(dose.id)?.kind, 'superseded');
  const market = o('Juniper said Clay Hen Pottery at the Hollywood Farmers Market, Saturdays from 11 April.', '2026-04-01', 'fact');
  const moved = o('Juniper updated: Clay Hen Pottery — Montavilla Farmers Market.', '2026-05-02', 'fact');
  assert.equal(marks([market, moved]).get(market.id)?.kind, 'superseded');
  // Another booth at another market is another fact.
  const other = o('Juniper updated: the Ceramics Guild booth — Montavilla Farmers Market.', '2026-05-02', 'fact');
  assert.equal(marks([market, other]).size, 0);
});

test('"working backwards from" or "working on" is no finish; "it works now" still is', () => {
  const deadline = o(
    'User said deadline: the board review of the grant report is on friday (2026-09-18) at the library, 9am.',
    '2026-09-01',
    'task',
    '10:00',
  );
  for (const text of [
    'Assistant said then working backwards from Friday 18 September (2026-09-18) for the grant report.',
    'Assistant is working on the grant report for the board review.',
  ]) {
    const later = o(text, '2026-09-01', 'fact', '10:02');
    assert.equal(marks([deadline, later]).has(deadline.id), false, text);
  }
  const task = o('Assistant will fix the grant report export.', '2026-09-01', 'task');
  const works = o('The grant report export works now.', '2026-09-03', 'state');
  assert.equal(marks([task, works]).get(task.id)?.kind, 'done');
});

test('a task closed by a message is not also superseded by it: one mark', () => {
  const task = o('User will write a small import script to move the photos over from the old server this weekend.', '2026-05-01', 'task');
  const wrote = o('User wrote the import script on sunday and moved all the photos over.', '2026-05-04', 'event');
  const m = lifecycleMarks([task, wrote], { fresh: new Set([task.id, wrote.id]) });
  assert.deepEqual(
    m.map((c) => c.mark.kind),
    ['done'],
  );
});

test('a new member of a kind is chosen only in a sentence that says the change', () => {
  const pg = o('MySQL 8 in compose next to the app container, with a named volume for the data.', '2026-02-01', 'fact');
  // A fact's own change sentence chooses: "Driver: SQLite, drop pymysql".
  const plan = o(
    'Assistant said plan. Driver: sqlite:///data/app.db, drop pymysql. Compose: app and a backup sidecar.',
    '2026-03-01',
    'fact',
  );
  assert.equal(marks([pg, plan]).get(pg.id)?.kind, 'superseded');
  // A plan that names SQLite in one sentence and says "instead of constants" in another chooses nothing.
  const later = o(
    'Assistant said one deploy per shop: the same image, its own SQLite file. Assistant will make the shop name configuration instead of constants.',
    '2026-03-01',
    'task',
  );
  assert.equal(marks([pg, later]).size, 0);
  // "Back to" a member of a kind is a choice; "back to roughly its old size" is none.
  const weasy = o('Assistant said Flask keeps the image small, so the image would go back to roughly its old size.', '2026-04-01', 'fact');
  const django = o('Assistant said Django has the admin built in.', '2026-03-01', 'fact');
  assert.equal(marks([django, weasy]).size, 0);
  const back = o('Assistant said back to Django, then — the branch goes away.', '2026-05-01', 'fact');
  assert.equal(marks([django, weasy, back]).get(weasy.id)?.kind, 'superseded');
  assert.equal(marks([django, weasy, back]).has(django.id), false);
});

test('a route with an arrow is no change; "MySQL → Postgres" is', () => {
  const plan = o('User said we drive up from Seattle to Vancouver in August.', '2026-02-01', 'fact');
  const route = o('Assistant said Seattle → Vancouver is about 3 hours, most families stop in Bellingham.', '2026-02-01', 'fact', '10:05');
  assert.equal(marks([plan, route]).size, 0);
  // An arrow that orders things, with a change word only in another sentence, is no change either.
  const request = o('User wants the packing list grouped by room, not by box.', '2026-02-01', 'fact');
  const built = o(
    'Assistant said the packing list is grouped room → box. The printed page now has room headings.',
    '2026-02-01',
    'fact',
    '10:10',
  );
  assert.equal(marks([request, built]).size, 0);
  const db = o('The reports service keeps its data in MySQL.', '2026-02-01', 'fact');
  const moved = o('Reports service: MySQL → Postgres next sprint.', '2026-03-01', 'decision');
  assert.equal(marks([db, moved]).get(db.id)?.kind, 'superseded');
});

test('an event said as an update supersedes the older fact; a detail in parentheses is no other subject', () => {
  const room = o(
    'Assistant said saved: Grandma moves to Maple Court, room 31, on Saturday 4 April. Give Maple Court the medication list.',
    '2026-03-01',
    'fact',
  );
  const moved = o(
    'Assistant updated: Grandma — Maple Court, room 12 (second floor, near the garden), moved 3 June.',
    '2026-06-04',
    'event',
  );
  assert.equal(marks([room, moved]).get(room.id)?.kind, 'superseded');
  // An event that changes something else is no update of the room.
  const meeting = o('User moved the book club to Thursday 12 June at the library.', '2026-06-04', 'event');
  assert.equal(marks([room, meeting]).size, 0);
  // An event that says no change supersedes nothing.
  const visit = o('User visited Grandma at Maple Court, room 31, on 3 June.', '2026-06-04', 'event');
  assert.equal(marks([room, visit]).size, 0);
});

test('a problem a later finish solves is history; a finish that still reports a problem solves none', () => {
  const fails = o('User said the nightly backup job fails on the staging server.', '2026-03-02', 'fact');
  const fixed = o('User fixed it: the nightly backup job runs cleanly on staging now.', '2026-03-03', 'fact');
  assert.deepEqual(marks([fails, fixed]).get(fails.id), { kind: 'superseded', date: '2026-03-03', by: fixed.id });
  // Still failing elsewhere, or a finish of another thing: no mark.
  const still = o('The nightly backup job works locally but fails on the staging server.', '2026-03-03', 'fact');
  const other = o('The invoice export works now.', '2026-03-03', 'fact');
  assert.equal(marks([fails, still]).size, 0);
  assert.equal(marks([fails, other]).size, 0);
  // A plain fact with the same words is no problem to solve.
  const plain = o('The nightly backup job runs on the staging server at 2 am.', '2026-03-02', 'fact');
  assert.equal(marks([plain, fixed]).size, 0);
});

test('an open question a later decision answers is history; a decision on another thing answers none', () => {
  const question = o('User is not sure where to keep the uploaded photos for the gallery.', '2026-03-02', 'fact');
  const decided = o('User decided to keep the uploaded gallery photos in an S3 bucket with a CDN.', '2026-03-05', 'decision');
  assert.equal(marks([question, decided]).get(question.id)?.kind, 'superseded');
  const other = o('User decided to use Postgres as the main store.', '2026-03-05', 'decision');
  assert.equal(marks([question, other]).size, 0);
  // A fact (not a decision) that mentions the photos answers nothing.
  const fact = o('The uploaded gallery photos are about 2 MB each.', '2026-03-05', 'fact');
  assert.equal(marks([question, fact]).size, 0);
});

test('an update written as a note ("Updated: <thing> — <new value>") supersedes what held the thing', () => {
  const from = (x: Observation, entry: string): Observation => ({
    ...x,
    provenance: { source: 'openclaw', agent: 'main', session: 's1', entryIds: [entry] },
  });
  // One message the Observer split in two: the gift idea, and an aside that names only the gift.
  const idea = from(o("Assistant said saved: Ben's graduation gift — idea: a road bike.", '2026-03-01', 'task'), 'e1');
  const aside = from(
    o('Assistant said a road bike is a lovely gift for someone who rides to class every day.', '2026-03-01', 'fact', '10:01'),
    'e1',
  );
  const update = o("Assistant said updated: Ben's graduation gift — a new laptop for his job.", '2026-04-01', 'fact');
  const m = marks([idea, aside, update]);
  assert.equal(m.get(idea.id)?.kind, 'superseded');
  assert.equal(m.get(aside.id)?.kind, 'superseded', 'the aside is about the gift through the message it came from');
  // Another property of the same person is another thing.
  const lessons = o("Assistant said updated: Ben's driving lessons — Tuesdays at 5.", '2026-04-01', 'fact');
  assert.equal(marks([idea, aside, lessons]).size, 0);
  // A name alone says which thing, not which property: the shop's other facts stay.
  const shop = o('User calls the shop Green Door Books.', '2026-02-01', 'fact');
  const moved = o('Assistant updated: Green Door Books — the Elm Street market.', '2026-04-01', 'fact');
  assert.equal(marks([shop, moved]).size, 0);
  // The same value again says nothing new.
  const same = o("Assistant said updated: Ben's graduation gift — a road bike.", '2026-04-01', 'fact');
  assert.equal(marks([idea, same]).size, 0);
});

test('"not doing X after all" gives up the plan that named X; a plain "not doing" or another place is kept', () => {
  const plan = o('Assistant said the drive to Lisbon is long; Portugal needs a rental car with a toll transponder.', '2026-02-01', 'fact');
  const off = o("User said we're not doing Portugal after all. Two flights with a toddler is too much.", '2026-04-01', 'fact');
  assert.deepEqual(marks([plan, off]).get(plan.id), { kind: 'superseded', date: '2026-04-01', by: off.id });
  // Without "after all", "anymore" or "instead" it is a statement of the present, not a change.
  const plain = o("User said we're not doing Portugal in winter, it rains.", '2026-04-01', 'fact');
  assert.equal(marks([plan, plain]).size, 0);
  // Another country given up leaves this one alone; "not doing it after all" names nothing.
  const other = o("User said we're not doing Spain after all.", '2026-04-01', 'fact');
  const it = o("User said we're not doing it after all.", '2026-04-01', 'fact');
  assert.equal(marks([plan, other, it]).size, 0);
});

test('a thing moved to another named place of the same kind supersedes the older place', () => {
  const old = o('The Alberta market on Fridays. The stall fee is due in March.', '2026-01-10', 'fact');
  const moved = o('User is moving the stall to the Kenton market on Sundays. Fridays are too busy at work.', '2026-05-02', 'state');
  assert.deepEqual(marks([old, moved]).get(old.id), { kind: 'superseded', date: '2026-05-02', by: moved.id });
  // Near misses: no move said; a place of another kind; nothing shared beside the place; the old one names the new place.
  const noMove = o('User liked the Kenton market on Sundays. Fridays are too busy at work.', '2026-05-02', 'fact');
  const otherKind = o('User is moving the stall to the Kenton library on Fridays.', '2026-05-02', 'state');
  const nothingShared = o('The guild booth moved to the Kenton market.', '2026-05-02', 'state');
  for (const later of [noMove, otherKind, nothingShared]) assert.equal(marks([old, later]).size, 0, later.text);
  const both = o('The Alberta market is smaller than the Kenton market on Fridays.', '2026-01-10', 'fact');
  assert.equal(marks([both, moved]).size, 0);
});

test('a trip changed to another place supersedes the decision to go to the old one', () => {
  // The speakers' names are no subject words: only the places can tie these together.
  const ko = ['지훈', 'Mori'];
  const first = o('지훈은 11월 여행은 수아랑 부산 가기로 했어.', '2026-08-02', 'decision');
  const changed = o('지훈은 여행 또 바꿨어 결국 제주로 다시.', '2026-10-12', 'state');
  // Korean chooses with 가다 too: a backend "gone with" is no trip, whatever the trip does later.
  const backend = o('지훈은 그럼 결정. Firebase 접고 Supabase로 갈래.', '2026-07-08', 'decision');
  assert.equal(marks([backend, changed], ko).size, 0);
  assert.deepEqual(marks([first, changed], ko).get(first.id), { kind: 'superseded', date: '2026-10-12', by: changed.id });
  // The change said in another observation of the same message counts.
  const from = (x: Observation): Observation => ({
    ...x,
    provenance: { source: 'openclaw', agent: 'main', session: 's1', entryIds: ['e9'] },
  });
  const said = from(o('지훈은 여행지 바꿨어.', '2026-09-15', 'state'));
  const decided = from(o('지훈은 강릉으로 가기로 했어.', '2026-09-15', 'decision', '10:01'));
  assert.equal(marks([first, said, decided], ko).get(first.id)?.kind, 'superseded');
  // Near misses: who goes is no place ("누나가 가기로"); a new decision without a change; the same place again.
  const sister = o('지훈은 누나가 가기로 했어.', '2026-08-23', 'decision');
  assert.equal(marks([sister, changed], ko).size, 0);
  assert.equal(marks([first, o('지훈은 강릉으로 가기로 했어.', '2026-09-15', 'decision')], ko).size, 0);
  assert.equal(marks([first, o('여행 또 바꿨어 결국 부산으로 다시.', '2026-10-12', 'state')], ko).size, 0);
  // English: "going to X instead" for a decision to go to Y.
  const en = o('User decided to go to Vienna for the anniversary trip.', '2026-03-01', 'decision');
  const instead = o("User said for the trip we're going to Prague instead.", '2026-04-01', 'decision');
  assert.equal(marks([en, instead]).get(en.id)?.kind, 'superseded');
  assert.equal(
    marks([en, o('User is going to Prague for the work trip now.', '2026-04-01', 'decision')]).size,
    0,
    'a mere "now" is no change of plan',
  );
});

test('"we did the X" closes the task and every to-do note that named X; a question or another thing closes none', () => {
  const task = o('User needs to renew the car registration before the summer.', '2026-01-12', 'task');
  const note = o('Assistant has put "renew the car registration (form MV-1)" on the list.', '2026-01-12', 'fact', '10:01');
  const list = o('Assistant said open items: car registration, a new bike lock.', '2026-03-07', 'fact');
  const plain = o('The car registration office is on Main Street.', '2026-01-12', 'fact', '10:02');
  const did = o('User said we did the registration today at the DMV on 82nd.', '2026-03-22', 'event');
  const m = marks([task, note, list, plain, did]);
  assert.equal(m.get(task.id)?.kind, 'done');
  assert.equal(m.get(note.id)?.kind, 'done');
  assert.equal(m.get(list.id)?.kind, 'done');
  assert.equal(m.has(plain.id), false, 'a fact that notes no to-do stays');
  // The thing done is the head of what follows "did": the kids' passports are not the kids' dentist visit.
  const passports = o("User needs to renew the kids' passports before the trip.", '2026-01-12', 'task');
  const dentist = o("User needs to book the kids' dentist check-up.", '2026-01-12', 'task', '10:05');
  const m2 = marks([passports, dentist, o("User said we did the kids' passports today at the post office.", '2026-03-22', 'event')]);
  assert.equal(m2.get(passports.id)?.kind, 'done');
  assert.equal(m2.has(dentist.id), false);
  for (const text of [
    'What did the registration office say?',
    'User asked: did the registration arrive?',
    'User said we did the taxes today.',
  ]) {
    assert.equal(marks([task, note, o(text, '2026-03-22', 'event')]).size, 0, text);
  }
});

test('"이사 끝" closes the task of that move, not a task set for after it; "이사 끝나면" closes none', () => {
  const ko = ['수아', 'Mori'];
  const move = o('수아는 지금 원룸 사는데 전세 만기가 10월 말이라 이사 알아봐야 돼.', '2026-06-09', 'task');
  const after = o('수아는 이사 끝나고 할게 (사진 앨범 정리).', '2026-09-15', 'task');
  const done = o('수아는 이사 끝! 이제 합정동 주민이야.', '2026-09-29', 'event');
  const m = marks([move, after, done], ko);
  assert.deepEqual(m.get(move.id), { kind: 'done', date: '2026-09-29', by: done.id });
  assert.equal(m.has(after.id), false, 'a task for after the move is not the move');
  assert.equal(marks([move, o('수아는 이사 끝나면 연락할게.', '2026-09-20', 'task')], ko).size, 0);
});

test('a course of sessions is closed by "X is done", not by a count of sessions done', () => {
  const course = o('User said Eastside PT, Tuesdays at 8. eight sessions (on: going for rehab)', '2026-05-02', 'fact');
  const saved = o('Assistant said saved: rehab at Eastside PT, Tuesdays 8:00 am, eight sessions.', '2026-05-02', 'fact', '10:01');
  const rule = o('Assistant said the clinic is on Tuesdays at 8 and parking is free.', '2026-05-02', 'fact', '10:02');
  const partway = o('User said 4 sessions done. The rehab is helping.', '2026-05-20', 'fact');
  assert.equal(marks([course, saved, rule, partway]).size, 0, 'four of eight is progress');
  const done = { ...o('User said rehab is done.', '2026-06-23', 'task'), done: true };
  const m = marks([course, saved, rule, done]);
  assert.equal(m.get(course.id)?.kind, 'done');
  assert.equal(m.get(saved.id)?.kind, 'done');
  assert.equal(m.has(rule.id), false, 'a fact that is no course stays');
});

test('a measured value said as "N, down from M" supersedes what held M of the same unit', () => {
  const grown = o('Assistant said with the PDF libraries the bundle has grown from 90 MB to 350 MB.', '2026-05-08', 'fact');
  const slow = o('User said the bundle is 350MB and uploads take forever.', '2026-06-16', 'fact');
  const shrunk = o('Assistant said 140 MB, down from 350, with the reports exactly as they were.', '2026-07-03', 'event');
  const m = marks([grown, slow, shrunk]);
  assert.deepEqual(m.get(grown.id), { kind: 'superseded', date: '2026-07-03', by: shrunk.id });
  assert.deepEqual(m.get(slow.id), { kind: 'superseded', date: '2026-07-03', by: shrunk.id });
  // "grew from 90 MB to 350 MB" is itself a change: it makes what held 90 MB history.
  const before = o('User said the bundle is 90 MB today.', '2026-04-01', 'fact');
  assert.equal(marks([before, grown]).get(before.id)?.kind, 'superseded');
});

test('near misses: the same number in another unit, another thing with no shared word, or no change', () => {
  const orders = o('User said we had 350 orders in May.', '2026-06-01', 'fact');
  const shrunk = o('Assistant said 140 MB, down from 350, with the reports exactly as they were.', '2026-07-03', 'event');
  assert.equal(marks([orders, shrunk]).size, 0, '350 orders is no size');
  // A bare number without a unit changes only what shares a subject word with it.
  const guests = o('User said 40 guests are coming to the party.', '2026-06-01', 'fact');
  const laps = o('User swims 25 laps every morning.', '2026-06-03', 'fact');
  const swim = o('User swam 30 laps, up from 25 last week.', '2026-06-10', 'event');
  assert.equal(marks([guests, swim]).size, 0, 'laps are no guests');
  assert.equal(marks([laps, swim]).get(laps.id)?.kind, 'superseded');
  // A number that is held, without a change said of it, supersedes nothing.
  const same = o('Assistant said the bundle is 350 MB, as before.', '2026-07-03', 'fact');
  assert.equal(marks([o('User said the bundle is 350MB.', '2026-06-16', 'fact'), same]).size, 0);
});

test('a new choice of the kind a task was to run supersedes the task; a task leaving it or a mere mention does not', () => {
  const task = o('Postgres 16. Nadia will run it in docker compose on the hetzner box.', '2026-03-03', 'task');
  const decided = o('Nadia decided to do it (on: for this workload SQLite is a very reasonable choice)', '2026-04-01', 'decision');
  assert.deepEqual(marks([task, decided]).get(task.id), { kind: 'superseded', date: '2026-04-01', by: decided.id });
  // A task that moves away from the old choice is part of the change, and stays open.
  const exportTask = o('Nadia will write an export script to move the test data over from postgres.', '2026-03-03', 'task');
  assert.equal(marks([exportTask, decided]).size, 0);
  // A fact that mentions another database chooses nothing.
  const mention = o('Claude said SQLite would also work for a single writer.', '2026-04-01', 'fact');
  assert.equal(marks([task, mention]).size, 0);
  // A decision that keeps the task's own choice is no change of it.
  const both = o('Nadia decided to keep Postgres 16 and add SQLite for the tests.', '2026-04-01', 'decision');
  assert.equal(marks([task, both]).has(task.id), false);
});

test('a deadline moved to another time supersedes the old time, said in other words', () => {
  const close = o(
    'Nadia said rule: orders for a delivery day close at 2 pm the day before. Tomás needs the numbers by then.',
    '2026-03-07',
    'fact',
  );
  const noon = o('Nadia said from now on the cutoff is noon on the day before.', '2026-06-01', 'preference');
  assert.deepEqual(marks([close, noon]).get(close.id), { kind: 'superseded', date: '2026-06-01', by: noon.id });

  // Near misses: another deadline (it names what the old one does not), no change said, the same time,
  // nothing shared (neither where the time is anchored nor a word), no deadline on the old side.
  const pharmacy = o('The pharmacy closes at 6 pm on Saturdays.', '2026-03-07', 'fact');
  const newsletter = o('From now on the cutoff for the newsletter is noon on Saturdays.', '2026-06-01', 'preference');
  assert.equal(marks([pharmacy, newsletter]).has(pharmacy.id), false, 'the newsletter is not the pharmacy');
  const grants = o('The deadline for grant applications is now 5 pm the day before the review.', '2026-06-01', 'fact');
  assert.equal(marks([close, grants]).has(close.id), false, 'grant applications are another deadline');
  const noChange = o('Nadia said the cutoff is noon on the day before.', '2026-06-01', 'fact');
  assert.equal(marks([close, noChange]).has(close.id), false, 'no change said');
  const same = o('Nadia said from now on the cutoff is 2 pm on the day before.', '2026-06-01', 'fact');
  assert.equal(marks([close, same]).has(close.id), false, 'the same time');
  const unanchored = o('From now on the cutoff is noon.', '2026-06-01', 'preference');
  assert.equal(marks([close, unanchored]).has(close.id), false, 'nothing shared');
  const meeting = o('Nadia said the tasting is at 2 pm the day before the demo.', '2026-03-07', 'fact');
  assert.equal(marks([meeting, noon]).has(meeting.id), false, 'a tasting is no deadline');
});

test('a date said changed in an errand list supersedes the older date of the same thing; another dated thing stays', () => {
  const ko = ['지훈', 'Mori'];
  const set = o(
    '지훈은 9월 19일 토요일 (2026-09-19). 망원동 집 만기가 9월 말이라 딱 맞아 (주제: 이사 날짜 정해졌어)',
    '2026-06-28',
    'fact',
  );
  const moved = o(
    'Mori는 한결이사에 날짜 변경 (26일 오전 가능한지) 망원동 집주인한테 퇴거 날짜 26일로 알리고 보증금 반환도 26일로.',
    '2026-09-03',
    'fact',
  );
  assert.deepEqual(marks([set, moved], ko).get(set.id), { kind: 'superseded', date: '2026-09-03', by: moved.id });
  // Near misses: another dated thing shares only the word for the date; the same day again; no change said.
  const wedding = o('지훈은 10월 17일 토요일 (2026-10-17) 12시 30분. 강남 라비엔홀 (주제: 결혼식 날짜 정해졌어)', '2026-06-28', 'fact');
  const internet = o('Mori는 인터넷 설치 날짜 변경 28일로 잡아 둘게.', '2026-09-03', 'fact');
  assert.equal(marks([wedding, internet], ko).size, 0);
  assert.equal(marks([set, o('Mori는 망원동 집주인한테 날짜 변경 없이 19일로 알렸어.', '2026-09-03', 'fact')], ko).size, 0);
  assert.equal(marks([set, o('Mori는 망원동 집주인한테 퇴거 날짜 26일로 알리기.', '2026-09-03', 'fact')], ko).size, 0);
  // English: the date said changed, of the same appointment.
  const visit = o("User said Theo's allergist visit is on 3 March at the Hawthorne clinic.", '2026-02-01', 'fact');
  const swim = o("User said the date of Theo's swim meet changed to the 14th.", '2026-02-20', 'fact');
  const later = o("User said the allergist changed the date of Theo's visit to the 14th.", '2026-02-20', 'fact');
  assert.equal(marks([visit, swim]).size, 0, 'a swim meet is no allergist visit');
  assert.equal(marks([visit, later]).get(visit.id)?.kind, 'superseded');
});
