/**
 * The heuristic Observer on a worker thread (lib/observer/heuristic/thread.ts):
 * the same observations as inline, whatever runs where; small batches stay
 * inline; a worker that dies costs nothing but time; an idle worker does not
 * keep the process alive. And the observe job, which reads the next chunk
 * while the Observer works, writes exactly what it writes with the inline one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { dirname, join } from 'node:path';
import { homePaths, type HomePaths } from '../../../lib/platform/home.js';
import { createMemoryLogger } from '../../../lib/platform/log.js';
import { runObserveJob } from '../../../lib/observe/job.js';
import { BACKLOG_BYTES } from '../../../lib/observe/read-ahead.js';
import { createHeuristicObserver, observeWithRules } from '../../../lib/observer/heuristic/observer.js';
import { createThreadedHeuristicObserver, type ThreadedObserver } from '../../../lib/observer/heuristic/thread.js';
import { validateConfig } from '../../../lib/config/config.js';
import { createLazyObserver } from '../../../lib/observer/factory.js';
import { createOpenClawFileSource } from '../../../lib/sources/openclaw-files.js';
import type { Message, Observer, ObserverBatch } from '../../../lib/core/types.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../../helpers/pi-writer.js';

const fixture = (name: string): URL => new URL(`../../fixtures/workers/${name}`, import.meta.url);

const SENTENCES: Array<[Message['role'], string]> = [
  ['user', 'Hey Sam! I prefer TypeScript over JavaScript for anything that ships.'],
  ['assistant', 'Noted, Alex. Do you want strict mode everywhere?'],
  ['user', 'Yes. We decided to use PostgreSQL 16 for the billing service, the deadline is next Friday.'],
  ['tool', '[tool result: read_file] export const pool = new Pool();'],
  ['assistant', 'I updated the config so the service reads DATABASE_URL from the environment.'],
  ['user', '저는 한국어로 답변받는 것을 선호해요. 내일까지 인증 문제를 해결해야 해요.'],
  ['user', 'I finished the migration today. (ticket 4242)'],
  ['assistant', 'Great! Did the tests pass on CI?'],
  ['user', 'All tests pass now, thanks.'],
  ['user', "I'm struggling with async/await in loops - can you explain how Promise.all works?"],
];

function batchOf(n: number, session = 's1'): ObserverBatch {
  const messages: Message[] = [];
  for (let i = 0; i < n; i++) {
    const [role, text] = SENTENCES[i % SENTENCES.length]!;
    messages.push({
      role,
      text: `${text} (step ${i})`,
      time: new Date(Date.UTC(2026, 1, 1, 8) + i * 7 * 60_000).toISOString(),
      entryId: i.toString(16).padStart(8, '0'),
      source: 'openclaw',
      agent: 'main',
      session,
    });
  }
  return { source: 'openclaw', agent: 'main', session, messages, timeZone: 'Asia/Seoul', now: '2026-02-03T00:00:00Z' };
}

test('on the worker thread, a batch gets exactly the observations the inline Observer gives it', async () => {
  const speakerNames = (batch: ObserverBatch) => (batch.session === 's1' ? { user: 'Alex', assistant: 'Sam' } : undefined);
  for (const options of [
    {},
    { speakerNames },
    { inferSpeakerNames: true },
    { keepAssistantQuestions: true, maxSentencesPerObservation: 2 },
  ]) {
    const threaded = createThreadedHeuristicObserver(options, { minMessages: 1 });
    try {
      for (const batch of [batchOf(120), batchOf(45, 's2'), batchOf(3)]) {
        const expected = observeWithRules(batch, options);
        assert.ok(expected.observations.length > 0);
        assert.deepEqual(await threaded.observe(batch), expected);
      }
      assert.equal(threaded.threadedBatches, 3);
    } finally {
      await threaded.close();
    }
  }
});

test('batches below minMessages are observed inline until a large one starts the worker', async () => {
  const threaded = createThreadedHeuristicObserver({}, { minMessages: 100 });
  try {
    await threaded.observe(batchOf(10));
    await threaded.observe(batchOf(99));
    assert.equal(threaded.threadedBatches, 0);
    await threaded.observe(batchOf(100));
    // Once it runs, every batch goes to it (the main thread stays free to read).
    await threaded.observe(batchOf(5));
    assert.equal(threaded.threadedBatches, 2);
  } finally {
    await threaded.close();
  }
  const oneCpu = createThreadedHeuristicObserver({}, { minMessages: 1, minCpus: 10_000 });
  await oneCpu.observe(batchOf(200));
  assert.equal(oneCpu.threadedBatches, 0, 'no worker when the machine has too few CPUs');
});

test('prepare() starts the worker before any batch: then even a small batch is observed there, with the same result', async () => {
  const threaded = createThreadedHeuristicObserver({}, { minMessages: 1000 });
  try {
    threaded.prepare();
    const batch = batchOf(7);
    assert.deepEqual(await threaded.observe(batch), observeWithRules(batch));
    assert.equal(threaded.threadedBatches, 1);
  } finally {
    await threaded.close();
  }
  const oneCpu = createThreadedHeuristicObserver({}, { minMessages: 1000, minCpus: 10_000 });
  oneCpu.prepare();
  await oneCpu.observe(batchOf(7));
  assert.equal(oneCpu.threadedBatches, 0, 'no worker when the machine has too few CPUs');
});

test('the Observer jobs use (createLazyObserver) forwards prepare(): the worker it starts observes even a small batch, with the same result', async () => {
  const lazy = createLazyObserver(validateConfig({ observer: { provider: 'heuristic' } }));
  assert.equal(typeof lazy.prepare, 'function', 'the lazy Observer has prepare()');
  lazy.prepare!();
  const threaded = (await lazy.created()) as ThreadedObserver;
  try {
    const batch = batchOf(7);
    // (The config's observer.infer_names is on by default.)
    assert.deepEqual(await lazy.observe(batch), observeWithRules(batch, { inferSpeakerNames: true }));
    // A batch of 7 messages stays inline unless the worker was started by prepare().
    assert.equal(threaded.threadedBatches, 1, 'the batch went to the worker prepare() started');
  } finally {
    await threaded.close();
  }
});

test('a prepared worker that never gets a batch does not keep the process alive', async () => {
  const module = new URL('../../../lib/observer/heuristic/thread.ts', import.meta.url).href;
  const code = `const { createThreadedHeuristicObserver } = await import(${JSON.stringify(module)});
createThreadedHeuristicObserver({}, { idleMs: 60_000 }).prepare();
console.log('prepared');`;
  const started = performance.now();
  const child = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { reject: false, timeout: 30_000 });
  assert.equal(child.exitCode, 0, child.stderr);
  assert.equal(child.stdout, 'prepared');
  // Far less than the idle timeout: the process ended without waiting for the worker.
  assert.ok(performance.now() - started < 30_000 && !child.timedOut);
});

test('a worker that dies: its batches and every later one are observed inline, with the same result', async () => {
  const threaded = createThreadedHeuristicObserver({}, { minMessages: 1, workerUrl: fixture('exits.mjs') });
  const batches = [batchOf(30), batchOf(31), batchOf(32)];
  // Two in flight when it dies.
  const results = await Promise.all(batches.slice(0, 2).map((b) => threaded.observe(b)));
  results.push(await threaded.observe(batches[2]!));
  assert.deepEqual(
    results,
    batches.map((b) => observeWithRules(b)),
  );
  await threaded.close();
});

test("an error thrown by the rules on the worker is the caller's error", async () => {
  const threaded = createThreadedHeuristicObserver({}, { minMessages: 1, workerUrl: fixture('throws.mjs') });
  try {
    await assert.rejects(threaded.observe(batchOf(5)), /rules failed on this batch/);
  } finally {
    await threaded.close();
  }
});

/** Session 44444444 of agent main; returns the file's path. */
async function writeTranscript(stateDir: string, exchanges: number, toolLines: [number, number] = [2, 30]): Promise<string> {
  const dir = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  const id = '44444444-0000-4000-8000-000000000000';
  const w = new PiSessionWriter(id, new Date('2026-02-01T08:00:00Z'), 11 * 60_000);
  const path = join(dir, `${id}.jsonl`);
  await writeFile(path, w.header() + generateConversation(w, exchanges, 9, { toolShare: 0.4, toolLines }));
  return path;
}

