/**
 * Everything the memory home holds is the owner's alone (README "The memory home"), checked with real
 * permissions: modes under umask 000, and, when the test runs as root, another user (`nobody`, through
 * setpriv) actually trying to read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { chmod, chown, lstat, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, runCli, tempDir } from '../helpers/cli.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = isRoot && (await execa('setpriv', ['--version'], { reject: false, timeout: 10_000 })).exitCode === 0;

/** Every path under `root` (itself included) whose mode lets group or others in. */
async function looseEntries(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (path: string) => {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return;
    if ((info.mode & 0o077) !== 0) out.push(`${path} ${(info.mode & 0o7777).toString(8)}`);
    if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return out;
}

/** Run a command as user nobody (real permission checks: root itself bypasses them). */
function asNobody(command: string, args: string[]) {
  return execa('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', command, ...args], {
    reject: false,
    timeout: 10_000,
  });
}

/** The CLI under umask 000, as a user with a careless shell profile runs it. */
function cliUnderUmask000(args: string[]) {
  return execa('sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, CLI, ...args], {
    reject: false,
    timeout: 120_000,
    env: { OCM_HOME: undefined, OPENCLAW_STATE_DIR: undefined, CI: '1' },
    extendEnv: true,
  });
}

test('under umask 000 every file and folder the CLI creates is owner-only, stats --export included', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = join(dir, 'home');
  const demo = await cliUnderUmask000(['demo', '--home', home]);
  assert.equal(demo.exitCode, 0, demo.stderr);
  const exported = join(dir, 'stats.json');
  const stats = await cliUnderUmask000(['stats', '--home', home, '--export', exported]);
  assert.equal(stats.exitCode, 0, stats.stderr);
  const index = await cliUnderUmask000(['index', '--home', home]);
  assert.equal(index.exitCode, 0, index.stderr);
  assert.ok((await readdir(join(home, 'memory'))).length > 0, 'the demo wrote day files');
  assert.deepEqual(await looseEntries(home), []);
  assert.equal((await stat(exported)).mode & 0o777, 0o600);
});

test('an existing home other users can enter (0755 with 0644 files, or a tmpfs-like 1777 root) is made owner-only', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  await chmod(dir, 0o755); // the temp folder itself must not be what keeps others out
  for (const [name, mode] of [
    ['home', 0o755],
    ['tmpfs-root', 0o1777],
  ] as const) {
    const home = join(dir, name);
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(join(home, 'active_memory.md'), '# Active memory\n- sk_live_4eC39HqLyjWDarjtT1zdp7dc\n', { mode: 0o644 });
    await writeFile(join(home, 'memory', '2026-02-12.md'), '# 2026-02-12\n', { mode: 0o644 });
    await chmod(join(home, 'memory'), 0o755);
    await chmod(home, mode);
    if (hasSetpriv) {
      const before = await asNobody('cat', [join(home, 'active_memory.md')]);
      assert.equal(before.exitCode, 0, `precondition: nobody can read the loose home (${before.stderr})`);
    }
    const status = await runCli(['status', '--home', home]);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((await stat(home)).mode & 0o7777, 0o700, name);
    assert.deepEqual(await looseEntries(home), [], name);
    if (hasSetpriv) {
      const read = await asNobody('cat', [join(home, 'active_memory.md')]);
      assert.notEqual(read.exitCode, 0, `nobody read ${name}/active_memory.md: ${read.stdout}`);
      const list = await asNobody('ls', [home]);
      assert.notEqual(list.exitCode, 0, `nobody listed ${name}`);
    }
  }
});

test('a loose home that belongs to another user is refused with a hint (exit 4) and left as it is', {
  skip: !isRoot && 'needs root to give a folder to another user',
}, async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = join(dir, 'home');
  await mkdir(home, { mode: 0o755 });
  await chmod(home, 0o755);
  await chown(home, NOBODY, NOBODY);
  // A command that would create the home in it (a read-only one finds no home there at all).
  const status = await runCli(['observe', '--home', home], { env: { HOME: dir } });
  assert.equal(status.code, 4, status.stderr);
  assert.match(status.stderr, /other users/);
  assert.match(status.stderr, /→ .*(--home|OCM_HOME)/);
  assert.equal((await stat(home)).mode & 0o7777, 0o755);
  assert.deepEqual(await readdir(home), [], 'nothing was written into it');
});
