/**
 * The heuristic Observer's fast paths give what the general paths give: each
 * test runs edge cases through the public function, once down the fast path
 * and once down the general one (or against the documented equivalent).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanMessageText, splitSentences } from '../../../lib/observer/heuristic/sentences.js';
import { detectTags } from '../../../lib/observer/heuristic/tags.js';
import { addDays, findDateAnchors, weekdayOf } from '../../../lib/observer/heuristic/time.js';
import { oneLine } from '../../../lib/memory/observation-line.js';

test('cleanMessageText: a one-line message cleans as it does among other lines', () => {
  const lines = [
    'I prefer TypeScript. (item 42-1)',
    '  padded line  ',
    '\u00a0no-break spaces\u00a0',
    '[tool call: read_file path=src/a.ts]',
    '  [toolResult] ok',
    '[image]',
    ' [Sticker] ',
    '[image: a dog]',
    '[link](http://x.y) text',
    '![alt](http://x.y/i.png) after',
    '| a | b |',
    '|---|:-:|',
    '| only one',
    '- item',
    '-item',
    '* star item',
    '+ plus',
    '• bullet',
    '1. first',
    '12) twelfth',
    '# Heading',
    '>quote',
    '> quote',
    '→ run(x)',
    '-> go(y)',
    '=> f(z)',
    '$ npm test',
    '$5 only',
    '= not a tool',
    '**bold** and __under__',
    '_em_ and *em*',
    'use `npm ci` here',
    'a_b_c snake',
    '\u2028sep',
    '',
    '         # nine spaces',
  ];
  for (const line of lines) {
    const fast = cleanMessageText(line);
    assert.deepEqual(fast, cleanMessageText(`${line}\n`), JSON.stringify(line));
    assert.deepEqual(fast, cleanMessageText(`\n${line}`), JSON.stringify(line));
  }
});

test('splitSentences: boundaries, abbreviations and initials, ASCII and not', () => {
  const cases: [string, string[]][] = [
    ['Dr. Smith arrived. He left.', ['Dr. Smith arrived.', 'He left.']],
    ['J. R. R. Tolkien wrote it. Nice one.', ['J. R. R. Tolkien wrote it.', 'Nice one.']],
    ['See e.g. this one. And that', ['See e.g. this one.', 'And that']],
    ['Wait... what?! Yes.', ['Wait...', 'what?!', 'Yes.']],
    ['He said "go." Then he left.', ['He said "go."', 'Then he left.']],
    ['I finished it today. (item 42-7)', ['I finished it today (item 42-7).']],
    ['Done! (ticket 4242) More.', ['Done!', '(ticket 4242) More.']],
    ['It needs approx. 5 GB. Ok then.', ['It needs approx. 5 GB.', 'Ok then.']],
    ['We are U.S. based. Fine.', ['We are U.S. based.', 'Fine.']],
    ['End.\tTab next.', ['End.', 'Tab next.']],
    ['A sentence.\u00a0Then another.', ['A sentence.', 'Then another.']],
    ['Café. Next one.', ['Café.', 'Next one.']],
    ['Zoë B. Smith came. Bye.', ['Zoë B. Smith came.', 'Bye.']],
    ['Émile a. b. Then.', ['Émile a.', 'b.', 'Then.']],
    ['v1.2.3 is out. Try it.', ['v1.2.3 is out.', 'Try it.']],
    ['Really?) Yes.', ['Really?)', 'Yes.']],
    ['Okay.] Next', ['Okay.]', 'Next']],
    ['Hmm…。 Next', ['Hmm…。', 'Next']],
    ["I'm trying to pick the right ones - any advice on that?", ["I'm trying to pick the right ones.", 'any advice on that?']],
    ['Short - really?', ['Short - really?']],
    ['What is it - any idea?', ['What is it - any idea?']],
  ];
  for (const [text, sentences] of cases) assert.deepEqual(splitSentences(text), sentences, text);
  // One line or several: the same sentences.
  const text = cases.map(([t]) => t).join('\n');
  assert.deepEqual(
    splitSentences(text),
    cases.flatMap(([, s]) => s),
  );
});

test('detectTags: ASCII text tags as it does with a non-ASCII word added', () => {
  const texts = [
    'I use TypeScript and ts-node',
    'GPT4o vs gpt-4 vs GPT',
    'node.js and Node',
    'C# and .NET, also c++',
    'k8s with kubectl',
    'sign-in via OAuth2',
    'PostgreSQL over MySQL',
    'pull requests on GitHub',
    'JSON web tokens',
    'x_ts ts_x tsx2 TSX',
    'Python3 and pytest',
    'Go modules, golang',
    'embeddings from OpenAI',
    'We met Caroline in Seoul',
    "Caroline's dog saw Max",
    'we met  Mary-Jane there',
    'x, Anna; Bob and 1 Carl',
    'ok Zed_x then Abc1 then Ann-b2 and Eve-',
    'I AM Alan. Then\tBrian came',
    'Tests suite on CI',
    'REST API endpoints',
    '#deploy and #Rust',
    'java not javascript',
  ];
  for (const t of texts) {
    for (const exclude of [[], ['Caroline']]) {
      assert.deepEqual(detectTags(t, [], 3, exclude), detectTags(`${t} é`, [], 3, exclude), t);
      assert.deepEqual(detectTags(t, ['sql'], 5, exclude), detectTags(`${t} é`, ['sql'], 5, exclude), t);
    }
  }
});

test('findDateAnchors: rules skipped for want of their date words still find every expression', () => {
  const ref = { year: 2026, month: 4, day: 10 };
  const cases: [string, [string, string][]][] = [
    ['See you TOMORROW.', [['TOMORROW', '2026-04-11']]],
    ['tmrw then', [['tmrw', '2026-04-11']]],
    ['Demo on Tues.', [['on Tues', '2026-04-14']]],
    ['by thurs', [['by thurs', '2026-04-16']]],
    ['_monday is not a date', []],
    ['2days ago', []],
    ['It was 2 days ago.', [['2 days ago', '2026-04-08']]],
    ['in two weeks', [['in two weeks', 'week of 2026-04-20']]],
    ['mid-week sync', []],
    ['this weekend', [['this weekend', '2026-04-11']]],
    ['this morning', [['this morning', '2026-04-10']]],
    ['LAST NIGHT was fun', [['LAST NIGHT', '2026-04-09']]],
    ['since Monday', [['since Monday', '2026-04-06']]],
    ['by the end of this week', [['this week', 'week of 2026-04-06']]],
    ['the day after tomorrow', [['the day after tomorrow', '2026-04-12']]],
    ['a couple of months ago', [['a couple of months ago', 'February 2026']]],
    ['Sunday-ish', []],
    ['x-day', []],
    ["yesterday's build", [['yesterday', '2026-04-09']]],
    ['Monday2', []],
  ];
  for (const [sentence, anchors] of cases) {
    assert.deepEqual(
      findDateAnchors(sentence, ref).map((a) => [a.expression, a.resolved]),
      anchors,
      sentence,
    );
  }
});

test('addDays and weekdayOf on day numbers agree with Date, years 0-99 (read as 19xx by Date.UTC) included', () => {
  const viaDate = (d: { year: number; month: number; day: number }, days: number) => {
    const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
    date.setUTCDate(date.getUTCDate() + days);
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  };
  for (const year of [50, 99, 100, 1600, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 9999]) {
    for (const month of [1, 2, 3, 12]) {
      for (const day of [1, 28, 29, 31, 0, -5]) {
        const d = { year, month, day };
        assert.equal(weekdayOf(d), new Date(Date.UTC(year, month - 1, day)).getUTCDay(), JSON.stringify(d));
        for (const days of [0, 1, -1, 30, -365, 1000, -146097])
          assert.deepEqual(addDays(d, days), viaDate(d, days), `${JSON.stringify(d)} ${days}`);
      }
    }
  }
});

test('oneLine (ends tested apart from the inside) is the regex collapse, tidy text returned as is', () => {
  for (const s of [
    '',
    ' ',
    'a',
    'a b',
    'a  b',
    'a\tb',
    'a\u00a0b',
    ' a',
    'a ',
    '\ta',
    'a\t',
    '\u2028',
    'a\u3000b',
    'a\nb',
    'a b c',
    '\ufeffa',
    'é b',
    '  ',
  ]) {
    assert.equal(oneLine(s), s.replace(/\s+/g, ' ').trim(), JSON.stringify(s));
  }
});
