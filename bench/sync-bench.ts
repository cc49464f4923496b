/**
 * Sync of a large home, plain beside encrypted, in the same run (the `npm run bench` section "sync").
 *
 * Two identical homes of N observations (default 100,000: 100 a day over N/100 days, two agents, as hot
 * and warm day files written by the program's own formatter), each syncing to its own bare Git
 * repository, as child processes of the built CLI:
 *   - first push: the whole home to an empty remote;
 *   - incremental: 100 new observations in today's file and one new day, then sync again;
 *   - idle: a sync with nothing new.
 * Plain = sync.git (commit, pull --rebase, push of the Markdown); encrypted = sync.encrypt with a key
 * file (age; a passphrase adds one scrypt unlock, ~3-4 s, per run). Also the remote's size on disk.
 *
 *   node --import tsx bench/run.ts sync [--n 100000]
 */
import { execa } from 'execa';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeHot } from '../test/helpers/tier-home.js';
import { dayFilePath, ensureHome, homePaths, type HomePaths } from '../lib/platform/home.js';
import type { Observation } from '../lib/core/types.js';
import { addDays } from '../lib/tiers/age.js';

const CLI = process.env.OCM_BENCH_CLI ?? resolve(import.meta.dirname, '..', 'dist', 'scripts', 'cli.js');
const TODAY = '2026-06-15';
const PER_DAY = 100;

export interface SyncRun {
  ms: number;
  remoteMb: number;
}

export interface SyncBenchReport {
  observations: number;
  dayFiles: number;
  homeMb: number;
  loadAverage: number[];
  plain: { first: SyncRun; incremental: SyncRun; idle: SyncRun };
  encrypted: { first: SyncRun; incremental: SyncRun; idle: SyncRun; filesReencrypted: number };
}

