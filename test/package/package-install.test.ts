/**
 * The package as a user gets it: `npm pack` of this checkout, installed with
 * `npm install -g` into a temporary prefix (offline-friendly: the packages
 * come from the npm cache that `npm ci` filled, `--prefer-offline`), and then
 * driven from there alone, with HOME a temp folder and the working directory
 * outside the clone: setup → integrate claude-code (every entry names the
 * installed program, nothing names the clone) → a tick that observes a Claude
 * Code session → the session-start hook as Claude Code runs it → the prefix
 * moved (the hooks now name a program that is gone) → `ocm-run repoint` from
 * the new place → the hook works again → uninstall.
 *
 * `--ignore-scripts`: OC-Memory has no install script; what it skips is the
 * native build of the optional better-sqlite3 (minutes of a compiler where no
 * prebuilt binary can be downloaded), which Claude Code's transcripts do not
 * need.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'claude-code', 'projects');
const SESSION = '5d0c6a3e-1f2b-4c3d-9e8f-0a1b2c3d4e5f';

/** The environment without what `npm test` itself sets for its scripts (npm_config_*, npm_package_*). */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^npm_/i.test(k) && !/^OCM_/.test(k) && k !== 'OPENCLAW_STATE_DIR') env[k] = v;
  return { ...env, ...extra };
}

