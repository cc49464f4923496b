/**
 * OpenClaw's agent databases are read through node:sqlite on Node 22.13+,
 * through the optional better-sqlite3 on Node 20 where it built, and through
 * the WebAssembly sql.js everywhere else (lib/platform/sqlite.ts). These run
 * the same work each way — the real CLI under this Node (20) and under the
 * pinned Node 24 that OpenClaw 2026.9 needs — and the cases where
 * better-sqlite3 failed to install, and where no driver loads at all.
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
  new DbTranscript(db, 'win-1').add({
    type: 'message',
    id: 'm0000001',
    parentId: null,
    timestamp: '2026-09-01T10:00:00Z',
    message: { role: 'user', content: 'I am allergic to peanuts.' },
  });
  addWindow(db, 'win-2', 'agent:main:main', 'win-1', 'reset');
  new DbTranscript(db, 'win-2').add({
    type: 'message',
    id: 'm0000002',
    parentId: null,
    timestamp: '2026-09-03T08:30:00Z',
    message: { role: 'user', content: 'We moved the launch to October.' },
  });
  db.close();
  await mkdir(join(stateDir, 'agents', 'ops', 'sessions'), { recursive: true });
  const pw = new PiSessionWriter('file-session-1', new Date('2026-08-01T07:00:00Z'));
  await writeFile(
    join(stateDir, 'agents', 'ops', 'sessions', 'file-session-1.jsonl'),
    pw.header() + pw.message({ role: 'user', text: 'I prefer short answers.' }),
  );
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

test('the same OpenClaw database is observed the same way by Node 20 (better-sqlite3, sql.js) and Node 24 (node:sqlite)', async () => {
  const node24 = await pinnedNode(NODE_24);
  const { dir, cleanup } = await tempDir();
  try {
    const results: Record<string, string[]> = {};
    for (const [label, node, driver] of [
      ['node 20', process.execPath, 'better-sqlite3'],
      ['node 20 wasm', process.execPath, 'sql.js'],
      ['node 24', node24, 'node:sqlite'],
    ] as const) {
      const { home, env: machineEnv } = await machine(join(dir, label.replaceAll(' ', '')));
      const env = { ...machineEnv, OCM_SQLITE_DRIVER: driver };
      const doctor = await cli(node, ['doctor', '--offline', '--json', '--home', home], env);
      const check = sqliteCheck(doctor.stdout);
      assert.equal(check.status, 'ok', `${label}: ${check.detail}`);
      assert.match(check.detail, new RegExp(`^${driver} \\(SQLite 3\\.`), `${label} reads with ${driver}`);
      const observed = await cli(node, ['observe', '--json', '--home', home], env);
      assert.equal(observed.code, 0, `${label}: ${observed.stderr}`);
      assert.equal(
        (JSON.parse(observed.stdout) as { messages: number }).messages,
        3,
        `${label}: two database messages and one file message`,
      );
      const sources = await cli(node, ['sources', '--json', '--home', home], env);
      assert.equal(sources.code, 0, sources.stderr);
      const db = (
        JSON.parse(sources.stdout) as { sources: Array<{ name: string; sessions: number; cursor: { sessionsBehind: number } }> }
      ).sources.find((s) => s.name === 'openclaw-db');
      assert.deepEqual([db?.sessions, db?.cursor.sessionsBehind], [2, 0], `${label}: sources lists both sessions as read`);
      results[label] = await observedTexts(node, home);
    }
    assert.ok(
      results['node 20']!.some((t) => /^openclaw-db: .*peanuts/.test(t)),
      results['node 20']!.join('\n'),
    );
    assert.deepEqual(results['node 24'], results['node 20']);
    assert.deepEqual(results['node 20 wasm'], results['node 20']);
  } finally {
    await cleanup();
  }
});

/** The given test files run by `node` with `driver` forced: if it could not load, every test would fail rather than fall back. */
async function readerTestsPass(node: string, driver: string, files: string[], atLeast: number): Promise<void> {
  // Run by that Node, the test runner's children (tsx, the CLI, the concurrent writer) are that Node too.
  const r = await execa(node, [join(REPO_ROOT, 'scripts', 'run-tests.mjs'), ...files], {
    cwd: REPO_ROOT,
    reject: false,
    all: true,
    timeout: 300_000,
    env: { OCM_SQLITE_DRIVER: driver, NODE_OPTIONS: undefined, NODE_TEST_CONTEXT: undefined },
    extendEnv: true,
  });
  const output = String(r.all);
  assert.equal(r.exitCode, 0, output.slice(-4000));
  const passed = Number(/ℹ pass (\d+)/.exec(output)?.[1] ?? 0);
  assert.ok(passed >= atLeast, `${files.join(', ')} ran (${passed} passed)\n${output.slice(-2000)}`);
  assert.match(output, /ℹ fail 0/);
}

