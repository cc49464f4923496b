/**
 * `integrate openclaw` is one transaction: when it fails at any of its steps
 * (OCM_TEST_FAIL_AT names the step; the run throws there, as a full disk or
 * a refused write would), everything it changed is put back — the user's
 * openclaw.json and every other file of OpenClaw's folder byte for byte and
 * with their modes, no backup or temporary copy left, the plugin as it was
 * (absent, or the older release that was installed), OpenClaw's own install
 * record as it was, and the integration record of the home unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { writeFakeOpenClaw } from '../../helpers/fake-openclaw-cli.js';

const ORIGINAL = `// my OpenClaw settings — keep my notes
{
  gateway: { port: 18789, bind: 'loopback', },
  memory: { search: { extraPaths: ['~/notes',], }, }, // my own notes
  plugins: { allow: ["voice-call"], },
}
`;

/** The steps of the install, in order (lib/integrations/openclaw/install.ts). */
const STEPS = ['backed-up', 'plugin-placed', 'checked', 'config-written', 'recorded'];

/** Every file under `dir`: its bytes (as text) and mode, by path. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${relative(dir, p)}/`] = '';
        await walk(p);
      } else out[relative(dir, p)] = `${((await stat(p)).mode & 0o777).toString(8)} ${await readFile(p, 'utf8')}`;
    }
  };
  await walk(dir);
  return out;
}

async function scene(name: string) {
  const t = await tempDir(`ocm-journal-${name}-`);
  const stateDir = join(t.dir, 'openclaw');
  await mkdir(stateDir);
  const configPath = join(stateDir, 'openclaw.json');
  await writeFile(configPath, ORIGINAL, { mode: 0o640 });
  const home = join(t.dir, 'home');
  const record = join(home, '.ocm', 'openclaw-integration.json');
  const env = { OPENCLAW_STATE_DIR: stateDir, PATH: `${join(t.dir, 'no-bin')}:${process.env.PATH}` };
  return { ...t, stateDir, configPath, home, record, env };
}

async function failEachStep(s: Awaited<ReturnType<typeof scene>>, env: Record<string, string>): Promise<void> {
  const before = await snapshot(s.stateDir);
  const recordBefore = await readFile(s.record, 'utf8').catch(() => null);
  for (const step of STEPS) {
    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env: { ...env, OCM_TEST_FAIL_AT: step } });
    assert.equal(r.code, 1, `fails at ${step}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`Failed on purpose at step ${step}`));
    assert.deepEqual(await snapshot(s.stateDir), before, `after a failure at ${step}, OpenClaw's folder is as it was`);
    assert.equal(
      await readFile(s.record, 'utf8').catch(() => null),
      recordBefore,
      `after a failure at ${step}, the integration record is as it was`,
    );
  }
  const ok = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
  assert.equal(ok.code, 0, `and then the install goes through: ${ok.stdout}${ok.stderr}`);
  assert.notEqual(await readFile(s.configPath, 'utf8'), ORIGINAL);
}

test("integrate openclaw without an openclaw CLI: a failure at any step puts openclaw.json and OpenClaw's folder back byte for byte", async () => {
  const s = await scene('copied');
  try {
    await failEachStep(s, s.env);
  } finally {
    await s.cleanup();
  }
});

test("integrate openclaw through OpenClaw 2026.9's installer: a failure at any step also takes the plugin and OpenClaw's install record out again", async () => {
  const s = await scene('installer');
  try {
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.9.6' });
    await failEachStep(s, { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` });
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw over an older install of the plugin: a failure at any step leaves the older plugin and settings in place', async () => {
  const s = await scene('upgrade');
  try {
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.9.6' });
    const env = { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` };
    assert.equal((await runCli(['integrate', 'openclaw', '--home', s.home], { env })).code, 0);
    // The release installed before this one: another entry, and the user's own file beside it.
    const pluginDir = join(s.stateDir, 'extensions', 'oc-memory');
    await writeFile(
      join(pluginDir, 'index.js'),
      '// the plugin of an older OC-Memory\nexport default { id: "oc-memory", register() {} };\n',
    );
    await writeFile(join(pluginDir, 'NOTES.md'), 'my notes about the plugin\n');
    await writeFile(s.configPath, `${await readFile(s.configPath, 'utf8')}// edited after the integration\n`);
    await failEachStep(s, env);
    assert.equal(
      await readFile(join(pluginDir, 'NOTES.md'), 'utf8'),
      'my notes about the plugin\n',
      "the user's file in the plugin folder stays after the install too",
    );
  } finally {
    await s.cleanup();
  }
});
