/**
 * `integrate openclaw`: openclaw.json (JSON5 with comments, unquoted keys,
 * single quotes, trailing commas) gains our folders and plugin entry without
 * losing a comment, idempotently; --uninstall gives back the exact original
 * bytes, or — when the user edited the file since — takes out only our part;
 * the plugin is copied and removed; OpenClaw's own validator is honoured.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import JSON5 from 'json5';
import { applyIntegration, removeIntegration, integrationSnippet, FILE_ERA_SHAPE } from '../../../lib/integrations/openclaw/integration.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { writeFakeOpenClaw } from '../../helpers/fake-openclaw-cli.js';

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

/** The same file as a 2026.9 user has it: the notes folder under memory.search (doctor moved it there). */
const ORIGINAL_2026_9 = ORIGINAL.replace(
  / {6}memorySearch: \{\n {8}extraPaths: \['~\/notes',\], \/\/ my own notes stay searchable\n {6}\},\n/,
  '',
).replace('  plugins: {', "  memory: {\n    search: { extraPaths: ['~/notes',], }, // my own notes stay searchable\n  },\n  plugins: {");

const COMMENTS = [
  '// OpenClaw configuration — hand-written, please keep my notes!',
  '/* the gateway */',
  '// my favourite',
  '// my own notes stay searchable',
];
const folders = ['/home/ada/.openclaw/oc-memory/memory', '/home/ada/.openclaw/oc-memory/reflections'];
const plugin = { home: '/home/ada/.openclaw/oc-memory', node: '/usr/bin/node', cli: '/opt/ocm/dist/scripts/cli.js' };

const BOTH = { keys: 'both', conversationAccess: true } as const;
/** What agent main alone gets in 2026.9's shared key: its own files at the roots' top, not the other agents' sub-folders. */
const mainOnly = (roots: string[]) => roots.map((path) => ({ path, pattern: '*.md' }));

