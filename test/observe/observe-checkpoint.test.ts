/**
 * The observe job keeps the heuristic Observer's results in memory across
 * read chunks and saves them (day files, then the cursor) when a stream ends
 * and every `checkpointMs`. Through the real job, the real OpenClaw file
 * source and the real heuristic Observer: how often it saves never changes
 * the result, a job stopped at any chunk boundary and run again ends with
 * exactly what one clean run writes, and a stream that fails midway keeps
 * its earlier chunks.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { homePaths, type HomePaths } from '../../lib/platform/home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { runObserveJob, type ObserveJobResult } from '../../lib/observe/job.js';
import { createHeuristicObserver } from '../../lib/observer/heuristic/observer.js';
import { createOpenClawFileSource } from '../../lib/sources/openclaw-files.js';
import type { Observer, TranscriptSource } from '../../lib/core/types.js';
import { tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

const NOW = new Date('2026-03-01T12:00:00Z');
/** Small chunks: one transcript is read in many. */
const LIMITS = { maxBytes: 64 * 1024, maxMessages: 15 };

async function writeTranscript(stateDir: string): Promise<void> {
  const dir = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  const id = '22222222-0000-4000-8000-000000000000';
  // 45 minutes per message: the conversation spans several days, so chunks touch several day files.
  const w = new PiSessionWriter(id, new Date('2026-02-01T08:00:00Z'), 45 * 60_000);
  await writeFile(join(dir, `${id}.jsonl`), w.header() + generateConversation(w, 60, 3, { toolLines: [2, 4] }));
}

type ReadHook = (chunkIndex: number) => Promise<void>;

/** A temp folder (removed after the test) with the transcript written under <dir>/openclaw. */
async function transcriptDir(t: TestContext): Promise<{ dir: string; stateDir: string }> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const stateDir = join(dir, 'openclaw');
  await writeTranscript(stateDir);
  return { dir, stateDir };
}

function source(stateDir: string, beforeRead?: ReadHook): TranscriptSource {
  const real = createOpenClawFileSource({ stateDirs: [stateDir], masking: {} });
  let reads = 0;
  return {
    kind: real.kind,
    discover: () => real.discover(),
    read: async (stream, cursor, limits) => {
      await beforeRead?.(reads++);
      return real.read(stream, cursor, limits);
    },
  };
}

function observe(
  paths: HomePaths,
  src: TranscriptSource,
  checkpointMs?: number,
  observer: Observer = createHeuristicObserver(),
): Promise<ObserveJobResult> {
  return runObserveJob({
    paths,
    sources: [src],
    observer,
    logger: createMemoryLogger(),
    timeZone: 'UTC',
    now: () => NOW,
    limits: LIMITS,
    ...(checkpointMs !== undefined ? { checkpointMs } : {}),
  });
}

/** Every day file's text, by name. */
async function dayFiles(paths: HomePaths): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let names: string[] = [];
  try {
    names = (await readdir(paths.memory)).filter((n) => n.endsWith('.md')).sort();
  } catch {
    /* none yet */
  }
  for (const name of names) out[name] = await readFile(join(paths.memory, name), 'utf8');
  return out;
}

async function stateJson(paths: HomePaths): Promise<{ streams: Record<string, { messages: number; cursor: unknown }>; totals: unknown }> {
  return JSON.parse(await readFile(paths.state, 'utf8'));
}

test('saving after every chunk or once per stream writes the same day files and state', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  const everyChunk = homePaths(join(dir, 'every-chunk'));
  const once = homePaths(join(dir, 'once'));
  let chunks = 0;
  const a = await observe(
    everyChunk,
    source(stateDir, async () => void chunks++),
    0,
  );
  const b = await observe(once, source(stateDir), 3_600_000);
  assert.ok(chunks >= 8, `the transcript is read in many chunks (${chunks})`);
  const files = await dayFiles(everyChunk);
  assert.ok(Object.keys(files).length >= 3, `several day files (${Object.keys(files).join(', ')})`);
  assert.deepEqual(await dayFiles(once), files);
  assert.deepEqual(await stateJson(once), await stateJson(everyChunk));
  assert.deepEqual({ ...b, failures: b.failures.length }, { ...a, failures: a.failures.length });
  assert.ok(a.observations > 50, `many observations (${a.observations})`);
});