/** A transcript large enough for the job to treat it as a backlog (long tool results); returns its path. */
async function writeBacklog(stateDir: string, exchanges: number): Promise<string> {
  const path = await writeTranscript(stateDir, exchanges, [20, 150]);
  assert.ok((await stat(path)).size >= BACKLOG_BYTES, 'the transcript is a backlog');
  return path;
}

async function memoryFiles(paths: HomePaths): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(paths.memory)).filter((n) => n.endsWith('.md')).sort())
    out[name] = await readFile(join(paths.memory, name), 'utf8');
  return out;
}

test('the observe job with the threaded Observer (reading ahead) writes what it writes inline, chunk by chunk', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    await writeTranscript(stateDir, 400);
    const run = async (name: string, observer: Observer) => {
      const paths = homePaths(join(dir, name));
      const result = await runObserveJob({
        paths,
        sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
        observer,
        logger: createMemoryLogger(),
        timeZone: 'UTC',
        now: () => new Date('2026-03-01T00:00:00Z'),
        limits: { maxBytes: 1 << 20, maxMessages: 90 },
        checkpointMs: 0,
      });
      return { result, files: await memoryFiles(paths), state: JSON.parse(await readFile(paths.state, 'utf8')) as { streams: unknown } };
    };
    const threaded = createThreadedHeuristicObserver({}, { minMessages: 1 });
    const a = await run('threaded', threaded);
    await threaded.close();
    const b = await run('inline', createHeuristicObserver());
    assert.ok(threaded.threadedBatches >= 10, `read and observed in many chunks (${threaded.threadedBatches})`);
    assert.ok(a.result.observations > 300);
    assert.deepEqual(a.files, b.files);
    assert.deepEqual(a.state.streams, b.state.streams);
    assert.deepEqual({ ...a.result, failures: a.result.failures.length }, { ...b.result, failures: b.result.failures.length });
  } finally {
    await cleanup();
  }
});