function observation(i: number, date: string): Observation {
  const agent = i % 5 === 0 ? 'work' : 'main';
  return {
    id: `o-${i.toString(16).padStart(10, '0')}`,
    date,
    time: `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    priority: (['high', 'medium', 'low'] as const)[i % 3]!,
    done: false,
    category: ['fact', 'decision', 'preference', 'task'][i % 4]!,
    text: `Observation ${i} about the billing service, the deploy pipeline and topic ${i % 97}.`,
    tags: i % 11 === 0 ? ['billing'] : [],
    agent,
    provenance: { source: 'openclaw', agent, session: `s-${i % 13}`, entryIds: [`e${i}`] },
  };
}

/** Write the observations into hot and warm day files (warm: older than 90 days); returns how many files were written. */
async function writeDays(paths: HomePaths, observations: Observation[]): Promise<number> {
  const old = addDays(TODAY, -90);
  const warm = observations.filter((o) => o.date < old);
  const hot = observations.filter((o) => o.date >= old);
  await writeHot(paths, hot, 'hot');
  await writeHot(paths, warm, 'warm');
  return new Set(observations.map((o) => dayFilePath(paths, o.date < old ? 'warm' : 'hot', o.agent, o.date))).size;
}

async function timedSync(home: string): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const r = await execa(process.execPath, [CLI, 'sync', '--json', '--home', home], { env: { ...process.env, CI: '1' }, reject: false });
  if (r.exitCode !== 0) throw new Error(`sync of ${home} exited ${r.exitCode}: ${String(r.stderr).slice(-400)}`);
  return { ms: performance.now() - start, stdout: String(r.stdout) };
}

async function sizeMb(path: string): Promise<number> {
  const r = await execa('du', ['-sk', path]);
  return Number(r.stdout.split('\t')[0]) / 1024;
}

export async function runSyncBench(options: { n?: number; log?: (line: string) => void } = {}): Promise<SyncBenchReport> {
  const n = options.n ?? 100_000;
  const dir = await mkdtemp(join(tmpdir(), 'ocm-sync-bench-'));
  try {
    const key = join(dir, 'sync.key');
    const keygen = await execa(process.execPath, [CLI, 'sync', '--new-key', key, '--home', join(dir, 'keygen')], {
      env: { ...process.env, CI: '1' },
    });
    if (keygen.exitCode !== 0) throw new Error(keygen.stderr);
    const all = Array.from({ length: n }, (_, i) => observation(i, addDays(TODAY, -Math.floor(i / PER_DAY))));
    const homes: Record<'plain' | 'encrypted', HomePaths> = {
      plain: homePaths(join(dir, 'plain', 'home')),
      encrypted: homePaths(join(dir, 'encrypted', 'home')),
    };
    let dayFiles = 0;
    for (const [kind, paths] of Object.entries(homes)) {
      await ensureHome(paths, async () => '');
      const remote = join(dir, kind, 'remote.git');
      await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
      const sync =
        kind === 'plain'
          ? `sync:\n  git: {enabled: true, remote: ${JSON.stringify(remote)}}\n`
          : `sync:\n  encrypt: true\n  key_file: ${JSON.stringify(key)}\n  git: {enabled: true, remote: ${JSON.stringify(remote)}}\n`;
      await writeFile(
        paths.config,
        `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\nembeddings: {enabled: false}\n${sync}`,
      );
      dayFiles = await writeDays(paths, all);
    }
    const homeMb = (await sizeMb(homes.plain.memory)) + (await sizeMb(homes.plain.archive));
    options.log?.(`sync bench: ${n} observations in ${dayFiles} day files (${homeMb.toFixed(1)} MB)`);
    const more = Array.from({ length: PER_DAY }, (_, i) => observation(n + i, i === 0 ? addDays(TODAY, 1) : TODAY));
    const measure = async (kind: 'plain' | 'encrypted') => {
      const paths = homes[kind];
      const remote = join(dir, kind, 'remote.git');
      const first = await timedSync(paths.root);
      const firstMb = await sizeMb(remote);
      options.log?.(`  ${kind}: first push ${(first.ms / 1000).toFixed(1)} s`);
      await writeDays(paths, more);
      const incremental = await timedSync(paths.root);
      const incrementalMb = await sizeMb(remote);
      const idle = await timedSync(paths.root);
      const reencrypted =
        kind === 'encrypted' ? (JSON.parse(incremental.stdout) as { encrypted: { encrypted: number } }).encrypted.encrypted : 0;
      return {
        first: { ms: first.ms, remoteMb: firstMb },
        incremental: { ms: incremental.ms, remoteMb: incrementalMb },
        idle: { ms: idle.ms, remoteMb: await sizeMb(remote) },
        reencrypted,
      };
    };
    const plain = await measure('plain');
    const encrypted = await measure('encrypted');
    return {
      observations: n,
      dayFiles,
      homeMb,
      loadAverage: loadavg(),
      plain: { first: plain.first, incremental: plain.incremental, idle: plain.idle },
      encrypted: {
        first: encrypted.first,
        incremental: encrypted.incremental,
        idle: encrypted.idle,
        filesReencrypted: encrypted.reencrypted,
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function syncBenchTable(r: SyncBenchReport): string {
  const s = (run: SyncRun) => `${(run.ms / 1000).toFixed(2)} s`;
  const mb = (run: SyncRun) => `${run.remoteMb.toFixed(1)} MB`;
  return [
    `sync of ${r.observations} observations in ${r.dayFiles} day files (${r.homeMb.toFixed(1)} MB of Markdown) to ` +
      `a bare Git remote, load ${r.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
    '| run | plain (baseline) | encrypted (age, key file) | remote size plain / encrypted |',
    '|---|---|---|---|',
    `| first push | ${s(r.plain.first)} | ${s(r.encrypted.first)} | ${mb(r.plain.first)} / ${mb(r.encrypted.first)} |`,
    `| incremental (+${PER_DAY} observations in today and a new day; ${r.encrypted.filesReencrypted} file(s) ` +
      `re-encrypted) | ${s(r.plain.incremental)} | ${s(r.encrypted.incremental)} | ${mb(r.plain.incremental)} / ` +
      `${mb(r.encrypted.incremental)} |`,
    `| idle (nothing new) | ${s(r.plain.idle)} | ${s(r.encrypted.idle)} | ${mb(r.plain.idle)} / ${mb(r.encrypted.idle)} |`,
  ].join('\n');
}
