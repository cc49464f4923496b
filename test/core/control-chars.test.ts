import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeControlChars, escapeJsonControls, hasControlChars, stripControlChars } from '../../lib/core/control-chars.js';

const ESC = '\u001b';

test('stripControlChars removes whole escape sequences and control characters, keeps tab, line feed and every other character', () => {
  const cases: Array<[string, string]> = [
    [`build ${ESC}[2J${ESC}[H runs`, 'build  runs'], // screen clear, cursor home
    [`a ${ESC}]0;pwned${'\u0007'} b`, 'a  b'], // window title (OSC … BEL)
    [`a ${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\ b`, 'a link b'], // OSC 8 hyperlink (… ST)
    [`seen ${ESC}[8mhidden${ESC}[0m`, 'seen hidden'], // concealed text is shown
    [`${ESC}[1;31mred${ESC}[0m`, 'red'],
    [`x${ESC}Py${ESC}\\z`, 'xz'], // DCS string
    ['nul\u0000byte and bell\u0007 and del\u007f', 'nulbyte and bell and del'],
    ['c1 csi \u009b2J and \u0085 next line', 'c1 csi  and  next line'],
    ['windows\r\nline\rends', 'windows\nline\nends'],
    ['tab\tand\nnewline stay; 한국어 ✅ 🔴 too', 'tab\tand\nnewline stay; 한국어 ✅ 🔴 too'],
    [`cut short ${ESC}[3`, 'cut short '],
    [`cut ${ESC}]0;no end`, 'cut '],
  ];
  for (const [input, expected] of cases) {
    assert.equal(stripControlChars(input), expected, JSON.stringify(input));
    assert.equal(hasControlChars(stripControlChars(input).replace(/[\t\n]/g, '')), false);
  }
  const plain = 'nothing to do here';
  assert.equal(stripControlChars(plain), plain);
});

test('escapeControlChars shows control characters as \\xNN for a terminal; escapeJsonControls keeps JSON valid and the same value', () => {
  assert.equal(escapeControlChars(`a${ESC}[2Jb\u0000c\u009bd\te\nf`), 'a\\x1b[2Jb\\x00c\\x9bd\te\nf');
  const value = { text: `x${ESC}]0;t\u0007 \u007f \u0085 \u009b` };
  const json = escapeJsonControls(JSON.stringify(value));
  assert.doesNotMatch(json, /[\u0000-\u001f\u007f-\u009f]/);
  assert.deepEqual(JSON.parse(json), value);
});
