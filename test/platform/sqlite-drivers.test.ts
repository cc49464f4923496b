/**
 * OpenClaw's agent databases are read through node:sqlite on Node 22.13+ and
 * through the optional better-sqlite3 on Node 20 (lib/platform/sqlite.ts). These run
 * the same work both ways — the real CLI under this Node (20) and under the
 * pinned Node 24 that OpenClaw 2026.9 needs — and the case where
 * better-sqlite3 failed to install.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CLI, tempDir } from '../helpers/cli.js';
import { pinnedNode, REPO_ROOT } from '../helpers/agent-cache.js';
import { addWindow, agentDbPath, createAgentDb, DbTranscript } from '../helpers/openclaw-db.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

const NODE_24 = '24.21.0';
/** `--import` this and better-sqlite3 cannot be found, as after a failed optional install. */
const WITHOUT_BETTER_SQLITE3 = resolve(import.meta.dirname, '..', 'fixtures', 'no-better-sqlite3', 'register.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(node: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const r = await execa(node, [CLI, ...args], {
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
    extendEnv: true,
    env: { OCM_HOME: undefined, OPENCLAW_STATE_DIR: undefined, OCM_SQLITE_DRIVER: undefined, NODE_OPTIONS: undefined, CI: '1', ...env },
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** A user folder with one OpenClaw agent database (two sessions) and one file-era transcript, and an empty memory home. */
async function machine(dir: string): Promise<{ home: string; env: Record<string, string> }> {
  const user = join(dir, 'user');
  const stateDir = join(user, '.openclaw');
  const db = createAgentDb(agentDbPath(stateDir, 'main'));
  addWindow(db, 'win-1', 'agent:main:main');
  new DbTranscript(db, 'win-1').add({ type: 'message', id: 'm0000001', parentId: null, timestamp: '2026-09-01T10:00:00Z', message: { role: 'user', content: 'I am allergic to peanuts.' } });
  addWindow(db, 'win-2', 'agent:main:main', 'win-1', 'reset');
  new DbTranscript(db, 'win-2').add({ type: 'message', id: 'm0000002', parentId: null, timestamp: '2026-09-03T08:30:00Z', message: { role: 'user', content: 'We moved the launch to October.' } });
  db.close();
  await mkdir(join(stateDir, 'agents', 'ops', 'sessions'), { recursive: true });
  const pw = new PiSessionWriter('file-session-1', new Date('2026-08-01T07:00:00Z'));
  await writeFile(join(stateDir, 'agents', 'ops', 'sessions', 'file-session-1.jsonl'), pw.header() + pw.message({ role: 'user', text: 'I prefer short answers.' }));
  const home = join(dir, 'home');
  await mkdir(home);
  await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
  return { home, env: { HOME: user, USERPROFILE: user } };
}

function sqliteCheck(doctorJson: string): { status: string; detail: string; fix?: string } {
  const checks = (JSON.parse(doctorJson) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> }).checks;
  const check = checks.find((c) => c.id === 'sqlite');
  assert.ok(check, 'doctor has a SQLite check when an OpenClaw database exists');
  return check;
}

async function observedTexts(node: string, home: string): Promise<string[]> {
  const r = await cli(node, ['export', '--home', home], {});
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { observations: Array<{ text: string; provenance: { source: string } }> }).observations
    .map((o) => `${o.provenance.source}: ${o.text}`)
    .sort();
}

test('the same OpenClaw database is observed the same way by Node 20 (better-sqlite3) and Node 24 (node:sqlite)', async () => {
  const node24 = await pinnedNode(NODE_24);
  const { dir, cleanup } = await tempDir();
  try {
    const results: Record<string, string[]> = {};
    for (const [label, node, driver] of [
      ['node 20', process.execPath, 'better-sqlite3'],
      ['node 24', node24, 'node:sqlite'],
    ] as const) {
      const { home, env } = await machine(join(dir, label.replace(' ', '')));
      const doctor = await cli(node, ['doctor', '--offline', '--json', '--home', home], env);
      const check = sqliteCheck(doctor.stdout);
      assert.equal(check.status, 'ok', `${label}: ${check.detail}`);
      assert.match(check.detail, new RegExp(`^${driver} \\(SQLite 3\\.`), `${label} reads with ${driver}`);
      const observed = await cli(node, ['observe', '--json', '--home', home], env);
      assert.equal(observed.code, 0, `${label}: ${observed.stderr}`);
      assert.equal((JSON.parse(observed.stdout) as { messages: number }).messages, 3, `${label}: two database messages and one file message`);
      const sources = await cli(node, ['sources', '--json', '--home', home], env);
      assert.equal(sources.code, 0, sources.stderr);
      const db = (JSON.parse(sources.stdout) as { sources: Array<{ name: string; sessions: number; cursor: { sessionsBehind: number } }> }).sources.find((s) => s.name === 'openclaw-db');
      assert.deepEqual([db?.sessions, db?.cursor.sessionsBehind], [2, 0], `${label}: sources lists both sessions as read`);
      results[label] = await observedTexts(node, home);
    }
    assert.ok(results['node 20']!.some((t) => /^openclaw-db: .*peanuts/.test(t)), results['node 20']!.join('\n'));
    assert.deepEqual(results['node 24'], results['node 20']);
  } finally {
    await cleanup();
  }
});

