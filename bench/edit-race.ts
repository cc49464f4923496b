/**
 * Edits saved while `observe` writes (the `npm run bench` section "edits").
 *
 * One OpenClaw session of N exchanges (default 3000), all on one day, observed by the real job
 * (heuristic Observer, small read chunks, a save after every chunk: the day file is written hundreds
 * of times) while bench/edit-writer.mjs, a process of its own, adds a note and saves the file every
 * few milliseconds, alternately in place (truncate + write, with a pause halfway) and by rename.
 * Counted afterwards: the writer's notes missing from the file (lost edits) and the observations of
 * a run without the writer, in the same run of the bench, missing from it (lost observations). Both
 * must be 0. The run without the writer is also the time baseline.
 *
 *   node --import tsx bench/run.ts edits [--n 3000] [--interval 3]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { homePaths, type HomePaths } from '../lib/platform/home.js';
import { createMemoryLogger } from '../lib/platform/log.js';
import { runObserveJob, type ObserveJobResult } from '../lib/observe/job.js';
import { createHeuristicObserver } from '../lib/observer/heuristic/observer.js';
import { createOpenClawFileSource } from '../lib/sources/openclaw-files.js';
import { listObservations, parseDayFile } from '../lib/memory/day-file/index.js';
import { generateConversation, PiSessionWriter } from '../test/helpers/pi-writer.js';

const WRITER = resolve(import.meta.dirname, 'edit-writer.mjs');
const DAY = '2026-02-01.md';

export interface EditRaceReport {
  exchanges: number;
  intervalMs: number;
  loadAverage: number[];
  baseline: { ms: number; observations: number; writes: number };
  withWriter: {
    ms: number;
    writes: number;
    saves: { inPlace: number; rename: number; rereads: number; saved: number };
    lostEdits: number;
    /** Of those, saved in place (the rest by rename). */
    lostInPlace: number;
    lostObservations: number;
    failures: string[];
  };
}

async function observe(paths: HomePaths, stateDir: string, count: { writes: number }): Promise<{ result: ObserveJobResult; ms: number }> {
  const start = performance.now();
  const result = await runObserveJob({
    paths,
    sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
    observer: createHeuristicObserver(),
    logger: createMemoryLogger(),
    timeZone: 'UTC',
    now: () => new Date('2026-03-01T12:00:00Z'),
    limits: { maxBytes: 32 * 1024, maxMessages: 20 },
    checkpointMs: 0,
    dayFiles: {
      onStep: (step) => {
        if (step === 'written') count.writes++;
      },
    },
  });
  return { result, ms: performance.now() - start };
}

export async function runEditRace(
  options: { exchanges?: number; intervalMs?: number; log?: (line: string) => void } = {},
): Promise<EditRaceReport> {
  const exchanges = options.exchanges ?? 3000;
  const intervalMs = options.intervalMs ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'ocm-edit-race-'));
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '55555555-0000-4000-8000-000000000000';
    // 20 s a message: 3000 exchanges stay within the day.
    const w = new PiSessionWriter(id, new Date('2026-02-01T00:10:00Z'), 10_000);
    await writeFile(join(sessions, `${id}.jsonl`), w.header() + generateConversation(w, exchanges, 11));

    const cleanPaths = homePaths(join(dir, 'clean'));
    const cleanCount = { writes: 0 };
    const clean = await observe(cleanPaths, stateDir, cleanCount);
    const expected = listObservations(parseDayFile(await readFile(join(cleanPaths.memory, DAY), 'utf8'))).map((o) => o.id);
    options.log?.(
      `edits bench: ${exchanges} exchanges, ${expected.length} observations, ${cleanCount.writes} writes of the day file without a writer`,
    );

    const paths = homePaths(join(dir, 'edited'));
    await mkdir(paths.memory, { recursive: true });
    const started = performance.now();
    const report = join(dir, 'writer.json');
    const writer = execa(process.execPath, [WRITER, join(paths.memory, DAY), String(intervalMs), report], { reject: false });
    const count = { writes: 0 };
    const edited = await observe(paths, stateDir, count);
    options.log?.(`edits bench: observed with the editor in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    writer.kill('SIGTERM');
    await writer;
    const out = JSON.parse(await readFile(report, 'utf8')) as {
      saved: string[];
      attempts: { inPlace: number; rename: number; reread: number };
    };
    const text = await readFile(join(paths.memory, DAY), 'utf8');
    const ids = new Set(listObservations(parseDayFile(text)).map((o) => o.id));
    return {
      exchanges,
      intervalMs,
      loadAverage: loadavg(),
      baseline: { ms: clean.ms, observations: expected.length, writes: cleanCount.writes },
      withWriter: {
        ms: edited.ms,
        writes: count.writes,
        saves: { inPlace: out.attempts.inPlace, rename: out.attempts.rename, rereads: out.attempts.reread, saved: out.saved.length },
        lostEdits: out.saved.filter((note) => !text.includes(note)).length,
        lostInPlace: out.saved.filter((note) => !text.includes(note) && Number(/\d+/.exec(note)![0]) % 2 === 0).length,
        lostObservations: expected.filter((o) => !ids.has(o)).length,
        failures: edited.result.failures.map((f) => f.message),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function editRaceTable(r: EditRaceReport): string {
  const w = r.withWriter;
  return [
    `observe of ${r.exchanges} exchanges on one day while an editor saves every ${r.intervalMs} ms, load ${r.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
    '| run | wall time | day-file writes | editor saves (in place / rename) | lost edits (in place / rename) | lost observations |',
    '|---|---|---|---|---|---|',
    `| baseline: no editor | ${(r.baseline.ms / 1000).toFixed(2)} s | ${r.baseline.writes} | – | – | 0 of ${r.baseline.observations} |`,
    `| with the editor | ${(w.ms / 1000).toFixed(2)} s | ${w.writes} | ${w.saves.saved} (${w.saves.inPlace} / ` +
      `${w.saves.rename}) | ${w.lostEdits} (${w.lostInPlace} / ${w.lostEdits - w.lostInPlace}) | ` +
      `${w.lostObservations} of ${r.baseline.observations} |`,
    ...(w.failures.length > 0 ? [`failures: ${w.failures.join('; ')}`] : []),
  ].join('\n');
}
