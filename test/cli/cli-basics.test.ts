import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile, chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { permissionChecks, withPermissionChecks } from '../helpers/permission-checks.js';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { COMMAND_LOADERS, loadAllCommands } from '../../scripts/commands/index.js';

test('every command has --help', async () => {
  const commands = await loadAllCommands();
  // The loader names are the commands' own names.
  assert.deepEqual(
    commands.map((c) => c.name.split(' ')[0]),
    Object.keys(COMMAND_LOADERS),
  );
  for (const spec of commands) {
    const name = spec.name.split(' ')[0]!;
    const r = await runCli([name, '--help']);
    assert.equal(r.code, 0, `${name} --help exits 0: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`ocm-run ${name}`), `${name} --help shows usage`);
    assert.match(r.stdout, /--home/, `${name} --help lists the global options`);
  }
  const top = await runCli(['--help']);
  assert.equal(top.code, 0);
  for (const spec of commands) assert.ok(top.stdout.includes(spec.name.split(' ')[0]!));
});

test('an unknown command or option exits 1 and says what to do', async () => {
  const r = await runCli(['frobnicate']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Unknown command "frobnicate"/);
  assert.match(r.stderr, /ocm-run --help/);
});

test('first use creates the home with private permissions; --home and OCM_HOME both work', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'home-a');
    // A command that writes creates the home (HOME: no transcripts of this machine are read).
    const first = await runCli(['observe', '--home', home], { env: { HOME: dir } });
    assert.equal(first.code, 0, first.stderr);
    const r = await runCli(['status', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await stat(home)).mode & 0o777, 0o700);
    assert.equal((await stat(join(home, 'memory'))).mode & 0o777, 0o700);
    assert.equal((await stat(join(home, '.ocm'))).mode & 0o777, 0o700);
    assert.equal((await stat(join(home, 'config.yaml'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(home, '.env'))).mode & 0o777, 0o600);
    assert.match(r.stdout, /Observer: heuristic \(offline\)/);

    const homeB = join(dir, 'home-b');
    assert.equal((await runCli(['observe'], { env: { OCM_HOME: homeB, HOME: dir } })).code, 0);
    const r2 = await runCli(['status', '--json'], { env: { OCM_HOME: homeB } });
    assert.equal(r2.code, 0, r2.stderr);
    const s = JSON.parse(r2.stdout);
    assert.equal(s.home, homeB);
    assert.equal(s.observer.kind, 'heuristic');
  } finally {
    await cleanup();
  }
});

test('config get / set / validate: comments kept, invalid values refused with the key path, exit 2', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'h');
    // Reading the config of a home that is not there creates nothing (no silent state); the first writing command makes it.
    let r = await runCli(['config', 'get', 'active_memory.budget_tokens', '--home', home]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /ocm-run setup/);
    r = await runCli(['observe', '--home', home], { env: { HOME: dir } });
    assert.equal(r.code, 0, r.stderr);
    r = await runCli(['config', 'get', 'active_memory.budget_tokens', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '4000');

    r = await runCli(['config', 'set', 'active_memory.budget_tokens', '3000', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    const text = await readFile(join(home, 'config.yaml'), 'utf8');
    assert.match(text, /budget_tokens: 3000/);
    assert.match(text, /# active_memory.md never exceeds this many tokens/, 'comments survive');
    assert.equal((await stat(join(home, 'config.yaml'))).mode & 0o777, 0o600);

    r = await runCli(['config', 'set', 'active_memory.budget_tokens', 'lots', '--home', home]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /active_memory\.budget_tokens/);
    assert.match(await readFile(join(home, 'config.yaml'), 'utf8'), /budget_tokens: 3000/, 'nothing written on error');

    r = await runCli(['config', 'get', 'no.such.key', '--home', home]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown setting "no.such.key"/);

    await writeFile(join(home, 'config.yaml'), 'active_memory:\n  budget_tokens: 5000\n  budgte: 1\nobserver: [\n');
    r = await runCli(['config', 'validate', '--home', home]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not valid YAML/);
    assert.match(r.stderr, /→ /, 'a hint follows');

    await writeFile(join(home, 'config.yaml'), 'active_memory:\n  budget_tokens: 5000\n  budgte: 1\ntimezone: 7\n');
    r = await runCli(['config', 'validate', '--home', home, '--json']);
    assert.equal(r.code, 2);
    const err = JSON.parse(r.stdout).error;
    assert.equal(err.code, 'CONFIG_INVALID');
    assert.match(err.message, /active_memory\.budgte: unknown setting/);
    assert.match(err.message, /timezone: /);
  } finally {
    await cleanup();
  }
});

test('${ENV} substitution from the environment and from .env', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'h');
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      'observer:\n  api_key: ${MY_KEY}\n  model: ${MODEL:-gpt-4o-mini}\ntimezone: ${TZ_FROM_DOTENV}\n',
    );
    await writeFile(join(home, '.env'), 'TZ_FROM_DOTENV=Asia/Seoul\nMY_KEY="from-dotenv"\n');
    let r = await runCli(['config', 'get', 'timezone', '--home', home]);
    assert.equal(r.stdout.trim(), 'Asia/Seoul');
    r = await runCli(['config', 'get', 'observer.model', '--home', home]);
    assert.equal(r.stdout.trim(), 'gpt-4o-mini');
    r = await runCli(['config', 'get', 'observer.api_key', '--home', home, '--show-secrets'], { env: { MY_KEY: 'from-env' } });
    assert.equal(r.stdout.trim(), 'from-env', 'the process environment wins over .env');
    r = await runCli(['config', 'get', 'observer.api_key', '--home', home], { env: { MY_KEY: 'from-env' } });
    assert.equal(r.stdout.trim(), '[hidden: set]', 'secrets are hidden unless asked for');
    r = await runCli(['config', 'get', 'observer', '--home', home, '--json'], { env: { MY_KEY: 'from-env' } });
    assert.equal(JSON.parse(r.stdout).api_key, '[hidden: set]');
    assert.ok(!r.stdout.includes('from-env'));
    await writeFile(join(home, 'config.yaml'), 'observer:\n  api_key: ${NOT_SET_ANYWHERE}\n');
    r = await runCli(['config', 'validate', '--home', home]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /NOT_SET_ANYWHERE\} is referenced but not set/);
  } finally {
    await cleanup();
  }
});

test('a home the user cannot write to exits 4 with a hint', async (t) => {
  // Root is refused nothing: the CLI runs without its permission bypass (test/helpers/permission-checks.ts),
  // wherever the checkout lives.
  const checks = await permissionChecks();
  if (!checks.ok) return t.skip(`cannot run: ${checks.reason}`);
  const { dir, cleanup } = await tempDir();
  try {
    await chmod(dir, 0o500);
    const home = join(dir, 'h');
    const res = await withPermissionChecks(process.execPath, [CLI, 'observe', '--home', home], {
      env: { OCM_HOME: undefined, CI: '1' },
      timeout: 120_000,
    });
    assert.equal(res.exitCode, 4, String(res.stderr));
    assert.match(String(res.stderr), /Permission denied/);
    assert.match(String(res.stderr), /→ /);
  } finally {
    await chmod(dir, 0o700);
    await cleanup();
  }
});