test('applyIntegration adds both keys (when asked), the plugin entry and the allow-list id, keeping every comment and the JSON5 style', () => {
  const r = applyIntegration(ORIGINAL, { folders, plugin, shape: BOTH });
  for (const c of COMMENTS) assert.ok(r.text.includes(c), `comment kept: ${c}`);
  assert.ok(r.text.includes("bind: 'loopback'"), 'single quotes and unquoted keys kept');
  const data = JSON5.parse(r.text);
  assert.deepEqual(data.memory.search.extraPaths, mainOnly(folders), "2026.9: the roots limited to their top files (main's own)");
  assert.deepEqual(
    data.agents.defaults.memorySearch.extraPaths,
    ['~/notes', ...folders],
    "2026.2 takes plain paths only; the user's own path stays first",
  );
  assert.deepEqual(data.plugins.entries['oc-memory'], { enabled: true, hooks: { allowConversationAccess: true }, config: plugin });
  assert.deepEqual(data.plugins.allow, ['voice-call', 'oc-memory']);
  assert.equal(data.gateway.port, 18789);
  assert.equal(data.agents.defaults.model, 'anthropic/claude-sonnet-4');
  assert.deepEqual(r.created, [['memory'], ['plugins', 'entries']]);
  assert.equal(r.allowAdded, true);

  const again = applyIntegration(r.text, { folders, plugin, shape: BOTH });
  assert.equal(again.text, r.text, 'a second run changes nothing');
  assert.deepEqual(again.changes, []);

  const back = removeIntegration(r.text, { folders, created: r.created, allowAdded: r.allowAdded });
  for (const c of COMMENTS) assert.ok(back.text.includes(c), `comment kept after removal: ${c}`);
  assert.equal(back.text, ORIGINAL, 'removal is a minimal text edit: the original bytes come back');
  for (const layout of [
    '{}',
    '{"a": 1}\n',
    '// x\n{\n  "memory": {"search": {"extraPaths": ["u"]}}\n}\n',
    '{\n  "gateway": {\n    "port": 1\n  },\n  "memory": {\n    "search": {\n      "extraPaths": [\n        "u"\n      ]\n    }\n  }\n}\n',
  ]) {
    const added = applyIntegration(layout, { folders, plugin, shape: BOTH });
    assert.equal(
      removeIntegration(added.text, { folders, created: added.created, allowAdded: added.allowAdded }).text,
      layout,
      `round trip of ${JSON.stringify(layout)}`,
    );
  }

  const current = JSON5.parse(applyIntegration('{}', { folders, plugin }).text);
  assert.equal(current.agents, undefined, 'by default only the key OpenClaw 2026.9 accepts');
  assert.deepEqual(current.plugins.entries['oc-memory'].hooks, { allowConversationAccess: true });
  const fileEra = JSON5.parse(applyIntegration('{}', { folders, plugin, shape: FILE_ERA_SHAPE }).text);
  assert.equal(fileEra.memory, undefined, 'the 2026.2 file era rejects memory.search');
  assert.deepEqual(fileEra.agents.defaults.memorySearch.extraPaths, folders);
  assert.equal(fileEra.plugins.entries['oc-memory'].hooks, undefined, 'the 2026.2 file era rejects plugins.entries.<id>.hooks');
  const snippet = JSON5.parse(integrationSnippet({ folders, plugin }));
  assert.deepEqual(snippet.memory.search.extraPaths, mainOnly(folders));
  assert.equal(snippet.agents, undefined, '--print shows no key 2026.9 rejects');
  const record = {
    source: 'path',
    sourcePath: '/opt/ocm/templates/openclaw-plugin',
    installPath: '/x/extensions/oc-memory',
    version: '0.1.0',
  };
  const withRecord = applyIntegration(ORIGINAL, { folders, plugin, shape: FILE_ERA_SHAPE, installRecord: record });
  assert.deepEqual(JSON5.parse(withRecord.text).plugins.installs['oc-memory'], record, "OpenClaw's install record is kept");
  assert.equal(
    removeIntegration(withRecord.text, { folders, created: withRecord.created, allowAdded: withRecord.allowAdded }).text,
    ORIGINAL,
    'and taken out again on uninstall',
  );
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
    assert.match(r.stdout, /plugin copied to/, 'no openclaw CLI: the plugin is copied');
    const edited = await readFile(s.configPath, 'utf8');
    for (const c of COMMENTS) assert.ok(edited.includes(c));
    assert.equal((await stat(s.configPath)).mode & 0o777, 0o640, "the file keeps the user's mode");
    const data = JSON5.parse(edited);
    assert.deepEqual(data.memory.search.extraPaths, mainOnly([join(s.home, 'memory'), join(s.home, 'reflections')]));
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
    const pluginPackage = JSON.parse(await readFile(join(pluginDir, 'package.json'), 'utf8'));
    assert.deepEqual(pluginPackage.openclaw, { extensions: ['./index.js'] });
    assert.equal(
      pluginPackage.name,
      manifest.id,
      'OpenClaw 2026.2 warns "plugin id mismatch" when the package name differs from the manifest id',
    );
    // The entry is compiled JavaScript that plain Node loads (no TypeScript loader), as OpenClaw's installer requires.
    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(join(pluginDir, 'index.js')).href)}); console.log(m.default.id, typeof m.default.register);`,
      ],
      {
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '' },
      },
    );
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
    for (const c of [...COMMENTS, '/* added later */', '// a comment added after the integration'])
      assert.ok(after.includes(c), `kept: ${c}`);
    const data = JSON5.parse(after);
    assert.deepEqual(data.agents.defaults.memorySearch.extraPaths, ['~/notes', '~/journal']);
    assert.equal(data.memory, undefined, 'the memory key it created is gone');
    assert.equal(data.plugins.entries, undefined);
    assert.deepEqual(data.plugins.allow, ['voice-call']);
    assert.ok(
      (await readdir(s.stateDir)).some((n) => n.startsWith('openclaw.json.oc-memory-uninstall-backup-')),
      'the edited file was backed up before',
    );
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw against OpenClaw 2026.9: only memory.search, the plugin placed first, a temporary copy validated before the real file changes', async () => {
  const s = await setup();
  try {
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.9.6' });
    const env = { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` };
    await writeFile(s.configPath, ORIGINAL_2026_9);
    const printed = await runCli(['integrate', 'openclaw', '--print', '--home', s.home], { env });
    assert.equal(printed.code, 0, printed.stderr);
    assert.doesNotMatch(printed.stdout, /memorySearch/, '--print shows no key 2026.9 rejects');
    assert.match(printed.stdout, /"extraPaths"/);

    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const data = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.deepEqual(data.memory.search.extraPaths, ['~/notes', ...mainOnly([join(s.home, 'memory'), join(s.home, 'reflections')])]);
    assert.equal(data.agents.defaults.memorySearch, undefined, 'no agents.defaults.memorySearch: 2026.9 rejects it');
    assert.deepEqual(data.plugins.entries['oc-memory'].hooks, { allowConversationAccess: true });
    for (const c of COMMENTS)
      assert.ok((await readFile(s.configPath, 'utf8')).includes(c), `comment kept although OpenClaw's installer ran: ${c}`);
    const calls = await fake.calls();
    const install = calls.find((c) => c.args[0] === 'plugins' && c.args[1] === 'install');
    assert.ok(install, 'the plugin is installed through OpenClaw');
    assert.notEqual(install.configPath, '', "OpenClaw's installer rewrites a copy, not the user's file");
    for (const c of calls) assert.equal(c.realConfig, ORIGINAL_2026_9, `the real file is untouched during openclaw ${c.args.join(' ')}`);
    const validations = calls.filter((c) => c.args[0] === 'config' && c.args[1] === 'validate');
    assert.ok(validations.length >= 1);
    for (const v of validations) {
      assert.notEqual(v.configPath, '', 'OPENCLAW_CONFIG_PATH set');
      assert.notEqual(v.configPath, s.configPath, 'a temporary copy is validated, not the real file');
      assert.equal(v.pluginPresent, true, 'the plugin is in place before the check');
    }
    assert.match(r.stdout, /OpenClaw 2026\.9\.6/);
    assert.match(r.stdout, /OpenClaw itself checked the result/);
    assert.deepEqual(
      (await readdir(s.stateDir)).filter((n) => n.includes('oc-memory-check')),
      [],
      "no temporary copy left, nor the .bak OpenClaw's installer made of it",
    );

    // --uninstall: the reverse, through OpenClaw too (it forgets its install record), on a copy; the user's file comes back byte for byte.
    const integrated = await readFile(s.configPath, 'utf8');
    const un = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env });
    assert.equal(un.code, 0, un.stdout + un.stderr);
    assert.match(un.stdout, /Removed the OC-Memory plugin with `openclaw plugins uninstall`/);
    const uninstall = (await fake.calls()).find((c) => c.args[0] === 'plugins' && c.args[1] === 'uninstall');
    assert.ok(uninstall, 'the plugin is uninstalled through OpenClaw');
    assert.deepEqual(uninstall.args, ['plugins', 'uninstall', 'oc-memory', '--force']);
    assert.notEqual(uninstall.configPath, '', "OpenClaw's uninstaller rewrites a copy, not the user's file");
    assert.equal(uninstall.realConfig, integrated, 'the real file is untouched while OpenClaw uninstalls');
    assert.equal(uninstall.pluginPresent, true, 'OpenClaw is asked while the plugin is still there for it to find');
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL_2026_9, 'byte for byte');
    await assert.rejects(stat(join(s.stateDir, 'extensions', 'oc-memory')), 'plugin removed');
    await assert.rejects(stat(join(s.stateDir, '.fake-install-record')), "OpenClaw's install record removed");
    assert.deepEqual(
      (await readdir(s.stateDir)).filter((n) => n.includes('oc-memory-uninstall') || n.endsWith('.bak')),
      [],
      'no copy or OpenClaw backup of it left',
    );
  } finally {
    await s.cleanup();
  }
});

