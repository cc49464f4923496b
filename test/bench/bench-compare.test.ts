/**
 * `npm run bench -- compare`: the verdict (slower only beyond the noise the rounds show), the reading of
 * figures from each build's reports, and one small real run — this checkout as its own baseline, the
 * CLI start-up section at its smallest size — through the overlay a baseline checkout gets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COMPARED_SECTIONS, compareReports, compareTable, numberAt, runCompare } from '../../bench/compare.js';
import { compareFigure, median, spread } from '../../bench/compare-verdict.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

test('compare verdict: slower or faster only when the delta exceeds the larger spread of the two builds’ rounds', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(spread([10, 14, 12]), 4);

  // A time: +5 ms on a spread of 2 → slower; the same delta on a spread of 6 → same.
  const slower = compareFigure([100, 101, 102], [105, 106, 107], 'lower');
  assert.deepEqual([slower.baselineMedian, slower.currentMedian, slower.delta, slower.noise, slower.verdict], [101, 106, 5, 2, 'slower']);
  assert.equal(slower.deltaShare, 5 / 101);
  assert.equal(compareFigure([98, 101, 104], [105, 106, 107], 'lower').verdict, 'same', 'the baseline’s own spread is 6');
  assert.equal(compareFigure([100, 101, 102], [103, 106, 109], 'lower').verdict, 'same', 'this build’s own spread is 6');
  assert.equal(compareFigure([105, 106, 107], [100, 101, 102], 'lower').verdict, 'faster');
  // A delta equal to the noise is within it.
  assert.equal(compareFigure([100, 103], [103, 106], 'lower').verdict, 'same');
  // A rate: a lower figure is the slower one.
  assert.equal(compareFigure([50, 51, 52], [40, 41, 42], 'higher').verdict, 'slower');
  assert.equal(compareFigure([40, 41, 42], [50, 51, 52], 'higher').verdict, 'faster');
  assert.equal(compareFigure([0, 0], [0, 0], 'lower').deltaShare, null);
  assert.throws(() => compareFigure([100], [100, 101], 'lower'), /two rounds of each build/);
});

test('compare reads each build’s figures from its reports; a figure one build does not report is said, not compared', () => {
  assert.equal(numberAt({ a: { b: 4.5 } }, 'a.b'), 4.5);
  assert.equal(numberAt({ a: { b: '4' } }, 'a.b'), undefined);
  assert.equal(numberAt({ a: null }, 'a.b'), undefined);
  const section = {
    figures: [
      { id: 'p50', unit: 'ms', better: 'lower' as const, read: (r: unknown) => numberAt(r, 'search.p50') },
      { id: 'hybrid p50', unit: 'ms', better: 'lower' as const, read: (r: unknown) => numberAt(r, 'hybrid.p50') },
    ],
  };
  const old = [{ search: { p50: 10 } }, { search: { p50: 12 } }];
  const now = [
    { search: { p50: 20 }, hybrid: { p50: 30 } },
    { search: { p50: 21 }, hybrid: { p50: 31 } },
  ];
  const [p50, hybrid] = compareReports(section, { baseline: old, current: now });
  assert.deepEqual([p50!.baseline, p50!.current, p50!.comparison?.verdict], [[10, 12], [20, 21], 'slower']);
  assert.equal(hybrid!.comparison, undefined);
  assert.equal(hybrid!.note, 'not measured by the baseline build');
  assert.equal(compareReports(section, { baseline: now, current: old })[1]!.note, 'not measured by this build');
  // Every compared section names figures, each read from a report of its section.
  for (const s of COMPARED_SECTIONS) assert.ok(s.figures.length > 0, s.name);
});

test('compare, a real run: this checkout as its own baseline, the CLI start-up section, two rounds; a missing build is refused', {
  timeout: 300_000,
}, async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist', 'scripts', 'cli.js')), 'npm run build first');
  const dir = await mkdtemp(join(tmpdir(), 'ocm-compare-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await assert.rejects(
    runCompare({ baseline: join(dir, 'nothing') }),
    /is not a built checkout \(no dist\/scripts\/cli\.js\): git worktree add/,
  );

  // A "checkout" of links to this one's entries: the overlay is laid inside it and removed after.
  const baseline = join(dir, 'baseline');
  await mkdir(baseline);
  for (const entry of await readdir(ROOT)) if (entry !== '.git') await symlink(join(ROOT, entry), join(baseline, entry));
  const cli = COMPARED_SECTIONS.find((s) => s.name === 'cli')!;
  const lines: string[] = [];
  const report = await runCompare({
    baseline,
    rounds: 2,
    catalogue: [{ ...cli, args: ['--runs', '1'] }],
    log: (line) => lines.push(line),
  });
  assert.deepEqual(
    lines.filter((line) => line.includes(', round ')),
    [
      'compare: cli, round 1 of 2, baseline',
      'compare: cli, round 1 of 2, current',
      'compare: cli, round 2 of 2, current',
      'compare: cli, round 2 of 2, baseline',
    ],
    'the builds alternate, each round starting with the other',
  );
  assert.equal(report.sections.length, 1);
  const section = report.sections[0]!;
  assert.equal(section.status, 'compared', section.note);
  assert.equal(section.figures.length, cli.figures.length);
  for (const f of section.figures) {
    assert.equal(f.baseline.length, 2, f.id);
    assert.equal(f.current.length, 2, f.id);
    assert.ok(f.comparison, f.id);
    assert.ok(['slower', 'same', 'faster'].includes(f.comparison.verdict));
    assert.ok(f.baseline.every((v) => v > 0) && f.current.every((v) => v > 0), `${f.id}: measured times`);
  }
  assert.ok(!existsSync(join(baseline, '.ocm-bench-compare')), 'the overlay is removed');
  assert.equal(
    lines.filter((line) => line.startsWith('compare: | cli | ')).length,
    cli.figures.length,
    "the section's rows are logged as soon as it is done",
  );
  const table = compareTable(report);
  assert.match(table, /\| cli \| --version p50 \(ms\) \| [\d.]+ \| [\d.]+ \| [+-][\d.]+ .*\| [\d.]+ \| (slower|same|faster) \|/);
});
