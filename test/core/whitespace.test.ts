import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cap, capOneLine, collapseWhiteSpace, oneLine, oneLineStart } from '../../lib/core/whitespace.js';

/** The regular-expression spellings the fast paths must agree with. */
const slowCollapse = (text: string) => text.replace(/\s+/g, ' ');
const slowCapOneLine = (text: string, max: number) => cap(slowCollapse(text).trim(), max);

test('every UTF-16 code unit is white space for the fast paths exactly when /\\s/ says so', () => {
  for (let code = 0; code <= 0xffff; code += 1) {
    const ch = String.fromCharCode(code);
    for (const text of [`a${ch}b`, `a ${ch}b`, `${ch}a${ch}${ch}`]) {
      assert.equal(collapseWhiteSpace(text), slowCollapse(text), `U+${code.toString(16)} in ${JSON.stringify(text)}`);
      assert.equal(oneLine(text), slowCollapse(text).trim(), `U+${code.toString(16)}`);
      assert.equal(capOneLine(text, 2), slowCapOneLine(text, 2), `U+${code.toString(16)}`);
    }
  }
});

test('capOneLine and collapseWhiteSpace agree with the regular expressions on random texts and caps', () => {
  let x = 7;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const pieces = [
    'word',
    'x',
    'долго',
    '데이터',
    '😀',
    '\t',
    '\n\n',
    ' ',
    '  ',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '\u3000',
    ' '.repeat(300),
    'y'.repeat(450),
  ];
  for (let i = 0; i < 400; i++) {
    let text = '';
    const n = Math.floor(rand() * 200);
    for (let k = 0; k < n; k++) text += pieces[Math.floor(rand() * pieces.length)];
    assert.equal(collapseWhiteSpace(text), slowCollapse(text));
    for (const max of [1, 2, 3, 80, 120, 200, 1000]) {
      assert.equal(capOneLine(text, max), slowCapOneLine(text, max), `max ${max}: ${JSON.stringify(text.slice(0, 60))}`);
    }
  }
});

test('oneLineStart: a start taken further is the start built at once (cut inside a word, at a space, at a line break)', () => {
  let x = 3;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const pieces = ['word', 'x', 'ab cd', '😀', '\t', '\n  ', ' ', '  ', '\u00a0', 'y'.repeat(40)];
  for (let i = 0; i < 2000; i++) {
    let text = rand() < 0.5 ? ' ' : '';
    for (let k = Math.floor(rand() * 40); k > 0; k--) text += pieces[Math.floor(rand() * pieces.length)];
    const first = 1 + Math.floor(rand() * 30);
    const second = first + Math.floor(rand() * 60);
    const once = oneLineStart(text, second).text;
    const further = oneLineStart(text, second, oneLineStart(text, first)).text;
    const whole = slowCollapse(text).trim();
    // Both are starts of the one-line text, long enough for a cut at `second - 1`.
    for (const start of [once, further]) {
      assert.ok(whole.startsWith(start), JSON.stringify({ text, first, second, start }));
      assert.ok(start.length >= Math.min(second, whole.length), JSON.stringify({ text, first, second, start }));
    }
    assert.equal(cap(further, second - 1), cap(whole, second - 1));
  }
});

test('capOneLine: empty and all-blank texts, exact-length texts, a surrogate pair at the cut', () => {
  assert.equal(capOneLine('', 10), '');
  assert.equal(capOneLine(' \n\t ', 10), '');
  assert.equal(capOneLine('  abc  def  ', 7), 'abc def');
  assert.equal(capOneLine('  abc  defg  ', 7), 'abc def…');
  assert.equal(capOneLine('ab😀cd', 3), 'ab…'); // the pair would be cut in half: it goes whole
  assert.equal(capOneLine('ab😀cd', 4), 'ab😀…');
});
