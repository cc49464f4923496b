/**
 * `npm run bench -- sqlite`: reading OpenClaw's agent database with each
 * SQLite driver (lib/platform/sqlite.ts) — better-sqlite3 under Node 20 (the same-run
 * baseline), the WebAssembly sql.js under Node 20 (what a machine without a
 * compiler gets) and node:sqlite under Node 24 (the pinned Node OpenClaw
 * 2026.9 needs) — with each process's peak RSS and each package's size on
 * disk, and, when `--bs24 <folder>` names a better-sqlite3 built for Node
 * 24, better-sqlite3 under Node 24 too, which separates the driver from the
 * Node version. One database (`--sessions`, default 200, of 50 exchanges; a
 * third of the rows zstd-framed) is read in a fresh process per measurement,
 * the configurations alternating, `--runs` times (default 5); medians.
 */
import { execa } from 'execa';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pinnedNode } from '../test/helpers/agent-cache.js';
import { buildBenchAgentDb } from './openclaw-db-fixture.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHILD = join(ROOT, 'bench', 'sqlite-driver-read.mjs');
const FROM_COPY = join(ROOT, 'bench', 'fixtures', 'better-sqlite3-from.mjs');

/** What one configuration read: its driver and the times (ms) of the first read and of an idle tick. */
interface DriverFigures {
  driver: string;
  sqlite: string;
  node: string;
  /** Driver loaded, database opened, sessions listed. */
  openMs: number;
  firstMs: number;
  idleMs: number;
  /** Peak resident set size of the reading process (MB). */
  peakRssMb: number;
  messages: number;
}

/** One run of bench/sqlite-driver-read.mjs. */
interface Measurement extends DriverFigures {
  sessions: number;
  idleMessages: number;
}

export interface SqliteDriverReport {
  sessions: number;
  rows: number;
  runs: number;
  /** The database file's size (MB). */
  databaseMb: number;
  /** Each driver package's installed size (MB; node:sqlite is part of Node). */
  installMb: Record<string, number>;
  configurations: ConfigurationFigures[];
}