test('the packed tarball installs into a prefix and works from there: setup, integrate claude-code, a tick, repoint after a move, uninstall', {
  timeout: 600_000,
}, async () => {
  const root = await mkdtemp(join(tmpdir(), 'ocm-package-'));
  try {
    const npmEnv = cleanEnv({});
    // 1. The tarball (dist/ is built by `npm test` before the tests run; --ignore-scripts skips building again).
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], {
      cwd: ROOT,
      env: npmEnv,
      extendEnv: false,
      timeout: 120_000,
    });
    const { filename, files } = (JSON.parse(String(packed.stdout)) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    const paths = files.map((f) => f.path);
    assert.ok(
      paths.includes('dist/scripts/cli.js') && paths.includes('dist/scripts/prompt-hook.cjs') && paths.includes('templates/config.yaml'),
      'the tarball holds the built CLI and its templates',
    );
    assert.ok(
      !paths.some((p) => /^(test|bench|lib|scripts|node_modules|\.cache)\//.test(p)),
      `sources, tests and caches stay out: ${paths
        .filter((p) => /^(test|bench|lib|scripts)\//.test(p))
        .slice(0, 5)
        .join(', ')}`,
    );

    // 2. Installed globally, into a prefix of its own.
    const prefix = join(root, 'prefix');
    await execa(
      'npm',
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(root, filename)],
      { cwd: root, env: npmEnv, extendEnv: false, timeout: 300_000 },
    );
    const home = join(root, 'home');
    const work = join(root, 'work');
    await mkdir(home, { recursive: true });
    await mkdir(work, { recursive: true });
    const userEnv = (bin: string) =>
      cleanEnv({ HOME: home, PATH: [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(':'), OCM_LOCAL_EMBEDDINGS: 'off', CI: '1' });
    const ocm = (bin: string, args: string[], input?: string) =>
      execa(join(bin, 'ocm-run'), args, {
        cwd: work,
        env: userEnv(bin),
        extendEnv: false,
        reject: false,
        timeout: 120_000,
        ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
      });
    const bin = join(prefix, 'bin');
    assert.ok(existsSync(join(bin, 'ocm-run')) && existsSync(join(bin, 'oc-memory')), 'ocm-run and oc-memory are on the prefix’s PATH');

    // 3. setup → integrate claude-code.
    const setup = await ocm(bin, ['setup', '--yes', '--sources', 'claude-code']);
    assert.equal(setup.exitCode, 0, String(setup.stderr));
    const memoryHome = join(home, '.openclaw', 'oc-memory');
    assert.ok(existsSync(join(memoryHome, 'config.yaml')));
    const integrate = await ocm(bin, ['integrate', 'claude-code']);
    assert.equal(integrate.exitCode, 0, String(integrate.stderr));
    const settingsPath = join(home, '.claude', 'settings.json');
    const mcpPath = join(home, '.claude.json');
    const installed = join(prefix, 'lib', 'node_modules', 'oc-memory');
    const readIfThere = async (path: string) => (existsSync(path) ? readFile(path, 'utf8') : '');
    const wiring = async () => `${await readIfThere(settingsPath)}\n${await readIfThere(mcpPath)}`;
    let written = await wiring();
    assert.ok(!written.includes(ROOT), `nothing names the clone ${ROOT}:\n${written}`);
    const mcp = (JSON.parse(await readFile(mcpPath, 'utf8')) as { mcpServers: Record<string, { args: string[] }> }).mcpServers[
      'oc-memory'
    ]!;
    assert.ok(mcp.args[0]!.startsWith(prefix), `the MCP server runs the installed program: ${mcp.args.join(' ')}`);
    assert.match(written, new RegExp(`${installed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/dist/scripts/prompt-hook\\.cjs`));

    // 4. A Claude Code session, then one tick of the installed program.
    // The fixture's session, dated yesterday (a day older than the hot tier's age would go straight to the archive).
    const projects = join(home, '.claude', 'projects');
    await cp(FIXTURE, projects, { recursive: true });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const file of (await readdir(projects, { recursive: true })).filter((f) => f.endsWith('.jsonl'))) {
      await writeFile(join(projects, file), (await readFile(join(projects, file), 'utf8')).replaceAll('2026-09-01T', `${yesterday}T`));
    }
    const tick = await ocm(bin, ['run']);
    assert.equal(tick.exitCode, 0, String(tick.stderr));
    const days = (await readdir(join(memoryHome, 'memory'), { recursive: true })).filter((f) => f.endsWith('.md'));
    const texts = await Promise.all(days.map((d) => readFile(join(memoryHome, 'memory', d), 'utf8')));
    assert.ok(
      texts.some((t) => /pnpm over npm/.test(t)),
      `the preference is in a day file (${days.join(', ')}); tick said: ${String(tick.stdout)}`,
    );

    // The session-start hook exactly as settings.json has Claude Code run it.
    const sessionStart = async (bin: string) => {
      const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
        hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
      };
      const command = settings.hooks.SessionStart![0]!.hooks[0]!.command;
      return {
        command,
        result: await execa('sh', ['-c', command], {
          cwd: work,
          env: userEnv(bin),
          extendEnv: false,
          reject: false,
          timeout: 60_000,
          input: JSON.stringify({ session_id: SESSION, cwd: '/home/dev/shop', hook_event_name: 'SessionStart', source: 'startup' }),
        }),
      };
    };
    const before = await sessionStart(bin);
    assert.equal(before.result.exitCode, 0, String(before.result.stderr));
    assert.match(String(before.result.stdout), /pnpm/);

    // 5. The program moves (another prefix): the hooks name a program that is gone, until one command re-points them.
    const moved = join(root, 'moved');
    await rename(prefix, moved);
    const stale = await sessionStart(join(moved, 'bin'));
    assert.notEqual(stale.result.exitCode, 0, `the old hook command still ran: ${stale.command}`);
    const doctor = await ocm(join(moved, 'bin'), ['doctor', '--offline', '--json']);
    const check = (JSON.parse(String(doctor.stdout)) as { checks: Array<{ id: string; status: string; detail: string }> }).checks.find(
      (c) => c.id === 'claude-code',
    )!;
    assert.equal(check.status, 'fail', check.detail);
    assert.match(
      check.detail,
      new RegExp(`runs ${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bin/ocm-run, which does not exist .*\`ocm-run repoint\``),
    );
    const repoint = await ocm(join(moved, 'bin'), ['repoint']);
    assert.equal(repoint.exitCode, 0, String(repoint.stderr));
    assert.match(String(repoint.stdout), /Claude Code integration/);
    assert.match(String(repoint.stdout), /Not installed, left alone: codex, pi, openclaw, schedule/);
    written = await wiring();
    assert.ok(!written.includes(`${prefix}/`), `nothing names the old prefix any more:\n${written}`);
    const after = await sessionStart(join(moved, 'bin'));
    assert.ok(after.command.includes(moved), after.command);
    assert.equal(after.result.exitCode, 0, String(after.result.stderr));
    assert.match(String(after.result.stdout), /pnpm/);

    // 6. Uninstall: the integration, then the package.
    const off = await ocm(join(moved, 'bin'), ['integrate', 'claude-code', '--uninstall']);
    assert.equal(off.exitCode, 0, String(off.stderr));
    written = await wiring();
    assert.doesNotMatch(written, /oc-memory|ocm-run|prompt-hook/);
    await execa('npm', ['uninstall', '-g', '--prefix', moved, 'oc-memory'], { cwd: root, env: npmEnv, extendEnv: false, timeout: 120_000 });
    assert.ok(!existsSync(join(moved, 'bin', 'ocm-run')) && !existsSync(join(moved, 'lib', 'node_modules', 'oc-memory')));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