test("integrate openclaw against the 2026.2 file era: agents.defaults.memorySearch, no hooks key, and OpenClaw's install record kept", async () => {
  const s = await setup();
  try {
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.2.26' });
    const env = { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` };
    const printed = await runCli(['integrate', 'openclaw', '--print', '--home', s.home], { env });
    assert.doesNotMatch(printed.stdout, /"memory": \{/, '--print shows no key 2026.2 rejects');
    assert.doesNotMatch(printed.stdout, /allowConversationAccess/);

    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const text = await readFile(s.configPath, 'utf8');
    for (const c of COMMENTS) assert.ok(text.includes(c), `comment kept: ${c}`);
    const data = JSON5.parse(text);
    assert.equal(data.memory, undefined);
    assert.deepEqual(data.agents.defaults.memorySearch.extraPaths, ['~/notes', join(s.home, 'memory'), join(s.home, 'reflections')]);
    assert.equal(data.plugins.entries['oc-memory'].hooks, undefined);
    assert.equal(data.plugins.installs['oc-memory'].source, 'path', "OpenClaw's record of where the plugin came from stays");
    assert.match(r.stdout, /plugin installed by `openclaw plugins install`/);
    const loads = (await fake.calls()).filter((c) => c.args[0] === 'config' && c.args[1] === 'get');
    assert.ok(
      loads.length >= 1 && loads.every((c) => c.configPath !== s.configPath && c.configPath !== ''),
      'the copy is checked by loading it',
    );

    const un = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env });
    assert.equal(un.code, 0, un.stderr);
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL, 'uninstall gives back the original bytes');
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw: when OpenClaw rejects every shape, nothing changes — file byte for byte, no backup, no plugin — and no restart advice', async () => {
  const s = await setup();
  try {
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.9.6', rejectPluginEntry: true });
    const env = { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` };
    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /does not accept openclaw\.json with OC-Memory's settings, so nothing was changed/);
    assert.match(r.stderr, /must NOT have additional properties/);
    assert.doesNotMatch(r.stdout + r.stderr, /[Rr]estart/, 'no restart advice after a failure');
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL, 'put back exactly');
    assert.deepEqual(
      (await readdir(s.stateDir)).filter((n) => n.includes('oc-memory')),
      [],
      'no backup, no temporary copy left',
    );
    await assert.rejects(stat(join(s.stateDir, 'extensions', 'oc-memory')), 'the plugin placed for the check is gone again');
    for (const v of (await fake.calls()).filter((c) => c.args[1] === 'validate'))
      assert.equal(v.realConfig, ORIGINAL, 'the real file never held a rejected result');

    const setupRun = await runCli(['setup', '--yes', '--provider', 'heuristic', '--integrate-openclaw', '--home', join(s.dir, 'home2')], {
      env,
    });
    assert.equal(setupRun.code, 1, setupRun.stdout + setupRun.stderr);
    assert.match(setupRun.stdout, /The OpenClaw integration was not set up/);
    assert.doesNotMatch(setupRun.stdout, /restart the OpenClaw gateway/);
    assert.equal(await readFile(s.configPath, 'utf8'), ORIGINAL);
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

test("integrate openclaw with several OpenClaw agents: each agent's extraPaths reach only its own memory, never the shared root OpenClaw adds to every agent", async () => {
  const s = await setup();
  try {
    const mem = join(s.home, 'memory');
    const refl = join(s.home, 'reflections');
    // 2026.9: agents keyed by id; an earlier install had put the shared roots in memory.search (every agent saw memory/work/…).
    const fake9 = await writeFakeOpenClaw(s.dir, { version: '2026.9.6' });
    const env9 = { ...s.env, PATH: `${fake9.binDir}:${process.env.PATH}` };
    const era9 = `{\n  // mine\n  memory: { search: { extraPaths: ['~/notes', '${mem}', '${refl}'] } },\n  agents: { entries: { main: {}, work: { workspace: '/w' }, 'team x': {} } },\n}\n`;
    await writeFile(s.configPath, era9);
    const r9 = await runCli(['integrate', 'openclaw', '--home', s.home], { env: env9 });
    assert.equal(r9.code, 0, r9.stdout + r9.stderr);
    const data9 = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.deepEqual(
      data9.memory.search.extraPaths,
      ['~/notes'],
      "the shared roots are gone (OpenClaw adds memory.search's paths to every agent's); the user's own stays",
    );
    assert.deepEqual(
      data9.agents.entries.main.memory.search.extraPaths,
      [
        { path: mem, pattern: '*.md' },
        { path: refl, pattern: '*.md' },
      ],
      "main: only the files at the roots' top (its own), not the agents' sub-folders",
    );
    assert.deepEqual(data9.agents.entries.work.memory.search.extraPaths, [join(mem, 'work'), join(refl, 'work')]);
    assert.equal(data9.agents.entries.work.workspace, '/w');
    const teamX = data9.agents.entries['team x'].memory.search.extraPaths as string[];
    assert.match(
      teamX[0]!,
      new RegExp(`^${mem}/team_x~[0-9a-f]{8}$`),
      'an agent id that is not a safe folder name gets the folder OC-Memory writes it to (agentSlug)',
    );
    const again = await runCli(['integrate', 'openclaw', '--home', s.home], { env: env9 });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(JSON5.parse(await readFile(s.configPath, 'utf8')), data9, 'a second run changes nothing');
    const printed = await runCli(['integrate', 'openclaw', '--print', '--home', s.home], { env: env9 });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /"work": \{\s*"memory": \{\s*"search": \{\s*"extraPaths"/, '--print shows the per-agent keys');
    await writeFile(s.configPath, `${await readFile(s.configPath, 'utf8')}\n// edited by the user\n`);
    const un9 = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env: env9 });
    assert.equal(un9.code, 0, un9.stdout + un9.stderr);
    const after9 = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.deepEqual(after9.memory.search.extraPaths, ['~/notes']);
    for (const id of ['main', 'work', 'team x'])
      assert.equal(after9.agents.entries[id].memory, undefined, `uninstall takes ${id}'s paths (and the keys it added) out again`);
    assert.equal(after9.agents.entries.work.workspace, '/w');

    // 2026.2: agents listed; its extraPaths are plain strings walked recursively (no patterns), so main gets no root at all.
    const fake2 = await writeFakeOpenClaw(s.dir, { version: '2026.2.26' });
    const env2 = { ...s.env, PATH: `${fake2.binDir}:${process.env.PATH}` };
    await writeFile(s.configPath, `{\n  agents: { list: [{ id: 'main', 'default': true }, { id: 'work' }] },\n}\n`);
    const r2 = await runCli(['integrate', 'openclaw', '--home', s.home], { env: env2 });
    assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    const data2 = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.equal(data2.agents.defaults?.memorySearch, undefined, 'no shared memorySearch.extraPaths: every agent would see every folder');
    assert.equal(data2.agents.list[0].memorySearch, undefined, 'main: nothing (2026.2 cannot leave out the sub-folders of a root)');
    assert.deepEqual(data2.agents.list[1].memorySearch.extraPaths, [join(mem, 'work'), join(refl, 'work')]);
    assert.equal(data2.memory, undefined);
  } finally {
    await s.cleanup();
  }
});

test("integrate openclaw with only agent main on 2026.9: the shared extraPaths hold main's own files, not the folders other agents (Claude Code, Codex, pi) write into the same home", async () => {
  const s = await setup();
  try {
    const mem = join(s.home, 'memory');
    const refl = join(s.home, 'reflections');
    const fake = await writeFakeOpenClaw(s.dir, { version: '2026.9.6' });
    const env = { ...s.env, PATH: `${fake.binDir}:${process.env.PATH}` };
    // An earlier install had put the bare roots there: OpenClaw walks them recursively, memory/claude-code/… included.
    const before = `{\n  // mine\n  memory: { search: { extraPaths: ['~/notes', '${mem}', '${refl}'] } },\n}\n`;
    await writeFile(s.configPath, before);
    const r = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`removed ${mem} from memory\\.search\\.extraPaths`));
    const data = JSON5.parse(await readFile(s.configPath, 'utf8'));
    assert.deepEqual(data.memory.search.extraPaths, ['~/notes', { path: mem, pattern: '*.md' }, { path: refl, pattern: '*.md' }]);
    assert.equal(data.agents, undefined, 'no agents key is made up');
    const again = await runCli(['integrate', 'openclaw', '--home', s.home], { env });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(JSON5.parse(await readFile(s.configPath, 'utf8')), data, 'a second run changes nothing');
    const doctor = await runCli(['doctor', '--json', '--home', s.home], { env });
    assert.match(doctor.stdout, /memory\.search\.extraPaths ✓/, `doctor knows the entries as ours: ${doctor.stdout.slice(0, 2000)}`);
    const printed = await runCli(['integrate', 'openclaw', '--print', '--home', s.home], { env });
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(
      JSON5.parse(printed.stdout.slice(printed.stdout.indexOf('\n{'), printed.stdout.indexOf('\n}\n') + 2)).memory.search.extraPaths,
      [
        { path: mem, pattern: '*.md' },
        { path: refl, pattern: '*.md' },
      ],
    );
    await writeFile(s.configPath, `${await readFile(s.configPath, 'utf8')}// edited by the user\n`);
    const un = await runCli(['integrate', 'openclaw', '--uninstall', '--home', s.home], { env });
    assert.equal(un.code, 0, un.stdout + un.stderr);
    assert.deepEqual(
      JSON5.parse(await readFile(s.configPath, 'utf8')).memory.search.extraPaths,
      ['~/notes'],
      'uninstall takes the pattern entries out again',
    );
  } finally {
    await s.cleanup();
  }
});

