/**
 * The offline Reflector: key-term extraction, the rules (dedupe, supersede,
 * keep high priority, aggregate low, keep the time line), the reflection
 * file format, the reflect job on a real temp home, and active memory using
 * reflections for older periods while staying inside its budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { validateConfig } from '../../lib/config/config.js';
import { homePaths } from '../../lib/platform/home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { observationId } from '../../lib/memory/observation-line.js';
import { writeObservations } from '../../lib/observe/job.js';
import { rebuildActiveMemory } from '../../lib/memory/active-memory-file.js';
import { contentWords, keyTerms, normaliseDates, preservation } from '../../lib/reflector/keywords.js';
import { aboutSameThing, reflectToRatio, reflectWithRules, splitSubject, telegraph } from '../../lib/reflector/heuristic.js';
import { formatReflectionFile, listReflections, parseReflectionFile } from '../../lib/memory/reflection-file.js';
import { measureReflection, runReflectJob, selectForReflection, splitIntoPeriods } from '../../lib/jobs/reflect-job.js';
import { renderObservations } from '../../lib/memory/reflection-text.js';
import { countTokens } from '../../lib/core/tokens.js';
import type { Observation, Priority } from '../../lib/core/types.js';
import { tempDir } from '../helpers/cli.js';

function o(text: string, date: string, extra: Partial<Observation> = {}): Observation {
  const category = extra.category ?? 'fact';
  return {
    id: observationId({ agent: 'main', session: 's1', category, text, salt: date }),
    date,
    time: extra.time ?? '10:00',
    priority: extra.priority ?? 'medium',
    done: false,
    category,
    text,
    tags: [],
    agent: 'main',
    provenance: { source: 'openclaw', agent: 'main', session: 's1', entryIds: ['a1b2c3d4'] },
    ...extra,
  };
}

test('dates are normalised so written and ISO forms match', () => {
  assert.equal(normaliseDates('on 7 May 2023 and May 8, 2023'), 'on 2023-05-07 and 2023-05-08');
  assert.equal(normaliseDates('in June 2023'), 'in 2023-06');
  assert.equal(normaliseDates('born 13 August'), 'born --08-13');
  const answer = contentWords('7 May 2023');
  const text = contentWords('User went to the support group yesterday (2023-05-07).', { expand: true });
  assert.ok([...answer].every((w) => text.has(w)));
  assert.ok(contentWords('June 2023').has('2023-06'));
  assert.ok(contentWords('I met her 2023-06-09', { expand: true }).has('2023-06'));
  assert.ok(contentWords('adoption agencies').has('agency'));
});

test('key terms: names, numbers, technologies; not the capital at the start of a sentence', () => {
  const terms = keyTerms(
    'Painting helps. Caroline moved from Sweden in 2019. She uses Node.js 20 and C++ with PostgreSQL; painting is fun. #design',
  );
  for (const t of ['caroline', 'sweden', '2019', 'node.js', '20', 'c++', 'postgresql', 'design']) assert.ok(terms.has(t), t);
  assert.ok(!terms.has('painting'), 'a sentence-initial capital of an ordinary word is not a name');
  assert.ok(!terms.has('she'));
  assert.equal(preservation(new Set(['a', 'b', 'c', 'd']), new Set(['a', 'b', 'c'])), 0.75);
  assert.equal(preservation(new Set(), new Set()), 1);
});

test('telegraphic form keeps content, names, numbers and negations, drops filler and repeats', () => {
  const seen = new Set<string>();
  const t = telegraph('Caroline really loves the new pottery class, and she does not like the 7am slot at all.', 'Caroline', seen);
  assert.match(t, /pottery class/);
  assert.match(t, /\bnot\b/);
  assert.match(t, /7am/);
  assert.doesNotMatch(t, /really|\bthe\b|Caroline/);
  assert.equal(telegraph('New pottery class upstairs.', 'Caroline', seen), 'upstairs', 'words the line already has are not repeated');
  assert.deepEqual(splitSubject('Melanie: painted a lake'), { subject: 'Melanie', body: 'painted a lake' });
  assert.deepEqual(splitSubject('User prefers TypeScript.'), { subject: 'User', body: 'User prefers TypeScript.' });
  assert.equal(splitSubject('The deploy failed.').subject, '');
});

const OPTIONS = { targetRatio: 4.5, minTokens: 80, sourceTokens: 1000 };

test('rules: duplicates collapse, superseded facts are marked not repeated, high priority and decisions survive, low priority aggregates, time line kept', () => {
  const obs = [
    o('User prefers MySQL for the billing database.', '2026-01-05', { category: 'preference', priority: 'high' }),
    o('The staging server runs on port 8443.', '2026-01-05'),
    o('The staging server runs on port 8443.', '2026-01-05', { time: '11:00' }),
    o('User said thanks for the quick help.', '2026-01-06', { priority: 'low' }),
    o('User likes the dark theme in the editor.', '2026-01-06', { priority: 'low', time: '12:00' }),
    o('Team decided to ship the billing API on 2026-02-01.', '2026-01-07', { category: 'decision', priority: 'high' }),
    o('User prefers PostgreSQL for the billing database.', '2026-01-20', { category: 'preference', priority: 'high' }),
  ];
  const lines = reflectWithRules({ agent: 'main', periodStart: '2026-01-05', periodEnd: '2026-01-20', observations: obs }, OPTIONS);
  const text = lines.map((l) => `${l.date} ${l.priority} ${l.category} ${l.text}`).join('\n');
  assert.equal(text.match(/8443/g)?.length, 1, 'duplicate said once');
  assert.ok(!lines.some((l) => l.date === '2026-01-05' && l.category === 'preference'), 'the superseded preference is not repeated');
  const newest = lines.find((l) => l.category === 'preference')!;
  assert.equal(newest.date, '2026-01-20');
  assert.match(newest.text, /PostgreSQL/);
  assert.match(newest.text, /\(was: .*MySQL/);
  assert.ok(
    lines.some(
      (l) => l.category === 'decision' && l.priority === 'high' && l.text === 'Team decided to ship the billing API on 2026-02-01.',
    ),
  );
  const low = lines.filter((l) => l.priority === 'low');
  assert.equal(low.length, 1, 'low priority of a day aggregates into one line');
  assert.match(low[0]!.text, /^Minor: /);
  assert.match(low[0]!.text, /dark theme/);
  assert.deepEqual(
    lines.map((l) => l.date),
    [...lines.map((l) => l.date)].sort(),
    'time line in order',
  );
});

test('supersession only between statements about the same thing: decisions for different services all stand (issue 20)', () => {
  const obs: Observation[] = [];
  for (let i = 1; i <= 30; i++) {
    const id = `mk${String(i).padStart(4, '0')}x`;
    obs.push(
      o(`We decided to use Redis for the ${id} service.`, `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, {
        category: 'decision',
        priority: 'high',
        time: `${String(i % 24).padStart(2, '0')}:00`,
      }),
    );
  }
  const lines = reflectWithRules({ agent: 'main', periodStart: '2026-01-01', periodEnd: '2026-01-31', observations: obs }, OPTIONS);
  const text = lines.map((l) => l.text).join('\n');
  assert.doesNotMatch(text, /\(was:/);
  for (let i = 1; i <= 30; i++) assert.match(text, new RegExp(`mk${String(i).padStart(4, '0')}x`));
  assert.equal(aboutSameThing('User prefers MySQL for the billing database.', 'User prefers PostgreSQL for the billing database.'), true);
  assert.equal(
    aboutSameThing('We decided to use Redis for the mk0001x service.', 'We decided to use Redis for the mk0002x service.'),
    false,
  );
  assert.equal(
    aboutSameThing('User prefers tabs for indentation in Python files.', 'User prefers tabs for indentation in Go files.'),
    false,
  );
  assert.equal(aboutSameThing('The staging server runs on port 8443.', 'The staging server runs on port 9443.'), true);
});

test('supersession: a decision about another thing stands beside the first, also when only its scope or its object changed (issue 20)', () => {
  const differentThings: Array<[string, string]> = [
    // The scope changed with the value: caching is not storage.
    [
      'User decided to use Redis for caching in the billing service API layer.',
      'User decided to use Postgres for storage in the billing service API layer.',
    ],
    ['User prefers tabs in Python files and spaces elsewhere.', 'User prefers spaces in Go files and spaces elsewhere.'],
    // The same value for another thing: two decisions.
    ['We decided to deploy the API on Fly.io.', 'We decided to deploy the dashboard on Fly.io.'],
    ['User decided that the billing service uses Redis.', 'User decided that the search service uses Redis.'],
    ['사용자는 결제 서비스에 Redis를 쓰기로 했어요.', '사용자는 검색 서비스에 Redis를 쓰기로 했어요.'],
  ];
  for (const [older, newer] of differentThings) {
    assert.equal(aboutSameThing(older, newer), false, `${older} / ${newer}`);
    const lines = reflectWithRules(
      {
        agent: 'main',
        periodStart: '2026-01-01',
        periodEnd: '2026-01-31',
        observations: [
          o(older, '2026-01-02', { category: 'decision', priority: 'high' }),
          o(newer, '2026-01-09', { category: 'decision', priority: 'high' }),
        ],
      },
      OPTIONS,
    );
    const text = lines.map((l) => l.text).join('\n');
    assert.doesNotMatch(text, /\(was:/, text);
  }
  // A changed value of the same thing still supersedes.
  for (const [older, newer] of [
    ['사용자는 결제 서비스에 Redis를 쓰기로 했어요.', '사용자는 결제 서비스에 Postgres를 쓰기로 했어요.'],
    ['User prefers dark mode in the editor.', 'User prefers light mode in the editor.'],
    ['The deadline for the Q2 report moved to Friday.', 'The deadline for the Q2 report moved to Monday.'],
    ['We decided to deploy the API on Fly.io.', 'We decided to deploy the API on Render.'],
  ] as Array<[string, string]>)
    assert.equal(aboutSameThing(older, newer), true, `${older} / ${newer}`);
});

function generated(days: number, perDay: number): Observation[] {
  const subjects = ['PostgreSQL', 'Redis', 'the auth service', 'Kubernetes', 'the mobile app', 'GraphQL', 'Terraform', 'the CI pipeline'];
  const verbs = [
    'was slow again today because of',
    'needs a review of',
    'got a new dashboard for',
    'had a flaky test in',
    'was discussed at length with regard to',
  ];
  const out: Observation[] = [];
  for (let d = 0; d < days; d++) {
    const date = `2026-03-${String(d + 1).padStart(2, '0')}`;
    for (let i = 0; i < perDay; i++) {
      const s = subjects[(d * 3 + i) % subjects.length]!;
      const v = verbs[(d + i) % verbs.length]!;
      const priority: Priority = i % 7 === 0 ? 'high' : i % 3 === 0 ? 'low' : 'medium';
      out.push(
        o(`User said that ${s} ${v} the release ${d}.${i} and that it is really quite important to keep an eye on it.`, date, {
          priority,
          time: `${String(9 + (i % 8)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
        }),
      );
    }
  }
  return out;
}

test('a larger period compresses at least 3:1 (with 15 % high-priority lines kept verbatim) and keeps at least 70 % of its key terms', () => {
  const obs = generated(12, 20);
  const sourceTokens = Math.ceil(renderObservations(obs).length / 4);
  const lines = reflectWithRules(
    { agent: 'main', periodStart: obs[0]!.date, periodEnd: obs[obs.length - 1]!.date, observations: obs },
    { ...OPTIONS, sourceTokens },
  );
  const m = measureReflection(obs, lines);
  assert.ok(m.compressionRatio >= 3, `compression ${m.compressionRatio}`);
  assert.ok(m.keywordPreservation >= 0.7, `keywords ${m.keywordPreservation} missing ${m.missing.join(',')}`);
  assert.ok(lines.filter((l) => l.priority === 'high').length >= 12, 'high-priority items survive');
});

test('the budget is calibrated in exact tokens: never much under the target ratio, near it when there is enough to say', () => {
  const obs = generated(12, 20).filter((x) => x.priority !== 'high');
  const input = { agent: 'main', periodStart: obs[0]!.date, periodEnd: obs[obs.length - 1]!.date, observations: obs };
  const loose = measureReflection(obs, reflectToRatio(input, 5));
  assert.ok(loose.compressionRatio >= 5 * 0.95, `target 5, got ${loose.compressionRatio} (repetitive input: nothing new is padded in)`);
  const tight = measureReflection(obs, reflectToRatio(input, 12));
  assert.ok(Math.abs(tight.compressionRatio - 12) / 12 < 0.1, `target 12, got ${tight.compressionRatio}`);
});

test('reflection file: frontmatter fields and lines survive a round trip', () => {
  const lines = [
    {
      date: '2026-01-05',
      priority: 'high' as const,
      done: false,
      category: 'decision',
      text: 'PostgreSQL is the main database (was: MySQL).',
      tags: ['postgres'],
    },
    { date: '2026-01-06', priority: 'low' as const, done: true, category: 'task', text: 'Minor: dark theme; faster CI', tags: [] },
  ];
  const meta = {
    periodStart: '2026-01-05',
    periodEnd: '2026-01-31',
    agent: 'main',
    reflector: 'heuristic (offline)',
    created: '2026-02-01T10:00:00.000Z',
    tokensBefore: 1200,
    tokensAfter: 200,
    compressionRatio: 6,
    keywordPreservation: 0.875,
    sourceObservations: ['o-0123456789', 'o-abcdefabcd'],
  };
  const text = formatReflectionFile(meta, lines);
  assert.match(text, /^---\nperiod_start: 2026-01-05\nperiod_end: 2026-01-31\n/);
  assert.match(text, /source_observations: \[o-0123456789, o-abcdefabcd\]/);
  assert.match(text, /## 2026-01-05\n- 🔴 \[decision\] PostgreSQL is the main database \(was: MySQL\)\. #postgres/);
  const parsed = parseReflectionFile(text, '/x.md')!;
  assert.deepEqual(parsed.meta, meta);
  assert.deepEqual(parsed.lines, lines);
  assert.equal(parseReflectionFile('# just notes\n', '/y.md'), undefined);
});

test('selection and periods: the recent window stays raw, months and size split periods', () => {
  const obs = [o('a', '2026-01-30'), o('b', '2026-02-02'), o('c', '2026-02-20'), o('d', '2026-02-25')];
  assert.deepEqual(
    selectForReflection(obs, '2026-02-25', 7).map((x) => x.text),
    ['a', 'b'],
  );
  assert.deepEqual(selectForReflection([obs[3]!], '2026-02-25', 7, { orRecent: true }), [], 'the newest day is never reflected on its own');
  assert.deepEqual(
    selectForReflection(obs.slice(2), '2026-02-25', 7, { orRecent: true }).map((x) => x.text),
    ['c'],
  );
  assert.deepEqual(
    splitIntoPeriods(obs, 100000).map((p) => p.map((x) => x.date)),
    [['2026-01-30'], ['2026-02-02', '2026-02-20', '2026-02-25']],
  );
  assert.equal(splitIntoPeriods(generated(6, 20), 1500).length > 1, true);
});

test('reflect job on a home: writes the reflection with its scores, keeps the originals, never reflects twice; active memory uses it within budget', async () => {
  const { dir, cleanup } = await tempDir('ocm-reflect-');
  try {
    const paths = homePaths(join(dir, 'home'));
    await mkdir(paths.machine, { recursive: true });
    const old = generated(10, 20);
    const recent = [
      o('User is now migrating the auth service to Rust.', '2026-04-10', { priority: 'high', category: 'state' }),
      o('The demo is on Friday 2026-04-17.', '2026-04-11', { category: 'task' }),
    ];
    await writeObservations(paths, [...old, ...recent]);
    const dayFilesBefore = (await readdir(paths.memory)).sort();
    const config = validateConfig({ timezone: 'UTC', reflector: { threshold_tokens: 1000 }, active_memory: { budget_tokens: 1500 } });
    const logger = createMemoryLogger();
    const job = { paths, config, env: {}, logger, timeZone: 'UTC', now: () => new Date('2026-04-11T12:00:00Z') };
    const r = await runReflectJob(job);
    assert.ok(r.reflections.length >= 1);
    const reflected = r.reflections.flatMap((x) => [x.periodStart, x.periodEnd]);
    assert.ok(
      reflected.every((d) => d < '2026-04-05'),
      'the recent window is not reflected',
    );
    for (const x of r.reflections) {
      assert.ok(x.compressionRatio >= 3, `ratio ${x.compressionRatio}`);
      const text = await readFile(x.path, 'utf8');
      for (const key of [
        'period_start',
        'period_end',
        'source_observations',
        'compression_ratio',
        'tokens_before',
        'tokens_after',
        'keyword_preservation',
      ])
        assert.match(text, new RegExp(`^${key}: `, 'm'));
    }
    assert.deepEqual((await readdir(paths.memory)).sort(), dayFilesBefore, 'originals stay');
    const files = await listReflections(paths, 'main');
    assert.equal(new Set(files.flatMap((f) => f.meta.sourceObservations)).size, old.length, 'every old observation is covered once');

    const again = await runReflectJob(job);
    assert.equal(again.reflections.length, 0, 'below the threshold now: nothing to do');
    const forced = await runReflectJob({ ...job, force: true });
    assert.deepEqual(
      forced.reflections.map((x) => [x.periodStart, x.periodEnd, x.observations]),
      [['2026-04-10', '2026-04-10', 1]],
      '--force: all but the newest day, nothing twice',
    );

    const am = await rebuildActiveMemory({ paths, config, agent: 'main', timeZone: 'UTC', now: new Date('2026-04-11T12:00:00Z') });
    assert.ok(am.tokens <= 1500);
    assert.equal(countTokens(am.text), am.tokens);
    assert.match(am.text, /migrating the auth service to Rust/, 'recent observations stay raw');
    assert.match(am.text, /\[Reflection 2026-03-01 → /, 'reflections are linked');
    // Raw observation lines carry their [category]; reflection lines stand in for the old ones.
    assert.ok(!/\[fact\] User said that/.test(am.text), 'reflected observations are not shown raw');
    assert.ok(!/### 2026-03-/.test(am.text), 'old days are not listed as recent');
    assert.match(am.text, /User said that .* \(2026-03-\d\d\)/, 'reflection lines stand in for them');
  } finally {
    await cleanup();
  }
});
