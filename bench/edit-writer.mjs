/**
 * An editor for `npm run bench -- edits` (bench/edit-race.ts), as a process of its own: every few
 * milliseconds it reads a day file, adds a note line of its own after the heading and saves,
 * alternately in place (truncate, half the bytes, a millisecond, the rest: the half-written state is
 * there to be seen) and by rename (a temp file moved over it). Like a careful editor, it saves only
 * if the file is still the one it read (size, mtime, inode), else reads again. On SIGTERM it prints
 * the notes it saved, as JSON, and exits.
 *
 *   node bench/edit-writer.mjs <day file> <interval ms>
 */
import { closeSync, ftruncateSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';

const [path, intervalArg] = process.argv.slice(2);
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
  if (stamp() !== before) {
    attempts.reread++;
    return;
  }
  if (k % 2 === 0) {
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
    writeFileSync(`${path}.editor~`, next);
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
    process.stdout.write(JSON.stringify({ saved, attempts }));
    process.exit(0);
  }
  saveOnce(k++);
  setTimeout(tick, interval);
};
tick();
