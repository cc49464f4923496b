/**
 * A cron tick with nothing new must stay light: it may not load the Markdown
 * parser, the search indexer, the tokenizer tables or the LLM SDK. Checked by
 * recording the modules a real `ocm-run run` child process resolves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { generateConversation, PiSessionWriter } from '../helpers/pi-writer.js';

const HOOK = new URL('../fixtures/record-imports.mjs', import.meta.url).pathname;
// Module paths as the compiled package has them (test 'every heavy pattern names a module of dist/' keeps them so).
const HEAVY_MODULES = [
  /remark/,
  /micromark/,
  /gray-matter/,
  /memory\/day-file\//,
  /search\/indexer\.js/,
  /search\/documents\.js/,
  /js-tiktoken/,
  /\/openai\//,
  /observer\/heuristic\/observer\.js/,
  /tiers\/tier-job\.js/,
  // The local embedding model: its libraries, its loader and its worker.
  /@energetic-ai\//,
  /search\/local-model\.js/,
  /search\/embed-(thread|worker)\.js/,
];
const HEAVY = new RegExp(HEAVY_MODULES.map((r) => r.source).join('|'));

/**
 * The files the guard can match: the compiled path of every module of lib/ as the sources have it now (not
 * what dist/ holds: a build never deletes the output of a module that moved away, so a stale file there
 * would keep a dead pattern alive), and the heavy packages.
 */
async function guardedFiles(root: string): Promise<string[]> {
  const { default: fg } = await import('fast-glob');
  const sources = (await fg(['lib/**/*.ts', 'lib/**/*.cts'], { cwd: root })).map(
    (f) => `${root}dist/${f.replace(/\.cts$/, '.cjs').replace(/\.ts$/, '.js')}`,
  );
  const packages = (
    await fg(['node_modules/{remark*,micromark,gray-matter,js-tiktoken,openai,@energetic-ai/*}/package.json'], { cwd: root })
  ).map((f) => `${root}${f}`);
  return [...sources, ...packages];
}

test('every heavy pattern names a module of lib/ or a package (a moved module would leave the guard guarding nothing)', async () => {
  const files = await guardedFiles(new URL('../../', import.meta.url).pathname);
  for (const pattern of HEAVY_MODULES)
    assert.ok(
      files.some((f) => pattern.test(f)),
      `${pattern} matches no file`,
    );
  // The check itself: the names the guard listed before the modules moved into folders match nothing now.
  for (const gone of [/\/day-file\.js/, /observer\/heuristic\.js/, /search\/korean\.js/])
    assert.ok(!files.some((f) => gone.test(f)), `${gone} would pass`);
});

test('an idle run tick loads no parser, indexer, tokenizer, SDK or embedding model', async () => {
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
    // The default embeddings (the local model): the first tick embeds, an idle one must not load the model.
    await writeFile(join(home, 'config.yaml'), `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(stateDir)}]\n`);
    const env = { OCM_LOCAL_EMBEDDINGS: undefined };
    // First tick does the work (observe, active memory, index, tier).
    const first = await runCli(['run', '--home', home, '--json'], { env });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(existsSync(join(home, '.ocm', 'index', 'embeddings')), 'the first tick embedded the new observations');
    // Let the files settle past the index's mtime safety window, then tick again with nothing new.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal((await runCli(['run', '--home', home], { env })).code, 0);
    const log = join(dir, 'imports.log');
    const r = await execa(process.execPath, ['--import', HOOK, CLI, 'run', '--home', home], {
      reject: false,
      env: { OCM_IMPORT_LOG: log, CI: '1', OCM_LOCAL_EMBEDDINGS: undefined },
    });
    assert.equal(r.exitCode, 0, String(r.stderr));
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    assert.ok(
      loaded.some((u) => u.endsWith('/run-job.js')),
      'the hook saw the tick',
    );
    const heavy = [...new Set(loaded.filter((u) => HEAVY.test(u)))];
    assert.deepEqual(heavy, [], `an idle tick loaded: ${heavy.join(', ')}`);
  } finally {
    await cleanup();
  }
});
