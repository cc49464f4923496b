/**
 * The source descriptors (lib/sources/descriptors.ts) are the one list of
 * transcript sources — OpenClaw's two eras, the other agents' session folders
 * and generic logs: this fails when a source lacks one of its parts — its
 * config section and defaults, its place in templates/config.yaml and
 * docs/sources.md — or when a part (jobs, discovery, watch, setup) does not
 * follow the list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfigText, validateConfig } from '../../lib/config/config.js';
import { AGENT_SOURCES, SOURCE_DESCRIPTORS, SOURCES } from '../../lib/sources/descriptors.js';
import { createSources, sourceDir } from '../../lib/sources/registry.js';
import { discoverSources } from '../../lib/sources/discovery.js';
import { watchTargetsFromConfig } from '../../lib/jobs/watch.js';
import { OPTIONAL_SOURCES, OPTIONAL_SOURCE_KEYS, OPTIONAL_SOURCE_LABELS, parseSources } from '../../lib/setup/answers.js';
import { agentDbPath, createAgentDb } from '../helpers/openclaw-db.js';
import { tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Every source on: OpenClaw's eras are on by default, the others are turned on, with one generic log. */
const allOn = () =>
  validateConfig({
    sources: {
      ...Object.fromEntries(AGENT_SOURCES.map((d) => [d.configKey, { enabled: true }])),
      generic: [{ name: 'irc', path: '/logs/irc/*.jsonl' }],
    },
  });
const defaults = () => validateConfig({}).sources as unknown as Record<string, unknown>;

test('one descriptor per kind, and the lists hold each once', () => {
  assert.deepEqual(
    SOURCES.map((d) => d.kind),
    Object.keys(SOURCE_DESCRIPTORS),
  );
  assert.deepEqual(
    SOURCES.map((d) => d.kind),
    ['openclaw', 'openclaw-db', 'pi', 'claude-code', 'codex', 'generic'],
  );
  assert.equal(new Set(SOURCES.map((d) => d.configKey)).size, SOURCES.length);
  assert.equal(new Set(SOURCES.map((d) => d.label)).size, SOURCES.length);
  for (const [kind, d] of Object.entries(SOURCE_DESCRIPTORS)) assert.equal(d.kind, kind);
  for (const d of AGENT_SOURCES)
    assert.equal(
      SOURCES.find((s) => s.kind === d.kind),
      d,
    );
});

test('config schema: a section per descriptor with its defaults, and no section without one', () => {
  const sources = defaults();
  assert.deepEqual(Object.keys(sources).sort(), SOURCES.map((d) => d.configKey).sort());
  for (const d of AGENT_SOURCES) assert.deepEqual(sources[d.configKey], { enabled: false, dir: d.dirDefault, ...d.settings }, d.kind);
  // On by default: OpenClaw's two eras; opt-in: everything else (a generic log is on once listed).
  assert.deepEqual(
    SOURCES.filter((d) => d.enabled(validateConfig({}))).map((d) => d.kind),
    ['openclaw', 'openclaw-db'],
  );
  assert.deepEqual(
    SOURCES.filter((d) => d.enabled(allOn())).map((d) => d.kind),
    SOURCES.map((d) => d.kind),
  );
});

test('templates/config.yaml documents every descriptor with the schema defaults', async () => {
  const template = parseConfigText(await readFile(join(ROOT, 'templates', 'config.yaml'), 'utf8'), 'templates/config.yaml') as {
    sources: Record<string, unknown>;
  };
  const sources = defaults();
  for (const d of SOURCES) {
    const expected = d.configKey === 'openclaw' ? { ...(sources.openclaw as object), state_dirs: [], agents: [] } : sources[d.configKey];
    assert.deepEqual(template.sources[d.configKey], expected, `templates/config.yaml sources.${d.configKey}`);
  }
  assert.deepEqual(Object.keys(template.sources).sort(), SOURCES.map((d) => d.configKey).sort());
});

test('docs/sources.md names every descriptor in its table of sources', async () => {
  const doc = await readFile(join(ROOT, 'docs', 'sources.md'), 'utf8');
  for (const d of SOURCES)
    assert.match(
      doc,
      new RegExp(`^\\| ${d.label.replace(/[/()]/g, '\\$&')} \\| \`sources\\.${d.configKey}(\\[\\])?\` `, 'm'),
      `docs/sources.md table row for ${d.kind}`,
    );
});

