import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anyOf, oneOf, pattern } from '../../lib/core/pattern.js';

test('pattern joins named parts into the expression written on one line: same source, flags and matches', () => {
  const GREETING = anyOf('hi', /hello+/, "g'day");
  const composed = pattern([/^(?:oh[,\s]+)?/, GREETING, /\b[\s,!]*/, anyOf(...['there', 'you'], 'all')], 'i');
  const written = /^(?:oh[,\s]+)?(?:hi|hello+|g'day)\b[\s,!]*(?:there|you|all)/i;
  assert.equal(composed.source, written.source);
  assert.equal(composed.flags, written.flags);
  for (const s of ['Hi there', 'oh, HELLOOO you', "g'day all", 'high there', 'hello']) assert.equal(composed.test(s), written.test(s), s);
});

test('oneOf makes top-level alternatives (no group), each keeping its own anchors', () => {
  const re = oneOf([/^i (?:hope|bet) so\b/, /^i'll keep you posted\b/, /\bwon't give up\b/], 'i');
  assert.equal(re.source, "^i (?:hope|bet) so\\b|^i'll keep you posted\\b|\\bwon't give up\\b");
  assert.ok(re.test('I hope so'));
  assert.ok(re.test("we won't give up"));
  assert.ok(!re.test('so I hope so'));
});
