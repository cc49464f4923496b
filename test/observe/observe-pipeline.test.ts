/**
 * The observe pipeline end to end, through the CLI as a child process:
 * crash safety under kill -9, rotation, concurrent runs, malformed input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { crashAtSteps } from '../helpers/kill-loop.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';
import { snapshotObservations } from '../helpers/memory-snapshot.js';

async function makeHome(root: string, name: string, stateDir: string): Promise<string> {
  const home = join(root, name);
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
  return home;
}

function sessionPath(stateDir: string, agent: string, id: string): string {
  return join(stateDir, 'agents', agent, 'sessions', `${id}.jsonl`);
}

async function writeSession(
  stateDir: string,
  agent: string,
  id: string,
  exchanges: number,
  seed: number,
  start = new Date('2026-02-10T08:00:00Z'),
): Promise<void> {
  const dir = join(stateDir, 'agents', agent, 'sessions');
  await mkdir(dir, { recursive: true });
  const w = new PiSessionWriter(id, start);
  await writeFile(join(dir, `${id}.jsonl`), w.header() + generateConversation(w, exchanges, seed));
}

function uuid(n: number): string {
  return `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
}

function assertNoDuplicates(rows: Array<{ id: string }>): void {
  const ids = rows.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'no observation id appears twice');
}

test('kill -9 at named steps during observe (mid-chunk, after the day files, after the cursor), again and again, then finish: same observations as one uninterrupted run', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    for (let s = 0; s < 3; s++) await writeSession(stateDir, s === 2 ? 'work' : 'main', uuid(s), 700, s + 1);
    const reference = await makeHome(dir, 'reference', stateDir);
    const r = await runCli(['observe', '--home', reference, '--json'], { timeoutMs: 300_000 });
    assert.equal(r.code, 0, r.stderr);
    const expected = await snapshotObservations(reference);
    assert.ok(expected.length > 2000, `a long transcript gives many observations (${expected.length})`);

    const crashed = await makeHome(dir, 'crashed', stateDir);
    // SIGKILL mid-chunk and between "day files written" and "cursor saved" (no progress kept), then just after a save (progress kept), over and over: every step below is reached while work remains, so a run ends on its own only when all is done.
    const kills = await crashAtSteps(
      ['observe', '--home', crashed],
      ['observe-chunk', 'observe-written', 'observe-chunk', 'observe-written', 'observe-saved'],
    );
    assert.ok(kills >= 5, `the job was really killed mid-run (${kills} kills)`);
    const done = await runCli(['observe', '--home', crashed, '--json'], { timeoutMs: 300_000 });
    assert.equal(done.code, 0, done.stderr);
    const actual = await snapshotObservations(crashed);
    assertNoDuplicates(actual);
    assert.equal(actual.length, expected.length, 'nothing lost, nothing duplicated');
    assert.deepEqual(actual, expected);
    // No temp files left behind by the killed writers.
    const leftovers = (await readdir(join(crashed, 'memory'), { recursive: true })).filter((n) => String(n).endsWith('.tmp'));
    assert.deepEqual(leftovers, []);
  } finally {
    await cleanup();
  }
});

test('rotation: 100 conversations, /reset rename, 50 more → all 150 observed exactly once', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const home = await makeHome(dir, 'home', stateDir);
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const first = uuid(1);
    const w1 = new PiSessionWriter(first, new Date('2026-03-01T09:00:00Z'));
    const convo = (w: PiSessionWriter, k: number) =>
      w.message({
        role: 'user',
        text: `I decided to name release number ${k} after the color ${['red', 'teal', 'amber', 'violet'][k % 4]} ${k}.`,
      }) + w.message({ role: 'assistant', text: `Noted: release ${k} is named after that color.` });
    let text = w1.header();
    for (let k = 1; k <= 60; k++) text += convo(w1, k);
    await writeFile(sessionPath(stateDir, 'main', first), text);
    assert.equal((await runCli(['observe', '--home', home])).code, 0);
    // 40 more lines land in the old file, then /reset renames it before we read them.
    let tail = '';
    for (let k = 61; k <= 100; k++) tail += convo(w1, k);
    await appendFile(sessionPath(stateDir, 'main', first), tail);
    await rename(sessionPath(stateDir, 'main', first), `${sessionPath(stateDir, 'main', first)}.reset.2026-03-01T10-00-00.000Z`);
    const second = uuid(2);
    const w2 = new PiSessionWriter(second, new Date('2026-03-01T10:01:00Z'));
    let text2 = w2.header();
    for (let k = 101; k <= 150; k++) text2 += convo(w2, k);
    await writeFile(sessionPath(stateDir, 'main', second), text2);
    for (let i = 0; i < 3; i++) assert.equal((await runCli(['observe', '--home', home])).code, 0);
    const rows = await snapshotObservations(home);
    assertNoDuplicates(rows);
    for (let k = 1; k <= 150; k++) {
      const hits = rows.filter((r) => new RegExp(`release number ${k} after`).test(r.text));
      assert.equal(hits.length, 1, `conversation ${k} observed exactly once (${hits.length})`);
    }
  } finally {
    await cleanup();
  }
});

test('two concurrent runs on one home: both succeed, nothing duplicated', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    for (let s = 0; s < 3; s++) await writeSession(stateDir, 'main', uuid(s), 400, s + 11);
    const reference = await makeHome(dir, 'reference', stateDir);
    // 1,200 messages through a whole run (observe, index with vectors off, active memory): a loaded
    // machine's bound, as for the other backlog runs; a hang still ends the test.
    const bound = { timeoutMs: 300_000 };
    assert.equal((await runCli(['run', '--home', reference], bound)).code, 0);
    const home = await makeHome(dir, 'home', stateDir);
    const [a, b] = await Promise.all([runCli(['run', '--home', home], bound), runCli(['run', '--home', home], bound)]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const rows = await snapshotObservations(home);
    assertNoDuplicates(rows);
    assert.deepEqual(rows, await snapshotObservations(reference));
  } finally {
    await cleanup();
  }
});

test('malformed lines (torn JSON, binary garbage, invalid UTF-8, a 5 MB line) are skipped, counted and logged; the rest is observed', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const home = await makeHome(dir, 'home', stateDir);
    const id = uuid(9);
    const w = new PiSessionWriter(id, new Date('2026-04-01T09:00:00Z'));
    const parts: Buffer[] = [
      Buffer.from(w.header()),
      Buffer.from(w.message({ role: 'user', text: 'I prefer PostgreSQL over MySQL for the ledger service.' })),
      Buffer.from('{"type":"message","id":"deadbeef","parentId":null,"timest\n'),
      Buffer.from([0x00, 0xff, 0xfe, 0x13, 0x37, 0x0a]),
      Buffer.concat([Buffer.from('{"type":"message","text":"'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), Buffer.from('"}\n')]),
      Buffer.from(
        `{"type":"message","id":"0badc0de","parentId":null,"timestamp":"2026-04-01T09:00:00Z","message":{"role":"user","content":"${'x'.repeat(5 * 1024 * 1024)}"}}\n`,
      ),
      Buffer.from(w.message({ role: 'user', text: 'The deadline for the ledger migration is 2026-04-15.' })),
    ];
    await mkdir(join(stateDir, 'agents', 'main', 'sessions'), { recursive: true });
    await writeFile(sessionPath(stateDir, 'main', id), Buffer.concat(parts));
    const r = await runCli(['observe', '--home', home, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.malformed >= 4, `malformed lines counted: ${out.malformed}`);
    const rows = await snapshotObservations(home);
    assert.ok(
      rows.some((x) => /PostgreSQL/.test(x.text)),
      'the line before the garbage is observed',
    );
    assert.ok(
      rows.some((x) => /2026-04-15/.test(x.text)),
      'the line after the garbage is observed',
    );
    const log = await readFile(join(home, 'logs', 'observer.log'), 'utf8');
    assert.match(log, /transcript\.malformed/);
    const status = JSON.parse((await runCli(['status', '--home', home, '--json'])).stdout);
    assert.ok(status.sources[0].malformed >= 4);
  } finally {
    await cleanup();
  }
});

test('a day file with hand-broken frontmatter is never rewritten; its new observations wait (cursor held) until the YAML is fixed', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const home = await makeHome(dir, 'home', stateDir);
    const id = uuid(21);
    const w = new PiSessionWriter(id, new Date('2026-05-02T09:00:00Z'));
    await mkdir(join(stateDir, 'agents', 'main', 'sessions'), { recursive: true });
    await writeFile(
      sessionPath(stateDir, 'main', id),
      w.header() + w.message({ role: 'user', text: 'I prefer Rust for the parser service.' }),
    );
    assert.equal((await runCli(['observe', '--home', home])).code, 0);
    const dayFile = join(home, 'memory', '2026-05-02.md');
    const broken = (await readFile(dayFile, 'utf8')).replace('tier: hot', 'tier: [hot');
    await writeFile(dayFile, broken);
    await appendFile(sessionPath(stateDir, 'main', id), w.message({ role: 'user', text: 'We decided to deploy the parser on Fly.io.' }));
    const r = await runCli(['observe', '--home', home]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken frontmatter/);
    assert.equal(await readFile(dayFile, 'utf8'), broken, 'the hand-broken file is untouched');
    const status = JSON.parse((await runCli(['status', '--home', home, '--json'])).stdout);
    assert.match(status.lastError.message, /broken frontmatter/);
    // The user fixes the YAML: the waiting observation is written on the next run.
    await writeFile(dayFile, broken.replace('tier: [hot', 'tier: hot'));
    assert.equal((await runCli(['observe', '--home', home])).code, 0);
    const rows = await snapshotObservations(home);
    assert.ok(rows.some((x) => /Fly\.io/.test(x.text)));
    assert.ok(rows.some((x) => /Rust/.test(x.text)));
  } finally {
    await cleanup();
  }
});
