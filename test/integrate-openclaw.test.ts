/**
 * `integrate openclaw`: openclaw.json (JSON5 with comments, unquoted keys,
 * single quotes, trailing commas) gains our folders and plugin entry without
 * losing a comment, idempotently; --uninstall gives back the exact original
 * bytes, or — when the user edited the file since — takes out only our part;
 * the plugin is copied and removed; OpenClaw's own validator is honoured.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import JSON5 from 'json5';
import { applyIntegration, removeIntegration, integrationSnippet } from '../lib/openclaw-integration.js';
import { runCli, tempDir } from './helpers/cli.js';

const ORIGINAL = `// OpenClaw configuration — hand-written, please keep my notes!
{
  /* the gateway */
  gateway: { port: 18789, bind: 'loopback', },
  agents: {
    defaults: {
      model: 'anthropic/claude-sonnet-4', // my favourite
      workspace: "~/.openclaw/workspace",
      memorySearch: {
        extraPaths: ['~/notes',], // my own notes stay searchable
      },
    },
  },
  plugins: {
    allow: ["voice-call"],
  },
}
`;

const COMMENTS = ['// OpenClaw configuration — hand-written, please keep my notes!', '/* the gateway */', '// my favourite', '// my own notes stay searchable'];
const folders = ['/home/ada/.openclaw/oc-memory/memory', '/home/ada/.openclaw/oc-memory/reflections'];
const plugin = { home: '/home/ada/.openclaw/oc-memory', node: '/usr/bin/node', cli: '/opt/ocm/dist/scripts/cli.js' };

test('applyIntegration adds both keys, the plugin entry and the allow-list id, keeping every comment and the JSON5 style', () => {
  const r = applyIntegration(ORIGINAL, { folders, plugin });
  for (const c of COMMENTS) assert.ok(r.text.includes(c), `comment kept: ${c}`);
  assert.ok(r.text.includes("bind: 'loopback'"), 'single quotes and unquoted keys kept');
  const data = JSON5.parse(r.text);
  assert.deepEqual(data.memory.search.extraPaths, folders);
  assert.deepEqual(data.agents.defaults.memorySearch.extraPaths, ['~/notes', ...folders], "the user's own path stays first");
  assert.deepEqual(data.plugins.entries['oc-memory'], { enabled: true, hooks: { allowConversationAccess: true }, config: plugin });
  assert.deepEqual(data.plugins.allow, ['voice-call', 'oc-memory']);
  assert.equal(data.gateway.port, 18789);
  assert.equal(data.agents.defaults.model, 'anthropic/claude-sonnet-4');
  assert.deepEqual(r.created, [['memory'], ['plugins', 'entries']]);
  assert.equal(r.allowAdded, true);

  const again = applyIntegration(r.text, { folders, plugin });
  assert.equal(again.text, r.text, 'a second run changes nothing');
  assert.deepEqual(again.changes, []);

  const back = removeIntegration(r.text, { folders, created: r.created, allowAdded: r.allowAdded });
  for (const c of COMMENTS) assert.ok(back.text.includes(c), `comment kept after removal: ${c}`);
  assert.equal(back.text, ORIGINAL, 'removal is a minimal text edit: the original bytes come back');
  for (const layout of ['{}', '{"a": 1}\n', '// x\n{\n  "memory": {"search": {"extraPaths": ["u"]}}\n}\n', '{\n  "gateway": {\n    "port": 1\n  },\n  "memory": {\n    "search": {\n      "extraPaths": [\n        "u"\n      ]\n    }\n  }\n}\n']) {
    const added = applyIntegration(layout, { folders, plugin });
    assert.equal(removeIntegration(added.text, { folders, created: added.created, allowAdded: added.allowAdded }).text, layout, `round trip of ${JSON.stringify(layout)}`);
  }

  const current = JSON5.parse(applyIntegration('{}', { folders, plugin, keys: 'current' }).text);
  assert.equal(current.agents, undefined);
  const legacy = JSON5.parse(applyIntegration('{}', { folders, plugin, keys: 'legacy' }).text);
  assert.equal(legacy.memory, undefined);
  assert.deepEqual(JSON5.parse(integrationSnippet({ folders, plugin })).memory.search.extraPaths, folders);
});

test('applyIntegration refuses to guess when a key has the wrong type, and reports broken JSON5', () => {
  assert.throws(() => applyIntegration('{ memory: { search: "off" } }', { folders, plugin }), /memory\.search is not an object/);
  assert.throws(() => applyIntegration('{ memory: { search: { extraPaths: "x" } } }', { folders, plugin }), /extraPaths is not a list/);
  assert.throws(() => applyIntegration('{ oops ', { folders, plugin }), /not a JSON5 object OC-Memory can edit/);
});

async function setup() {
  const t = await tempDir('ocm-integrate-');
  const stateDir = join(t.dir, 'openclaw');
  await mkdir(stateDir);
  const configPath = join(stateDir, 'openclaw.json');
  await writeFile(configPath, ORIGINAL, { mode: 0o640 });
  const home = join(t.dir, 'home');
  // An openclaw on PATH that is not there: the validator is skipped.
  const env = { OPENCLAW_STATE_DIR: stateDir, PATH: `${join(t.dir, 'bin')}:${process.env.PATH}` };
  return { ...t, stateDir, configPath, home, env };
}

test('integrate openclaw: backup, plugin copied, idempotent, and --uninstall restores the exact original bytes', async () => {
  const s = await setup();
  try {
    const printed = await runCli(['integrate', 'openclaw', '--print', '--home', s.home], { env: s.env });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /extraPaths/);
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL, '--print changes nothing');

    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env: s.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /added memory\.search\.extraPaths/);
    assert.match(r.stdout, /plugin installed in/);
    const edited = await readFile(s.configPath, 'utf8');
    for (const c of COMMENTS) assert.ok(edited.includes(c));
    assert.equal((await stat(s.configPath)).mode & 0o777, 0o640, "the file keeps the user's mode");
    const data = JSON5.parse(edited);
    assert.deepEqual(data.memory.search.extraPaths, [join(s.home, 'memory'), join(s.home, 'reflections')]);
    assert.equal(data.plugins.entries['oc-memory'].config.home, s.home);
    const backups = (await readdir(s.stateDir)).filter((n) => n.startsWith('openclaw.json.oc-memory-backup-'));
    assert.equal(backups.length, 1);
    assert.equal(await readFile(join(s.stateDir, backups[0]!), 'utf8'), ORIGINAL, 'the backup is the original');
    const pluginDir = join(s.stateDir, 'extensions', 'oc-memory');
    assert.deepEqual((await readdir(pluginDir)).sort(), ['index.js', 'openclaw.plugin.json', 'package.json']);
    const manifest = JSON.parse(await readFile(join(pluginDir, 'openclaw.plugin.json'), 'utf8'));
    assert.equal(manifest.id, 'oc-memory');
    assert.equal(manifest.kind, undefined, 'not a memory-slot plugin: OpenClaw keeps its own memory');
    assert.ok(manifest.configSchema.properties.home);
    assert.deepEqual(JSON.parse(await readFile(join(pluginDir, 'package.json'), 'utf8')).openclaw, { extensions: ['./index.js'] });
    // The entry is compiled JavaScript that plain Node loads (no TypeScript loader), as OpenClaw's installer requires.
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(join(pluginDir, 'index.js')).href)}); console.log(m.default.id, typeof m.default.register);`], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    assert.equal(loaded.trim(), 'oc-memory function');

    const again = await runCli(['integrate', 'openclaw', '--home', s.home], { env: s.env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already had every OC-Memory setting/);
    assert.equal(await readFile(s.configPath, 'utf8'), edited);
    assert.equal((await readdir(s.stateDir)).filter((n) => n.startsWith('openclaw.json.oc-memory-backup-')).length, 1, 'no second backup');

    const un = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env: s.env });
    assert.equal(un.code, 0, un.stderr);
    assert.match(un.stdout, /exactly as it was/);
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL, 'byte for byte');
    await assert.rejects(stat(pluginDir), 'plugin removed');
    const twice = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env: s.env });
    assert.equal(twice.code, 0);
    assert.match(twice.stdout, /nothing to do/);
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw --uninstall after the user edited openclaw.json takes out only our part', async () => {
  const s = await setup();
  try {
    assert.equal((await runCli(['integrate', 'openclaw', '--home', s.home], { env: s.env })).code, 0);
    const edited = (await readFile(s.configPath, 'utf8')).replace("'~/notes',", "'~/notes', '~/journal' /* added later */,");
    await writeFile(s.configPath, `${edited}// a comment added after the integration\n`);
    const un = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env: s.env });
    assert.equal(un.code, 0, un.stderr);
    assert.match(un.stdout, /your later edits are kept/);
    const after = await readFile(s.configPath, 'utf8');
    for (const c of [...COMMENTS, '/* added later */', '// a comment added after the integration']) assert.ok(after.includes(c), `kept: ${c}`);
    const data = JSON5.parse(after);
    assert.deepEqual(data.agents.defaults.memorySearch.extraPaths, ['~/notes', '~/journal']);
    assert.equal(data.memory, undefined, 'the memory key it created is gone');
    assert.equal(data.plugins.entries, undefined);
    assert.deepEqual(data.plugins.allow, ['voice-call']);
    assert.ok((await readdir(s.stateDir)).some((n) => n.startsWith('openclaw.json.oc-memory-uninstall-backup-')), 'the edited file was backed up before');
  } finally {
    await s.cleanup();
  }
});

