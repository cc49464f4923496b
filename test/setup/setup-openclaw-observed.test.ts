/**
 * What setup says of OpenClaw is what a tick observes: every agent in the state folder OpenClaw
 * itself uses ($OPENCLAW_HOME honoured), looked up again at every tick so an agent added after
 * setup is observed too, each into its own memory; or exactly the agents `sources.openclaw.agents`
 * names. The real CLI on temp homes, OpenClaw's database and file eras as OpenClaw writes them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { addWindow, agentDbPath, createAgentDb, DbTranscript } from '../helpers/openclaw-db.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

function addDbAgent(stateDir: string, agent: string, text: string): void {
  const db = createAgentDb(agentDbPath(stateDir, agent));
  addWindow(db, `win-${agent}`, `agent:${agent}:main`);
  new DbTranscript(db, `win-${agent}`).add({
    type: 'message',
    id: `m-${agent}`,
    parentId: null,
    timestamp: '2026-09-01T10:00:00Z',
    message: { role: 'user', content: text },
  });
  db.close();
}

async function addFileAgent(stateDir: string, agent: string, text: string): Promise<void> {
  await mkdir(join(stateDir, 'agents', agent, 'sessions'), { recursive: true });
  const w = new PiSessionWriter(`s-${agent}`, new Date('2026-09-02T07:00:00Z'));
  await writeFile(join(stateDir, 'agents', agent, 'sessions', `s-${agent}.jsonl`), w.header() + w.message({ role: 'user', text }));
}

async function observedByAgent(home: string, env: Record<string, string | undefined>): Promise<string[]> {
  const r = await runCli(['export', '--home', home], { env });
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { observations: Array<{ agent: string; text: string }> }).observations
    .map((o) => `${o.agent}: ${o.text}`)
    .sort();
}

const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

test('setup says every OpenClaw agent in its state folder is observed, and an agent added after setup is observed by the next tick', async () => {
  const { dir, cleanup } = await tempDir('ocm-oc-agents-');
  try {
    const user = join(dir, 'user');
    const state = join(user, '.openclaw');
    addDbAgent(state, 'main', 'I am allergic to peanuts.');
    const env = { HOME: user, USERPROFILE: user, XDG_STATE_HOME: join(dir, 'xdg'), OPENCLAW_HOME: undefined };
    const home = join(dir, 'memory');
    const setup = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home], { env });
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(
      setup.stdout,
      new RegExp(`Observed: every OpenClaw agent in ${quote(state)}, looked up again at every tick \\(agents added later too\\)`),
    );
    assert.equal((await runCli(['run', '--home', home], { env })).code, 0);
    // Two agents OpenClaw gets after setup: one in the database era, one in the file era.
    addDbAgent(state, 'ops', 'We moved the launch to October.');
    await addFileAgent(state, 'writer', 'I prefer short answers.');
    const tick = await runCli(['run', '--home', home], { env });
    assert.equal(tick.code, 0, tick.stderr);
    const observed = await observedByAgent(home, env);
    for (const [agent, pattern] of [
      ['main', /peanuts/],
      ['ops', /launch to October/],
      ['writer', /short answers/],
    ] as const) {
      assert.ok(
        observed.some((o) => o.startsWith(`${agent}: `) && pattern.test(o)),
        `${agent} observed into its own memory:\n${observed.join('\n')}`,
      );
    }
  } finally {
    await cleanup();
  }
});

test('setup says precisely when only some OpenClaw agents are observed, and observes OpenClaw where $OPENCLAW_HOME puts it', async () => {
  const { dir, cleanup } = await tempDir('ocm-oc-agents-');
  try {
    const user = join(dir, 'user');
    const openClawHome = join(dir, 'openclaw-home');
    const state = join(openClawHome, '.openclaw');
    addDbAgent(state, 'main', 'I am allergic to peanuts.');
    await addFileAgent(state, 'ops', 'We moved the launch to October.');
    await mkdir(user, { recursive: true });
    const env = { HOME: user, USERPROFILE: user, XDG_STATE_HOME: join(dir, 'xdg'), OPENCLAW_HOME: openClawHome };
    const home = join(dir, 'memory');
    const setup = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home], { env });
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(setup.stdout, new RegExp(`Observed: every OpenClaw agent in ${quote(state)},`));
    const tick = await runCli(['observe', '--home', home], { env });
    assert.equal(tick.code, 0, tick.stderr);
    const observed = await observedByAgent(home, env);
    assert.ok(observed.some((o) => /^main: .*peanuts/.test(o)) && observed.some((o) => /^ops: .*October/.test(o)), observed.join('\n'));
    // A config that names its agents: setup says exactly that, and keeps it.
    const set = await runCli(['config', 'set', 'sources.openclaw.agents', '["main"]', '--home', home], { env });
    assert.equal(set.code, 0, set.stderr);
    const again = await runCli(['setup', '--reconfigure', '--yes', '--home', home], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`Observed: only the OpenClaw agent main \\(sources\\.openclaw\\.agents\\) in ${quote(state)}\\.`),
    );
    assert.doesNotMatch(again.stdout, /every OpenClaw agent/);
  } finally {
    await cleanup();
  }
});
