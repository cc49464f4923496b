/**
 * `npm run bench -- compare --baseline <dir>`: every section's key figures on
 * a baseline build and on this build, measured alternately in the same run
 * (several rounds, each section at a small, quick size), each figure judged
 * slower / same / faster against the noise its rounds show
 * (compare-verdict.ts).
 *
 * The baseline is a built checkout (`git worktree add /tmp/base <ref> && cd
 * /tmp/base && npm ci && npm run build`). Both builds run the same workload,
 * this build's bench code: it is laid over the baseline checkout in
 * `<dir>/.ocm-bench-compare/` (this build's bench/ and test/helpers/, every
 * other top-level entry a link to the baseline's own — lib, dist,
 * node_modules…), so a figure differs only by the code under test. A section
 * whose bench code needs what the baseline does not have yet fails there: it
 * is reported as not comparable, with the baseline's error, and the others
 * are compared. The overlay is removed at the end.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { type Better, compareFigure, type FigureComparison } from './compare-verdict.js';

const ROOT = resolve(import.meta.dirname, '..');
const OVERLAY = '.ocm-bench-compare';
/** One section's run on one build may take this long before it is given up. */
const RUN_TIMEOUT_MS = 20 * 60_000;

export interface ComparedFigure {
  id: string;
  unit: string;
  better: Better;
  /** The figure from the section's JSON report; undefined when that report has none. */
  read(report: unknown): number | undefined;
}

export interface ComparedSection {
  name: string;
  /** The section's flags for a small, quick size (the figures are per operation, not totals of the size). */
  args: string[];
  figures: ComparedFigure[];
}

