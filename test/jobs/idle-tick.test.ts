/**
 * A cron tick with nothing new must stay light: it may not load the Markdown
 * parser, the search indexer, the tokenizer tables or the LLM SDK. Checked by
 * recording the modules a real `ocm-run run` child process resolves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

const HOOK = new URL('../fixtures/record-imports.mjs', import.meta.url).pathname;
const HEAVY = /remark|micromark|gray-matter|\/day-file\.js|search\/indexer\.js|search\/documents\.js|js-tiktoken|\/openai\/|observer\/heuristic\.js|tiers\/tier-job\.js/;

test('an idle run tick loads no parser, indexer, tokenizer or SDK', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '00000001-0000-4000-8000-0000000000aa';
    const w = new PiSessionWriter(id, new Date('2026-03-01T09:00:00Z'));
    await writeFile(join(sessions, `${id}.jsonl`), w.header() + generateConversation(w, 30, 3));
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    // First tick does the work (observe, active memory, index, tier).
    assert.equal((await runCli(['run', '--home', home])).code, 0);
    // Let the files settle past the index's mtime safety window, then tick again with nothing new.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal((await runCli(['run', '--home', home])).code, 0);
    const log = join(dir, 'imports.log');
    const r = await execa(process.execPath, ['--import', HOOK, CLI, 'run', '--home', home], { reject: false, env: { OCM_IMPORT_LOG: log, CI: '1' } });
    assert.equal(r.exitCode, 0, String(r.stderr));
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    assert.ok(loaded.some((u) => u.endsWith('/run-job.js')), 'the hook saw the tick');
    const heavy = [...new Set(loaded.filter((u) => HEAVY.test(u)))];
    assert.deepEqual(heavy, [], `an idle tick loaded: ${heavy.join(', ')}`);
  } finally {
    await cleanup();
  }
});
