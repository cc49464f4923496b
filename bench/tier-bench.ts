/**
 * Tier moves at scale (the `npm run bench` section "tier").
 *
 * Generates N observations (default 50k, bench/search-corpus.ts: English and
 * Korean, two agents) over 400 days that all ended more than 90 days ago, in
 * the hot tier of a fresh home with a search index, then measures as child
 * processes of the built CLI (wall time, peak RSS via /usr/bin/time):
 *   - `archive --older-than 90 --to warm --dry-run`;
 *   - `archive --older-than 90 --to warm`: the safe, journaled move of every
 *     day (stage, fsync, verify hash, index update, remove source, audit);
 *   - `tier --rollback OP` of that move, and the move again;
 *   - `search <query> --tier warm --json` as a fresh process, p50/p95;
 * beside same-run baselines: a plain recursive copy of memory/ (`cp -r`, no
 * fsync: the floor of moving the bytes), and a bare `node -e 0`.
 * PRD limit for the move: 10 minutes; target ≤ 60 s.
 *
 *   node --import tsx bench/run.ts tier [--n 50000] [--queries 20]
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { writeCorpus, addDays } from './search-corpus.js';
import { homePaths } from '../lib/platform/home.js';

const ROOT = resolve(import.meta.dirname, '..');
const TIME = '/usr/bin/time';

export interface TierBenchReport {
  observations: number;
  files: number;
  loadAverage: number[];
  index: { ms: number };
  dryRun: { ms: number; peakRssMb: number | null };
  archive: { ms: number; peakRssMb: number | null; filesChanged: number; observations: number };
  rollback: { ms: number; peakRssMb: number | null };
  archiveAgain: { ms: number };
  copyBaseline: { ms: number };
  search: { p50: number; p95: number; peakRssMb: number | null; results: number } | null;
  nodeBare: { p50: number };
  check: { hot: number; warm: number };
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

/** Queries of several kinds: topic words, identifiers, Korean with particles, a phrase, a miss. */
const QUERIES = [
  'postgres migration',
  'POSTGRES_URL',
  'Kubernetes',
  'memory leak',
  '데이터베이스를',
  '인증 서비스',
  'billing pipeline',
  'ticket-4242',
  'deployed to production',
  'quantum entanglement recipes',
];

