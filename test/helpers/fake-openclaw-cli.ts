/**
 * A stand-in `openclaw` command for fast tests of `integrate openclaw`: it
 * answers the few commands OC-Memory runs the way the real releases were
 * seen to answer them (OpenClaw 2026.9.6 and 2026.2.26 from npm; the real
 * releases are exercised by openclaw-e2e.test.ts), and logs every call with
 * what the real openclaw.json held at that moment.
 *
 * - 2026.9: `config validate --json` rejects `agents.defaults.memorySearch`
 *   ("Unrecognized key"); `plugins install <dir> --force
 *   --accept-capabilities` refuses a TypeScript-only package and rewrites
 *   the config it loads (OPENCLAW_CONFIG_PATH) as plain JSON with
 *   `plugins.entries.<id>.enabled`.
 * - 2026.2: no `config validate` ("too many arguments for 'config'"); every
 *   command that loads the config rejects `memory.search` and
 *   `plugins.entries.<id>.hooks`; `plugins install` knows neither flag and
 *   records `plugins.installs.<id>` in openclaw.json.
 * - `plugins inspect <id> --json` (2026.9; `plugins info` on 2026.2) reports
 *   the plugin loaded, trusted with `trust.installSource: "path"` when it
 *   was installed through `plugins install`, `trust.reason:
 *   "record-missing"` when it was only copied.
 * - `plugins uninstall <id> --force` removes the extensions folder and the
 *   install record, and rewrites the config it loads (2026.9 leaves
 *   `plugins.entries.<id>` as `{enabled: false}`, 2026.2 drops the entry and
 *   `plugins.installs.<id>`). Like the real installer and uninstaller, both
 *   leave `<config>.bak` beside the config they rewrote.
 * - `rejectPluginEntry`: a build that rejects our plugin entry whatever its
 *   shape (to prove the roll-back).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export interface FakeOpenClaw {
  binDir: string;
  logFile: string;
  calls(): Promise<FakeCall[]>;
}

export interface FakeCall {
  args: string[];
  /** OPENCLAW_CONFIG_PATH of the call ('' when unset). */
  configPath: string;
  /** The real openclaw.json (in OPENCLAW_STATE_DIR) when the call ran. */
  realConfig: string | null;
  /** Our plugin's manifest was in the extensions folder when the call ran. */
  pluginPresent: boolean;
}

const JSON5_MODULE = resolve(import.meta.dirname, '..', '..', 'node_modules', 'json5', 'lib', 'index.js');

