/**
 * A person edits a day file in an editor while `observe` writes it. Through the real job, the real
 * OpenClaw file source and the real heuristic Observer, with the editor's save made by the test at a
 * named point of the job's write (DayFileBufferOptions.onStep: no sleeps, no timing): saved in place
 * (truncate + write, the same file) or by rename (a new file moved over it), just before the job's
 * write, in the instant the job has the file aside, or caught halfway. Every edit and every
 * observation is there afterwards, and a half-written file is never written back.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, open, readFile, readdir, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { homePaths, type HomePaths } from '../../lib/platform/home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { runObserveJob, type ObserveJobResult } from '../../lib/observe/job.js';
import { createHeuristicObserver } from '../../lib/observer/heuristic/observer.js';
import { createOpenClawFileSource } from '../../lib/sources/openclaw-files.js';
import { listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import type { DayFileStep } from '../../lib/memory/day-file-buffer.js';
import { tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

const NOW = new Date('2026-03-01T12:00:00Z');
/** Small chunks and a save after each: the day file is written many times in one run. */
const LIMITS = { maxBytes: 16 * 1024, maxMessages: 10 };

/** A transcript whose 60 exchanges all fall on 2026-02-01, under <dir>/openclaw. */
async function transcriptDir(t: TestContext): Promise<{ dir: string; stateDir: string }> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const stateDir = join(dir, 'openclaw');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const id = '44444444-0000-4000-8000-000000000000';
  const w = new PiSessionWriter(id, new Date('2026-02-01T08:00:00Z'), 60_000);
  await writeFile(join(sessions, `${id}.jsonl`), w.header() + generateConversation(w, 60, 3));
  return { dir, stateDir };
}

type Hook = (step: DayFileStep, path: string) => Promise<void> | void;

function observe(paths: HomePaths, stateDir: string, onStep?: Hook, settleMs?: number): Promise<ObserveJobResult> {
  return runObserveJob({
    paths,
    sources: [createOpenClawFileSource({ stateDirs: [stateDir], masking: {} })],
    observer: createHeuristicObserver(),
    logger: createMemoryLogger(),
    timeZone: 'UTC',
    now: () => NOW,
    limits: LIMITS,
    checkpointMs: 0,
    dayFiles: { onStep, settleMs },
  });
}

const DAY = '2026-02-01.md';

/** What one clean run writes: the day's observation ids and the stream's cursor. */
async function cleanRun(t: TestContext): Promise<{ ids: string[]; cursor: unknown }> {
  const { dir, stateDir } = await transcriptDir(t);
  const paths = homePaths(join(dir, 'clean'));
  const r = await observe(paths, stateDir);
  assert.deepEqual(r.failures, []);
  return { ids: idsOf(await readFile(join(paths.memory, DAY), 'utf8')), cursor: await cursorOf(paths) };
}

function idsOf(text: string): string[] {
  return listObservations(parseDayFile(text))
    .map((o) => o.id)
    .sort();
}

/** Where the stream's cursor stands (offset and line: the rest names the transcript file, another in each home). */
async function cursorOf(paths: HomePaths): Promise<unknown> {
  const state = JSON.parse(await readFile(paths.state, 'utf8').catch(() => '{"streams":{}}')) as {
    streams: Record<string, { cursor: { offset?: number; line?: number } }>;
  };
  const cursor = Object.values(state.streams)[0]?.cursor;
  return cursor && { offset: cursor.offset, line: cursor.line };
}

