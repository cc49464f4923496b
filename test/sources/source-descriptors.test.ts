/**
 * The source descriptors (lib/sources/descriptors.ts) are the one list of
 * opt-in transcript sources: this fails when a source lacks one of its parts —
 * its config section and defaults, its place in templates/config.yaml and
 * docs/sources.md — or when a part (jobs, discovery, watch, setup) does not
 * follow the list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfigText, validateConfig } from '../../lib/config/config.js';
import { AGENT_SOURCES, SOURCE_DESCRIPTORS } from '../../lib/sources/descriptors.js';
import { createSources, sourceDir } from '../../lib/sources/registry.js';
import { discoverSources } from '../../lib/sources/discovery.js';
import { watchTargetsFromConfig } from '../../lib/jobs/watch.js';
import { OPTIONAL_SOURCES, OPTIONAL_SOURCE_KEYS, OPTIONAL_SOURCE_LABELS, parseSources } from '../../lib/setup/answers.js';
import { tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The sources that have shapes of their own, not descriptors. */
const OWN_SHAPE = ['openclaw', 'openclaw_db', 'generic'];
const allOn = () => validateConfig({ sources: Object.fromEntries(AGENT_SOURCES.map((d) => [d.configKey, { enabled: true }])) });

test('one descriptor per kind, and the list holds each once', () => {
  assert.deepEqual(AGENT_SOURCES.map((d) => d.kind).sort(), Object.keys(SOURCE_DESCRIPTORS).sort());
  assert.equal(new Set(AGENT_SOURCES.map((d) => d.configKey)).size, AGENT_SOURCES.length);
  for (const [kind, d] of Object.entries(SOURCE_DESCRIPTORS)) assert.equal(d.kind, kind);
});

test('config schema: a section per descriptor with its defaults, and no opt-in section without one', () => {
  const sources = validateConfig({}).sources as unknown as Record<string, unknown>;
  for (const d of AGENT_SOURCES) assert.deepEqual(sources[d.configKey], { enabled: false, dir: d.dirDefault, ...d.settings }, d.kind);
  assert.deepEqual(Object.keys(sources).filter((k) => !OWN_SHAPE.includes(k)).sort(), AGENT_SOURCES.map((d) => d.configKey).sort());
});

test('templates/config.yaml documents every descriptor with the schema defaults', async () => {
  const template = parseConfigText(await readFile(join(ROOT, 'templates', 'config.yaml'), 'utf8'), 'templates/config.yaml') as { sources: Record<string, Record<string, unknown>> };
  for (const d of AGENT_SOURCES) {
    assert.deepEqual(template.sources[d.configKey], { enabled: false, dir: d.dirDefault, ...d.settings }, `templates/config.yaml sources.${d.configKey}`);
  }
  assert.deepEqual(Object.keys(template.sources).filter((k) => !OWN_SHAPE.includes(k)).sort(), AGENT_SOURCES.map((d) => d.configKey).sort());
});

test('docs/sources.md names every descriptor in its table of sources', async () => {
  const doc = await readFile(join(ROOT, 'docs', 'sources.md'), 'utf8');
  for (const d of AGENT_SOURCES) assert.match(doc, new RegExp(`^\\| ${d.label} \\| \`sources\\.${d.configKey}\` \\|`, 'm'), `docs/sources.md table row for ${d.kind}`);
});

test('jobs read every enabled descriptor, in the list order, each with its own reader', async () => {
  const kinds = (await createSources({ config: allOn(), env: {}, home: '/home/u' })).map((s) => s.kind);
  assert.deepEqual(kinds, ['openclaw', 'openclaw-db', ...AGENT_SOURCES.map((d) => d.kind)]);
  for (const d of AGENT_SOURCES) {
    const only = validateConfig({ sources: { openclaw: { enabled: false }, [d.configKey]: { enabled: true } } });
    assert.deepEqual((await createSources({ config: only, env: {}, home: '/home/u' })).map((s) => s.kind), [d.kind]);
  }
});

test('`sources` reports every descriptor, found or not, with its config key and agent', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const reports = await discoverSources({ config: allOn(), env: { OPENCLAW_STATE_DIR: join(dir, 'none') }, statePath: join(dir, 'state.json'), home: dir });
    for (const d of AGENT_SOURCES) {
      const r = reports.find((x) => x.kind === d.kind);
      assert.ok(r, `a report for ${d.kind}`);
      assert.equal(r.configKey, `sources.${d.configKey}.enabled`);
      assert.equal(r.enabled, true);
      assert.equal(r.found, false);
      assert.deepEqual(r.agents, [d.agent(allOn())]);
    }
  } finally {
    await cleanup();
  }
});

test('watch follows every enabled descriptor where its reader reads, also when the agent\'s environment moves the folder', async () => {
  const config = validateConfig({ sources: { openclaw: { enabled: false }, openclaw_db: { enabled: false }, ...Object.fromEntries(AGENT_SOURCES.map((d) => [d.configKey, { enabled: true }])) } });
  const env = { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', PI_CODING_AGENT_DIR: '/cfg/pi' };
  const targets = await watchTargetsFromConfig(config, env, '/home/ada');
  const expected = await Promise.all(AGENT_SOURCES.map(async (d) => ({ dir: await sourceDir(d.configKey, config, env, '/home/ada'), depth: d.watchDepth, source: d.configKey })));
  assert.deepEqual(targets, expected);
  // The agents' own variables decide the default folders (the readers' folders; watch once followed only config).
  assert.deepEqual(targets.map((t) => t.dir), [join('/cfg/pi', 'sessions'), join('/cfg/claude', 'projects'), join('/cfg/codex', 'sessions')]);
});

test('setup offers every descriptor, by kind or config key', () => {
  assert.deepEqual(OPTIONAL_SOURCES, AGENT_SOURCES.map((d) => d.kind));
  for (const d of AGENT_SOURCES) {
    assert.equal(OPTIONAL_SOURCE_KEYS[d.kind], d.configKey);
    assert.equal(OPTIONAL_SOURCE_LABELS[d.kind], d.label);
    assert.deepEqual(parseSources(d.kind), [d.kind]);
    assert.deepEqual(parseSources(d.configKey), [d.kind]);
  }
});