/** Bytes under a folder. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** One configuration's medians against the baseline, and the runs that did not finish. */
interface ConfigurationFigures extends DriverFigures {
  label: string;
  firstVsBaseline: number;
  idleVsBaseline: number;
  /** Runs that finished, and how the others ended (signal or exit code, and the line that says why). */
  completed: number;
  failures: string[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function runSqliteDriverBench(
  options: { sessions?: number; exchanges?: number; runs?: number; betterSqlite3Node24?: string } = {},
): Promise<SqliteDriverReport> {
  const sessions = options.sessions ?? 200;
  const exchanges = options.exchanges ?? 50;
  const runs = options.runs ?? 5;
  const node24 = await pinnedNode('24.21.0');
  const root = await mkdtemp(join(tmpdir(), 'ocm-bench-sqlite-'));
  try {
    const rows = buildBenchAgentDb(root, sessions, exchanges);
    const configurations = [
      {
        label: 'Node 20 · better-sqlite3 (baseline)',
        node: process.execPath,
        env: { OCM_SQLITE_DRIVER: 'better-sqlite3' } as Record<string, string | undefined>,
      },
      {
        label: 'Node 20 · sql.js (WebAssembly)',
        node: process.execPath,
        env: { OCM_SQLITE_DRIVER: 'sql.js' } as Record<string, string | undefined>,
      },
      { label: 'Node 24 · node:sqlite', node: node24, env: { OCM_SQLITE_DRIVER: 'node:sqlite' } as Record<string, string | undefined> },
      ...(options.betterSqlite3Node24
        ? [
            {
              label: 'Node 24 · better-sqlite3',
              node: node24,
              env: {
                OCM_SQLITE_DRIVER: 'better-sqlite3',
                OCM_BENCH_BETTER_SQLITE3: options.betterSqlite3Node24,
                NODE_OPTIONS: `--import=${FROM_COPY}`,
              } as Record<string, string | undefined>,
            },
          ]
        : []),
    ];
    const results = configurations.map(() => [] as Measurement[]);
    const failures = configurations.map(() => [] as string[]);
    for (let run = 0; run < runs; run++) {
      for (const [i, c] of configurations.entries()) {
        const r = await execa(c.node, [CHILD, root], { cwd: ROOT, env: c.env, extendEnv: true, timeout: 300_000, reject: false });
        // A configuration that crashes is reported as such, not allowed to end the benchmark.
        if (r.exitCode !== 0)
          failures[i]!.push(
            `${r.signal ?? `exit ${r.exitCode}`}: ${
              String(r.stderr)
                .trim()
                .split('\n')
                .find((l) => /Assertion|Error/.test(l))
                ?.trim() ?? ''
            }`,
          );
        else results[i]!.push(JSON.parse(String(r.stdout).trim().split('\n').at(-1)!) as Measurement);
      }
    }
    const summary = configurations.map((c, i) => {
      const ms = results[i]!;
      if (ms.some((x) => x.messages !== ms[0]!.messages)) throw new Error(`${c.label}: runs read different numbers of messages`);
      return {
        label: c.label,
        driver: ms[0]?.driver ?? c.env.OCM_SQLITE_DRIVER ?? '',
        sqlite: ms[0]?.sqlite ?? '?',
        node: ms[0]?.node ?? '?',
        openMs: ms.length ? median(ms.map((x) => x.openMs)) : Number.NaN,
        firstMs: ms.length ? median(ms.map((x) => x.firstMs)) : Number.NaN,
        idleMs: ms.length ? median(ms.map((x) => x.idleMs)) : Number.NaN,
        peakRssMb: ms.length ? median(ms.map((x) => x.peakRssMb)) : Number.NaN,
        messages: ms[0]?.messages ?? 0,
        completed: ms.length,
        failures: failures[i]!,
      };
    });
    const base = summary[0]!;
    if (base.completed === 0) throw new Error(`the baseline never completed: ${base.failures[0]}`);
    for (const s of summary)
      if (s.completed > 0 && s.messages !== base.messages)
        throw new Error(`${s.label} read ${s.messages} messages, the baseline ${base.messages}`);
    const installMb: Record<string, number> = {};
    for (const name of ['better-sqlite3', 'sql.js']) {
      installMb[name] = (await folderBytes(join(ROOT, 'node_modules', name)).catch(() => Number.NaN)) / 1e6;
    }
    return {
      sessions,
      rows,
      runs,
      databaseMb: (await stat(join(root, 'agents', 'main', 'agent', 'openclaw-agent.sqlite'))).size / 1e6,
      installMb,
      configurations: summary.map((s) => ({ ...s, firstVsBaseline: s.firstMs / base.firstMs, idleVsBaseline: s.idleMs / base.idleMs })),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function sqliteDriverBenchTable(report: SqliteDriverReport): string {
  const lines = [
    `OpenClaw database read: ${report.sessions} sessions, ${report.rows} rows, ${report.databaseMb.toFixed(1)} MB; ` +
      `medians of ${report.runs} fresh processes per configuration`,
    `installed size: ${Object.entries(report.installMb)
      .map(([name, mb]) => `${name} ${mb.toFixed(1)} MB`)
      .join(', ')}, node:sqlite 0 (part of Node)`,
    '| configuration | driver (SQLite) | open + list sessions | first read | × baseline | idle tick (all sessions) | × baseline | peak RSS |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of report.configurations) {
    if (c.completed === 0) {
      lines.push(`| ${c.label} | ${c.driver} | crashed in all ${c.failures.length} runs (${c.failures[0]}) | | | | | |`);
      continue;
    }
    const crashed = c.failures.length ? ` — crashed in ${c.failures.length} of ${report.runs} runs (${c.failures[0]})` : '';
    lines.push(
      `| ${c.label}${crashed} | ${c.driver} (${c.sqlite}) | ${c.openMs.toFixed(0)} ms | ${c.firstMs.toFixed(0)} ms ` +
        `(${c.messages} messages) | ${c.firstVsBaseline.toFixed(2)} | ${c.idleMs.toFixed(1)} ms | ` +
        `${c.idleVsBaseline.toFixed(2)} | ${c.peakRssMb.toFixed(0)} MB |`,
    );
  }
  return lines.join('\n');
}