test("integrate openclaw status: each agent, whether OpenClaw's tool policy offers it the memory tools and, when not, the key to change — and status changes nothing", async () => {
  const s = await setup();
  try {
    await writeFile(
      s.configPath,
      `{\n  meta: { lastTouchedVersion: "2026.9.6" },\n  agents: { entries: { main: {}, work: { tools: { allow: ` +
        `["read"] } }, ops: { tools: { profile: "minimal" } } } },\n}\n`,
    );
    assert.equal((await runCli(['integrate', 'openclaw', '--home', s.home], { env: s.env })).code, 0);
    const integrated = await readFile(s.configPath, 'utf8');
    const human = await runCli(['integrate', 'openclaw', 'status', '--home', s.home], { env: s.env });
    assert.equal(human.code, 0, human.stderr);
    assert.equal(await readFile(s.configPath, 'utf8'), integrated, 'status only reads');
    assert.match(human.stdout, /✅ plugin entry plugins\.entries\.oc-memory/);
    assert.match(human.stdout, /✅ memory folders in memory\.search\.extraPaths \(/);
    assert.doesNotMatch(human.stdout, /❌/, 'nothing missing: 2026.9 takes memory.search alone');
    assert.match(human.stdout, /✅ agent main: offered the memory tools/);
    assert.match(
      human.stdout,
      /⚠️ {2}agent work: the tool policy hides the memory tools — add "oc-memory" to agents\.entries\.work\.tools\.allow/,
    );
    assert.match(
      human.stdout,
      /⚠️ {2}agent ops: the tool policy hides the memory tools — add "oc-memory" to agents\.entries\.ops\.tools\.alsoAllow \(the "minimal" tool profile/,
    );
    const json = await runCli(['integrate', 'openclaw', 'status', '--json', '--home', s.home], { env: s.env });
    assert.equal(json.code, 0, json.stderr);
    const st = JSON.parse(json.stdout) as {
      pluginEntry: boolean;
      toolPolicy: Array<{ agent: string; offered: boolean; advice: Array<{ key: string; action: string; entry: string }> }>;
    };
    assert.equal(st.pluginEntry, true);
    assert.deepEqual(
      st.toolPolicy.map((a) => ({ agent: a.agent, offered: a.offered, advice: a.advice.map((x) => `${x.action} ${x.entry} ${x.key}`) })),
      [
        { agent: 'main', offered: true, advice: [] },
        { agent: 'work', offered: false, advice: ['add oc-memory agents.entries.work.tools.allow'] },
        { agent: 'ops', offered: false, advice: ['add oc-memory agents.entries.ops.tools.alsoAllow'] },
      ],
    );

    // The global minimal profile and no agents: main (OpenClaw's default agent) needs tools.alsoAllow.
    const data = JSON5.parse(integrated) as Record<string, unknown>;
    delete data.agents;
    await writeFile(s.configPath, JSON.stringify({ ...data, tools: { profile: 'minimal' } }, null, 2));
    const minimal = JSON.parse(
      (await runCli(['integrate', 'openclaw', 'status', '--json', '--home', s.home], { env: s.env })).stdout,
    ) as typeof st;
    assert.deepEqual(
      minimal.toolPolicy.map((a) => [a.agent, a.offered, a.advice.map((x) => x.key)]),
      [['main', false, ['tools.alsoAllow']]],
    );
    // With the plugin let in, offered, and no advice line.
    await writeFile(s.configPath, JSON.stringify({ ...data, tools: { profile: 'minimal', alsoAllow: ['oc-memory'] } }, null, 2));
    const fixed = await runCli(['integrate', 'openclaw', 'status', '--home', s.home], { env: s.env });
    assert.match(fixed.stdout, /✅ agent main: offered the memory tools/);
    assert.doesNotMatch(fixed.stdout, /hides/);

    const unknown = await runCli(['integrate', 'openclaw', 'stauts', '--home', s.home], { env: s.env });
    assert.equal(unknown.code, 1, 'an unknown action is refused, not taken for an install');
    assert.match(unknown.stderr, /Unknown action "stauts"/);
  } finally {
    await s.cleanup();
  }
});

test('integrate openclaw with $OPENCLAW_HOME: the openclaw.json and extensions OpenClaw uses there are the ones changed, never ~/.openclaw', async () => {
  const t = await tempDir('ocm-integrate-');
  try {
    const userHome = join(t.dir, 'user');
    const openClawHome = join(t.dir, 'oc-home');
    const stateDir = join(openClawHome, '.openclaw');
    await mkdir(stateDir, { recursive: true });
    await mkdir(userHome);
    const configPath = join(stateDir, 'openclaw.json');
    await writeFile(configPath, ORIGINAL, { mode: 0o640 });
    const home = join(t.dir, 'home');
    const env = { HOME: userHome, OPENCLAW_HOME: openClawHome, PATH: `${join(t.dir, 'bin')}:${process.env.PATH}` };
    const r = await runCli(['integrate', 'openclaw', '--home', home], { env });
    assert.equal(r.code, 0, r.stderr);
    const data = JSON5.parse(await readFile(configPath, 'utf8'));
    assert.equal(data.plugins.entries['oc-memory'].config.home, home, "OpenClaw's own openclaw.json names the home");
    assert.deepEqual((await readdir(join(stateDir, 'extensions', 'oc-memory'))).sort(), [
      'index.js',
      'openclaw.plugin.json',
      'package.json',
    ]);
    assert.deepEqual(await readdir(userHome), [], 'nothing written to ~/.openclaw');
    const status = await runCli(['integrate', 'openclaw', 'status', '--home', home], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.ok(status.stdout.includes(configPath), `status names the file OpenClaw reads:\n${status.stdout}`);
  } finally {
    await t.cleanup();
  }
});
