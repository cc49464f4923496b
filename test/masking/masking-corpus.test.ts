/**
 * The generated masking corpus (test/helpers/secret-corpus.ts) through
 * maskSecrets: ≥ 98 % of the instances of 50 kinds masked, bare and
 * labelled, and at most 2 of 39 harmless classes altered.
 * Every channel a transcript line reaches is checked with the same corpus in
 * test/masking/masking-channels.test.ts. Set OCM_CORPUS_SEED to try another seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskSecrets } from '../../lib/masking/masking.js';
import { harmlessCorpus, leaks, SECRET_KINDS, secretCorpus } from '../helpers/secret-corpus.js';

const SEED = Number(process.env.OCM_CORPUS_SEED ?? 20261126);

test(`corpus (seed ${SEED}): at least 40 kinds, at least 98 % of instances masked, no kind below 80 %`, () => {
  assert.ok(SECRET_KINDS.length >= 40, `${SECRET_KINDS.length} kinds`);
  const corpus = secretCorpus(SEED, 3);
  const misses = corpus.filter((i) => leaks(maskSecrets(i.text).text, i.core));
  const recall = 1 - misses.length / corpus.length;
  const shown = misses.slice(0, 20).map((i) => `${i.kind}/${i.context}: ${maskSecrets(i.text).text.slice(0, 160)}`);
  assert.ok(
    recall >= 0.98,
    `seed ${SEED}: ${misses.length} of ${corpus.length} leak (${(recall * 100).toFixed(1)} %):\n${shown.join('\n')}`,
  );
  for (const kind of SECRET_KINDS) {
    const of = corpus.filter((i) => i.kind === kind);
    const missed = misses.filter((i) => i.kind === kind);
    assert.ok(
      missed.length / of.length <= 0.2,
      `seed ${SEED}: ${kind} leaks ${missed.length} of ${of.length}:\n${missed.map((i) => i.text).join('\n')}`,
    );
  }
});

test(`harmless corpus (seed ${SEED}): at most 2 of 39 classes altered`, () => {
  const harmless = harmlessCorpus(SEED, 5);
  const classes = new Set(harmless.map((h) => h.cls));
  assert.equal(classes.size, 39);
  const altered = harmless.filter((h) => maskSecrets(h.text).text !== h.text);
  const alteredClasses = new Set(altered.map((h) => h.cls));
  assert.ok(
    alteredClasses.size <= 2,
    `seed ${SEED}: ${alteredClasses.size} classes altered:\n${altered.map((h) => `${h.cls}: ${h.text.slice(0, 100)} → ${maskSecrets(h.text).text.slice(0, 100)}`).join('\n')}`,
  );
});

test('the corpus is reproducible: the same seed gives the same texts, another seed other ones', () => {
  assert.deepEqual(secretCorpus(7), secretCorpus(7));
  assert.notDeepEqual(secretCorpus(7), secretCorpus(8));
});
