/**
 * `ocm-run integrate pi` and setup's opt-in pi step, without the `pi` binary
 * (the real CLI is in pi-e2e.test.ts): the extension and its settings are
 * written beside the user's own extensions, status says so, a re-run is
 * idempotent, --uninstall takes out exactly its two files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { assertSetupLeavesAgentAlone, withHeuristicSetup } from '../../helpers/setup-run.js';

const PATH = dirname(process.execPath);
const TEMPLATE = join(import.meta.dirname, '..', '..', '..', 'templates', 'pi-extension', 'index.ts');

test("integrate pi: the extension and its settings beside the user's own extension; status; idempotent; --uninstall removes exactly its files", async () => {
  const tmp = await tempDir('ocm-pi-integrate-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const extensions = join(home, '.pi', 'agent', 'extensions');
  await mkdir(join(extensions, 'mine'), { recursive: true });
  await writeFile(join(extensions, 'mine', 'index.ts'), 'export default function mine() {}\n');
  const run = (...args: string[]) => runCli(['integrate', 'pi', ...args, '--home', ocm], { env: { HOME: home, PATH } });
  try {
    const before = await run('status');
    assert.match(before.stdout, /❌ extension in /);
    // --print: what to copy where, changing nothing.
    const printed = await run('--print');
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /Copy .*templates\/pi-extension\/index\.ts to .*extensions\/oc-memory\/index\.ts/);
    assert.match(printed.stdout, new RegExp(`"home": "${ocm.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
    assert.deepEqual(await readdir(extensions), ['mine'], '--print writes nothing');
    const r = await run();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /pi integration for .* \(memory of agent "pi"\):\n {2}extension written to .*extensions\/oc-memory\n {2}OC-Memory config: sources\.pi\.enabled set to true/,
    );
    const dir = join(extensions, 'oc-memory');
    assert.equal(await readFile(join(dir, 'index.ts'), 'utf8'), await readFile(TEMPLATE, 'utf8'));
    const settings = JSON.parse(await readFile(join(dir, 'oc-memory.json'), 'utf8')) as Record<string, string>;
    assert.equal(settings.home, ocm);
    assert.equal(settings.agent, 'pi');
    for (const file of [settings.node!, settings.cli!, settings.sdkClient!, settings.sdkStdio!]) assert.ok(existsSync(file), file);
    const after = await run('status');
    assert.doesNotMatch(after.stdout, /❌/, after.stdout);
    const again = await run();
    assert.equal(again.code, 0);
    assert.doesNotMatch(again.stdout, /sources\.pi\.enabled/, 'nothing left to turn on');
    const removed = await run('--uninstall');
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(await readdir(extensions), ['mine']);
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /\bpi:\n(\s+#.*\n)*\s+enabled: false/, 'the source turned off again');
  } finally {
    await tmp.cleanup();
  }
});

test('setup --yes --integrate-pi: the opt-in step of setup installs the extension through the same setup as integrate pi', async () => {
  await withHeuristicSetup(['--integrate-pi'], async (run) => {
    assert.match(run.result.stdout, /pi integration for .* \(memory of agent "pi"\)/);
    assert.deepEqual((await readdir(join(run.userHome, '.pi', 'agent', 'extensions', 'oc-memory'))).sort(), ['index.ts', 'oc-memory.json']);
    assert.match(await readFile(join(run.ocm, 'config.yaml'), 'utf8'), /\bpi:\n(\s+#.*\n)*\s+enabled: true/);
    // Opt-in: without the flag, pi's folder is not touched.
    await assertSetupLeavesAgentAlone(run, /pi integration/, '.pi');
  });
});