test("integrate openclaw: OpenClaw's validator rejecting the result puts the file back; --keys legacy then passes", async () => {
  const s = await setup();
  try {
    const bin = join(s.dir, 'bin');
    await mkdir(bin);
    // A stand-in for an older OpenClaw build whose strict schema does not know memory.search yet.
    await writeFile(join(bin, 'openclaw'), `#!/bin/sh\n[ "$1 $2" = "config validate" ] || exit 64\nif grep -q '^  memory:' "$OPENCLAW_CONFIG_PATH"; then echo 'Invalid config: Unrecognized key: "memory"' >&2; exit 1; fi\necho 'Config valid'\n`);
    await chmod(join(bin, 'openclaw'), 0o755);
    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env: s.env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /OpenClaw rejected the edited openclaw\.json/);
    assert.match(r.stderr, /Unrecognized key: "memory"/);
    assert.match(r.stderr, /--keys legacy/);
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL, 'put back exactly');
    const ok = await runCli(['integrate', 'openclaw', '--keys', 'legacy', '--home', s.home], { env: s.env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /openclaw config validate` accepts/);
    const data = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.deepEqual(data.agents.defaults.memorySearch.extraPaths, ['~/notes', join(s.home, 'memory'), join(s.home, 'reflections')]);
    assert.equal(data.memory, undefined);
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw without OpenClaw says what to do', async () => {
  const { dir, cleanup } = await tempDir('ocm-integrate-');
  try {
    const r = await runCli(['integrate', 'openclaw', '--home', join(dir, 'home')], { env: { OPENCLAW_STATE_DIR: join(dir, 'nowhere') } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /OpenClaw was not found/);
    assert.match(r.stderr, /--print/);
  } finally {
    await cleanup();
  }
});