test('the observe job tells the Observer to prepare when it starts a backlog, and only then', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const big = await writeBacklog(stateDir, 1000);
    const sessions = dirname(big);
    // A second, small session: read from its start too, but no backlog.
    const w = new PiSessionWriter('55555555-0000-4000-8000-000000000000', new Date('2026-02-02T08:00:00Z'), 60_000);
    await writeFile(join(sessions, '55555555-0000-4000-8000-000000000000.jsonl'), w.header() + generateConversation(w, 20, 3, {}));
    const paths = homePaths(join(dir, 'home'));
    const events: string[] = [];
    const inline = createHeuristicObserver();
    const recording: Observer = {
      kind: inline.kind,
      label: inline.label,
      prepare: () => events.push('prepare'),
      observe: (batch) => {
        events.push(`observe ${batch.session.slice(0, 8)}`);
        return inline.observe(batch);
      },
    };
    const job = () =>
      runObserveJob({
        paths,
        sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
        observer: recording,
        logger: createMemoryLogger(),
        timeZone: 'UTC',
        now: () => new Date('2026-03-01T00:00:00Z'),
      });
    await job();
    const prepared = events.indexOf('prepare');
    assert.deepEqual(
      events.filter((e) => e === 'prepare'),
      ['prepare'],
      'once: for the big session only',
    );
    assert.equal(events[prepared + 1], 'observe 44444444', "before the big session's first batch");
    assert.ok(events.includes('observe 55555555'));
    // Later ticks continue from a cursor: never a backlog.
    events.length = 0;
    const lines = (await readFile(big, 'utf8')).trimEnd().split('\n');
    const lastId = (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
    const entry = {
      type: 'message',
      id: 'feed0001',
      parentId: lastId,
      timestamp: '2026-02-20T08:00:00.000Z',
      message: { role: 'user', content: 'I switched to a standing desk today.' },
    };
    await appendFile(big, `${JSON.stringify(entry)}\n`);
    await job();
    assert.deepEqual(events, ['observe 44444444'], 'the new line is observed, without prepare()');
  } finally {
    await cleanup();
  }
});

test('`observe` on a backlog (the compiled worker, prepared before the first read) exits at once and writes what the inline Observer writes', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    // Large enough to be a backlog: the job prepares the worker before the first chunk is read.
    await writeBacklog(stateDir, 1200);
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n  openclaw_db:\n    enabled: false\n`,
    );
    // A bound for a loaded 2-core machine (1,200 messages took over 60 s beside two CPU hogs and other work), not a speed check:
    // "exits at once" is the worker not keeping the process alive, which a hang past this bound would show.
    const cli = await runCli(['observe', '--flush', '--json', '--home', home], { timeoutMs: 240_000 });
    assert.equal(cli.code, 0, cli.stderr);
    const reported = JSON.parse(cli.stdout) as { observations: number };
    // The same files as the inline Observer writes in process.
    const inline = homePaths(join(dir, 'inline'));
    const result = await runObserveJob({
      paths: inline,
      sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
      observer: createHeuristicObserver(),
      logger: createMemoryLogger(),
      timeZone: 'UTC',
    });
    assert.equal(reported.observations, result.observations);
    assert.deepEqual(await memoryFiles(homePaths(home)), await memoryFiles(inline));
  } finally {
    await cleanup();
  }
});