/** The number at a dotted path of a JSON report, if it is one. */
export function numberAt(report: unknown, path: string): number | undefined {
  let value: unknown = report;
  for (const key of path.split('.'))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const ms = (id: string, path: string): ComparedFigure => ({ id, unit: 'ms', better: 'lower', read: (r) => numberAt(r, path) });

/** `cli`: a command's figure of this build (the section measures no other build here). */
const cliFigure = (id: string, command: string, key: 'p50Ms' | 'cpuP50Ms'): ComparedFigure => ({
  id,
  unit: 'ms',
  better: 'lower',
  read(report) {
    const builds = (report as { builds?: Array<{ name?: string; figures?: Array<Record<string, unknown>> }> }).builds;
    const figure = builds?.find((b) => b.name === 'this build')?.figures?.find((f) => f.command === command);
    return numberAt(figure, key);
  },
});

/** `markdown`: the sum over its inputs (each input is read once a run). */
const markdownSum = (id: string, list: 'rows' | 'search'): ComparedFigure => ({
  id,
  unit: 'ms',
  better: 'lower',
  read(report) {
    const items = (report as Record<string, unknown>)[list];
    if (!Array.isArray(items) || items.length === 0) return undefined;
    const values = items.map((item) => numberAt(item, 'ms'));
    return values.every((v) => v !== undefined) ? Math.round(values.reduce((a, b) => a + b, 0) * 10) / 10 : undefined;
  },
});

/**
 * The compared sections, each at its quick size. Not compared: watch (its idle figure waits 20 s a run), edits
 * (counts of lost edits, not speed), masking (recall), sqlite (two Node versions' drivers), compare itself.
 */
export const COMPARED_SECTIONS: readonly ComparedSection[] = [
  {
    name: 'observe',
    args: ['--n', '2000', '--runs', '1'],
    figures: [
      { id: 'observe throughput', unit: 'MB/s', better: 'higher', read: (r) => numberAt(r, 'observeMBps') },
      { id: 'observe CPU', unit: 's', better: 'lower', read: (r) => numberAt(r, 'cpu.jobS') },
      ms('idle tick p50', 'idleTick.p50Ms'),
    ],
  },
  {
    name: 'search',
    args: ['--n', '5000', '--queries', '20'],
    figures: [
      ms('index build', 'build.ms'),
      ms('incremental index', 'incremental.ms'),
      ms('in-process search p50', 'inProcess.p50'),
      ms('ocm-run search p50', 'cli.p50'),
    ],
  },
  {
    name: 'plugin',
    args: ['--n', '5000', '--turns', '50'],
    figures: [
      ms('first turn', 'firstTurnMs'),
      ms('turn p50', 'plugin.p50'),
      ms('turn CPU p50', 'pluginCpu.p50'),
      ms('hybrid turn p50', 'hybrid.plugin.p50'),
    ],
  },
  {
    name: 'mcp',
    args: ['--n', '5000', '--queries', '20'],
    figures: [
      ms('search_memory first call', 'mcp.firstCallMs'),
      ms('search_memory p50', 'mcp.p50'),
      ms('server CPU a call', 'mcp.cpuPerCallMs'),
      ms('prompt hook p50', 'hook.p50'),
      ms('hybrid search_memory p50', 'hybrid.p50'),
    ],
  },
  {
    name: 'ui',
    args: ['--n', '5000', '--queries', '20'],
    figures: [
      ms('first page p50', 'firstPage.p50'),
      ms('first page server CPU', 'firstPage.cpuPerRequestMs'),
      ms('search page p50', 'search.p50'),
    ],
  },
  {
    name: 'embed',
    args: ['--n', '200', '--queries', '10'],
    figures: [
      { id: 'index build rate (CPU)', unit: 'docs/CPU s', better: 'higher', read: (r) => numberAt(r, 'build.docsPerCpuSecond') },
      ms('50-observation tick CPU p50', 'tick50.localCpuP50'),
      ms('idle tick p50', 'idleTick.localP50'),
      ms('query embedding p50', 'query.p50'),
    ],
  },
  {
    name: 'forget',
    args: ['--n', '20000'],
    figures: [ms('forget one id', 'forget.ms')],
  },
  {
    name: 'sync',
    args: ['--n', '5000'],
    figures: [
      ms('plain first push', 'plain.first.ms'),
      ms('plain incremental', 'plain.incremental.ms'),
      ms('plain idle', 'plain.idle.ms'),
      ms('encrypted first push', 'encrypted.first.ms'),
      ms('encrypted incremental', 'encrypted.incremental.ms'),
      ms('encrypted idle', 'encrypted.idle.ms'),
    ],
  },
  {
    name: 'tier',
    args: ['--n', '5000', '--queries', '10'],
    figures: [
      ms('archive dry run', 'dryRun.ms'),
      ms('archive', 'archive.ms'),
      ms('rollback', 'rollback.ms'),
      ms('search p50', 'search.p50'),
    ],
  },
  {
    name: 'cli',
    args: ['--runs', '5'],
    figures: [
      cliFigure('--version p50', 'ocm-run --version', 'p50Ms'),
      cliFigure('--version CPU p50', 'ocm-run --version', 'cpuP50Ms'),
      cliFigure('status p50', 'ocm-run status', 'p50Ms'),
      cliFigure('status CPU p50', 'ocm-run status', 'cpuP50Ms'),
    ],
  },
  {
    name: 'markdown',
    args: [],
    figures: [markdownSum('reading every input', 'rows'), markdownSum('ocm-run search of pasted notes', 'search')],
  },
];

export type SectionStatus = 'compared' | 'not comparable' | 'failed';

export interface ComparedFigureResult {
  id: string;
  unit: string;
  better: Better;
  baseline: number[];
  current: number[];
  comparison?: FigureComparison;
  /** Why there is no comparison (a build's report has no such figure). */
  note?: string;
}

export interface SectionResult {
  name: string;
  args: string[];
  status: SectionStatus;
  /** What went wrong where it was not compared: the build and its error's last lines. */
  note?: string;
  /** Wall seconds of each run (bench set-up included), per build. */
  seconds: { baseline: number[]; current: number[] };
  figures: ComparedFigureResult[];
}

export interface CompareReport {
  baseline: { dir: string; commit: string | null };
  current: { dir: string; commit: string | null };
  rounds: number;
  loadAverage: { start: number[]; end: number[] };
  sections: SectionResult[];
}

interface Build {
  name: 'baseline' | 'current';
  /** Where the bench runs (its cwd and the root its bench code sees). */
  root: string;
}

async function commitOf(dir: string): Promise<string | null> {
  const r = await execa('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { reject: false });
  return r.exitCode === 0 ? String(r.stdout).trim() : null;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** This build's bench code over the baseline checkout (see the header); returns the overlay's root. */
async function layOverlay(baseline: string): Promise<string> {
  const overlay = join(baseline, OVERLAY);
  await rm(overlay, { recursive: true, force: true });
  await mkdir(join(overlay, 'test'), { recursive: true });
  await cp(join(ROOT, 'bench'), join(overlay, 'bench'), {
    recursive: true,
    filter: (src) => !src.startsWith(join(ROOT, 'bench', 'results')),
  });
  await cp(join(ROOT, 'test', 'helpers'), join(overlay, 'test', 'helpers'), { recursive: true });
  for (const entry of await readdir(baseline)) {
    if (['bench', 'test', '.git', OVERLAY].includes(entry)) continue;
    await symlink(join(baseline, entry), join(overlay, entry));
  }
  if (await exists(join(baseline, 'test')))
    for (const entry of await readdir(join(baseline, 'test'))) {
      if (entry !== 'helpers') await symlink(join(baseline, 'test', entry), join(overlay, 'test', entry));
    }
  return overlay;
}

/** One section on one build: its JSON report, or the error's last lines. */
async function runSection(
  build: Build,
  section: ComparedSection,
  resultsDir: string,
): Promise<{ report?: unknown; error?: string; seconds: number }> {
  await rm(join(resultsDir, `bench-${section.name}.json`), { force: true });
  const started = performance.now();
  const r = await execa(process.execPath, ['--import', 'tsx', join(build.root, 'bench', 'run.ts'), section.name, ...section.args], {
    cwd: build.root,
    env: { ...process.env, OCM_BENCH_RESULTS: resultsDir },
    reject: false,
    timeout: RUN_TIMEOUT_MS,
    stdout: 'ignore',
    all: false,
  });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  if (r.exitCode !== 0 || r.timedOut) {
    const lines = String(r.stderr ?? '')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('=='));
    return { error: r.timedOut ? `timed out after ${RUN_TIMEOUT_MS / 60_000} min` : lines.slice(-3).join(' / ').slice(0, 600), seconds };
  }
  const report: unknown = JSON.parse(await readFile(join(resultsDir, `bench-${section.name}.json`), 'utf8'));
  return { report, seconds };
}

/** The comparison of one section's figures from each build's reports (pure). */
export function compareReports(
  section: Pick<ComparedSection, 'figures'>,
  reports: { baseline: unknown[]; current: unknown[] },
): ComparedFigureResult[] {
  return section.figures.map((figure) => {
    const values = (list: unknown[]) => list.map((r) => figure.read(r)).filter((v): v is number => v !== undefined);
    const baseline = values(reports.baseline);
    const current = values(reports.current);
    const result: ComparedFigureResult = { id: figure.id, unit: figure.unit, better: figure.better, baseline, current };
    if (baseline.length < reports.baseline.length || baseline.length === 0)
      return { ...result, note: 'not measured by the baseline build' };
    if (current.length < reports.current.length || current.length === 0) return { ...result, note: 'not measured by this build' };
    if (baseline.length < 2 || current.length < 2) return { ...result, note: 'one round: no noise to judge by' };
    return { ...result, comparison: compareFigure(baseline, current, figure.better) };
  });
}

export async function runCompare(options: {
  baseline: string;
  rounds?: number;
  sections?: readonly string[];
  /** The sections to choose from (COMPARED_SECTIONS; a test passes its own quicker sizes). */
  catalogue?: readonly ComparedSection[];
  log?: (line: string) => void;
}): Promise<CompareReport> {
  const catalogue = options.catalogue ?? COMPARED_SECTIONS;
  const log = options.log ?? (() => undefined);
  const rounds = options.rounds ?? 3;
  if (!Number.isInteger(rounds) || rounds < 2) throw new Error(`--rounds ${rounds}: two rounds at least (the noise is their spread)`);
  const baselineDir = resolve(options.baseline);
  for (const need of ['dist/scripts/cli.js', 'node_modules', 'bench/run.ts'])
    if (!(await exists(join(baselineDir, need))))
      throw new Error(
        `${baselineDir} is not a built checkout (no ${need}): git worktree add ${baselineDir} <ref> && cd ${baselineDir} && npm ci && npm run build`,
      );
  const wanted = options.sections && options.sections.length > 0 ? options.sections : catalogue.map((s) => s.name);
  const unknown = wanted.filter((name) => !catalogue.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`not a compared section: ${unknown.join(', ')} (${catalogue.map((s) => s.name).join(', ')})`);
  const sections = catalogue.filter((s) => wanted.includes(s.name));

  const start = loadavg().map((l) => Math.round(l * 10) / 10);
  const overlay = await layOverlay(baselineDir);
  const resultsDir = await mkdtemp(join(tmpdir(), 'ocm-bench-compare-'));
  const builds: Build[] = [
    { name: 'baseline', root: overlay },
    { name: 'current', root: ROOT },
  ];
  const results: SectionResult[] = [];
  try {
    for (const section of sections) {
      const reports = { baseline: [] as unknown[], current: [] as unknown[] };
      const seconds = { baseline: [] as number[], current: [] as number[] };
      let stopped: { status: SectionStatus; note: string } | undefined;
      for (let round = 0; round < rounds && !stopped; round++) {
        // Each round starts with the other build: a drift of the machine's load falls on both alike.
        for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
          log(`compare: ${section.name}, round ${round + 1} of ${rounds}, ${build.name}`);
          const run = await runSection(build, section, resultsDir);
          seconds[build.name].push(run.seconds);
          if (run.error !== undefined) {
            stopped =
              build.name === 'baseline'
                ? { status: 'not comparable', note: `the baseline build cannot run this bench: ${run.error}` }
                : { status: 'failed', note: `this build failed: ${run.error}` };
            break;
          }
          reports[build.name].push(run.report);
        }
      }
      const result: SectionResult = {
        name: section.name,
        args: section.args,
        status: stopped?.status ?? 'compared',
        ...(stopped ? { note: stopped.note } : {}),
        seconds,
        figures: stopped ? [] : compareReports(section, reports),
      };
      results.push(result);
      // Each section's rows as soon as it is done: a long run that is stopped keeps what it measured.
      for (const row of sectionRows(result)) log(`compare: ${row}`);
    }
  } finally {
    await rm(overlay, { recursive: true, force: true });
    await rm(resultsDir, { recursive: true, force: true });
  }
  return {
    baseline: { dir: baselineDir, commit: await commitOf(baselineDir) },
    current: { dir: ROOT, commit: await commitOf(ROOT) },
    rounds,
    loadAverage: { start, end: loadavg().map((l) => Math.round(l * 10) / 10) },
    sections: results,
  };
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 100) / 100);

