/**
 * The lifecycle end to end through the CLI: two OpenClaw sessions a week apart are observed; the
 * second closes the first one's task and supersedes its database decision, in the day files (a mark a
 * person reads), in active memory and in search (`--json`, the human form, `--current`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

async function session(stateDir: string, id: string, start: string, turns: Array<['user' | 'assistant', string]>): Promise<void> {
  const dir = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  const w = new PiSessionWriter(id, new Date(start));
  await writeFile(join(dir, `${id}.jsonl`), w.header() + turns.map(([role, text]) => w.message({ role, text })).join(''));
}

async function dayFiles(home: string): Promise<string> {
  const dir = join(home, 'memory');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).join('\n');
}

test('a later session closes a task and supersedes a decision: marks in the files, active memory and search', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    await session(stateDir, '00000001-0000-4000-8000-000000000000', '2026-04-01T09:00:00Z', [
      ['user', 'We decided to use Postgres 16 for the crumbline database.'],
      ['assistant', 'Noted: Postgres 16 for the crumbline database.'],
      ['user', 'Please do the login flow first.'],
      ['assistant', 'I will do the login flow first.'],
    ]);
    assert.equal((await runCli(['observe', '--home', home])).code, 0);
    await session(stateDir, '00000002-0000-4000-8000-000000000000', '2026-04-08T09:00:00Z', [
      ['user', 'Login is done, the login flow works end to end.'],
      ['assistant', 'Great.'],
      ['user', 'We decided to switch from Postgres to SQLite for the crumbline database.'],
      ['assistant', 'Understood, SQLite it is.'],
    ]);
    const observed = await runCli(['observe', '--home', home, '--json']);
    assert.equal(observed.code, 0, observed.stderr);
    const lifecycle = JSON.parse(observed.stdout).lifecycle;
    assert.ok(lifecycle.closed >= 1 && lifecycle.superseded >= 1, JSON.stringify(lifecycle) + (await dayFiles(home)));

    const files = await dayFiles(home);
    assert.match(files, /- ✅ 🟡 09:01 \[task\] [^\n]*login flow first\. #auth \(done 2026-04-08 by o-[0-9a-f]{10}\) \^o-[0-9a-f]{10}/);
    assert.match(files, /\[decision\] [^\n]*Postgres 16[^\n]*\(superseded 2026-04-08 by o-[0-9a-f]{10}\) \^o-/);
    assert.doesNotMatch(files, /SQLite[^\n]*\(superseded/);

    const active = await readFile(join(home, 'active_memory.md'), 'utf8');
    assert.doesNotMatch(active, /Postgres 16/);
    assert.doesNotMatch(active.split('## Recent observations')[0]!, /login flow first/, 'the closed task is no open task');
    assert.match(active, /SQLite/);

    // Search: the current decision ranks above the one it superseded, which shows its mark.
    const json = JSON.parse((await runCli(['search', 'crumbline database', '--home', home, '--json'])).stdout);
    const texts = json.results.map((r: { snippet: string }) => r.snippet);
    const current = texts.findIndex((t: string) => /SQLite/.test(t));
    const stale = json.results.findIndex((r: { mark?: { kind: string } }) => r.mark?.kind === 'superseded');
    assert.ok(current >= 0 && stale > current, `current at ${current}, superseded at ${stale}: ${texts.join(' | ')}`);
    assert.match(json.results[stale].mark.by, /^o-[0-9a-f]{10}$/);
    const human = await runCli(['search', 'Postgres 16', '--home', home]);
    assert.match(human.stdout, /\(superseded 2026-04-08 by o-[0-9a-f]{10}\)/);
    // Asked for the old words only, the answer that replaced them still comes first.
    const old = JSON.parse((await runCli(['search', 'Postgres 16', '--home', home, '--json'])).stdout);
    assert.match(old.results[0].snippet, /SQLite/);

    const now = JSON.parse((await runCli(['search', 'crumbline database login', '--current', '--home', home, '--json'])).stdout);
    assert.ok(now.results.length > 0);
    assert.ok(
      now.results.every((r: { mark?: unknown }) => r.mark === undefined),
      'superseded and done items are left out',
    );
  } finally {
    await cleanup();
  }
});

test('active memory follows what changed since it was built: a hand edit, a new budget, remember from the dashboard', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(join(dir, 'none'))}]\n`,
    );
    const day = join(home, 'memory', '2026-04-01.md');
    await writeFile(day, '# 2026-04-01\n\n- 🔴 09:00 [decision] We use Postgres 16 for the crumbline database. ^o-1111111111\n');
    assert.equal((await runCli(['observe', '--home', home])).code, 0);
    const active = join(home, 'active_memory.md');
    assert.match(await readFile(active, 'utf8'), /Postgres 16/);
    assert.match(await readFile(active, 'utf8'), /\/ 4000 tokens/);

    // A mark set by hand in the file, and a new budget: both on the next run, with nothing new to observe.
    await writeFile(
      day,
      '# 2026-04-01\n\n- 🔴 09:00 [decision] We use Postgres 16 for the crumbline database. (superseded) ^o-1111111111\n- 🔴 09:30 [decision] We use SQLite now. ^o-2222222222\n',
    );
    assert.equal((await runCli(['config', 'set', 'active_memory.budget_tokens', '1500', '--home', home])).code, 0);
    assert.equal((await runCli(['run', '--home', home])).code, 0);
    const after = await readFile(active, 'utf8');
    assert.doesNotMatch(after, /Postgres 16/);
    assert.match(after, /We use SQLite now/);
    assert.match(after, /\/ 1500 tokens/);
  } finally {
    await cleanup();
  }
});
