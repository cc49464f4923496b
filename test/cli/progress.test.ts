/** The ETA of a long job's progress line (observe backlog, index embeddings, reflect): from the share done and the time so far. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etaText, formatDuration } from '../../scripts/progress.js';

test('an ETA from the share done and the time so far, rounded as people say it; none while too little is known', () => {
  assert.equal(etaText(0.25, 0, 60_000), ' · ~3 min left', 'a quarter in one minute: three more');
  assert.equal(etaText(0.5, 0, 20_000), ' · ~20 s left');
  assert.equal(etaText(0.01, 0, 60_000), '', 'under 2 % done: no guess');
  assert.equal(etaText(0.5, 0, 1_000), '', 'under 2 s: no guess');
  assert.equal(etaText(1, 0, 60_000), '', 'done: nothing left to say');
  assert.equal(formatDuration(2 * 3600_000 + 5 * 60_000), '2 h 5 min');
  assert.equal(formatDuration(45_000), '45 s');
});
