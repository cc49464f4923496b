/**
 * `schedule install|uninstall|status --platform cron` against the real
 * `crontab` program. The user's crontab is kept private: each command runs in
 * its own mount namespace where a temp folder is bind-mounted over the cron
 * spool, with a temp HOME — the machine's real crontab is never touched.
 * Needs root (for the namespace) and Debian's `cron` package (.ci/run
 * installs it); elsewhere the test says why it is skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI, tempDir } from '../helpers/cli.js';

const SPOOL = '/var/spool/cron/crontabs';

async function canIsolate(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'crontab isolation uses Linux mount namespaces';
  if (process.getuid?.() !== 0) return 'needs root to bind-mount a private cron spool (the real crontab is never touched)';
  const crontab = await execa('sh', ['-c', 'command -v crontab'], { reject: false });
  if (crontab.exitCode !== 0) return 'crontab is not installed (apt-get install cron)';
  const ns = await execa('unshare', ['-m', 'true'], { reject: false });
  if (ns.exitCode !== 0) return 'unshare -m is not permitted here';
  return undefined;
}

/** Run a command with SPOOL replaced by `spool` and HOME by `home`. */
function isolated(spool: string, home: string) {
  return async (command: string[], input?: string) => {
    const r = await execa('unshare', ['-m', 'sh', '-c', `mount --bind "$0" ${SPOOL} && exec "$@"`, spool, ...command], {
      reject: false,
      stripFinalNewline: false,
      env: { HOME: home, OCM_HOME: undefined, CI: '1', XDG_CONFIG_HOME: undefined },
      extendEnv: true,
      ...(input !== undefined ? { input } : { stdin: 'ignore' }),
      timeout: 60_000,
    });
    return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
}

test("cron: install twice is idempotent, the user's other lines stay, status reports it, uninstall removes only our block", async (t) => {
  const why = await canIsolate();
  if (why) {
    t.skip(why);
    return;
  }
  const { dir, cleanup } = await tempDir('ocm-cron-');
  try {
    const spool = join(dir, 'spool');
    const userHome = join(dir, 'user');
    await mkdir(spool);
    await mkdir(userHome);
    await chmod(spool, 0o1730);
    const run = isolated(spool, userHome);
    const home = join(dir, 'memory home');
    const cli = (...args: string[]) => run([process.execPath, CLI, ...args, '--home', home]);

    const mine = [
      '# my own jobs',
      'MAILTO=""',
      '0 3 * * * /usr/bin/backup --all  # nightly',
      '*/10 * * * * echo "100%" > /dev/null',
      '',
    ].join('\n');
    const seeded = await run(['crontab', '-'], mine);
    assert.equal(seeded.code, 0, seeded.stderr);

    const before = await cli('schedule', 'status', '--platform', 'cron', '--json');
    assert.equal(before.code, 0, before.stderr);
    assert.equal(JSON.parse(before.stdout).installed, false);

    const dry = await cli('schedule', 'install', '--platform', 'cron', '--every', '5', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\*\/5 \* \* \* \* .*run --home/);
    assert.equal((await run(['crontab', '-l'])).stdout, mine, 'a dry run changes nothing');

    const first = await cli('schedule', 'install', '--platform', 'cron', '--every', '5');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Installed: cron runs `ocm-run run` every 5 minute/);
    const afterFirst = (await run(['crontab', '-l'])).stdout;
    assert.ok(afterFirst.startsWith(mine), `the user's lines come first, unchanged:\n${afterFirst}`);
    const ours = afterFirst.slice(mine.length).trimEnd().split('\n');
    assert.equal(ours.length, 3, afterFirst);
    assert.match(ours[0]!, /^# >>> oc-memory .*memory home >>>/);
    assert.equal(ours[1], `*/5 * * * * ${process.execPath} ${CLI} run --home '${home}' >> '${join(home, 'logs', 'schedule.log')}' 2>&1`);
    assert.match(ours[2]!, /^# <<< oc-memory .*memory home <<</);
    // The file cron reads is the one in our private spool.
    assert.equal(await readFile(join(spool, 'root'), 'utf8').then((s) => s.includes('oc-memory')), true);

    const second = await cli('schedule', 'install', '--platform', 'cron', '--every', '5');
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Already installed/);
    assert.equal((await run(['crontab', '-l'])).stdout, afterFirst, 'installing again changes nothing');

    // A different interval replaces our block in place, still once.
    const third = await cli('schedule', 'install', '--platform', 'cron', '--every', '15');
    assert.equal(third.code, 0, third.stderr);
    const afterThird = (await run(['crontab', '-l'])).stdout;
    assert.ok(afterThird.startsWith(mine));
    assert.equal(afterThird.match(/oc-memory .*memory home >>>/g)?.length, 1);
    assert.match(afterThird, /^\*\/15 \* \* \* \* /m);
    assert.match(
      await readFile(join(home, 'config.yaml'), 'utf8'),
      /every_minutes: 15/,
      'the chosen interval is remembered in config.yaml',
    );

    // The scheduled command line really runs a tick when sh runs it (as cron would).
    const line = afterThird.split('\n').find((l) => l.startsWith('*/15'))!;
    const tick = await execa('sh', ['-c', line.replace(/^(\S+\s+){5}/, '').replace(/\\%/g, '%')], {
      reject: false,
      env: { HOME: userHome, OPENCLAW_STATE_DIR: join(dir, 'no-openclaw') },
    });
    assert.equal(tick.exitCode, 0, tick.stderr);
    const status = await cli('schedule', 'status', '--platform', 'cron', '--json');
    const s = JSON.parse(status.stdout);
    assert.equal(s.installed, true);
    assert.equal(s.everyMinutes, 15);
    assert.ok(s.lastRun, 'status shows when the last tick ran');
    assert.equal(s.ticking, true);
    const human = await cli('schedule', 'status', '--platform', 'cron');
    assert.match(human.stdout, /installed, every 15 minute/);
    assert.match(human.stdout, /Last tick: \d{4}-\d\d-\d\d/);

    // A second home's block sits beside the first and is removed on its own.
    const other = join(dir, 'other');
    assert.equal((await run([process.execPath, CLI, 'schedule', 'install', '--platform', 'cron', '--home', other])).code, 0);
    const uninstall = await cli('schedule', 'uninstall', '--platform', 'cron');
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.match(uninstall.stdout, /Removed the cron schedule/);
    const afterUninstall = (await run(['crontab', '-l'])).stdout;
    assert.ok(afterUninstall.startsWith(mine));
    assert.doesNotMatch(afterUninstall, /memory home/);
    assert.match(afterUninstall, new RegExp(`oc-memory ${other} >>>`));
    assert.equal((await run([process.execPath, CLI, 'schedule', 'uninstall', '--platform', 'cron', '--home', other])).code, 0);
    assert.equal((await run(['crontab', '-l'])).stdout, mine, "after both uninstalls the crontab is exactly the user's again");

    const again = await cli('schedule', 'uninstall', '--platform', 'cron');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /nothing to do/);
  } finally {
    await cleanup();
  }
});

test('cron: without a crontab program the error says what to install', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-cron-');
  try {
    const r = await execa(process.execPath, [CLI, 'schedule', 'install', '--platform', 'cron', '--home', join(dir, 'h')], {
      reject: false,
      env: { PATH: join(dir, 'empty-bin'), HOME: dir, CI: '1', OCM_HOME: undefined },
      extendEnv: false,
    });
    assert.equal(r.exitCode, 1, String(r.stderr));
    assert.match(String(r.stderr), /`crontab` is not installed/);
    assert.match(String(r.stderr), /apt-get install cron/);
    await writeFile(join(dir, 'ok'), '');
    t.diagnostic('missing crontab reported with a hint');
  } finally {
    await cleanup();
  }
});
