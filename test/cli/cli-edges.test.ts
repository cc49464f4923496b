/**
 * The CLI's edges from issue #22 item 10: a reader that closes the pipe
 * (`| head`) after a destructive command ran must not crash it with EPIPE;
 * `get` finds an observation by its bare hash or its `^o-…` block id; the
 * setup review says "key checked" only when the provider accepted the key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { idsByTier, makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { reviewKeyNote, type WizardState } from '../../scripts/setup-wizard.js';
import { defaultAnswers } from '../../lib/setup/answers.js';
import type { HomePaths } from '../../lib/platform/home.js';

const TODAY = new Date().toISOString().slice(0, 10);

async function home(dir: string, n: number): Promise<{ paths: HomePaths; ids: string[] }> {
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const obs = Array.from({ length: n }, (_, i) =>
    makeObservation(i, TODAY, { text: `Observation ${i} about the quarterly budget review.` }),
  );
  await writeHot(paths, obs);
  return { paths, ids: obs.map((o) => o.id) };
}

/** Run the CLI with its stdout read by nobody: the pipe is closed before the command writes. Returns exit code and stderr. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
    child.stdout.destroy(); // like `| head -n 0`: the reader is gone
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

test('forget into a closed pipe (`| head`) finishes its work and exits with its own code, no EPIPE crash', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-edges-');
  t.after(cleanup);
  const { paths, ids } = await home(dir, 40);
  // Many lines of output: the first write after the reader left fails with EPIPE.
  const r = await runIntoClosedPipe(['forget', ...ids.slice(0, 20), '--yes', '--home', paths.root]);
  assert.equal(r.signal, null);
  assert.doesNotMatch(r.stderr, /EPIPE|Unhandled 'error' event/);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await idsByTier(paths, '')).hot.length, 20, 'the forget ran to its end');
  const audit = await readFile(paths.audit, 'utf8');
  assert.match(audit, /"action":"forget"/, 'and wrote its audit entry');
  const search = await runIntoClosedPipe(['search', 'quarterly budget', '--limit', '20', '--home', paths.root]);
  assert.equal(search.code, 0, search.stderr);
  assert.doesNotMatch(search.stderr, /EPIPE/);
});

test('get finds an observation by o-id, by bare hash and by ^o- block id', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-edges-');
  t.after(cleanup);
  const { paths, ids } = await home(dir, 3);
  const id = ids[1]!;
  for (const target of [id, id.slice(2), id.slice(2).toUpperCase(), `^${id}`]) {
    const r = await runCli(['get', target, '--json', '--home', paths.root]);
    assert.equal(r.code, 0, `${target}: ${r.stderr}`);
    assert.equal((JSON.parse(r.stdout) as { id: string }).id, id, target);
  }
});

test('the setup review says "key checked" only when the provider accepted the key', () => {
  const answers = defaultAnswers('/tmp/ocm-home');
  answers.llm.provider = 'openai';
  const state = (over: Partial<WizardState>): WizardState => ({ answers, keyAvailable: true, apiKey: 'sk-typed', ...over });
  assert.match(reviewKeyNote(state({ keyCheck: 'accepted' })), /^key checked, saved to \.env as OPENAI_API_KEY$/);
  assert.match(reviewKeyNote(state({ keyCheck: 'refused' })), /key NOT accepted by the provider/);
  assert.doesNotMatch(reviewKeyNote(state({ keyCheck: 'refused' })), /key checked/);
  assert.doesNotMatch(reviewKeyNote(state({})), /key checked/);
});

test('a program file cut short (an install or build rewriting it) is reported as a damaged installation, not a bare "Invalid or unexpected token"', async () => {
  const { dir, cleanup } = await tempDir('ocm-damaged-install-');
  try {
    // A copy of the built package whose search module ends in the middle of a string, as a file does while npm or tsc writes it.
    const { cp, symlink } = await import('node:fs/promises');
    const { dirname, join } = await import('node:path');
    const root = dirname(dirname(dirname(CLI)));
    const pkg = join(dir, 'pkg');
    for (const part of ['package.json', 'dist', 'templates', 'prompts']) await cp(join(root, part), join(pkg, part), { recursive: true });
    await symlink(join(root, 'node_modules'), join(pkg, 'node_modules'));
    const module = join(pkg, 'dist', 'lib', 'search', 'search.js');
    const text = await readFile(module, 'utf8');
    await writeFile(module, text.slice(0, text.indexOf("'", text.indexOf('export ')) + 4));
    const { paths } = await home(join(dir, 'h'), 3);
    const { execa } = await import('execa');
    const r = await execa(process.execPath, [join(pkg, 'dist', 'scripts', 'cli.js'), 'search', 'budget', '--home', paths.root], {
      reject: false,
      timeout: 120_000,
      stdin: 'ignore',
      env: { CI: '1' },
    });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stderr, /one of OC-Memory's program files could not be loaded \(Invalid or unexpected token\)/);
    assert.match(r.stderr, /reinstall oc-memory/);
  } finally {
    await cleanup();
  }
});
