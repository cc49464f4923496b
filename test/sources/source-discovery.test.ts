/**
 * `ocm-run sources [--json]` through the built CLI: every source found on a
 * (temporary) machine, with kind, path, agents, sessions, size, last entry
 * time, cursor position and whether it is observed; defaults (OpenClaw on,
 * other agents opt-in), the agents filter, and `config set` turning one on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SourceReport } from '../../lib/sources/discovery.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { addWindow, agentDbPath, createAgentDb, DbTranscript } from '../helpers/openclaw-db.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');

test('sources --json lists every source on the machine with sessions, sizes, last entry, cursor position and enabled state', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const user = join(dir, 'user'); // stands for ~
    const stateDir = join(user, '.openclaw');
    // OpenClaw database era: agent main with a /reset, agent work.
    const main = createAgentDb(agentDbPath(stateDir, 'main'));
    addWindow(main, 'win-1', 'agent:main:main');
    const w1 = new DbTranscript(main, 'win-1');
    w1.add(
      {
        type: 'message',
        id: 'm0000001',
        parentId: null,
        timestamp: '2026-09-01T10:00:00Z',
        message: { role: 'user', content: 'I am allergic to peanuts.' },
      },
      { createdAt: Date.parse('2026-09-01T10:00:00Z') },
    );
    addWindow(main, 'win-2', 'agent:main:main', 'win-1', 'reset');
    new DbTranscript(main, 'win-2').add(
      {
        type: 'message',
        id: 'm0000002',
        parentId: null,
        timestamp: '2026-09-03T08:30:00Z',
        message: { role: 'user', content: 'We moved the launch to October.' },
      },
      { createdAt: Date.parse('2026-09-03T08:30:00Z') },
    );
    main.close();
    const work = createAgentDb(agentDbPath(stateDir, 'work'));
    addWindow(work, 'win-9', 'agent:work:main');
    new DbTranscript(work, 'win-9').add({
      type: 'message',
      id: 'w0000001',
      parentId: null,
      timestamp: '2026-09-02T09:00:00Z',
      message: { role: 'user', content: 'The budget review is on Monday.' },
    });
    work.close();
    // OpenClaw file era, agent main.
    await mkdir(join(stateDir, 'agents', 'main', 'sessions'), { recursive: true });
    const pw = new PiSessionWriter('file-session-1', new Date('2026-08-01T07:00:00Z'));
    await writeFile(
      join(stateDir, 'agents', 'main', 'sessions', 'file-session-1.jsonl'),
      pw.header() + pw.message({ role: 'user', text: 'I prefer short answers.' }),
    );
    // Claude Code and Codex in their default places; no pi.
    await cp(join(FIXTURES, 'claude-code', 'projects'), join(user, '.claude', 'projects'), { recursive: true });
    await cp(join(FIXTURES, 'codex', 'sessions'), join(user, '.codex', 'sessions'), { recursive: true });
    // A generic log.
    await mkdir(join(user, 'logs'));
    await writeFile(
      join(user, 'logs', 'bot.jsonl'),
      `${JSON.stringify({ role: 'user', text: 'Call me Sam.', timestamp: '2026-09-04T12:00:00Z' })}\n`,
    );

    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.yaml'),
      [
        'timezone: UTC',
        'sources:',
        '  openclaw:',
        '    agents: [main]',
        '  codex:',
        '    enabled: true',
        '  generic:',
        '    - name: bot',
        `      path: ~/logs/*.jsonl`,
        '',
      ].join('\n'),
    );
    const env = { HOME: user, USERPROFILE: user, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined };
    const list = async (): Promise<SourceReport[]> => {
      const r = await runCli(['sources', '--json', '--home', home], { env });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { sources: SourceReport[] }).sources;
    };
    const byName = (reports: SourceReport[], name: string, agent?: string) => {
      const found = reports.find((s) => s.name === name && (agent === undefined || s.agents.includes(agent)));
      assert.ok(found, `${name}${agent ? ` (${agent})` : ''} is listed`);
      return found;
    };

    const before = await list();
    const dbMain = byName(before, 'openclaw-db', 'main');
    assert.equal(dbMain.path, agentDbPath(stateDir, 'main'));
    assert.deepEqual([dbMain.found, dbMain.enabled, dbMain.sessions], [true, true, 2]);
    assert.equal(dbMain.lastEntryAt, '2026-09-03T08:30:00.000Z');
    assert.ok(dbMain.sizeBytes > 0);
    assert.deepEqual([dbMain.cursor.sessionsObserved, dbMain.cursor.sessionsBehind, dbMain.cursor.rowsBehind], [0, 2, 2]);
    assert.ok(dbMain.notes.some((n) => /1 of 2 sessions ended/.test(n)));
    const dbWork = byName(before, 'openclaw-db', 'work');
    assert.equal(dbWork.enabled, false, 'not in sources.openclaw.agents');
    const files = byName(before, 'openclaw', 'main');
    assert.deepEqual([files.enabled, files.sessions, files.lastEntryAt], [true, 1, '2026-08-01T07:00:00.000Z']);
    const claude = byName(before, 'claude-code');
    assert.deepEqual(
      [claude.found, claude.enabled, claude.sessions, claude.agents],
      [true, false, 2, ['claude-code']],
      'found, but opt-in',
    );
    assert.equal(claude.lastEntryAt, '2026-09-01T09:11:30.000Z');
    assert.equal(claude.configKey, 'sources.claude_code.enabled');
    const codex = byName(before, 'codex');
    assert.deepEqual([codex.found, codex.enabled, codex.sessions], [true, true, 3]);
    assert.equal(codex.path, join(user, '.codex', 'sessions'));
    const pi = byName(before, 'pi');
    assert.deepEqual([pi.found, pi.enabled, pi.sessions], [false, false, 0]);
    const generic = byName(before, 'generic:bot');
    assert.deepEqual([generic.found, generic.enabled, generic.sessions], [true, true, 1]);
    assert.equal(generic.cursor.bytesRead, 0);

    const observed = await runCli(['observe', '--json', '--home', home], { env });
    assert.equal(observed.code, 0, observed.stderr);
    const after = await list();
    const dbMainAfter = byName(after, 'openclaw-db', 'main');
    assert.deepEqual(
      [dbMainAfter.cursor.sessionsObserved, dbMainAfter.cursor.sessionsBehind, dbMainAfter.cursor.rowsBehind, dbMainAfter.cursor.messages],
      [2, 0, 0, 2],
    );
    assert.equal(byName(after, 'openclaw-db', 'work').cursor.sessionsObserved, 0, 'a filtered-out agent is not read');
    const codexAfter = byName(after, 'codex');
    assert.deepEqual([codexAfter.cursor.sessionsObserved, codexAfter.cursor.sessionsBehind], [3, 0]);
    assert.equal(codexAfter.cursor.bytesRead, codexAfter.sizeBytes);
    assert.equal(byName(after, 'claude-code').cursor.sessionsObserved, 0, 'opt-in: not read until enabled');
    assert.equal(byName(after, 'generic:bot').cursor.sessionsBehind, 0);

    // The human-readable list, and turning Claude Code on.
    const text = await runCli(['sources', '--home', home], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /○ claude-code · agent claude-code · not observed/);
    assert.match(text.stdout, /ocm-run config set sources\.claude_code\.enabled true/);
    assert.match(text.stdout, /Not found: pi/);
    const set = await runCli(['config', 'set', 'sources.claude_code.enabled', 'true', '--home', home], { env });
    assert.equal(set.code, 0, set.stderr);
    assert.equal(byName(await list(), 'claude-code').enabled, true);
  } finally {
    await cleanup();
  }
});