test('jobs read every enabled descriptor, in the list order, each with its own reader', async () => {
  const kinds = (await createSources({ config: allOn(), env: {}, home: '/home/u' })).map((s) => s.kind);
  assert.deepEqual(
    kinds,
    SOURCES.map((d) => d.kind),
  );
  for (const d of AGENT_SOURCES) {
    const only = validateConfig({ sources: { openclaw: { enabled: false }, [d.configKey]: { enabled: true } } });
    assert.deepEqual(
      (await createSources({ config: only, env: {}, home: '/home/u' })).map((s) => s.kind),
      [d.kind],
    );
  }
  const genericOnly = validateConfig({
    sources: {
      openclaw: { enabled: false },
      generic: [
        { name: 'a', path: '/a/*.jsonl' },
        { name: 'b', path: '/b/*.jsonl' },
        { name: 'c', path: '/c/*.jsonl', enabled: false },
      ],
    },
  });
  assert.deepEqual(
    (await createSources({ config: genericOnly, env: {}, home: '/home/u' })).map((s) => s.kind),
    ['generic', 'generic'],
    'one reader per enabled log',
  );
});

test('`sources` reports every descriptor, found or not, with its config key and agent', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    // OpenClaw is reported per agent: one agent with a file-era session and a database.
    const stateDir = join(dir, 'openclaw');
    createAgentDb(agentDbPath(stateDir, 'main')).close();
    await mkdir(join(stateDir, 'agents', 'main', 'sessions'), { recursive: true });
    await writeFile(
      join(stateDir, 'agents', 'main', 'sessions', 's1.jsonl'),
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n',
    );
    const reports = await discoverSources({
      config: allOn(),
      env: { OPENCLAW_STATE_DIR: stateDir },
      statePath: join(dir, 'state.json'),
      home: dir,
    });
    for (const d of SOURCES) {
      const r = reports.find((x) => x.kind === d.kind);
      assert.ok(r, `a report for ${d.kind}`);
      assert.equal(r.configKey, d.configKey === 'generic' ? 'sources.generic.0.enabled' : `sources.${d.configKey}.enabled`, d.kind);
      assert.equal(r.enabled, true, d.kind);
    }
    for (const kind of ['openclaw', 'openclaw-db']) {
      assert.equal(reports.find((x) => x.kind === kind)!.found, true, kind);
      assert.deepEqual(reports.find((x) => x.kind === kind)!.agents, ['main'], kind);
    }
    for (const d of AGENT_SOURCES) {
      const r = reports.find((x) => x.kind === d.kind)!;
      assert.equal(r.found, false);
      assert.deepEqual(r.agents, [d.agent(allOn())]);
    }
  } finally {
    await cleanup();
  }
});

test("watch follows every enabled descriptor where its reader reads, also when the agent's environment moves the folder", async () => {
  const env = {
    CLAUDE_CONFIG_DIR: '/cfg/claude',
    CODEX_HOME: '/cfg/codex',
    PI_CODING_AGENT_DIR: '/cfg/pi',
    OPENCLAW_STATE_DIR: '/cfg/openclaw',
  };
  const targets = await watchTargetsFromConfig(allOn(), env, '/home/ada');
  const folders = await Promise.all(
    AGENT_SOURCES.map(async (d) => ({
      dir: await sourceDir(d.configKey, allOn(), env, '/home/ada'),
      depth: d.watchDepth,
      source: d.configKey,
    })),
  );
  // Both OpenClaw eras live under the state dir's agents/ folder: one watcher.
  assert.deepEqual(targets, [
    { dir: join('/cfg/openclaw', 'agents'), depth: 3, source: 'openclaw' },
    ...folders,
    { dir: '/logs/irc', depth: 8, source: 'generic:irc' },
  ]);
  // The agents' own variables decide the default folders (the readers' folders; watch once followed only config).
  assert.deepEqual(
    folders.map((t) => t.dir),
    [join('/cfg/pi', 'sessions'), join('/cfg/claude', 'projects'), join('/cfg/codex', 'sessions')],
  );
  // The database era alone still has its folder followed; nothing on: nothing watched.
  const dbOnly = validateConfig({ sources: { openclaw: { enabled: false } } });
  assert.deepEqual(await watchTargetsFromConfig(dbOnly, env, '/home/ada'), [
    { dir: join('/cfg/openclaw', 'agents'), depth: 3, source: 'openclaw' },
  ]);
  const none = validateConfig({ sources: { openclaw: { enabled: false }, openclaw_db: { enabled: false } } });
  assert.deepEqual(await watchTargetsFromConfig(none, env, '/home/ada'), []);
});

test('setup offers every session-folder descriptor, by kind or config key', () => {
  assert.deepEqual(
    OPTIONAL_SOURCES,
    AGENT_SOURCES.map((d) => d.kind),
  );
  for (const d of AGENT_SOURCES) {
    assert.equal(OPTIONAL_SOURCE_KEYS[d.kind], d.configKey);
    assert.equal(OPTIONAL_SOURCE_LABELS[d.kind], d.label);
    assert.deepEqual(parseSources(d.kind), [d.kind]);
    assert.deepEqual(parseSources(d.configKey), [d.kind]);
  }
});
