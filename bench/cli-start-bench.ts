/**
 * The command line's start-up: `ocm-run --version` (parse and print, nothing else) and `ocm-run
 * status` (a command that reads a home) as child processes, wall time per run, this build beside
 * another one measured in the same run and interleaved with it (`--baseline <cli.js>`: e.g. a
 * checkout of main built into its own folder), so the machine's load falls on both alike. On a
 * busy machine the minimum is the steadiest wall figure; the CPU time (user + system, reported by
 * the child itself at exit through a preloaded module, the same for both builds) barely depends on it.
 *
 *   npm run bench -- cli --runs 20 --baseline /tmp/main/dist/scripts/cli.js
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface CliStartReport {
  runs: number;
  builds: Array<{
    name: string;
    cli: string;
    figures: Array<{ command: string; minMs: number; p50Ms: number; p90Ms: number; cpuP50Ms: number }>;
  }>;
}

const COMMANDS: ReadonlyArray<{ label: string; argv: (home: string) => string[] }> = [
  { label: 'ocm-run --version', argv: () => ['--version'] },
  { label: 'ocm-run status', argv: (home) => ['status', '--home', home] },
];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function runCliStartBench(options: { runs?: number; baseline?: string }): Promise<CliStartReport> {
  const runs = options.runs ?? 20;
  const builds = [{ name: 'this build', cli: resolve(import.meta.dirname, '..', 'dist', 'scripts', 'cli.js') }];
  if (options.baseline) builds.push({ name: 'baseline', cli: resolve(options.baseline) });
  const dir = await mkdtemp(join(tmpdir(), 'ocm-cli-start-'));
  try {
    // A home with nothing to observe (HOME is the temp folder: no agent's transcripts are found).
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, NO_COLOR: '1' };
    delete env.OCM_HOME;
    const home = join(dir, 'home');
    execFileSync(process.execPath, [builds[0]!.cli, 'observe', '--home', home], { env, stdio: 'ignore' });
    const times = builds.map(() => COMMANDS.map(() => [] as number[]));
    const cpu = builds.map(() => COMMANDS.map(() => [] as number[]));
    const preload = pathToFileURL(resolve(import.meta.dirname, 'fixtures', 'report-cpu.mjs')).href;
    for (let i = 0; i < runs + 1; i++) {
      for (const [b, build] of builds.entries()) {
        for (const [c, command] of COMMANDS.entries()) {
          const started = performance.now();
          const run = spawnSync(process.execPath, ['--import', preload, build.cli, ...command.argv(home)], {
            env,
            stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
          });
          const wall = performance.now() - started;
          // The first round warms the file cache and the compile cache; it is not counted.
          if (i === 0) continue;
          times[b]![c]!.push(wall);
          cpu[b]![c]!.push(Number(String(run.output[3])) / 1000);
        }
      }
    }
    return {
      runs,
      builds: builds.map((build, b) => ({
        ...build,
        figures: COMMANDS.map((command, c) => {
          const sorted = [...times[b]![c]!].sort((x, y) => x - y);
          const cpuSorted = [...cpu[b]![c]!].sort((x, y) => x - y);
          return {
            cpuP50Ms: Math.round(quantile(cpuSorted, 0.5) * 10) / 10,
            command: command.label,
            minMs: Math.round(sorted[0]! * 10) / 10,
            p50Ms: Math.round(quantile(sorted, 0.5) * 10) / 10,
            p90Ms: Math.round(quantile(sorted, 0.9) * 10) / 10,
          };
        }),
      })),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function cliStartBenchTable(report: CliStartReport): string {
  const rows = report.builds.flatMap((build) =>
    build.figures.map((f) => `| ${f.command} | ${build.name} | ${f.minMs} | ${f.p50Ms} | ${f.p90Ms} | ${f.cpuP50Ms} |`),
  );
  return [
    `CLI start-up, wall ms over ${report.runs} runs (interleaved)`,
    '| command | build | wall min | wall p50 | wall p90 | CPU p50 |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