test('the OpenClaw database reader and discovery tests pass under Node 24 with node:sqlite', async () => {
  const node24 = await pinnedNode(NODE_24);
  // Run by Node 24, the test runner's children (tsx, the CLI, the concurrent writer) are Node 24 too.
  const r = await execa(node24, [join(REPO_ROOT, 'scripts', 'run-tests.mjs'), 'test/sources/source-openclaw-db.test.ts', 'test/sources/source-discovery.test.ts'], {
    cwd: REPO_ROOT,
    reject: false,
    all: true,
    timeout: 300_000,
    // node:sqlite forced: if Node 24 could not load it, every test would fail rather than fall back.
    env: { OCM_SQLITE_DRIVER: 'node:sqlite', NODE_OPTIONS: undefined, NODE_TEST_CONTEXT: undefined },
    extendEnv: true,
  });
  const output = String(r.all);
  assert.equal(r.exitCode, 0, output.slice(-4000));
  const passed = Number(/ℹ pass (\d+)/.exec(output)?.[1] ?? 0);
  assert.ok(passed >= 12, `the reader and discovery tests ran (${passed} passed)\n${output.slice(-2000)}`);
  assert.match(output, /ℹ fail 0/);
});

test('without better-sqlite3 on Node 20: observe says what is missing (exit 1, hint), other transcripts are still observed, doctor fails the check', async () => {
  if (process.getBuiltinModule?.('node:sqlite')) {
    // This Node has SQLite built in, so a missing better-sqlite3 changes nothing here.
    return;
  }
  const { dir, cleanup } = await tempDir();
  try {
    const { home, env } = await machine(dir);
    const without = { ...env, NODE_OPTIONS: `--import=${WITHOUT_BETTER_SQLITE3}` };
    const observed = await cli(process.execPath, ['observe', '--home', home], without);
    assert.equal(observed.code, 1, observed.stderr);
    assert.match(observed.stderr, /could not observe openclaw-db: Reading SQLite databases .* needs SQLite, and none could be loaded on Node 20/);
    assert.match(observed.stderr, /better-sqlite3: Cannot find package/);
    assert.match(observed.stderr, /→ Run OC-Memory with Node 22\.13 or newer.*install the optional better-sqlite3 package.*npm ci/);
    assert.deepEqual(await observedTexts(process.execPath, home), ['openclaw: User prefers short answers.'], 'the file-era transcript is observed all the same');
    const doctor = await cli(process.execPath, ['doctor', '--offline', '--json', '--home', home], without);
    const check = sqliteCheck(doctor.stdout);
    assert.equal(check.status, 'fail');
    assert.match(check.fix ?? '', /Node 22\.13/);
    // Once SQLite is there, nothing was lost: the database is read from its start.
    const later = await cli(process.execPath, ['observe', '--json', '--home', home], env);
    assert.equal(later.code, 0, later.stderr);
    assert.equal((JSON.parse(later.stdout) as { messages: number }).messages, 2);
  } finally {
    await cleanup();
  }
});

test('without any SQLite driver, setup says at once that OpenClaw’s database cannot be read, and what to do; with one it says nothing', async () => {
  if (process.getBuiltinModule?.('node:sqlite')) return; // this Node has SQLite built in: nothing to say
  const { dir, cleanup } = await tempDir();
  try {
    const { env } = await machine(dir);
    const without = await cli(process.execPath, ['setup', '--yes', '--home', join(dir, 'h1')], { ...env, NODE_OPTIONS: `--import=${WITHOUT_BETTER_SQLITE3}` });
    assert.equal(without.code, 0, without.stderr);
    assert.match(without.stdout, /⚠️ {2}OpenClaw's database \(OpenClaw 2026\.8 and later\) cannot be read on Node 20[^\n]*nothing is lost/);
    assert.match(without.stdout, /→ Run OC-Memory with Node 22\.13 or newer/);
    const withDriver = await cli(process.execPath, ['setup', '--yes', '--home', join(dir, 'h2')], env);
    assert.equal(withDriver.code, 0, withDriver.stderr);
    assert.doesNotMatch(withDriver.stdout, /cannot be read on Node/);
  } finally {
    await cleanup();
  }
});