export async function writeFakeOpenClaw(
  dir: string,
  options: { version: '2026.9.6' | '2026.2.26'; rejectPluginEntry?: boolean },
): Promise<FakeOpenClaw> {
  const binDir = join(dir, 'fake-openclaw-bin');
  const logFile = join(dir, 'fake-openclaw-calls.jsonl');
  await mkdir(binDir, { recursive: true });
  const script = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const JSON5 = require(${JSON.stringify(JSON5_MODULE)});
const VERSION = ${JSON.stringify(options.version)};
const FILE_ERA = VERSION.startsWith('2026.2.');
const REJECT_ENTRY = ${options.rejectPluginEntry ? 'true' : 'false'};
const args = process.argv.slice(2);
const state = process.env.OPENCLAW_STATE_DIR || path.join(process.env.HOME || '/', '.openclaw');
const real = path.join(state, 'openclaw.json');
const configPath = process.env.OPENCLAW_CONFIG_PATH || real;
const read = (f) => { try { return fs.readFileSync(f, 'utf8'); } catch { return null; } };
fs.appendFileSync(${JSON.stringify(logFile)}, JSON.stringify({ args, configPath: process.env.OPENCLAW_CONFIG_PATH || '', realConfig: read(real), pluginPresent: fs.existsSync(path.join(state, 'extensions', 'oc-memory', 'openclaw.plugin.json')) }) + '\\n');
const out = (t) => process.stdout.write(t + '\\n');
const fail = (t, code = 1) => { process.stderr.write(t + '\\n'); process.exit(code); };
function problems(data) {
  const issues = [];
  const ms = data.agents && data.agents.defaults && data.agents.defaults.memorySearch;
  if (!FILE_ERA && ms !== undefined) issues.push({ path: 'agents.defaults', message: 'Unrecognized key: "memorySearch"' });
  if (FILE_ERA && data.memory && data.memory.search !== undefined) issues.push({ path: 'memory', message: 'Unrecognized key: "search"' });
  const entry = data.plugins && data.plugins.entries && data.plugins.entries['oc-memory'];
  if (entry && FILE_ERA && entry.hooks !== undefined) issues.push({ path: 'plugins.entries.oc-memory', message: 'Unrecognized key: "hooks"' });
  if (entry && REJECT_ENTRY) issues.push({ path: 'plugins.entries.oc-memory.config', message: 'invalid config: must NOT have additional properties' });
  if (entry && entry.config && !fs.existsSync(path.join(state, 'extensions', 'oc-memory', 'openclaw.plugin.json'))) issues.push({ path: 'plugins.entries.oc-memory', message: 'plugin not found: oc-memory' });
  return issues;
}
function load() {
  const text = read(configPath);
  if (text === null) return { data: null, issues: [{ path: '', message: 'file not found' }] };
  const data = JSON5.parse(text);
  return { data, issues: problems(data) };
}
const [a, b, c] = args;
if (a === '--version') { out('OpenClaw ' + VERSION + ' (fake)'); process.exit(0); }
if (a === 'config' && b === 'validate') {
  if (FILE_ERA) fail("error: too many arguments for 'config'. Expected 0 arguments but got 1.");
  const { issues } = load();
  if (issues.length === 0) { out(JSON.stringify({ valid: true, path: configPath, warnings: [] })); process.exit(0); }
  out(JSON.stringify({ ok: false, valid: false, path: configPath, issues }, null, 2));
  process.exit(1);
}
if (a === 'config' && b === 'get') {
  const { data, issues } = load();
  if (issues.length > 0) fail('Invalid config at ' + configPath + ':\\\\n' + issues.map((i) => '- ' + i.path + ': ' + i.message).join('\\\\n') + '\\nConfig invalid\\nProblem:\\n' + issues.map((i) => '  - ' + i.path + ': ' + i.message).join('\\n'));
  const value = c.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), data);
  if (value === undefined) fail('Config path not found: ' + c);
  out(JSON.stringify(value, null, 2));
  process.exit(0);
}
if (a === 'plugins' && b === 'install') {
  const flags = args.slice(3);
  if (FILE_ERA && flags.length > 0) fail("error: unknown option '" + flags[0] + "'");
  const pkg = JSON.parse(read(path.join(c, 'package.json')));
  const entries = (pkg.openclaw && pkg.openclaw.extensions) || [];
  if (!FILE_ERA && entries.some((e) => e.endsWith('.ts')) && !entries.some((e) => fs.existsSync(path.join(c, e.replace(/\\.ts$/, '.js'))))) {
    fail('package install requires compiled runtime output for TypeScript entry ' + entries[0] + ': expected ./dist/index.js, ./index.js');
  }
  const target = path.join(state, 'extensions', 'oc-memory');
  fs.mkdirSync(target, { recursive: true });
  for (const name of fs.readdirSync(c)) if (fs.statSync(path.join(c, name)).isFile()) fs.copyFileSync(path.join(c, name), path.join(target, name));
  const data = JSON5.parse(read(configPath) || '{}');
  data.plugins = data.plugins || {};
  data.plugins.entries = data.plugins.entries || {};
  data.plugins.entries['oc-memory'] = Object.assign({}, data.plugins.entries['oc-memory'], { enabled: true });
  if (FILE_ERA) { data.plugins.installs = data.plugins.installs || {}; data.plugins.installs['oc-memory'] = { source: 'path', sourcePath: c, installPath: target, version: pkg.version }; }
  data.meta = { lastTouchedVersion: VERSION };
  fs.writeFileSync(configPath + '.bak', read(configPath) || '');
  fs.writeFileSync(configPath, JSON.stringify(data, null, 2) + '\\n');
  fs.writeFileSync(path.join(state, '.fake-install-record'), c);
  out('Installed plugin: oc-memory');
  process.exit(0);
}
if (a === 'plugins' && b === 'uninstall') {
  if (!args.includes('--force')) fail('uninstall requires an interactive TTY or --force');
  const dir = path.join(state, 'extensions', c);
  if (!fs.existsSync(path.join(dir, 'openclaw.plugin.json')) && !fs.existsSync(path.join(state, '.fake-install-record'))) fail('Plugin not found: ' + c);
  const data = JSON5.parse(read(configPath) || '{}');
  if (data.plugins && data.plugins.entries) { if (FILE_ERA) delete data.plugins.entries[c]; else data.plugins.entries[c] = { enabled: false }; }
  if (data.plugins && data.plugins.installs) delete data.plugins.installs[c];
  fs.writeFileSync(configPath + '.bak', read(configPath) || '');
  fs.writeFileSync(configPath, JSON.stringify(data, null, 2) + '\\n');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(path.join(state, '.fake-install-record'), { force: true });
  out('Uninstalled plugin "' + c + '". Removed: plugin settings, install record, directory.');
  process.exit(0);
}
if (a === 'plugins' && (b === 'inspect' || b === 'info')) {
  if (FILE_ERA && b === 'inspect') fail("error: unknown command 'inspect'");
  if (!FILE_ERA && b === 'info') fail("error: unknown command 'info'");
  const dir = path.join(state, 'extensions', c);
  if (!fs.existsSync(path.join(dir, 'openclaw.plugin.json'))) fail('Plugin not found: ' + c);
  const recorded = fs.existsSync(path.join(state, '.fake-install-record'));
  const plugin = { id: c, enabled: true, status: 'loaded', origin: 'global', rootDir: dir };
  if (!FILE_ERA) plugin.trust = recorded ? { reason: 'origin-path', origin: 'global', installSource: 'path' } : { reason: 'record-missing', origin: 'global' };
  out(JSON.stringify(FILE_ERA ? plugin : { plugin }, null, 2));
  process.exit(0);
}
fail('fake openclaw: unsupported command ' + args.join(' '), 64);
`;
  await writeFile(join(binDir, 'openclaw'), script);
  await chmod(join(binDir, 'openclaw'), 0o755);
  return {
    binDir,
    logFile,
    async calls() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as FakeCall);
    },
  };
}