test('stopped at any chunk boundary and run again, the job ends with exactly what one clean run writes', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  const clean = homePaths(join(dir, 'clean'));
  await observe(clean, source(stateDir));
  const expected = await dayFiles(clean);
  const expectedState = await stateJson(clean);

  // What a kill -9 before each read would leave on disk: a copy of the home at that moment.
  for (const checkpointMs of [0, 40]) {
    const live = homePaths(join(dir, `live-${checkpointMs}`));
    const snapshots: string[] = [];
    await observe(
      live,
      source(stateDir, async (i) => {
        const copy = join(dir, `snap-${checkpointMs}-${i}`);
        // A synchronous copy is one moment, as a kill is: the job reads ahead, so its
        // saves run while this hook does (an async copy could mix before and after).
        try {
          cpSync(live.root, copy, { recursive: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        snapshots.push(copy);
        // Some reads take longer than the 40 ms interval: it saves at some boundaries and not at others.
        if (i % 3 === 2) await new Promise((r) => setTimeout(r, 50));
      }),
      checkpointMs,
    );
    assert.ok(snapshots.length >= 8);
    let withProgress = 0;
    for (const copy of snapshots) {
      const paths = homePaths(copy);
      if (Object.keys(await dayFiles(paths)).length > 0) withProgress++;
      await observe(paths, source(stateDir));
      assert.deepEqual(await dayFiles(paths), expected, `re-run from ${copy}`);
      const state = await stateJson(paths);
      const key = Object.keys(expectedState.streams)[0]!;
      assert.deepEqual(state.streams[key]!.cursor, expectedState.streams[key]!.cursor);
    }
    assert.ok(withProgress >= 3, `saved progress was found at several boundaries (${withProgress})`);
  }
});

test('a stream that fails midway keeps the progress of its earlier chunks; the next run finishes it', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  const clean = homePaths(join(dir, 'clean'));
  await observe(clean, source(stateDir));

  const home = homePaths(join(dir, 'home'));
  const failing = source(stateDir, async (i) => {
    if (i === 4) throw new Error('transcript unreadable');
  });
  const first = await observe(home, failing, 3_600_000);
  assert.equal(first.failures.length, 1);
  assert.match(first.failures[0]!.message, /transcript unreadable/);
  // Four chunks were read and observed before the failure: saved although no checkpoint was due.
  const state = await stateJson(home);
  const saved = Object.values(state.streams)[0]!;
  assert.equal(saved.messages, first.messages);
  assert.ok(first.messages > 0 && first.observations > 0);
  const files = await dayFiles(home);
  const lines = Object.values(files)
    .join('')
    .split('\n')
    .filter((l) => /\^o-[0-9a-f]{10}$/.test(l));
  assert.equal(lines.length, first.observations, 'every observation counted is on disk');

  await observe(home, source(stateDir));
  assert.deepEqual(await dayFiles(home), await dayFiles(clean));
});

test('a day file edited by hand while a job holds it in memory keeps the edit and gets every new observation', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const note = 'A note I wrote by hand while the job ran.';
    /** Observe 20 exchanges, then 40 more in a second job that saves only at its end; `edit` may change a day file mid-job. */
    const twoJobs = async (name: string, edit: boolean): Promise<{ files: Record<string, string>; edited: string; edits: number }> => {
      const stateDir = join(dir, name, 'openclaw');
      const sessions = join(stateDir, 'agents', 'main', 'sessions');
      await mkdir(sessions, { recursive: true });
      const id = '33333333-0000-4000-8000-000000000000';
      const transcript = join(sessions, `${id}.jsonl`);
      // 20 minutes per message: both halves of the conversation land in the same day files.
      const w = new PiSessionWriter(id, new Date('2026-02-01T08:00:00Z'), 20 * 60_000);
      await writeFile(transcript, w.header() + generateConversation(w, 20, 5, { toolLines: [2, 4] }));
      const home = homePaths(join(dir, name, 'home'));
      await observe(home, source(stateDir));
      const edited = Object.keys(await dayFiles(home))[0]!;
      await appendFile(transcript, generateConversation(w, 40, 6, { toolLines: [2, 4] }));
      let edits = 0;
      await observe(
        home,
        source(stateDir, async (i) => {
          // The job has read the day file by its third read; it writes it only at the end.
          if (!edit || i !== 2) return;
          const path = join(home.memory, edited);
          await writeFile(path, `${await readFile(path, 'utf8')}\n${note}\n`);
          edits++;
        }),
        3_600_000,
      );
      return { files: await dayFiles(home), edited, edits };
    };
    const plain = await twoJobs('plain', false);
    const withEdit = await twoJobs('edited', true);
    assert.equal(withEdit.edits, 1);
    assert.ok(withEdit.files[withEdit.edited]!.includes(note), 'the hand edit survives the job');
    // Every observation is there, once: the same as without the edit.
    const ids = (files: Record<string, string>) =>
      Object.values(files)
        .flatMap((t) => [...t.matchAll(/\^(o-[0-9a-f]{10})$/gm)].map((m) => m[1]!))
        .sort();
    assert.ok(ids(plain.files).length > 40);
    assert.deepEqual(ids(withEdit.files), ids(plain.files));
  } finally {
    await cleanup();
  }
});

