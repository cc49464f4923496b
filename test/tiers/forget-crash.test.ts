/**
 * `forget` killed with SIGKILL at every named step (lib/tiers/forget.ts ForgetStep,
 * via the OCM_TEST_CRASH_AT hook — no wall-clock guesses) is completed by the
 * next run, whichever runs next: the same forget again or a scheduled tick.
 * Afterwards no file in the home or the vault holds the forgotten text or its
 * vectors (day files, rollback copies, reflections, logs, index, embedding
 * and query caches, active memory, the journal itself), nothing else was
 * forgotten, and exactly one audit entry records it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { embeddingServer, filesContaining, secretHome } from '../helpers/forget-home.js';
import { idsByTier } from '../helpers/tier-home.js';
import { readAudit } from '../../lib/tiers/audit.js';
import type { ForgetStep } from '../../lib/tiers/forget.js';

const TODAY = new Date().toISOString().slice(0, 10);
const STEPS: ForgetStep[] = [
  'forget-journaled',
  'forget-day-file',
  'forget-day-files',
  'forget-copies',
  'forget-reflections',
  'forget-logs',
  'forget-state',
  'forget-indexed',
  'forget-active-memory',
  'forget-audited',
];

const server = await embeddingServer();
after(() => server.close());

for (const [i, step] of STEPS.entries()) {
  // Alternate what runs next: the user repeating the forget, or the scheduled tick.
  const next = i % 2 === 0 ? 'forget' : 'run';
  test(`forget killed at ${step} is completed by the next ${next}`, async (t) => {
    const { dir, cleanup } = await tempDir('ocm-forget-crash-');
    t.after(cleanup);
    const home = await secretHome(dir, server.url, TODAY);
    const countBefore = Object.values(await idsByTier(home.paths, home.vault)).flat().length;
    const forget = ['forget', '--query', 'wallaby way', '--yes', '--home', home.paths.root];

    const killed = await runCli(forget, { env: { OCM_TEST: '1', OCM_TEST_CRASH_AT: step } });
    assert.equal(killed.code, -1, `killed at ${step}, not ended with ${killed.code}: ${killed.stderr}`);
    assert.equal((await readdir(join(home.paths.machine, 'forget'))).length, 1, 'the journal of the killed forget is there');

    const again = await runCli(next === 'forget' ? forget : ['run', '--home', home.paths.root]);
    assert.equal(again.code, 0, again.stderr);
    if (next === 'forget') {
      assert.match(again.stderr, /Completed an interrupted forget/);
      assert.match(again.stdout, /Nothing matches/);
    }

    assert.deepEqual(await filesContaining(home.everywhere, home.needles), [], 'no file holds the text or its vectors');
    assert.deepEqual(await readdir(join(home.paths.machine, 'forget')), [], 'the journal is gone');
    assert.equal(Object.values(await idsByTier(home.paths, home.vault)).flat().length, countBefore - 3, 'nothing else was forgotten');
    const entries = (await readAudit(home.paths.audit)).filter((e) => e.action === 'forget');
    assert.equal(entries.length, 1, 'one audit entry');
    assert.deepEqual(new Set(entries[0]!.ids as string[]), new Set(home.secrets.map((s) => s.id)));
    const search = await runCli(['search', 'Wallaby', '--tier', 'hot,warm,cold', '--json', '--home', home.paths.root]);
    const results = (JSON.parse(search.stdout) as { results: Array<{ id: string; snippet: string }> }).results;
    assert.ok(
      results.every((r) => !/wallaby/i.test(r.snippet)),
      'search finds none of it',
    );
  });
}