test('the OpenClaw database reader and discovery tests pass under Node 24 with node:sqlite', async () => {
  await readerTestsPass(
    await pinnedNode(NODE_24),
    'node:sqlite',
    ['test/sources/source-openclaw-db.test.ts', 'test/sources/source-discovery.test.ts'],
    12,
  );
});

test('the OpenClaw database reader tests pass with the WebAssembly driver forced (native drivers off)', async () => {
  // Whatever native SQLite this machine has, the reader goes through sql.js's copy.
  await readerTestsPass(process.execPath, 'sql.js', ['test/sources/source-openclaw-db.test.ts'], 11);
});

test('without better-sqlite3 on Node 20 (nothing compiled): the WebAssembly driver reads the database, doctor says which', async () => {
  if (process.getBuiltinModule?.('node:sqlite')) {
    // This Node has SQLite built in, so a missing better-sqlite3 changes nothing here.
    return;
  }
  const { dir, cleanup } = await tempDir();
  try {
    const { home, env } = await machine(dir);
    const without = { ...env, NODE_OPTIONS: `--import=${WITHOUT_BETTER_SQLITE3}` };
    const doctor = await cli(process.execPath, ['doctor', '--offline', '--json', '--home', home], without);
    const check = sqliteCheck(doctor.stdout);
    assert.equal(check.status, 'ok', check.detail);
    assert.match(check.detail, /^sql\.js \(SQLite 3\./);
    const observed = await cli(process.execPath, ['observe', '--json', '--home', home], without);
    assert.equal(observed.code, 0, observed.stderr);
    assert.equal((JSON.parse(observed.stdout) as { messages: number }).messages, 3, 'two database messages and one file message');
    const texts = await observedTexts(process.execPath, home);
    assert.ok(
      texts.some((t) => /^openclaw-db: .*peanuts/.test(t)),
      texts.join('\n'),
    );
  } finally {
    await cleanup();
  }
});

test('with no SQLite driver at all: observe says what is missing (exit 1, hint), other transcripts are still observed, doctor fails the check', async () => {
  if (process.getBuiltinModule?.('node:sqlite')) return; // this Node has SQLite built in
  const { dir, cleanup } = await tempDir();
  try {
    const { home, env } = await machine(dir);
    const without = { ...env, NODE_OPTIONS: `--import=${WITHOUT_BETTER_SQLITE3}`, OCM_TEST_HIDDEN_PACKAGES: 'better-sqlite3,sql.js' };
    const observed = await cli(process.execPath, ['observe', '--home', home], without);
    assert.equal(observed.code, 1, observed.stderr);
    assert.match(
      observed.stderr,
      /could not observe openclaw-db: Reading SQLite databases .* needs SQLite, and none could be loaded on Node 20/,
    );
    assert.match(observed.stderr, /better-sqlite3: Cannot find package.*sql\.js: Cannot find package/);
    assert.match(observed.stderr, /→ OC-Memory carries a WebAssembly SQLite \(the sql\.js package\).*reinstall OC-Memory/);
    assert.deepEqual(
      await observedTexts(process.execPath, home),
      ['openclaw: User prefers short answers.'],
      'the file-era transcript is observed all the same',
    );
    const doctor = await cli(process.execPath, ['doctor', '--offline', '--json', '--home', home], without);
    const check = sqliteCheck(doctor.stdout);
    assert.equal(check.status, 'fail');
    assert.match(check.fix ?? '', /sql\.js/);
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
    const hidden = { NODE_OPTIONS: `--import=${WITHOUT_BETTER_SQLITE3}` };
    const without = await cli(process.execPath, ['setup', '--yes', '--home', join(dir, 'h1')], {
      ...env,
      ...hidden,
      OCM_TEST_HIDDEN_PACKAGES: 'better-sqlite3,sql.js',
    });
    assert.equal(without.code, 0, without.stderr);
    assert.match(without.stdout, /⚠️ {2}OpenClaw's database \(OpenClaw 2026\.8 and later\) cannot be read on Node 20[^\n]*nothing is lost/);
    assert.match(without.stdout, /→ OC-Memory carries a WebAssembly SQLite/);
    // Without better-sqlite3 (nothing compiled) the WebAssembly driver reads it: nothing to warn about.
    const withDriver = await cli(process.execPath, ['setup', '--yes', '--home', join(dir, 'h2')], { ...env, ...hidden });
    assert.equal(withDriver.code, 0, withDriver.stderr);
    assert.doesNotMatch(withDriver.stdout, /cannot be read on Node/);
  } finally {
    await cleanup();
  }
});