test('the job reads the next chunk while the Observer works, and still writes in order', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  const events: string[] = [];
  const inline = createHeuristicObserver();
  let calls = 0;
  // An Observer that takes its time (as one on another thread or across the network).
  const slow: Observer = {
    kind: 'heuristic',
    label: 'slow',
    observe: async (batch) => {
      const n = calls++;
      events.push(`observe ${n}`);
      await new Promise((r) => setTimeout(r, 30));
      events.push(`observed ${n}`);
      return inline.observe(batch);
    },
  };
  const home = homePaths(join(dir, 'home'));
  await observe(
    home,
    source(stateDir, async (i) => void events.push(`read ${i}`)),
    undefined,
    slow,
  );
  // Chunk 1 is read and handed to the Observer before chunk 0's observations are back.
  assert.ok(events.indexOf('read 1') < events.indexOf('observed 0'), events.slice(0, 6).join(', '));
  assert.ok(events.indexOf('observe 1') < events.indexOf('observed 0') + 2);
  const clean = homePaths(join(dir, 'clean'));
  await observe(clean, source(stateDir));
  assert.deepEqual(await dayFiles(home), await dayFiles(clean));
  assert.deepEqual(await stateJson(home), await stateJson(clean));
});

test('an Observer that fails on a chunk: the chunks before it are saved, the ones read ahead are not, the next run completes', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  const inline = createHeuristicObserver();
  let calls = 0;
  const failing: Observer = {
    kind: 'heuristic',
    label: 'fails on the fourth chunk',
    observe: async (batch) => {
      if (calls++ === 3) throw new Error('observer broke');
      return inline.observe(batch);
    },
  };
  const home = homePaths(join(dir, 'home'));
  let reads = 0;
  const first = await observe(
    home,
    source(stateDir, async () => void reads++),
    3_600_000,
    failing,
  );
  assert.match(first.failures[0]!.message, /observer broke/);
  // Chunks past the failing one had been read and handed to the Observer; none of them is saved.
  assert.ok(calls > 4 && reads > 4, `the job had read past the failing chunk (${reads} reads, ${calls} Observer calls)`);
  const saved = Object.values((await stateJson(home)).streams)[0]!;
  assert.equal(saved.messages, first.messages, 'the cursor covers exactly the chunks whose observations were written');
  const lines = Object.values(await dayFiles(home))
    .join('')
    .split('\n')
    .filter((l) => /\^o-[0-9a-f]{10}$/.test(l));
  assert.equal(lines.length, first.observations);
  await observe(home, source(stateDir));
  const clean = homePaths(join(dir, 'clean'));
  await observe(clean, source(stateDir));
  assert.deepEqual(await dayFiles(home), await dayFiles(clean));
});
