/**
 * Crash safety of the database source, through the CLI as a child process
 * (the foundation's kill -9 test, for OpenClaw's SQLite era): `ocm-run
 * observe` killed at named steps again and again, then run to the end, gives
 * exactly the observations of one uninterrupted run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { crashAtSteps } from '../helpers/kill-loop.js';
import { snapshotObservations } from '../helpers/memory-snapshot.js';
import { addWindow, agentDbPath, createAgentDb, DbTranscript } from '../helpers/openclaw-db.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

async function makeHome(root: string, name: string, stateDir: string): Promise<string> {
  const home = join(root, name);
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
  return home;
}

function uuid(n: number): string {
  return `${String(n).padStart(8, '0')}-0000-4000-8000-00000000db00`;
}

test('database source: kill -9 at named steps during observe, again and again, then finish → same observations as one uninterrupted run', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions: Array<[agent: string, id: string, exchanges: number]> = [
      ['main', uuid(1), 450],
      ['main', uuid(2), 200],
      ['work', uuid(3), 450],
    ];
    const dbs = new Map<string, ReturnType<typeof createAgentDb>>();
    sessions.forEach(([agent, id, exchanges], s) => {
      let db = dbs.get(agent);
      if (!db) {
        db = createAgentDb(agentDbPath(stateDir, agent));
        dbs.set(agent, db);
      }
      // Session 2 is the /reset successor of session 1.
      addWindow(db, id, `agent:${agent}:main`, s === 1 ? uuid(1) : null);
      const w = new PiSessionWriter(id, new Date(Date.UTC(2026, 8, 1 + s, 8)));
      const rows = new DbTranscript(db, id);
      const lines = (w.header() + generateConversation(w, exchanges, s + 1)).split('\n').filter(Boolean);
      lines.forEach((line, i) => {
        rows.add(line, i % 4 === 3 ? { compress: 'raw' } : {});
      });
    });
    for (const db of dbs.values()) db.close();

    const reference = await makeHome(dir, 'reference', stateDir);
    const r = await runCli(['observe', '--home', reference, '--json'], { timeoutMs: 300_000 });
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { streams: number; messages: number; malformed: number };
    assert.equal(summary.streams, 3, 'three database sessions');
    assert.equal(summary.malformed, 0);
    const expected = await snapshotObservations(reference);
    assert.ok(expected.length > 1000, `a long transcript gives many observations (${expected.length})`);
    assert.deepEqual([...new Set(expected.map((o) => o.agent))].sort(), ['main', 'work']);

    const crashed = await makeHome(dir, 'crashed', stateDir);
    // SIGKILL mid-chunk and between "day files written" and "cursor saved" (no progress kept), then just after a save (progress kept), over and over: every step below is reached while work remains, so a run ends on its own only when all is done.
    const kills = await crashAtSteps(
      ['observe', '--home', crashed],
      ['observe-chunk', 'observe-written', 'observe-chunk', 'observe-written', 'observe-saved'],
    );
    assert.ok(kills >= 5, `the job was really killed mid-run (${kills} kills)`);
    const done = await runCli(['observe', '--home', crashed, '--json'], { timeoutMs: 300_000 });
    assert.equal(done.code, 0, done.stderr);
    const actual = await snapshotObservations(crashed);
    const ids = actual.map((o) => o.id);
    assert.equal(new Set(ids).size, ids.length, 'no observation id appears twice');
    assert.equal(actual.length, expected.length, 'nothing lost, nothing duplicated');
    assert.deepEqual(actual, expected);
    const leftovers = (await readdir(join(crashed, 'memory'), { recursive: true })).filter((n) => String(n).endsWith('.tmp'));
    assert.deepEqual(leftovers, []);
    // A further run finds nothing new.
    const again = await runCli(['observe', '--home', crashed, '--json'], { timeoutMs: 120_000 });
    assert.equal((JSON.parse(again.stdout) as { messages: number }).messages, 0);
  } finally {
    await cleanup();
  }
});
