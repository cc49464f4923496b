/**
 * Only regular files are read as transcripts: a FIFO, or a symbolic link to /dev/zero or /dev/urandom,
 * among OpenClaw's session files is skipped with a log entry instead of hanging `observe` (and
 * `sources`) while it holds the lock; a line over the line bound is skipped with a log entry and what
 * follows it is still observed (docs/trust.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { copyFile, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '..', 'fixtures', 'openclaw', 'basic-session.jsonl');
const SESSION = '11111111-1111-4111-8111-111111111111';
const SPECIAL = {
  fifo: '22222222-2222-4222-8222-222222222222',
  zero: '33333333-3333-4333-8333-333333333333',
  urandom: '44444444-4444-4444-8444-444444444444',
};

async function logLines(logs: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (const name of await readdir(logs).catch(() => [] as string[])) {
    for (const line of (await readFile(join(logs, name), 'utf8')).split('\n'))
      if (line.trim()) out.push(JSON.parse(line) as Record<string, unknown>);
  }
  return out;
}

/** A temp OpenClaw state folder with an empty sessions folder, and a memory home that reads it. */
async function openClawHome(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const sessions = join(dir, 'openclaw', 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const home = join(dir, 'home');
  await mkdir(home);
  await writeFile(join(home, 'config.yaml'), 'timezone: UTC\nsources: {openclaw_db: {enabled: false}}\n');
  return { dir, sessions, home, env: { OPENCLAW_STATE_DIR: join(dir, 'openclaw'), HOME: dir } };
}

test('a FIFO and symlinks to /dev/zero and /dev/urandom among the transcripts are skipped with a log entry; observe and sources finish', {
  skip: process.platform === 'win32' && 'no FIFOs or /dev/zero',
}, async (t) => {
  const { sessions, home, env } = await openClawHome(t);
  await copyFile(FIXTURE, join(sessions, `${SESSION}.jsonl`));
  const mkfifo = await execa('mkfifo', [join(sessions, `${SPECIAL.fifo}.jsonl`)], { reject: false, timeout: 10_000 });
  assert.equal(mkfifo.exitCode, 0, mkfifo.stderr);
  await symlink('/dev/zero', join(sessions, `${SPECIAL.zero}.jsonl`));
  await symlink('/dev/urandom', join(sessions, `${SPECIAL.urandom}.jsonl`));

  // Bounded: before the fix this never ended (the FIFO open blocks, /dev/zero never ends).
  const observe = await runCli(['observe', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(observe.code, 0, observe.stderr);
  const day = await readFile(join(home, 'memory', '2026-04-10.md'), 'utf8');
  assert.match(day, /Postgres 16/, 'the regular transcript beside them was observed');
  const skipped = (await logLines(join(home, 'logs'))).filter((l) => l.event === 'transcripts.not_regular_file').map((l) => String(l.key));
  for (const session of Object.values(SPECIAL))
    assert.ok(skipped.includes(`openclaw:main:${session}`), `${session} skipped with a log entry: ${skipped.join(', ')}`);

  const sources = await runCli(['sources', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(sources.code, 0, sources.stderr);
  // The lock was released: the next run works too.
  const again = await runCli(['observe', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(again.code, 0, again.stderr);
});

test('a FIFO where OpenClaw keeps its agent database is not opened: observe and sources finish', {
  skip: process.platform === 'win32' && 'no FIFOs',
}, async (t) => {
  const { sessions, home, env } = await openClawHome(t);
  await copyFile(FIXTURE, join(sessions, `${SESSION}.jsonl`));
  const agentDir = join(sessions, '..', 'agent');
  await mkdir(agentDir, { recursive: true });
  const mkfifo = await execa('mkfifo', [join(agentDir, 'openclaw-agent.sqlite')], { reject: false, timeout: 10_000 });
  assert.equal(mkfifo.exitCode, 0, mkfifo.stderr);
  await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n'); // the database source on, as by default
  // Bounded: before the fix SQLite's open waited for a writer for ever (and SIGTERM did not end the job).
  const observe = await runCli(['observe', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(observe.code, 0, observe.stderr);
  assert.match(await readFile(join(home, 'memory', '2026-04-10.md'), 'utf8'), /Postgres 16/);
  const sources = await runCli(['sources', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(sources.code, 0, sources.stderr);
});

test('a transcript line over the line bound is skipped with a log entry, and the lines after it are observed', async (t) => {
  const { sessions, home, env } = await openClawHome(t);
  const lines = (await readFile(FIXTURE, 'utf8')).split('\n');
  const at = lines.findIndex((l) => l.includes('Here is the error'));
  assert.ok(at > 0);
  const huge = `{"type":"message","junk":"${'x'.repeat(5 * 1024 * 1024)}"}`;
  await writeFile(join(sessions, `${SESSION}.jsonl`), [...lines.slice(0, at), huge, ...lines.slice(at)].join('\n'));
  const observe = await runCli(['observe', '--home', home], { env, timeoutMs: 60_000 });
  assert.equal(observe.code, 0, observe.stderr);
  const day = await readFile(join(home, 'memory', '2026-04-10.md'), 'utf8');
  // ("User said here is…": issue 20 took away the "User:" prefix, and with it the capital.)
  assert.match(day, /[Hh]ere is the error screenshot/, 'the line right after the long one');
  assert.match(day, /tests pass now/, 'the last lines');
  const malformed = (await logLines(join(home, 'logs'))).filter((l) => l.event === 'transcript.malformed');
  assert.equal(malformed.length, 1, JSON.stringify(malformed));
  assert.match(String(malformed[0]!.reason), /exceeds the \d+-byte limit/);
  assert.equal(malformed[0]!.line, at + 1);
  assert.doesNotMatch(JSON.stringify(malformed), /xxxxxxxx/, 'the log does not hold the line');
});
