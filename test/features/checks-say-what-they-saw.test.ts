/**
 * Every check says what it saw. On a machine without OpenClaw, ~/.openclaw still exists (OC-Memory's
 * default home is ~/.openclaw/oc-memory): doctor, `integrate openclaw status` and setup must not take
 * that folder for OpenClaw. Alerts with no target are a warning, not "no problems". The CLI runs as a
 * child process with a temp HOME and a PATH without `openclaw`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { findAgents } from '../../lib/setup/start.js';

interface Check {
  id: string;
  status: string;
  detail: string;
  fix?: string;
}

test("no OpenClaw here, only OC-Memory's own ~/.openclaw: doctor, integrate openclaw status and setup say so; alerts without a target are a warning", async () => {
  const { dir, cleanup } = await tempDir('ocm-saw-');
  try {
    const env = { HOME: dir, PATH: dirname(process.execPath), XDG_STATE_HOME: join(dir, 'state') };
    const setup = await runCli(['setup', '--yes', '--provider', 'heuristic'], { env });
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(setup.stdout, /OpenClaw is not installed here \(no `openclaw` command on PATH, no agents\/ folder in .*\.openclaw\)/);
    assert.doesNotMatch(setup.stdout, /Observed: every OpenClaw agent/);

    const d = await runCli(['doctor', '--json', '--offline'], { env });
    const checks = (JSON.parse(d.stdout) as { checks: Check[] }).checks;
    const by = (id: string) => checks.find((c) => c.id === id);
    assert.equal(by('openclaw')?.status, 'warn', JSON.stringify(by('openclaw')));
    assert.match(by('openclaw')!.detail, /^not installed: no `openclaw` command on PATH, no agents\/ folder in .*\.openclaw$/);
    assert.equal(by('openclaw.integration')?.status, 'warn');
    assert.match(by('openclaw.integration')!.detail, /not checked: OpenClaw is not installed/);
    assert.equal(by('alerts')?.status, 'warn', JSON.stringify(by('alerts')));
    assert.match(by('alerts')!.detail, /reach nobody: no OpenClaw hooks token .* and no alerts\.webhook_url/);
    const human = await runCli(['doctor', '--offline'], { env });
    assert.doesNotMatch(human.stdout, /✅ OpenClaw/);
    assert.match(human.stdout, /No problems; \d+ warning\(s\) \(.*OpenClaw.*Alerts.*\)\./);

    const status = await runCli(['integrate', 'openclaw', 'status'], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /❌ OpenClaw: not installed here \(no `openclaw` command on PATH/);
    assert.doesNotMatch(status.stdout, /✅ OpenClaw/);

    // What setup's wizard is told before it offers to write openclaw.json.
    const found = await findAgents({ HOME: dir, OPENCLAW_STATE_DIR: join(dir, '.openclaw'), PATH: dirname(process.execPath) });
    assert.equal(found.openClaw, false, 'a ~/.openclaw holding only OC-Memory is not OpenClaw');

    assert.equal((await runCli(['config', 'set', 'alerts.webhook_url', 'http://127.0.0.1:9/hook'], { env })).code, 0);
    const withHook = JSON.parse((await runCli(['doctor', '--json', '--offline'], { env })).stdout) as { checks: Check[] };
    const alerts = withHook.checks.find((c) => c.id === 'alerts')!;
    assert.equal(alerts.status, 'ok');
    assert.equal(alerts.detail, 'to webhook http://127.0.0.1:9/hook');
  } finally {
    await cleanup();
  }
});

test("setup's wizard offers the OpenClaw integration for an openclaw.json of OpenClaw's own, not for one holding only OC-Memory's keys", async () => {
  const { dir, cleanup } = await tempDir('ocm-saw-');
  try {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const state = join(dir, '.openclaw');
    await mkdir(state);
    const env = { HOME: dir, OPENCLAW_STATE_DIR: state, PATH: dirname(process.execPath) };
    await writeFile(
      join(state, 'openclaw.json'),
      '{ plugins: { entries: { "oc-memory": { enabled: true } } }, memory: { search: { extraPaths: ["/x"] } } }\n',
    );
    assert.equal((await findAgents(env)).openClaw, false, 'only what an earlier integration wrote');
    await writeFile(join(state, 'openclaw.json'), '// mine\n{ gateway: { port: 18789 } }\n');
    assert.equal((await findAgents(env)).openClaw, true, "OpenClaw's own settings");
  } finally {
    await cleanup();
  }
});
