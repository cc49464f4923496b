/**
 * `integrate openclaw`: make OpenClaw use OC-Memory without changing its
 * code (DESIGN §6).
 *
 * 1. openclaw.json (JSON5) gets our memory folders in `memory.search.extraPaths`
 *    and in the older `agents.defaults.memorySearch.extraPaths`, and an entry
 *    for our plugin. The file is edited through a concrete syntax tree
 *    (@croct/json5-parser) so the user's comments, unquoted keys, quotes and
 *    trailing commas stay as they were; it is backed up first.
 * 2. The plugin — its manifests from templates/openclaw-plugin/ and its
 *    JavaScript compiled by `npm run build` into dist/templates/openclaw-plugin/
 *    (OpenClaw refuses to install a package whose entry is TypeScript only) —
 *    is copied to <state dir>/extensions/oc-memory/.
 *
 * `--uninstall` reverses both: when openclaw.json is still exactly what we
 * wrote, the backup is restored byte for byte; when the user edited it since,
 * only what we added is taken out.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { JsonArrayNode, JsonObjectNode, JsonParser } from '@croct/json5-parser';
import { writeFileAtomic } from './atomic-file.js';
import { ConfigError, OcmError, fromSystemError } from './errors.js';
import { exists, type HomePaths } from './home.js';
import { openClawConfigPath } from './openclaw-config.js';
import { packagePath } from './package-root.js';

/** A value the CST accepts (plain JSON). */
type JsonValue = Parameters<JsonObjectNode['set']>[1];

export const PLUGIN_ID = 'oc-memory';
export const PLUGIN_FILES = ['openclaw.plugin.json', 'package.json', 'index.js'] as const;

/**
 * Where each file of the plugin package comes from: the manifests as written,
 * the entry as compiled (package.json's `openclaw.extensions` names index.js).
 */
export function pluginSourcePath(name: (typeof PLUGIN_FILES)[number]): string {
  return name.endsWith('.js') ? packagePath('dist', 'templates', 'openclaw-plugin', name) : packagePath('templates', 'openclaw-plugin', name);
}

/** Which extra-paths key(s) to write: the current one, the older one, or both (default). */
export type PathsKeys = 'both' | 'current' | 'legacy';
const CURRENT_KEY = ['memory', 'search', 'extraPaths'];
const LEGACY_KEY = ['agents', 'defaults', 'memorySearch', 'extraPaths'];

export interface OpenClawLocation {
  stateDir: string;
  configPath: string;
  pluginDir: string;
  stateDirExists: boolean;
  configExists: boolean;
}

/** Where OpenClaw keeps its config and extensions, as OpenClaw itself resolves them. */
export async function locateOpenClaw(env: Record<string, string | undefined>, userHome: string = homedir()): Promise<OpenClawLocation> {
  const configPath = openClawConfigPath(env, userHome);
  const stateDir = env.OPENCLAW_STATE_DIR || (env.OPENCLAW_CONFIG_PATH ? dirname(configPath) : join(userHome, '.openclaw'));
  return {
    stateDir,
    configPath,
    pluginDir: join(stateDir, 'extensions', PLUGIN_ID),
    stateDirExists: await exists(stateDir),
    configExists: await exists(configPath),
  };
}

/** The folders OpenClaw's memory search should index. */
export function memoryFolders(paths: HomePaths): string[] {
  return [paths.memory, paths.reflections];
}

export interface PluginSettings {
  home: string;
  node: string;
  cli: string;
}

export interface EditResult {
  text: string;
  /** Human descriptions of what changed. */
  changes: string[];
  /** Key paths this edit created (the top-most new key of each branch). */
  created: string[][];
  /** Our id was appended to an existing plugins.allow list. */
  allowAdded: boolean;
}

