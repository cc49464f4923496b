/**
 * An idle tick in a named time zone creates no Intl.DateTimeFormat (its ICU
 * start-up costs ≈ 30 ms per cron tick): the zone comes from
 * .ocm/time-zone.json and the tier step's due check from state.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

test('an idle run tick in a named zone makes no Intl.DateTimeFormat', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const sessions = join(dir, 'openclaw', 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '00000001-0000-4000-8000-0000000000ab';
    const w = new PiSessionWriter(id, new Date('2026-03-01T09:00:00Z'));
    await writeFile(join(sessions, `${id}.jsonl`), w.header() + generateConversation(w, 10, 5));
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: Asia/Seoul\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(join(dir, 'openclaw'))}]\n`,
    );
    assert.equal((await runCli(['run', '--home', home])).code, 0);
    assert.equal((await runCli(['run', '--home', home])).code, 0);
    const log = join(dir, 'intl.log');
    const hook = join(dir, 'count-intl.cjs');
    await writeFile(
      hook,
      `const Real = Intl.DateTimeFormat; Intl.DateTimeFormat = function (...a) { ` +
        `require('fs').appendFileSync(${JSON.stringify(log)}, 'x\\n'); return new Real(...a); };\n`,
    );
    await writeFile(log, '');
    const r = await execa(process.execPath, ['-r', hook, CLI, 'run', '--home', home], { reject: false, env: { CI: '1' } });
    assert.equal(r.exitCode, 0, String(r.stderr));
    assert.equal((await readFile(log, 'utf8')).length, 0, 'an idle tick created an Intl.DateTimeFormat');
    // The hook does see one when the zone must be resolved (the cache removed).
    await writeFile(join(home, '.ocm', 'time-zone.json'), '');
    await execa(process.execPath, ['-r', hook, CLI, 'run', '--home', home], { env: { CI: '1' } });
    assert.notEqual((await readFile(log, 'utf8')).length, 0);
  } finally {
    await cleanup();
  }
});