export function compareTable(r: CompareReport): string {
  const lines = [
    `Baseline ${r.baseline.commit ?? '?'} (${r.baseline.dir}) beside this build ${r.current.commit ?? '?'}, ${r.rounds} rounds each, alternating;`,
    `load average ${r.loadAverage.start.join(' ')} at the start, ${r.loadAverage.end.join(' ')} at the end.`,
    'Noise: the larger of the two builds’ spreads between rounds; slower / faster only beyond it.',
    '',
    '| section | figure | baseline median | current median | delta | noise | verdict |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of r.sections) lines.push(...sectionRows(s));
  return lines.join('\n');
}

/** One section's rows of the table. */
export function sectionRows(s: SectionResult): string[] {
  if (s.status !== 'compared') return [`| ${s.name} | – | – | – | – | – | ${s.status}: ${s.note ?? ''} |`];
  const lines: string[] = [];
  for (const f of s.figures) {
    const c = f.comparison;
    if (!c) {
      lines.push(
        `| ${s.name} | ${f.id} (${f.unit}) | ${f.baseline.map(round).join(', ') || '–'} | ${f.current.map(round).join(', ') || '–'} | – | – | ${f.note} |`,
      );
      continue;
    }
    const share = c.deltaShare === null ? '' : ` (${c.deltaShare >= 0 ? '+' : ''}${Math.round(c.deltaShare * 1000) / 10} %)`;
    const cells = [
      s.name,
      `${f.id} (${f.unit}${f.better === 'higher' ? ', higher is better' : ''})`,
      String(round(c.baselineMedian)),
      String(round(c.currentMedian)),
      `${c.delta >= 0 ? '+' : ''}${round(c.delta)}${share}`,
      String(round(c.noise)),
      c.verdict,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}