function parseConfigText(text: string, file: string): JsonObjectNode {
  try {
    return JsonParser.parse(text, JsonObjectNode);
  } catch (error) {
    throw new ConfigError(`${file} is not a JSON5 object OC-Memory can edit: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'Fix openclaw.json (OpenClaw’s own `openclaw doctor` helps), or add the settings by hand: `ocm-run integrate openclaw --print` shows them.',
      cause: error,
    });
  }
}

function describePath(path: string[]): string {
  return path.join('.');
}

/**
 * The object at `path`, creating missing levels. Returns the node and the
 * first key path it had to create (if any).
 */
function objectAt(root: JsonObjectNode, path: string[], file: string): { node: JsonObjectNode; created?: string[] } {
  let node = root;
  let created: string[] | undefined;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    if (!node.has(key)) {
      node.set(key, {});
      created ??= path.slice(0, i + 1);
    }
    const next = node.get(key);
    if (!(next instanceof JsonObjectNode)) {
      throw new ConfigError(`${file}: ${describePath(path.slice(0, i + 1))} is not an object, so OC-Memory cannot add its settings under it.`, {
        hint: 'Fix that key in openclaw.json, or add the settings by hand (`ocm-run integrate openclaw --print`).',
      });
    }
    node = next;
  }
  return { node, ...(created ? { created } : {}) };
}

/** Set `path` to `value`, creating missing parents in one nested literal (keeps the file's layout tidy). */
function setDeep(root: JsonObjectNode, path: string[], value: JsonValue, file: string): string[] | undefined {
  let node = root;
  let i = 0;
  for (; i < path.length - 1; i++) {
    const key = path[i]!;
    if (!node.has(key)) break;
    const next = node.get(key);
    if (!(next instanceof JsonObjectNode)) {
      throw new ConfigError(`${file}: ${describePath(path.slice(0, i + 1))} is not an object, so OC-Memory cannot add its settings under it.`, {
        hint: 'Fix that key in openclaw.json, or add the settings by hand (`ocm-run integrate openclaw --print`).',
      });
    }
    node = next;
  }
  let nested: JsonValue = value;
  for (let j = path.length - 1; j > i; j--) nested = { [path[j]!]: nested } as JsonValue;
  const existed = node.has(path[i]!);
  node.set(path[i]!, nested);
  return existed ? undefined : path.slice(0, i + 1);
}

function getAt(root: JsonObjectNode, path: string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (!(node instanceof JsonObjectNode) || !node.has(key)) return undefined;
    node = node.get(key);
  }
  return node;
}

function addFolders(root: JsonObjectNode, path: string[], folders: string[], file: string, result: EditResult): void {
  const current = getAt(root, path);
  if (current === undefined) {
    const created = setDeep(root, path, folders, file);
    if (created) result.created.push(created);
    result.changes.push(`added ${describePath(path)} = [${folders.join(', ')}]`);
    return;
  }
  if (!(current instanceof JsonArrayNode)) {
    throw new ConfigError(`${file}: ${describePath(path)} is not a list.`, { hint: 'Make it a list of folders, then run `ocm-run integrate openclaw` again.' });
  }
  const have = new Set(current.toJSON().map((v) => String(v)));
  const missing = folders.filter((f) => !have.has(f));
  if (missing.length > 0) {
    current.push(...missing);
    result.changes.push(`added ${missing.join(', ')} to ${describePath(path)}`);
  }
}

/** Add our folders and plugin entry to openclaw.json text. Idempotent. */
export function applyIntegration(text: string, options: { folders: string[]; plugin: PluginSettings; keys?: PathsKeys; file?: string }): EditResult {
  const file = options.file ?? 'openclaw.json';
  const root = parseConfigText(text, file);
  const result: EditResult = { text, changes: [], created: [], allowAdded: false };
  const keys = options.keys ?? 'both';
  if (keys !== 'legacy') addFolders(root, CURRENT_KEY, options.folders, file, result);
  if (keys !== 'current') addFolders(root, LEGACY_KEY, options.folders, file, result);

  const entry: JsonValue = { enabled: true, hooks: { allowConversationAccess: true }, config: { ...options.plugin } };
  const entryPath = ['plugins', 'entries', PLUGIN_ID];
  const before = getAt(root, entryPath);
  if (!(before instanceof JsonObjectNode) || JSON.stringify(before.toJSON()) !== JSON.stringify(entry)) {
    if (before === undefined) {
      const created = setDeep(root, entryPath, entry, file);
      if (created) result.created.push(created);
    } else objectAt(root, ['plugins', 'entries'], file).node.set(PLUGIN_ID, entry);
    result.changes.push(`${before === undefined ? 'added' : 'updated'} plugins.entries.${PLUGIN_ID}`);
  }
  const allow = getAt(root, ['plugins', 'allow']);
  if (allow instanceof JsonArrayNode && !allow.toJSON().includes(PLUGIN_ID)) {
    allow.push(PLUGIN_ID);
    result.allowAdded = true;
    result.changes.push(`added ${PLUGIN_ID} to plugins.allow`);
  }
  result.text = result.changes.length > 0 ? root.toString() : text;
  return result;
}

function isEmptyShell(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value && typeof value === 'object') return Object.values(value).every(isEmptyShell);
  return false;
}

function propertyNode(root: JsonObjectNode, path: string[]) {
  const parent = getAt(root, path.slice(0, -1));
  if (!(parent instanceof JsonObjectNode)) return undefined;
  return parent.properties.find((p) => p.key.toJSON() === path[path.length - 1]);
}

/**
 * Widen a deleted span over its comma and, when nothing else is left on its
 * line, over the whole line — so the file reads as if the item was never there.
 */
function widen(text: string, start: number, end: number): [number, number] {
  let j = end;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  if (text[j] === ',') j++;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', j);
  if (lineEnd < 0) lineEnd = text.length;
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t]*\r?$/.test(text.slice(j, lineEnd))) return [lineStart, Math.min(text.length, lineEnd + 1)];
  if (text[j - 1] === ',') while (j < text.length && text[j] === ' ') j++;
  return [start, j];
}

/** Merge overlapping spans; a run that ends a list or object without its own comma takes the comma before it ([a, b] → [a]). */
function finishSpans(text: string, spans: Array<[number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const out: Array<[number, number]> = [];
  for (const [a, b] of merged) {
    const endsList = !text.slice(a, b).trimEnd().endsWith(',') && /^\s*[\]}]/.test(text.slice(b));
    const before = endsList ? /,(\s*)$/.exec(text.slice(0, a)) : null;
    if (!before) out.push([a, b]);
    // Same line: the comma and the spaces after it go; across lines only the comma (the layout stays).
    else if (before[1]!.includes('\n')) out.push([before.index, before.index + 1], [a, b]);
    else out.push([before.index, b]);
  }
  return out;
}

/**
 * Take out exactly what applyIntegration added (the user's own additions
 * stay). A minimal text edit at the parsed nodes' positions: every other
 * byte of the file — comments, quotes, layout — is left as it is.
 */
export function removeIntegration(text: string, options: { folders: string[]; created: string[][]; allowAdded: boolean; file?: string }): { text: string; changes: string[] } {
  const file = options.file ?? 'openclaw.json';
  const root = parseConfigText(text, file);
  const changes: string[] = [];
  const spans: Array<[number, number]> = [];
  // What the settings look like without our parts, to know which created keys end up empty.
  const after = root.toJSON() as Record<string, any>;
  const dig = (obj: any, path: string[]) => path.reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), obj);
  for (const path of [CURRENT_KEY, LEGACY_KEY]) {
    const list = dig(after, path);
    if (Array.isArray(list)) dig(after, path.slice(0, -1))[path[path.length - 1]!] = list.filter((v) => !options.folders.includes(String(v)));
  }
  const entries = dig(after, ['plugins', 'entries']);
  if (entries && typeof entries === 'object') delete entries[PLUGIN_ID];
  const removedWhole: string[][] = [];
  for (const path of [...options.created].sort((a, b) => a.length - b.length)) {
    if (removedWhole.some((r) => r.every((k, i) => path[i] === k))) continue;
    const value = dig(after, path);
    const node = propertyNode(root, path);
    if (node && isEmptyShell(value)) {
      spans.push([node.location.start.index, node.location.end.index]);
      removedWhole.push(path);
    }
  }
  const inRemoved = (path: string[]) => removedWhole.some((r) => r.every((k, i) => path[i] === k));
  for (const path of [CURRENT_KEY, LEGACY_KEY]) {
    const list = getAt(root, path);
    if (!(list instanceof JsonArrayNode)) continue;
    list.elements.forEach((element, i) => {
      const value = String(list.toJSON()[i]);
      if (!options.folders.includes(value)) return;
      changes.push(`removed ${value} from ${describePath(path)}`);
      if (!inRemoved(path)) spans.push([element.location.start.index, element.location.end.index]);
    });
  }
  const entry = propertyNode(root, ['plugins', 'entries', PLUGIN_ID]);
  if (entry) {
    changes.push(`removed plugins.entries.${PLUGIN_ID}`);
    if (!inRemoved(['plugins', 'entries', PLUGIN_ID])) spans.push([entry.location.start.index, entry.location.end.index]);
  }
  if (options.allowAdded) {
    const allow = getAt(root, ['plugins', 'allow']);
    if (allow instanceof JsonArrayNode) {
      const i = allow.toJSON().indexOf(PLUGIN_ID);
      if (i >= 0) {
        spans.push([allow.elements[i]!.location.start.index, allow.elements[i]!.location.end.index]);
        changes.push(`removed ${PLUGIN_ID} from plugins.allow`);
      }
    }
  }
  for (const path of removedWhole) changes.push(`removed ${describePath(path)}, which it had added`);
  let out = text;
  for (const [start, end] of finishSpans(text, spans.map(([a, b]) => widen(text, a, b))).reverse()) out = out.slice(0, start) + out.slice(end);
  return { text: out, changes };
}

/** The settings as a JSON5 snippet, for `--print` and for users who edit by hand. */
export function integrationSnippet(options: { folders: string[]; plugin: PluginSettings; keys?: PathsKeys }): string {
  const keys = options.keys ?? 'both';
  const data: Record<string, unknown> = {};
  if (keys !== 'legacy') data.memory = { search: { extraPaths: options.folders } };
  if (keys !== 'current') data.agents = { defaults: { memorySearch: { extraPaths: options.folders } } };
  data.plugins = { entries: { [PLUGIN_ID]: { enabled: true, hooks: { allowConversationAccess: true }, config: options.plugin } } };
  return JSON.stringify(data, null, 2);
}

interface IntegrationRecord {
  configPath: string;
  /** The copy of openclaw.json made before the first edit ('' when we created the file). */
  backup: string;
  createdConfig: boolean;
  /** sha256 of what we last wrote (restore the backup only while this matches). */
  writtenSha256: string;
  created: string[][];
  allowAdded: boolean;
  folders: string[];
  pluginDir: string;
  installedAt: string;
}

function recordPath(paths: HomePaths): string {
  return join(paths.machine, 'openclaw-integration.json');
}

async function readRecord(paths: HomePaths): Promise<IntegrationRecord | undefined> {
  try {
    return JSON.parse(await readFile(recordPath(paths), 'utf8')) as IntegrationRecord;
  } catch {
    return undefined;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface InstallReport {
  location: OpenClawLocation;
  changes: string[];
  backup?: string;
  pluginDir: string;
  pluginFiles: string[];
  createdConfig: boolean;
  /** `openclaw config validate` result, when OpenClaw's CLI is installed. */
  validated?: 'ok' | 'not-available';
}

export type Validator = (configPath: string) => Promise<{ ok: boolean; available: boolean; output: string }>;

/** OpenClaw's own check, when its CLI is on PATH. */
export const openClawValidator: Validator = async (configPath) => {
  const { execa } = await import('execa');
  try {
    const r = await execa('openclaw', ['config', 'validate'], { reject: false, timeout: 30_000, env: { OPENCLAW_CONFIG_PATH: configPath }, stdin: 'ignore' });
    if ((r as { code?: string }).code === 'ENOENT' || r.exitCode === 127) return { ok: true, available: false, output: '' };
    return { ok: r.exitCode === 0, available: true, output: `${String(r.stdout)}\n${String(r.stderr)}`.trim() };
  } catch {
    return { ok: true, available: false, output: '' };
  }
};

async function copyPlugin(pluginDir: string): Promise<string[]> {
  await mkdir(pluginDir, { recursive: true });
  const out: string[] = [];
  // An install from before the plugin was compiled left its TypeScript entry there.
  await rm(join(pluginDir, 'index.ts'), { force: true });
  for (const name of PLUGIN_FILES) {
    const to = join(pluginDir, name);
    await copyFile(pluginSourcePath(name), to);
    out.push(to);
  }
  return out;
}

export async function installOpenClawIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  plugin: PluginSettings;
  keys?: PathsKeys;
  userHome?: string;
  now?: Date;
  validate?: Validator;
}): Promise<InstallReport> {
  const { paths } = options;
  const location = await locateOpenClaw(options.env, options.userHome);
  if (!location.stateDirExists && !location.configExists) {
    throw new OcmError('NOT_FOUND', `OpenClaw was not found (no ${location.stateDir}).`, {
      hint: 'Install and run OpenClaw once, set OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH if it lives elsewhere, or print the settings with `ocm-run integrate openclaw --print`.',
    });
  }
  const folders = memoryFolders(paths);
  const previous = await readRecord(paths);
  let original = '';
  try {
    original = location.configExists ? await readFile(location.configPath, 'utf8') : '';
  } catch (error) {
    throw fromSystemError(error, `read ${location.configPath}`);
  }
  const createdConfig = previous?.configPath === location.configPath ? previous.createdConfig : !location.configExists;
  const base = original.trim() === '' ? '{\n}\n' : original;
  const edit = applyIntegration(base, { folders, plugin: options.plugin, ...(options.keys ? { keys: options.keys } : {}), file: location.configPath });
  let next = edit.text;
  if (original.trim() === '') next = `// OpenClaw configuration (JSON5). Created by OC-Memory's \`ocm-run integrate openclaw\`.\n${integrationSnippet({ folders, plugin: options.plugin, ...(options.keys ? { keys: options.keys } : {}) })}\n`;

  // Back up once, before our first edit; a later re-install keeps that original.
  let backup = previous?.configPath === location.configPath ? previous.backup : '';
  if (!backup && location.configExists && next !== original) {
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    backup = `${location.configPath}.oc-memory-backup-${stamp}`;
    await writeFileAtomic(backup, original, { mode: 0o600 });
  }
  if (next !== original) {
    const mode = location.configExists ? (await stat(location.configPath)).mode & 0o777 : 0o600;
    await writeFileAtomic(location.configPath, next, { mode });
  }
  const validate = options.validate ?? openClawValidator;
  const check = await validate(location.configPath);
  if (!check.ok) {
    // OpenClaw refuses the result (e.g. an older build without memory.search): put the file back as it was.
    if (location.configExists) await writeFileAtomic(location.configPath, original, { mode: (await stat(location.configPath)).mode & 0o777 });
    else await rm(location.configPath, { force: true });
    throw new OcmError('CONFIG_INVALID', `OpenClaw rejected the edited openclaw.json, so it was put back as it was:\n${check.output.split('\n').slice(0, 6).join('\n')}`, {
      hint: 'Your OpenClaw build may know only one of the two memory keys: try `ocm-run integrate openclaw --keys current` or `--keys legacy`.',
    });
  }
  const pluginFiles = await copyPlugin(location.pluginDir);
  const record: IntegrationRecord = {
    configPath: location.configPath,
    backup,
    createdConfig,
    writtenSha256: sha256(next),
    created: [...(previous?.configPath === location.configPath ? previous.created : []), ...edit.created],
    allowAdded: Boolean(previous?.allowAdded) || edit.allowAdded,
    folders,
    pluginDir: location.pluginDir,
    installedAt: (options.now ?? new Date()).toISOString(),
  };
  await writeFileAtomic(recordPath(paths), `${JSON.stringify(record, null, 2)}\n`);
  return {
    location,
    changes: original.trim() === '' ? ['created openclaw.json with the OC-Memory settings'] : edit.changes,
    ...(backup ? { backup } : {}),
    pluginDir: location.pluginDir,
    pluginFiles,
    createdConfig: original.trim() === '',
    validated: check.available ? 'ok' : 'not-available',
  };
}

export interface UninstallReport {
  configPath: string;
  /** restored: the backup was put back byte for byte; edited: our additions were taken out; none: nothing of ours was there. */
  mode: 'restored' | 'edited' | 'deleted' | 'none';
  changes: string[];
  pluginRemoved: boolean;
}

export async function uninstallOpenClawIntegration(options: { paths: HomePaths; env: Record<string, string | undefined>; userHome?: string }): Promise<UninstallReport> {
  const { paths } = options;
  const record = await readRecord(paths);
  const location = await locateOpenClaw(options.env, options.userHome);
  const configPath = record?.configPath ?? location.configPath;
  const pluginDir = record?.pluginDir ?? location.pluginDir;
  let mode: UninstallReport['mode'] = 'none';
  let changes: string[] = [];
  let current: string | undefined;
  try {
    current = await readFile(configPath, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== undefined) {
    if (record && sha256(current) === record.writtenSha256 && record.createdConfig) {
      await rm(configPath, { force: true });
      mode = 'deleted';
      changes = [`deleted ${configPath} (OC-Memory had created it and it was unchanged)`];
    } else if (record?.backup && sha256(current) === record.writtenSha256 && (await exists(record.backup))) {
      const original = await readFile(record.backup, 'utf8');
      await writeFileAtomic(configPath, original, { mode: (await stat(configPath)).mode & 0o777 });
      mode = 'restored';
      changes = [`restored ${configPath} from ${record.backup}`];
    } else {
      const r = removeIntegration(current, { folders: record?.folders ?? memoryFolders(paths), created: record?.created ?? [], allowAdded: record?.allowAdded ?? false, file: configPath });
      if (r.changes.length > 0) {
        const backup = `${configPath}.oc-memory-uninstall-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await writeFileAtomic(backup, current, { mode: 0o600 });
        await writeFileAtomic(configPath, r.text, { mode: (await stat(configPath)).mode & 0o777 });
        mode = 'edited';
        changes = [...r.changes, `(the file as it was is in ${backup})`];
      }
    }
  }
  let pluginRemoved = false;
  try {
    const manifest = JSON.parse(await readFile(join(pluginDir, 'openclaw.plugin.json'), 'utf8')) as { id?: string };
    if (manifest.id === PLUGIN_ID) {
      const names = await readdir(pluginDir);
      // Only our files: leave anything the user put there.
      // index.ts: the entry of installs from before the plugin was compiled.
      const ours: readonly string[] = [...PLUGIN_FILES, 'index.ts'];
      for (const name of ours) await rm(join(pluginDir, name), { force: true });
      if (names.every((n) => ours.includes(n))) await rm(pluginDir, { recursive: true, force: true });
      pluginRemoved = true;
    }
  } catch {
    /* not installed */
  }
  await rm(recordPath(paths), { force: true });
  return { configPath, mode, changes, pluginRemoved };
}

export interface IntegrationStatus {
  location: OpenClawLocation;
  /** Our folders appear in the current / older extra-paths key. */
  currentKey: boolean;
  legacyKey: boolean;
  pluginEntry: boolean;
  pluginInstalled: boolean;
  /** The installed plugin differs from the one this version ships. */
  pluginOutdated: boolean;
  warning?: string;
}

/** What `doctor` reports about the integration. */
export async function integrationStatus(options: { paths: HomePaths; env: Record<string, string | undefined>; userHome?: string }): Promise<IntegrationStatus> {
  const location = await locateOpenClaw(options.env, options.userHome);
  const folders = memoryFolders(options.paths);
  const status: IntegrationStatus = { location, currentKey: false, legacyKey: false, pluginEntry: false, pluginInstalled: false, pluginOutdated: false };
  if (location.configExists) {
    try {
      const root = parseConfigText(await readFile(location.configPath, 'utf8'), location.configPath);
      const has = (path: string[]) => {
        const v = getAt(root, path);
        return v instanceof JsonArrayNode && folders.every((f) => v.toJSON().includes(f));
      };
      status.currentKey = has(CURRENT_KEY);
      status.legacyKey = has(LEGACY_KEY);
      status.pluginEntry = getAt(root, ['plugins', 'entries', PLUGIN_ID]) instanceof JsonObjectNode;
    } catch (error) {
      status.warning = (error as Error).message;
    }
  }
  try {
    const installed = await readFile(join(location.pluginDir, 'index.js'), 'utf8');
    status.pluginInstalled = true;
    status.pluginOutdated = installed !== (await readFile(pluginSourcePath('index.js'), 'utf8'));
  } catch {
    /* not installed */
  }
  return status;
}
