/**
 * A scheduler starts the tick with a bare environment: what the user's shell sets for the sources
 * (OPENCLAW_STATE_DIR here) must reach the scheduled tick, and `--dry-run` must show it. The cron
 * line is taken from the real `schedule install --dry-run` and run the way cron runs it (/bin/sh,
 * an environment of PATH and HOME only); the tick must then have read the transcripts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import * as plist from 'plist';
import { runCli, tempDir } from '../helpers/cli.js';
import {
  loadScheduleTemplates,
  renderLaunchdPlist,
  renderSchtasksXml,
  renderSystemdUnits,
  type ScheduleTarget,
} from '../../lib/jobs/schedule/index.js';

const SAMPLE = resolve(
  import.meta.dirname,
  '..',
  '..',
  'samples',
  'openclaw',
  'agents',
  'main',
  'sessions',
  '50d408e7-081f-4172-a272-9bf7a93b4b3e.jsonl',
);

test("schedule install keeps the shell's OPENCLAW_STATE_DIR: the dry run shows it and the cron tick reads the transcripts", async () => {
  const { dir, cleanup } = await tempDir('ocm-sched-env-');
  try {
    const userHome = join(dir, 'user');
    const state = join(dir, 'elsewhere', 'openclaw state');
    const sessions = join(state, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    await mkdir(userHome);
    await copyFile(SAMPLE, join(sessions, '50d408e7-081f-4172-a272-9bf7a93b4b3e.jsonl'));
    const home = join(dir, 'memory');
    const shell = { HOME: userHome, OPENCLAW_STATE_DIR: state, TZ: 'UTC' };

    const human = await runCli(['schedule', 'install', '--platform', 'cron', '--dry-run', '--home', home], { env: shell });
    assert.equal(human.code, 0, human.stderr);
    assert.ok(human.stdout.includes(`OPENCLAW_STATE_DIR=${state}`), `the dry run says what the tick keeps:\n${human.stdout}`);

    const dry = await runCli(['schedule', 'install', '--platform', 'cron', '--dry-run', '--json', '--home', home], { env: shell });
    assert.equal(dry.code, 0, dry.stderr);
    const plan = JSON.parse(dry.stdout) as { environment: Record<string, string>; cronBlock: string };
    assert.deepEqual(plan.environment, { OPENCLAW_STATE_DIR: state, TZ: 'UTC' });

    // The home as a first real install leaves it (a dry run creates nothing), made without the variable.
    assert.equal((await runCli(['config', 'set', 'timezone', 'UTC', '--home', home], { env: { HOME: userHome } })).code, 0);
    // cron: the five fields, then the line for /bin/sh with \% turned back into %.
    const line = plan.cronBlock.split('\n')[1]!;
    const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
    const tick = await execa('/bin/sh', ['-c', command], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: userHome, OCM_LOCAL_EMBEDDINGS: 'off' },
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    assert.equal(tick.exitCode, 0, `${tick.stderr}`);

    const status = await runCli(['status', '--json', '--home', home], { env: { HOME: userHome } });
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout) as { sources: Array<{ kind: string; messages: number }> };
    assert.ok(
      s.sources.some((src) => src.kind === 'openclaw' && src.messages > 0),
      `the scheduled tick read the transcripts under OPENCLAW_STATE_DIR: ${JSON.stringify(s.sources)}`,
    );
    // The sample's days are old: the same tick may have moved them to warm; stats counts every tier.
    const stats = JSON.parse((await runCli(['stats', '--json', '--home', home], { env: { HOME: userHome } })).stdout) as {
      observations: { total: number };
    };
    assert.ok(stats.observations.total > 0, 'and wrote observations');
  } finally {
    await cleanup();
  }
});

test('launchd, systemd and Task Scheduler carry the same variables (and --config) as data', async () => {
  const t = await loadScheduleTemplates();
  const target: ScheduleTarget = {
    node: '/usr/bin/node',
    cli: '/opt/ocm/cli.js',
    home: '/home/ada/mem',
    log: '/home/ada/mem/logs/schedule.log',
    everyMinutes: 5,
    defaultHome: false,
    environment: [['OPENCLAW_STATE_DIR', '/srv/claw $HOME 100% "x" {{HOME}}']],
    configFile: '/etc/ocm.yaml',
  };
  const data = plist.parse(renderLaunchdPlist(t.launchd, target)) as Record<string, unknown>;
  assert.deepEqual(data.EnvironmentVariables, { OPENCLAW_STATE_DIR: '/srv/claw $HOME 100% "x" {{HOME}}' });
  assert.deepEqual(data.ProgramArguments, [
    '/usr/bin/node',
    '/opt/ocm/cli.js',
    'run',
    '--home',
    '/home/ada/mem',
    '--config',
    '/etc/ocm.yaml',
  ]);

  const service = renderSystemdUnits({ service: t.systemdService, timer: t.systemdTimer }, target).service;
  const env = /^Environment=(.*)$/m.exec(service)?.[1];
  assert.ok(env, service);
  // systemd: one double-quoted assignment, \ and " escaped, % doubled.
  assert.equal(env.slice(1, -1).replace(/\\(.)/g, '$1').replace(/%%/g, '%'), 'OPENCLAW_STATE_DIR=/srv/claw $HOME 100% "x" {{HOME}}');
  assert.match(service, /ExecStart=.*"--config" "\/etc\/ocm.yaml"/);

  // cmd cannot carry a quote or % in `set`: refused with what to do instead.
  assert.throws(
    () => renderSchtasksXml(t.schtasks, target, new Date()),
    /OPENCLAW_STATE_DIR cannot go into a Windows scheduled task[\s\S]*/,
  );
  const plain = renderSchtasksXml(t.schtasks, { ...target, environment: [['CODEX_HOME', 'C:\\Users\\ada\\.codex']] }, new Date());
  assert.ok(plain.includes('set &quot;CODEX_HOME=C:\\Users\\ada\\.codex&quot;&amp;&amp; '), plain);
});
