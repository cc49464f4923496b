/**
 * No silent state: a command that only reads never creates a home or an agent; a mistyped home,
 * agent, command or option is an error that says what exists; `integrate` without a target is its
 * help; `help <command>` is the command's help. The CLI runs as a child process on temp homes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { filesUnder } from '../helpers/files-under.js';

/** Every folder and file under `root` (relative), leaving out logs/ and .ocm/ (logs and caches). */
async function tree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.filter((p) => !/^(logs|\.ocm)(\/|$)/.test(p)).sort();
}

/** Every command (and action) that only reads the home. */
const READ_ONLY: string[][] = [
  ['status'],
  ['search', 'postgres'],
  ['get', 'o-0123456789'],
  ['stats'],
  ['doctor', '--offline'],
  ['sources'],
  ['export'],
  ['config'],
  ['config', 'get'],
  ['config', 'get', 'active_memory.budget_tokens'],
  ['config', 'validate'],
  ['approvals'],
  ['approvals', 'list'],
  ['alerts'],
];

test('read-only commands on a missing home: an error naming setup (and the near home), nothing created', async () => {
  const { dir, cleanup } = await tempDir('ocm-silent-');
  try {
    const real = join(dir, 'memory-home');
    await mkdir(join(real, 'memory'), { recursive: true });
    await writeFile(join(real, 'config.yaml'), 'timezone: UTC\n');
    const typo = join(dir, 'memory-hom');
    const env = { HOME: dir };
    for (const args of READ_ONLY) {
      const r = await runCli([...args, '--home', typo], { env });
      await assert.rejects(stat(typo), `${args.join(' ')}: ${typo} still does not exist`);
      assert.equal(r.code, 1, `${args.join(' ')}: exit 1 (${r.stderr})`);
      assert.match(
        r.stderr,
        new RegExp(`No memory home at ${typo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`),
        `${args.join(' ')} says the home is missing`,
      );
      assert.match(r.stderr, /Did you mean .*memory-home\?/, `${args.join(' ')} names the home next to it`);
      assert.match(r.stderr, /ocm-run setup/, `${args.join(' ')} names setup`);
      const json = await runCli([...args, '--home', typo, '--json'], { env });
      assert.equal(JSON.parse(json.stdout).error.code, 'NOT_FOUND', `${args.join(' ')} --json: ${json.stdout}`);
    }
    assert.deepEqual((await readdir(dir)).sort(), ['memory-home'], 'no home was created for the typo');
    // The same commands on the real home work and change nothing there but caches.
    const status = await runCli(['status', '--home', real], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.ok(!(await filesUnder(real)).some((f) => f.endsWith('.env')), 'status wrote no .env into the home');
  } finally {
    await cleanup();
  }
});

test('an unknown agent is an error listing the known ones; mcp creates no agent folder for it', async () => {
  const { dir, cleanup } = await tempDir('ocm-silent-');
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory', 'work'), { recursive: true });
    await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
    await writeFile(
      join(home, 'memory', 'work', '2026-02-12.md'),
      '---\ndate: 2026-02-12\n---\n# 2026-02-12\n\n- 🔴 09:15 [decision] Billing uses PostgreSQL 16. ^o-7f3a9c21e0\n',
    );
    const before = await tree(home);

    const mcp = await runCli(['mcp', '--agent', 'claude-cod', '--home', home], { env: { HOME: dir }, input: '' });
    assert.equal(mcp.code, 1, mcp.stderr);
    assert.match(mcp.stderr, /Unknown agent "claude-cod" \(--agent\)\. Did you mean "claude-code"\?/);
    assert.match(mcp.stderr, /Agents of this home: main, .*claude-code.*work/);
    assert.deepEqual(await tree(home), before, 'no agent folder or file appeared');

    const search = await runCli(['search', 'postgres', '--agent', 'wrok', '--home', home], { env: { HOME: dir } });
    assert.equal(search.code, 1, search.stdout);
    assert.match(search.stderr, /Unknown agent "wrok" \(--agent\)\. Did you mean "work"\?/);
    const found = await runCli(['search', 'postgres', '--agent', 'work', '--home', home, '--json'], { env: { HOME: dir } });
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout).results.length, 1, 'a known agent is searched as before');
  } finally {
    await cleanup();
  }
});

test('bare `integrate` prints its help and edits nothing', async () => {
  const { dir, cleanup } = await tempDir('ocm-silent-');
  try {
    const home = join(dir, 'home');
    const r = await runCli(['integrate', '--home', home], { env: { HOME: dir } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\$ ocm-run integrate \[target\] \[action\]/);
    assert.match(r.stdout, /ocm-run integrate claude-code/);
    assert.deepEqual(await readdir(dir), [], 'no openclaw.json, no home');
    const typo = await runCli(['integrate', 'claude-cod', '--home', home], { env: { HOME: dir } });
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /Unknown integration "claude-cod"\. Did you mean "claude-code"\?/);
  } finally {
    await cleanup();
  }
});

test('unknown commands and options say "did you mean"; `help <command>` is the command\'s help; --help groups the commands', async () => {
  const command = await runCli(['serach', 'x']);
  assert.equal(command.code, 1);
  assert.match(command.stderr, /Unknown command "serach"\. Did you mean "search"\?/);

  const option = await runCli(['search', 'x', '--lmit', '3']);
  assert.equal(option.code, 1);
  assert.match(option.stderr, /Unknown option `--lmit` for `search`\. Did you mean `--limit`\?/);
  assert.match(option.stderr, /ocm-run help search/);
  assert.doesNotMatch(option.stderr, /<command>/, 'the hint names the command');

  const missingArg = await runCli(['search']);
  assert.equal(missingArg.code, 1);
  assert.doesNotMatch(missingArg.stderr, /<command>/);
  assert.match(missingArg.stderr, /ocm-run help search/);

  const help = await runCli(['help', 'search']);
  assert.equal(help.code, 0, help.stderr);
  assert.equal(help.stdout, (await runCli(['search', '--help'])).stdout);
  const unknownHelp = await runCli(['help', 'stauts']);
  assert.equal(unknownHelp.code, 1);
  assert.match(unknownHelp.stderr, /Did you mean .*"status"/);
  const bareHelp = await runCli(['help']);
  assert.equal(bareHelp.stdout, (await runCli(['--help'])).stdout);

  const top = await runCli(['--help']);
  for (const group of ['Start:', 'Read the memory:', 'Run the jobs:', 'Connect agents:', 'Settings:'])
    assert.ok(top.stdout.includes(`\n${group}\n`), `--help has the group ${group}`);
  assert.ok(top.stdout.indexOf('\n  setup ') < top.stdout.indexOf('\n  status '), 'setup comes first');
  assert.doesNotMatch(top.stdout, /For more info, run any command/);
});
