/**
 * `npm run bench -- sqlite`: reading OpenClaw's agent database with each
 * SQLite driver (lib/sqlite.ts) — better-sqlite3 under Node 20 (the same-run
 * baseline) and node:sqlite under Node 24 (the pinned Node OpenClaw 2026.9
 * needs) — and, when `--bs24 <folder>` names a better-sqlite3 built for Node
 * 24, better-sqlite3 under Node 24 too, which separates the driver from the
 * Node version. One database (`--sessions`, default 200, of 50 exchanges; a
 * third of the rows zstd-framed) is read in a fresh process per measurement,
 * the configurations alternating, `--runs` times (default 5); medians.
 */
import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pinnedNode } from '../test/helpers/agent-cache.js';
import { buildBenchAgentDb } from './openclaw-db-fixture.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHILD = join(ROOT, 'bench', 'sqlite-driver-read.ts');
const FROM_COPY = join(ROOT, 'bench', 'fixtures', 'better-sqlite3-from.mjs');

interface Measurement {
  driver: string;
  sqlite: string;
  node: string;
  firstMs: number;
  idleMs: number;
  messages: number;
  sessions: number;
  idleMessages: number;
}

export interface SqliteDriverReport {
  sessions: number;
  rows: number;
  runs: number;
  configurations: Array<{ label: string; driver: string; sqlite: string; node: string; firstMs: number; idleMs: number; messages: number; firstVsBaseline: number; idleVsBaseline: number }>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function runSqliteDriverBench(options: { sessions?: number; exchanges?: number; runs?: number; betterSqlite3Node24?: string } = {}): Promise<SqliteDriverReport> {
  const sessions = options.sessions ?? 200;
  const exchanges = options.exchanges ?? 50;
  const runs = options.runs ?? 5;
  const node24 = await pinnedNode('24.21.0');
  const root = await mkdtemp(join(tmpdir(), 'ocm-bench-sqlite-'));
  try {
    const rows = buildBenchAgentDb(root, sessions, exchanges);
    const configurations = [
      { label: 'Node 20 · better-sqlite3 (baseline)', node: process.execPath, env: { OCM_SQLITE_DRIVER: 'better-sqlite3' } as Record<string, string | undefined> },
      { label: 'Node 24 · node:sqlite', node: node24, env: { OCM_SQLITE_DRIVER: 'node:sqlite' } as Record<string, string | undefined> },
      ...(options.betterSqlite3Node24
        ? [{ label: 'Node 24 · better-sqlite3', node: node24, env: { OCM_SQLITE_DRIVER: 'better-sqlite3', OCM_BENCH_BETTER_SQLITE3: options.betterSqlite3Node24, NODE_OPTIONS: `--import=${FROM_COPY}` } as Record<string, string | undefined> }]
        : []),
    ];
    const results = configurations.map(() => [] as Measurement[]);
    for (let run = 0; run < runs; run++) {
      for (const [i, c] of configurations.entries()) {
        const r = await execa(c.node, ['--import', 'tsx', CHILD, root], { cwd: ROOT, env: c.env, extendEnv: true, timeout: 300_000 });
        results[i]!.push(JSON.parse(String(r.stdout).trim().split('\n').at(-1)!) as Measurement);
      }
    }
    const summary = configurations.map((c, i) => {
      const ms = results[i]!;
      const m = ms[0]!;
      if (ms.some((x) => x.messages !== results[0]![0]!.messages)) throw new Error(`${c.label} read a different number of messages`);
      return { label: c.label, driver: m.driver, sqlite: m.sqlite, node: m.node, firstMs: median(ms.map((x) => x.firstMs)), idleMs: median(ms.map((x) => x.idleMs)), messages: m.messages };
    });
    const base = summary[0]!;
    return {
      sessions,
      rows,
      runs,
      configurations: summary.map((s) => ({ ...s, firstVsBaseline: s.firstMs / base.firstMs, idleVsBaseline: s.idleMs / base.idleMs })),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function sqliteDriverBenchTable(report: SqliteDriverReport): string {
  const lines = [
    `OpenClaw database read: ${report.sessions} sessions, ${report.rows} rows; medians of ${report.runs} fresh processes per configuration`,
    '| configuration | driver (SQLite) | first read | × baseline | idle tick (all sessions) | × baseline |',
    '|---|---|---|---|---|---|',
  ];
  for (const c of report.configurations) {
    lines.push(`| ${c.label} | ${c.driver} (${c.sqlite}) | ${c.firstMs.toFixed(0)} ms (${c.messages} messages) | ${c.firstVsBaseline.toFixed(2)} | ${c.idleMs.toFixed(1)} ms | ${c.idleVsBaseline.toFixed(2)} |`);
  }
  return lines.join('\n');
}