/** The editor's change: a note of the user's after the heading. */
function withNote(text: string, note: string): string {
  return text.replace(/^(# .*\n)/m, `$1\n${note}\n`);
}

/** Saves as an editor does, in place (truncate + write: the same file) or by rename (a new file moved over it). */
async function editorSave(path: string, text: string, style: 'in-place' | 'rename'): Promise<void> {
  if (style === 'in-place') await writeFile(path, text);
  else {
    await writeFile(`${path}.editor~`, text);
    await rename(`${path}.editor~`, path);
  }
}

for (const style of ['in-place', 'rename'] as const) {
  for (const at of ['written', 'moved-aside'] as const) {
    test(`an editor that saves ${style === 'in-place' ? 'in place' : 'by rename'} ${at === 'written' ? "between the job's check and its write" : 'in the instant the job has the file aside'}: every edit and every observation is kept, the cursor as after a clean run`, async (t) => {
      const clean = await cleanRun(t);
      const { dir, stateDir } = await transcriptDir(t);
      const paths = homePaths(join(dir, 'home'));
      const notes: string[] = [];
      let seen = 0;
      // The editor's buffer: the version it read just before the job's write; its open file, for an in-place save.
      let buffer = '';
      let handle: FileHandle | undefined;
      const r = await observe(paths, stateDir, async (step, path) => {
        if (!path.endsWith(DAY)) return;
        if (step === 'written' && at === 'moved-aside') {
          buffer = await readFile(path, 'utf8').catch(() => '');
          if (style === 'in-place' && buffer !== '') handle = await open(path, 'r+');
        }
        if (step !== at) return;
        // Every other write of the day file: an edit saved at that very point.
        if (seen++ % 2 !== 1 || (at === 'moved-aside' && buffer === '')) {
          await handle?.close();
          handle = undefined;
          return;
        }
        const note = `My note number ${notes.length + 1}, written in my editor.`;
        notes.push(note);
        if (at === 'written') return editorSave(path, withNote(await readFile(path, 'utf8'), note), style);
        // The file is aside. Saved in place, the editor writes into the file it has open (the one aside);
        // by rename, it puts a new file at the path.
        if (handle) {
          const bytes = Buffer.from(withNote(buffer, note));
          await handle.truncate(0);
          await handle.write(bytes, 0, bytes.length, 0);
          await handle.close();
          handle = undefined;
        } else await editorSave(path, withNote(buffer, note), 'rename');
      });
      assert.deepEqual(r.failures, []);
      assert.ok(notes.length >= 2, `the editor saved ${notes.length} times`);
      const text = await readFile(join(paths.memory, DAY), 'utf8');
      for (const note of notes) assert.ok(text.includes(note), `kept: ${note}`);
      assert.deepEqual(idsOf(text), clean.ids, 'every observation of a clean run, none twice');
      assert.match(text, /^---\ndate: 2026-02-01\n/);
      assert.deepEqual(await cursorOf(paths), clean.cursor);
      assert.deepEqual(
        (await readdir(paths.memory)).filter((n) => n.startsWith('.')),
        [],
        'no temp or aside file left',
      );
    });
  }
}

/** An editor's in-place save caught halfway: the file truncated and written up to a point, the rest still to come. */
async function startInPlaceSave(path: string, text: string): Promise<{ handle: FileHandle; rest: Buffer }> {
  const bytes = Buffer.from(text);
  const handle = await open(path, 'r+');
  await handle.truncate(0);
  const half = Math.floor(bytes.length * 0.4);
  await handle.write(bytes, 0, half, 0);
  return { handle, rest: bytes.subarray(half) };
}

test('an editor caught halfway through an in-place save (frontmatter kept, the end not written yet): the job waits for the save to finish and keeps it, never writing the half back', async (t) => {
  const clean = await cleanRun(t);
  const { dir, stateDir } = await transcriptDir(t);
  const paths = homePaths(join(dir, 'home'));
  let checks = 0;
  let saving: { handle: FileHandle; rest: Buffer; at: number } | undefined;
  const note = 'A long note I was saving while the job ran.';
  const halves: string[] = [];
  const r = await observe(paths, stateDir, async (step, path) => {
    if (!path.endsWith(DAY)) return;
    if (step === 'before-check' && ++checks === 3) {
      const full = withNote(await readFile(path, 'utf8'), note);
      const started = await startInPlaceSave(path, full);
      saving = { ...started, at: Buffer.byteLength(full) - started.rest.length };
      halves.push(await readFile(path, 'utf8'));
    }
    if (step === 'unsettled' && saving) {
      // The job found the half: it must not have written anything over it.
      assert.equal(await readFile(path, 'utf8'), halves[0]);
      await saving.handle.write(saving.rest, 0, saving.rest.length, saving.at);
      await saving.handle.close();
      saving = undefined;
    }
  });
  assert.deepEqual(r.failures, []);
  assert.ok(halves.length === 1 && !halves[0]!.includes('<!-- oc-memory provenance'), 'the job met a half-written file');
  const text = await readFile(join(paths.memory, DAY), 'utf8');
  assert.ok(text.includes(note), 'the save is kept');
  assert.match(text, /^---\ndate: 2026-02-01\ntier: hot\nagent: main\n/, 'frontmatter whole');
  assert.match(text, /^# 2026-02-01$/m, 'heading kept');
  assert.deepEqual(idsOf(text), clean.ids);
  assert.deepEqual(await cursorOf(paths), clean.cursor);
});

test('a half-written file that does not settle is left byte for byte as it is, the run fails naming it, no cursor moves past what was not written; the next run writes everything', async (t) => {
  const { dir, stateDir } = await transcriptDir(t);
  // What a run stopped at the same write and run again gives (the Observer reads the rest of the stream without the context of its start).
  const reference = homePaths(join(dir, 'reference'));
  let stops = 0;
  await observe(reference, stateDir, (step, path) => {
    if (path.endsWith(DAY) && step === 'before-check' && ++stops >= 3) throw new Error('stopped here');
  });
  assert.deepEqual((await observe(reference, stateDir)).failures, []);
  const clean = { ids: idsOf(await readFile(join(reference.memory, DAY), 'utf8')), cursor: await cursorOf(reference) };
  const paths = homePaths(join(dir, 'home'));
  let checks = 0;
  let half = '';
  let saving: { handle: FileHandle; rest: Buffer; at: number } | undefined;
  const note = 'A note whose save hangs.';
  const r = await observe(
    paths,
    stateDir,
    async (step, path) => {
      if (!path.endsWith(DAY) || step !== 'before-check' || ++checks !== 3) return;
      const full = withNote(await readFile(path, 'utf8'), note);
      const started = await startInPlaceSave(path, full);
      saving = { ...started, at: Buffer.byteLength(full) - started.rest.length };
      half = await readFile(path, 'utf8');
    },
    150,
  );
  const file = join(paths.memory, DAY);
  assert.ok(r.failures.length > 0, 'the run says it could not write the day');
  assert.match(r.failures.map((f) => f.message).join('\n'), /2026-02-01\.md was not written: it looks half-written/);
  assert.equal(await readFile(file, 'utf8'), half, 'left exactly as the editor had it');
  const cursorAfterFailure = await cursorOf(paths);
  assert.notDeepEqual(cursorAfterFailure, clean.cursor, 'the cursor did not move past the observations not written');

  // The editor finishes; the next run writes every observation into the user's file.
  await saving!.handle.write(saving!.rest, 0, saving!.rest.length, saving!.at);
  await saving!.handle.close();
  const again = await observe(paths, stateDir);
  assert.deepEqual(again.failures, []);
  const text = await readFile(file, 'utf8');
  assert.ok(text.includes(note));
  assert.deepEqual(idsOf(text), clean.ids);
  assert.deepEqual(await cursorOf(paths), clean.cursor);
});

/** A clean run's result, and a home of its own beside it for the run with the editor. */
async function editedHome(t: TestContext): Promise<{ clean: { ids: string[]; cursor: unknown }; paths: HomePaths; stateDir: string }> {
  const clean = await cleanRun(t);
  const { dir, stateDir } = await transcriptDir(t);
  return { clean, paths: homePaths(join(dir, 'home')), stateDir };
}

/** After a run with an editor: no failure, every note of the editor's and every observation of a clean run there, the cursor as after it. */
async function assertAllKept(
  r: ObserveJobResult,
  paths: HomePaths,
  notes: string[],
  atLeast: number,
  clean: { ids: string[]; cursor: unknown },
): Promise<void> {
  assert.deepEqual(r.failures, []);
  assert.ok(notes.length >= atLeast, `the editor saved ${notes.length} times`);
  const text = await readFile(join(paths.memory, DAY), 'utf8');
  for (const note of notes) assert.ok(text.includes(note), `kept: ${note}`);
  assert.deepEqual(idsOf(text), clean.ids, 'every observation of a clean run, none twice');
  assert.deepEqual(await cursorOf(paths), clean.cursor);
}

/** The editor's save style, alternating by `k`. */
function saveStyle(k: number): 'in-place' | 'rename' {
  return k % 2 === 0 ? 'in-place' : 'rename';
}

test("an editor that saves right before two of the job's writes in a row, the second over the first write: every edit and every observation is kept", async (t) => {
  const { clean, paths, stateDir } = await editedHome(t);
  const notes: string[] = [];
  let seen = 0;
  const r = await observe(paths, stateDir, async (step, path) => {
    if (!path.endsWith(DAY) || step !== 'written') return;
    // Two of every four writes: the editor reads what is on disk and saves a note, just before the job replaces the file.
    if (seen++ % 4 < 2) return;
    const note = `My note number ${notes.length + 1}, saved right before a write.`;
    notes.push(note);
    await editorSave(path, withNote(await readFile(path, 'utf8'), note), saveStyle(notes.length));
  });
  await assertAllKept(r, paths, notes, 4, clean);
});

test("an editor whose check passed just before the job's write saves its buffer over the job's new file: its edit and the job's lines are both kept", async (t) => {
  const { clean, paths, stateDir } = await editedHome(t);
  const notes: string[] = [];
  let writes = 0;
  let buffer: string | undefined;
  const r = await observe(paths, stateDir, async (step, path) => {
    if (!path.endsWith(DAY)) return;
    // The editor reads the file just before one of the job's writes (its check passes then)…
    if (step === 'written' && ++writes % 3 === 2) buffer = await readFile(path, 'utf8').catch(() => undefined);
    // …and saves that buffer, with its note, after the write has landed.
    if (step === 'before-check' && buffer !== undefined) {
      const note = `My note number ${notes.length + 1}, saved from an older buffer.`;
      notes.push(note);
      await editorSave(path, withNote(buffer, note), saveStyle(notes.length));
      buffer = undefined;
    }
  });
  await assertAllKept(r, paths, notes, 2, clean);
});

test('an editor that had the file open writes into it in place after the job read the copy aside: the edit is kept', async (t) => {
  const { clean, paths, stateDir } = await editedHome(t);
  const notes: string[] = [];
  let seen = 0;
  let open_: { handle: FileHandle; text: string } | undefined;
  const r = await observe(paths, stateDir, async (step, path) => {
    if (!path.endsWith(DAY)) return;
    if (step === 'written' && seen++ % 2 === 1) {
      const text = await readFile(path, 'utf8').catch(() => '');
      if (text !== '') open_ = { handle: await open(path, 'r+'), text };
    }
    if (step === 'read-aside' && open_) {
      const note = `My note number ${notes.length + 1}, written into the open file late.`;
      notes.push(note);
      const bytes = Buffer.from(withNote(open_.text, note));
      await open_.handle.truncate(0);
      await open_.handle.write(bytes, 0, bytes.length, 0);
      await open_.handle.close();
      open_ = undefined;
    }
  });
  await assertAllKept(r, paths, notes, 2, clean);
  assert.deepEqual(
    (await readdir(paths.memory)).filter((n) => n.startsWith('.')),
    [],
    'no temp or aside file left',
  );
});
