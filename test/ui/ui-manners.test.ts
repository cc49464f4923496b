/**
 * The dashboard's figures say what they mean: an audit entry's per-tier counts read as counts (not
 * "[object Object]"), "condensed N×" is the ratio of the two figures beside it, a chart of one or two
 * points is bars with its figures listed and a y axis from 0, and a priority has its word beside its
 * emoji (a system without an emoji font shows boxes). `ocm-run ui` on a demo home, read over HTTP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { sessionCookie, startUi } from '../helpers/ui-server.js';

test('ocm-run ui: audit counts per tier, a condensed ratio matching its figures, small charts as bars with figures, priorities in words', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-ui-manners-');
  t.after(cleanup);
  const home = join(dir, 'home');
  const env = { HOME: dir, OPENCLAW_STATE_DIR: join(dir, 'none') };
  assert.equal((await runCli(['demo', '--home', home], { env })).code, 0);
  const found = JSON.parse((await runCli(['search', 'TypeScript', '--home', home, '--json'], { env })).stdout) as {
    results: Array<{ id: string }>;
  };
  const forgot = await runCli(['forget', found.results[0]!.id, '--yes', '--home', home], { env });
  assert.equal(forgot.code, 0, forgot.stderr);

  const ui = await startUi(home, { env });
  t.after(() => ui.stop());
  const cookie = `${await sessionCookie(ui)}; ocm_ui_lang=en`;
  const get = async (path: string) =>
    (await fetch(`${ui.origin}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) })).text();

  const tiers = await get('/tiers');
  assert.doesNotMatch(tiers, /\[object Object\]/, 'no object printed as text');
  assert.match(tiers, /<td>observations 1, files 1, .*, hot 1<\/td>/, "forget's count per tier, in words");

  const health = await get('/health');
  const transcript = Number(/Transcript tokens read: <strong>(\d+)<\/strong>/i.exec(health)?.[1]);
  const active = Number(/Active memory tokens: <strong>(\d+)<\/strong>/i.exec(health)?.[1]);
  assert.ok(transcript > 0 && active > 0, health.slice(health.indexOf('<section><h2>Charts'), health.indexOf('<section><h2>Charts') + 400));
  const condensed = /condensed <strong>([\d.]+)×<\/strong> \((\d+) ÷ (\d+)\)/.exec(health);
  if (transcript > active) {
    assert.ok(condensed, 'the ratio is shown');
    assert.equal(condensed[1], (transcript / active).toFixed(1), 'the ratio of the figures beside it');
    assert.deepEqual([Number(condensed[2]), Number(condensed[3])], [transcript, active]);
  } else assert.equal(condensed, null, 'no "condensed" when active memory is not smaller');

  // The tokens chart compares a few categories: bars, its figures listed, whole-number steps.
  const tokens = JSON.parse(/<script type="application\/json" data-chart="tokens">(.*?)<\/script>/s.exec(health)![1]!) as {
    bars: boolean;
    integers: boolean;
    x: string[];
  };
  assert.equal(tokens.bars, true);
  assert.equal(tokens.integers, true);
  assert.match(health, /<table class="chart-figures">/);
  const perDay = JSON.parse(/<script type="application\/json" data-chart="per-day">(.*?)<\/script>/s.exec(health)![1]!) as {
    bars: boolean;
    x: string[];
  };
  if (perDay.x.length < 3) assert.equal(perDay.bars, true, 'one or two days: bars, not a line');

  const timeline = await get('/');
  assert.match(timeline, /<span class="pri">🔴 <span class="word">high<\/span><\/span>/, 'a priority has its word');
});
