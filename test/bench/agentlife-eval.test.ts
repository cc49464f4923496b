/**
 * The `npm run eval -- agentlife` section runs the team's scorer over the real CLI and reads its
 * figures back: a two-session conversation of the scorer's format, in a temp dir, through
 * ../shared/eval/agentlife_run.py and the built dist/scripts/cli.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { agentLifeTable, parseScorerOutput, runAgentLifeEval } from '../../bench/agentlife-eval.js';

const SCORER = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'eval', 'agentlife_run.py');

const conversation = {
  speaker_a: 'Mara',
  speaker_b: 'Claude',
  session_1_date_time: '9:00 am on 2 March, 2026',
  session_1: [
    { speaker: 'Mara', dia_id: 'D1:1', text: 'We are building the invoice exporter for the print shop in Porto, in Go.' },
    { speaker: 'Claude', dia_id: 'D1:2', text: 'Good. I will start with the CSV writer.' },
    { speaker: 'Mara', dia_id: 'D1:3', text: 'The exports go to an S3 bucket called ledger-exports.' },
  ],
  session_2_date_time: '9:00 am on 9 March, 2026',
  session_2: [
    { speaker: 'Mara', dia_id: 'D2:1', text: 'We moved the exports from S3 to a Backblaze bucket, it is cheaper.' },
    { speaker: 'Claude', dia_id: 'D2:2', text: 'Done: the exporter now writes to Backblaze B2.' },
  ],
  qa: [
    { question: 'Which city is the print shop in?', answer: 'Porto', evidence: ['D1:1'], category: 'single-hop' },
    { question: 'Where do the exports go now?', answer: 'a Backblaze bucket', evidence: ['D2:1'], category: 'knowledge-update' },
    { question: "What is Mara's dog called?", answer: '', evidence: [], category: 'abstain' },
  ],
  updates: [{ subject: 'where the exports are stored', stale: ['D1:3'], current: ['D2:1'] }],
  active_expect: { must_include: ['Backblaze'], must_exclude: ['ledger-exports'] },
  secrets: [],
};

test('the agent-life section runs the scorer through the real CLI and reports its figures beside the FTS5 baseline', {
  skip: existsSync(SCORER) ? false : `the scorer is not at ${SCORER}`,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-agentlife-'));
  try {
    await writeFile(join(dir, 'x1.json'), JSON.stringify(conversation));
    const report = await runAgentLifeEval({ dataDir: dir, scorer: SCORER });
    for (const key of [
      'R@10',
      'R@1kTok',
      'current_first',
      'active_include',
      'active_exclude',
      'obs/transcript',
      'base_R@10',
      'base_R@1kTok',
    ]) {
      assert.ok(Number.isFinite(report.figures[key]), `${key}: ${report.figures[key]}`);
    }
    assert.equal(report.figures.n, 2);
    // The Porto fact is in the memory and found by its question.
    assert.ok(report.figures['R@10']! > 0, JSON.stringify(report.figures));
    assert.ok(report.figures['obs/transcript']! > 0);
    assert.deepEqual(
      report.categories.map((c) => c.category),
      ['single-hop', 'knowledge-update', 'all'],
    );
    assert.equal(report.files.length, 1);
    const table = agentLifeTable(report);
    assert.match(table, /\| R@10 \| \d\.\d{3} \| \d\.\d{3} \| \|/);
    assert.match(table, /same-run baseline \(FTS5 over raw turns\)/);
    assert.match(table, /observation tokens \/ transcript \| \d\.\d\d \| \| ≤ 0\.35 [✓✗]/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a scorer run without its figures line is an error that shows what it printed', () => {
  assert.throws(() => parseScorerOutput('x1: setup failed rc=1: boom\n'), /printed no figures[\s\S]*setup failed/);
});
