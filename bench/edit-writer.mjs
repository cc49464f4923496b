/**
 * An editor for `npm run bench -- edits` (bench/edit-race.ts), as a process of its own: every few
 * milliseconds it reads a day file, adds a note line of its own after the heading and saves,
 * alternately in place (truncate, half the bytes, a millisecond, the rest: the half-written state is
 * there to be seen) and by rename (a temp file moved over it). Like a careful editor, it saves only
 * if the file is still the one it read (size, mtime, inode), checked right before the save (after
 * the temp file is written), else reads again: an editor that saves a buffer older than the file
 * overwrites whatever was written since, ours or anyone's, and that is not what is measured here. On SIGTERM it writes
 * the notes it saved, as JSON, to <report file>, and exits.
 *
 *   node bench/edit-writer.mjs <day file> <interval ms> <report file>
 */
import { closeSync, ftruncateSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';

const [path, intervalArg, reportPath] = process.argv.slice(2);
const interval = Number(intervalArg ?? 3);
const saved = [];
const attempts = { inPlace: 0, rename: 0, reread: 0 };
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);

function stamp() {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

function saveOnce(k) {
  const before = stamp();
  if (before === undefined) return;
  const text = readFileSync(path, 'utf8');
  // Not a whole day file (the job has it aside for an instant): try again next time.
  if (!/^# .*$/m.test(text) || !text.endsWith('\n')) return;
  const note = `Editor note ${k}: checked the budget line ${k}.`;
  const next = text.replace(/^(# .*\n)/m, `$1\n${note}\n`);
  const rename = k % 2 === 1;
  // A rename-save writes its temp file first, then checks, then renames: the check is right before the save.
  if (rename) writeFileSync(`${path}.editor~`, next);
  if (stamp() !== before) {
    attempts.reread++;
    return;
  }
  if (!rename) {
    attempts.inPlace++;
    const bytes = Buffer.from(next);
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, 0);
    const half = Math.floor(bytes.length / 2);
    writeSync(fd, bytes, 0, half, 0);
    sleep(1);
    writeSync(fd, bytes, half, bytes.length - half, half);
    closeSync(fd);
  } else {
    attempts.rename++;
    renameSync(`${path}.editor~`, path);
  }
  saved.push(note);
}

let k = 0;
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});
const tick = () => {
  if (stopping) {
    writeFileSync(reportPath, JSON.stringify({ saved, attempts }));
    process.exit(0);
  }
  try {
    saveOnce(k++);
  } catch (error) {
    // The file went aside between the stat and the read (the job's write): the next tick reads it again.
    if (error.code !== 'ENOENT') throw error;
    attempts.reread++;
  }
  setTimeout(tick, interval);
};
tick();
