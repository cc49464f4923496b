/**
 * Secrets never reach a file, an index, a cache, a Git remote or an LLM
 * unmasked (issue #22 item 2): the generated corpus (51 kinds, bare and
 * labelled, as user messages and as tool results) through `ocm-run run` with
 * the LLM Observer on a local fake OpenAI server, `ocm-run search` and
 * `ocm-run sync` to a local bare remote — then every channel is searched for
 * every secret. The same run prints the docs/masking.md table:
 * `npm run bench -- masking`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHANNELS, maskingChannelsTable, runMaskingChannels } from '../helpers/masking-channels.js';

const SEED = Number(process.env.OCM_CORPUS_SEED ?? 20261126);

test(`every channel (seed ${SEED}): ≥ 98 % of the corpus masked, each channel reached, harmless text kept`, async () => {
  const report = await runMaskingChannels({ seed: SEED });
  const table = maskingChannelsTable(report);
  for (const channel of CHANNELS) {
    const s = report.channels[channel];
    // Reached: the LLM saw every line, the Observer kept every user line, and so on downstream.
    const minReached = channel === 'active-memory' || channel === 'query-cache' ? 1 : Math.floor(report.instances * 0.9);
    assert.ok(s.reached >= minReached, `${channel}: only ${s.reached} of ${report.instances} instances reached it\n${table}`);
    assert.ok(
      1 - s.leaked / s.reached >= 0.98,
      `${channel}: ${s.leaked} of ${s.reached} leak (${s.leaks.slice(0, 12).join(', ')})\n${table}`,
    );
  }
  assert.ok(report.harmlessAltered.length <= 2, `harmless classes altered: ${report.harmlessAltered.join(', ')}`);
  assert.equal(report.queryLeaks, 0, 'a secret typed into search reached the query cache or the index');
});