async function timed(cmd: string, args: string[]): Promise<{ ms: number; rssMb: number | null; stdout: string }> {
  // Start each measurement with no dirty pages left by the previous step (its writeback is not this step's cost).
  await execa('sync', [], { reject: false });
  const useTime = existsSync(TIME);
  const started = performance.now();
  const res = useTime
    ? await execa(TIME, ['-f', '__RSS__%M', cmd, ...args], { reject: false, env: { CI: '1' }, maxBuffer: 256 * 1024 * 1024 })
    : await execa(cmd, args, { reject: false, env: { CI: '1' }, maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (res.exitCode !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} failed: ${String(res.stderr).slice(0, 800)}`);
  const m = /__RSS__(\d+)/.exec(String(res.stderr));
  return { ms: Math.round(ms), rssMb: m ? Math.round(Number(m[1]) / 1024) : null, stdout: String(res.stdout) };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 10) / 10;
}

/** A private copy of the built package, so a rebuild of dist/ meanwhile cannot break the measured processes. */
async function snapshotCli(work: string): Promise<string> {
  const pkg = join(work, 'pkg');
  await mkdir(pkg, { recursive: true });
  for (const part of ['dist', 'package.json', 'templates', 'prompts', 'vault-template']) {
    if (existsSync(join(ROOT, part))) await cp(join(ROOT, part), join(pkg, part), { recursive: true });
  }
  await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  return join(pkg, 'dist', 'scripts', 'cli.js');
}

async function countDayFiles(dir: string): Promise<{ files: number; observations: number }> {
  let files = 0;
  let observations = 0;
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (/^\d{4}-\d{2}-\d{2}\.md$/.test(e.name)) {
        files++;
        observations += (await readFile(p, 'utf8')).match(/ \^o-[0-9a-f]+$/gm)?.length ?? 0;
      }
    }
  };
  await walk(dir);
  return { files, observations };
}

export async function runTierBench(
  options: { n?: number; queries?: number; keep?: boolean; log?: (s: string) => void } = {},
): Promise<TierBenchReport> {
  const log = options.log ?? (() => undefined);
  const n = options.n ?? 50_000;
  const days = 400;
  const today = new Date().toISOString().slice(0, 10);
  const endDate = addDays(today, -91);
  const work = await mkdtemp(join(tmpdir(), 'ocm-tier-bench-'));
  const paths = homePaths(join(work, 'home'));
  try {
    const CLI = await snapshotCli(work);
    log(`  generating ${n} observations over ${days} days ending ${endDate}…`);
    await mkdir(paths.root, { recursive: true });
    await writeFile(
      paths.config,
      `timezone: UTC\nembeddings:\n  provider: none\nsources:\n  openclaw:\n    enabled: false\n  openclaw_db:\n    ` +
        `enabled: false\ntiers:\n  vault_path: ${JSON.stringify(join(work, 'vault'))}\n`,
      { mode: 0o600 },
    );
    const corpus = await writeCorpus(paths, { observations: n, days, endDate, agents: ['work'], korean: 0.3 });
    const home = ['--home', paths.root];

    log('  baseline: cp -r memory/ (no fsync)…');
    const copy = await timed('cp', ['-r', paths.memory, join(work, 'copy-baseline')]);
    await rm(join(work, 'copy-baseline'), { recursive: true, force: true });
    const bare: number[] = [];
    for (let i = 0; i < 5; i++) bare.push((await timed(process.execPath, ['-e', '0'])).ms);

    log('  search index of the hot tier (ocm-run index)…');
    const index = await timed(process.execPath, [CLI, 'index', ...home]);
    log('  archive --dry-run…');
    const dry = await timed(process.execPath, [CLI, 'archive', '--older-than', '90', '--to', 'warm', '--dry-run', '--json', ...home]);
    log('  archive --older-than 90 --to warm…');
    const archive = await timed(process.execPath, [CLI, 'archive', '--older-than', '90', '--to', 'warm', '--json', ...home]);
    const result = JSON.parse(archive.stdout) as { ops: Array<{ id: string; files: number; observations: number }> };
    const op = result.ops[0]!;
    const hot = await countDayFiles(paths.memory);
    const warm = await countDayFiles(paths.archive);

    let search: TierBenchReport['search'] = null;
    if (existsSync(join(ROOT, 'dist', 'scripts', 'commands', 'search.js'))) {
      log('  search --tier warm (fresh process per query)…');
      const times: number[] = [];
      let rss = 0;
      let results = 0;
      for (const q of Array.from({ length: options.queries ?? 20 }, (_, i) => QUERIES[i % QUERIES.length]!)) {
        const r = await timed(process.execPath, [CLI, 'search', q, '--tier', 'warm', '--json', ...home]);
        times.push(r.ms);
        rss = Math.max(rss, r.rssMb ?? 0);
        results += (JSON.parse(r.stdout) as { results: unknown[] }).results.length;
      }
      search = { p50: percentile(times, 50), p95: percentile(times, 95), peakRssMb: rss || null, results };
    }

    log(`  tier --rollback ${op.id}…`);
    const rollback = await timed(process.execPath, [CLI, 'tier', '--rollback', op.id, ...home]);
    log('  archive again…');
    const again = await timed(process.execPath, [CLI, 'archive', '--older-than', '90', '--to', 'warm', ...home]);

    const report: TierBenchReport = {
      observations: corpus.observations,
      files: corpus.files.length,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      index: { ms: index.ms },
      dryRun: { ms: dry.ms, peakRssMb: dry.rssMb },
      archive: { ms: archive.ms, peakRssMb: archive.rssMb, filesChanged: op.files, observations: op.observations },
      rollback: { ms: rollback.ms, peakRssMb: rollback.rssMb },
      archiveAgain: { ms: again.ms },
      copyBaseline: { ms: copy.ms },
      search,
      nodeBare: { p50: percentile(bare, 50) },
      check: { hot: hot.observations, warm: warm.observations },
      targets: {
        'archive wall time (s)': { value: archive.ms / 1000, target: '≤ 60 (PRD limit 600)', ok: archive.ms <= 60_000 },
        'all observations in warm': {
          value: warm.observations,
          target: `= ${corpus.observations}`,
          ok: warm.observations === corpus.observations && hot.observations === 0,
        },
        ...(search ? { 'search --tier warm p95 (ms)': { value: search.p95, target: '< 2000', ok: search.p95 < 2000 } } : {}),
      },
    };
    return report;
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

export function tierBenchTable(r: TierBenchReport): string {
  const rows: Array<[string, string]> = [
    ['corpus', `${r.observations} observations in ${r.files} hot day files (2 agents), load ${r.loadAverage.join(' ')}`],
    ['index of hot (setup)', `${(r.index.ms / 1000).toFixed(1)} s`],
    ['archive --dry-run', `${(r.dryRun.ms / 1000).toFixed(1)} s, peak RSS ${r.dryRun.peakRssMb ?? '?'} MB`],
    [
      'archive hot → warm',
      `${(r.archive.ms / 1000).toFixed(1)} s, peak RSS ${r.archive.peakRssMb ?? '?'} MB (${r.archive.filesChanged} ` +
        `files changed, ${r.archive.observations} observations)`,
    ],
    ['baseline: cp -r memory/', `${(r.copyBaseline.ms / 1000).toFixed(2)} s (no fsync, no verify, no index)`],
    ['tier --rollback', `${(r.rollback.ms / 1000).toFixed(1)} s, peak RSS ${r.rollback.peakRssMb ?? '?'} MB`],
    ['archive again', `${(r.archiveAgain.ms / 1000).toFixed(1)} s`],
    [
      'search --tier warm',
      r.search
        ? `p50 ${r.search.p50} ms, p95 ${r.search.p95} ms, peak RSS ${r.search.peakRssMb ?? '?'} MB (fresh process; ${r.search.results} results)`
        : 'search not built',
    ],
    ['baseline: node -e 0', `p50 ${r.nodeBare.p50} ms`],
    ['check', `hot ${r.check.hot}, warm ${r.check.warm}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = ['Tier moves', ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`), '', 'Targets'];
  for (const [k, t] of Object.entries(r.targets)) lines.push(`  ${t.ok ? '✓' : '✗'} ${k}: ${t.value} (${t.target})`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runTierBench({ log: (s) => process.stderr.write(`${s}\n`) });
  process.stdout.write(`${tierBenchTable(report)}\n`);
}
