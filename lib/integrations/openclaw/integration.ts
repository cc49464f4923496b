/**
 * `integrate openclaw`: make OpenClaw use OC-Memory without changing its
 * code (docs/running.md, "ocm-run integrate openclaw").
 *
 * 1. The plugin — its manifests from templates/openclaw-plugin/ and its
 *    JavaScript compiled by `npm run build` into dist/templates/openclaw-plugin/
 *    (OpenClaw refuses to install a package whose entry is TypeScript only) —
 *    goes into <state dir>/extensions/oc-memory/: through `openclaw plugins
 *    install` when OpenClaw's CLI is there (OpenClaw then records where it
 *    came from and trusts it), copied otherwise.
 * 2. openclaw.json (JSON5) gets our memory folders and an entry for our
 *    plugin, in the keys the installed OpenClaw knows: 2026.9 reads
 *    `memory.search.extraPaths` and rejects `agents.defaults.memorySearch`;
 *    the 2026.2 file era reads only `agents.defaults.memorySearch.extraPaths`
 *    and rejects `memory.search` and `plugins.entries.<id>.hooks`
 *    (see docs/running.md). The file is edited through a concrete syntax tree
 *    (@croct/json5-parser) so the user's comments, unquoted keys, quotes and
 *    trailing commas stay as they were; it is backed up first, and the
 *    result is checked by the installed OpenClaw on a temporary copy before
 *    it replaces the real file (a running gateway reloads that file).
 *
 * `--uninstall` reverses both: when openclaw.json is still exactly what we
 * wrote, the backup is restored byte for byte; when the user edited it since,
 * only what we added is taken out.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { JsonArrayNode, JsonObjectNode, JsonParser } from '@croct/json5-parser';
import { memoryToolPolicyAdvice, memoryToolPolicyByAgent, type AgentToolPolicy, type ToolPolicyAdvice } from './tool-policy.js';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import { ConfigError, OcmError, fromSystemError } from '../../core/errors.js';
import { agentSlug, DEFAULT_AGENT, exists, type HomePaths } from '../../platform/home.js';
import { installPluginWithOpenClaw, openClawVersion, uninstallPluginWithOpenClaw, parseOpenClawVersion, validateOpenClawConfig, versionBefore, type OpenClawCliOptions, type OpenClawVersion } from './cli.js';
import { openClawConfigPath } from './config.js';
import { packagePath } from '../../platform/package-root.js';

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

/**
 * Which extra-paths key(s) to write: what the installed OpenClaw accepts
 * (auto, the default), the current one, the older one, or both.
 */
export type PathsKeys = 'auto' | 'both' | 'current' | 'legacy';
/** The keys of one OpenClaw era: where the folders go, and whether plugin entries know `hooks`. */
export interface IntegrationShape {
  keys: Exclude<PathsKeys, 'auto'>;
  /** `plugins.entries.<id>.hooks.allowConversationAccess` (2026.9 needs it for conversation hooks; 2026.2 rejects it). */
  conversationAccess: boolean;
}
export const CURRENT_SHAPE: IntegrationShape = { keys: 'current', conversationAccess: true };
export const FILE_ERA_SHAPE: IntegrationShape = { keys: 'legacy', conversationAccess: false };
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
function objectAt(root: JsonObjectNode, path: string[], file: string): { node: JsonObjectNode; created?: string[] | undefined } {
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
  return { node, created };
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

/** The node at `path`; a numeric key indexes a list (`agents.list.1`). */
function getAt(root: JsonObjectNode, path: string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node instanceof JsonArrayNode && /^\d+$/.test(key)) {
      node = node.elements[Number(key)];
      if (node === undefined) return undefined;
      continue;
    }
    if (!(node instanceof JsonObjectNode) || !node.has(key)) return undefined;
    node = node.get(key);
  }
  return node;
}

/**
 * One entry of OpenClaw's extraPaths: a folder or file, or (2026.9 only) a
 * folder with a glob its files must match relative to it
 * (normalizeConfiguredMemoryExtraPaths / matchesExtraMemoryPathEntry in
 * OpenClaw's memory host; 2026.2 takes plain strings only).
 */
export type ExtraPath = string | { path: string; pattern: string };
const extraPathKey = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const describeExtraPath = (value: ExtraPath): string => (typeof value === 'string' ? value : `${value.path} (${value.pattern})`);

/** Per-agent extra-paths keys, below an agent's entry: 2026.9 `memory.search`, 2026.2 `memorySearch`. */
const AGENT_CURRENT_KEY = ['memory', 'search', 'extraPaths'];
const AGENT_LEGACY_KEY = ['memorySearch', 'extraPaths'];

/**
 * What one OpenClaw agent should search of OC-Memory's folders (`roots`:
 * memory/ and reflections/). Agent main's files lie at a root's top, every
 * other agent's in <root>/<agentSlug> (lib/platform/home.ts, dayFilePath), and
 * OpenClaw walks a folder recursively: main gets the root limited to its top
 * files by the glob `*.md` (path.posix.matchesGlob: `*` never crosses a `/`)
 * where OpenClaw supports patterns, and nothing where it does not (2026.2),
 * since the bare root would show it every agent's folder.
 */
export function agentExtraPaths(roots: string[], agentId: string, patterns: boolean): ExtraPath[] {
  if (agentId !== DEFAULT_AGENT) return roots.map((root) => join(root, agentSlug(agentId)));
  return patterns ? roots.map((root) => ({ path: root, pattern: '*.md' })) : [];
}

/**
 * The shared extraPaths when openclaw.json configures no agents (only agent
 * main runs): main's own files where OpenClaw supports patterns (2026.9),
 * since the bare roots would also show it the folders Claude Code, Codex or
 * pi write into the same home; the roots themselves where it does not
 * (2026.2: plain paths only, and main would otherwise see none of its memory).
 */
export function sharedExtraPaths(roots: string[], patterns: boolean): ExtraPath[] {
  return patterns ? agentExtraPaths(roots, DEFAULT_AGENT, true) : roots;
}

/** Every form in which an install of ours may have put the roots into the shared key (to take out again). */
const sharedForms = (roots: string[]): ExtraPath[] => [...sharedExtraPaths(roots, false), ...sharedExtraPaths(roots, true)];

/** The agents openclaw.json configures, as OpenClaw lists them (`agents.entries` by id, else `agents.list`). */
function configuredAgents(root: JsonObjectNode): Array<{ id: string; path: string[]; node: JsonObjectNode }> {
  const entries = getAt(root, ['agents', 'entries']);
  if (entries instanceof JsonObjectNode) {
    return entries.properties.flatMap((p) => {
      const id = String(p.key.toJSON());
      const node = entries.get(id);
      return node instanceof JsonObjectNode ? [{ id, path: ['agents', 'entries', id], node }] : [];
    });
  }
  const list = getAt(root, ['agents', 'list']);
  if (!(list instanceof JsonArrayNode)) return [];
  return list.elements.flatMap((node, i) => {
    if (!(node instanceof JsonObjectNode) || !node.has('id')) return [];
    const id = node.get('id').toJSON();
    return typeof id === 'string' && id.trim() ? [{ id: id.trim(), path: ['agents', 'list', String(i)], node }] : [];
  });
}

function addFolders(root: JsonObjectNode, path: string[], folders: ExtraPath[], file: string, result: EditResult, under: string[] = []): void {
  if (folders.length === 0) return;
  const current = getAt(root, path);
  const shown = describePath([...under, ...path]);
  if (current === undefined) {
    const created = setDeep(root, path, folders as JsonValue, file);
    if (created) result.created.push([...under, ...created]);
    result.changes.push(`added ${shown} = [${folders.map(describeExtraPath).join(', ')}]`);
    return;
  }
  if (!(current instanceof JsonArrayNode)) {
    throw new ConfigError(`${file}: ${shown} is not a list.`, { hint: 'Make it a list of folders, then run `ocm-run integrate openclaw` again.' });
  }
  const have = new Set(current.toJSON().map(extraPathKey));
  const missing = folders.filter((f) => !have.has(extraPathKey(f)));
  if (missing.length > 0) {
    current.push(...(missing as JsonValue[]));
    result.changes.push(`added ${missing.map(describeExtraPath).join(', ')} to ${shown}`);
  }
}

/** Take `folders` out of the list at `path` (what an earlier install put in the shared key). */
function dropFolders(root: JsonObjectNode, path: string[], folders: ExtraPath[], result: EditResult): void {
  const current = getAt(root, path);
  if (!(current instanceof JsonArrayNode)) return;
  const drop = new Set(folders.map(extraPathKey));
  const values = current.toJSON();
  for (let i = values.length - 1; i >= 0; i--) {
    if (drop.has(extraPathKey(values[i]))) {
      current.delete(i);
      result.changes.push(`removed ${describeExtraPath(values[i] as ExtraPath)} from ${describePath(path)} (each agent now gets only its own memory)`);
    }
  }
}

/** Add our folders and plugin entry to openclaw.json text. Idempotent. */
export interface ApplyOptions {
  folders: string[];
  plugin: PluginSettings;
  /** Default: the current era's keys (memory.search, hooks allowed). */
  shape?: IntegrationShape;
  /** OpenClaw's own install record of the plugin (`plugins.installs.<id>`, 2026.2), kept in the file. */
  installRecord?: unknown;
  file?: string | undefined;
}

function pluginEntry(plugin: PluginSettings, shape: IntegrationShape): JsonValue {
  return { enabled: true, ...(shape.conversationAccess ? { hooks: { allowConversationAccess: true } } : {}), config: { ...plugin } };
}

export function applyIntegration(text: string, options: ApplyOptions): EditResult {
  const file = options.file ?? 'openclaw.json';
  const root = parseConfigText(text, file);
  const result: EditResult = { text, changes: [], created: [], allowAdded: false };
  const shape = options.shape ?? CURRENT_SHAPE;
  const agents = configuredAgents(root);
  const eras: Array<{ global: string[]; perAgent: string[]; patterns: boolean }> = [];
  if (shape.keys !== 'legacy') eras.push({ global: CURRENT_KEY, perAgent: AGENT_CURRENT_KEY, patterns: true });
  if (shape.keys !== 'current') eras.push({ global: LEGACY_KEY, perAgent: AGENT_LEGACY_KEY, patterns: false });
  for (const era of eras) {
    // Only agent main: the shared key, with main's own files. Several agents: OpenClaw adds the shared
    // key's paths to every agent's (resolveMemoryHostSearchPathConfig), so each gets its own instead.
    if (agents.length === 0) {
      const shared = sharedExtraPaths(options.folders, era.patterns);
      const kept = new Set(shared.map(extraPathKey));
      dropFolders(root, era.global, sharedForms(options.folders).filter((f) => !kept.has(extraPathKey(f))), result);
      addFolders(root, era.global, shared, file, result);
    } else {
      dropFolders(root, era.global, sharedForms(options.folders), result);
      for (const agent of agents) addFolders(agent.node, era.perAgent, agentExtraPaths(options.folders, agent.id, era.patterns), file, result, agent.path);
    }
  }

  const entry = pluginEntry(options.plugin, shape);
  const entryPath = ['plugins', 'entries', PLUGIN_ID];
  const before = getAt(root, entryPath);
  if (!(before instanceof JsonObjectNode) || JSON.stringify(before.toJSON()) !== JSON.stringify(entry)) {
    if (before === undefined) {
      const created = setDeep(root, entryPath, entry, file);
      if (created) result.created.push(created);
    } else objectAt(root, ['plugins', 'entries'], file).node.set(PLUGIN_ID, entry);
    result.changes.push(`${before === undefined ? 'added' : 'updated'} plugins.entries.${PLUGIN_ID}`);
  }
  if (options.installRecord !== undefined) {
    const installPath = ['plugins', 'installs', PLUGIN_ID];
    const have = getAt(root, installPath);
    if (!(have instanceof JsonObjectNode) || JSON.stringify(have.toJSON()) !== JSON.stringify(options.installRecord)) {
      if (have === undefined) {
        const created = setDeep(root, installPath, options.installRecord as JsonValue, file);
        if (created) result.created.push(created);
      } else objectAt(root, ['plugins', 'installs'], file).node.set(PLUGIN_ID, options.installRecord as JsonValue);
      result.changes.push(`recorded OpenClaw's install of the plugin (plugins.installs.${PLUGIN_ID})`);
    }
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
  // Ours: the shared roots, and each configured agent's own paths (in either era's form).
  const lists: Array<{ path: string[]; ours: Set<string> }> = [CURRENT_KEY, LEGACY_KEY].map((path) => ({ path, ours: new Set(sharedForms(options.folders).map(extraPathKey)) }));
  for (const agent of configuredAgents(root)) {
    const ours = new Set([true, false].flatMap((patterns) => agentExtraPaths(options.folders, agent.id, patterns)).map(extraPathKey));
    for (const key of [AGENT_CURRENT_KEY, AGENT_LEGACY_KEY]) lists.push({ path: [...agent.path, ...key], ours });
  }
  for (const { path, ours } of lists) {
    const list = dig(after, path);
    if (Array.isArray(list)) dig(after, path.slice(0, -1))[path[path.length - 1]!] = list.filter((v) => !ours.has(extraPathKey(v)));
  }
  for (const map of ['entries', 'installs']) {
    const entries = dig(after, ['plugins', map]);
    if (entries && typeof entries === 'object') delete entries[PLUGIN_ID];
  }
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
  for (const { path, ours } of lists) {
    const list = getAt(root, path);
    if (!(list instanceof JsonArrayNode)) continue;
    list.elements.forEach((element, i) => {
      const value = list.toJSON()[i];
      if (!ours.has(extraPathKey(value))) return;
      changes.push(`removed ${describeExtraPath(value as ExtraPath)} from ${describePath(path)}`);
      if (!inRemoved(path)) spans.push([element.location.start.index, element.location.end.index]);
    });
  }
  for (const map of ['entries', 'installs']) {
    const entry = propertyNode(root, ['plugins', map, PLUGIN_ID]);
    if (!entry) continue;
    changes.push(`removed plugins.${map}.${PLUGIN_ID}`);
    if (!inRemoved(['plugins', map, PLUGIN_ID])) spans.push([entry.location.start.index, entry.location.end.index]);
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
export function integrationSnippet(options: { folders: string[]; plugin: PluginSettings; shape?: IntegrationShape; configText?: string | undefined }): string {
  const shape = options.shape ?? CURRENT_SHAPE;
  const data: Record<string, unknown> = {};
  let agents: ReturnType<typeof configuredAgents> = [];
  try {
    agents = options.configText ? configuredAgents(parseConfigText(options.configText, 'openclaw.json')) : [];
  } catch {
    /* an unreadable file: show the shared keys */
  }
  if (agents.length === 0) {
    if (shape.keys !== 'legacy') data.memory = { search: { extraPaths: sharedExtraPaths(options.folders, true) } };
    if (shape.keys !== 'current') data.agents = { defaults: { memorySearch: { extraPaths: sharedExtraPaths(options.folders, false) } } };
  } else {
    // Each configured agent its own memory, in the form the file lists agents.
    const own = (id: string) => ({
      ...(shape.keys !== 'legacy' ? { memory: { search: { extraPaths: agentExtraPaths(options.folders, id, true) } } } : {}),
      ...(shape.keys !== 'current' && agentExtraPaths(options.folders, id, false).length > 0 ? { memorySearch: { extraPaths: agentExtraPaths(options.folders, id, false) } } : {}),
    });
    data.agents = agents[0]!.path[1] === 'entries' ? { entries: Object.fromEntries(agents.map((a) => [a.id, own(a.id)])) } : { list: agents.map((a) => ({ id: a.id, ...own(a.id) })) };
  }
  data.plugins = { entries: { [PLUGIN_ID]: pluginEntry(options.plugin, shape) } };
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
  backup?: string | undefined;
  pluginDir: string;
  pluginFiles: string[];
  /** How the plugin got there: OpenClaw's own installer (origin recorded) or a plain copy. */
  pluginInstall: 'openclaw' | 'copied';
  /** Why the plugin was copied although OpenClaw's CLI is there. */
  pluginInstallNote?: string | undefined;
  createdConfig: boolean;
  /** The keys written. */
  shape: IntegrationShape;
  /** `openclaw --version`, when its CLI is installed. */
  openClawVersion?: string | undefined;
  /** The installed OpenClaw accepted the result (checked on a copy first), or there was no OpenClaw CLI to ask. */
  validated: 'ok' | 'not-available';
  /** What the user must add to (or take out of) their tool policy so the models are offered the memory tools ([] when nothing hides them): tool-policy.ts. */
  toolPolicy: ToolPolicyAdvice[];
}

/** The first OpenClaw release whose schema has `memory.search` is after the 2026.2 file era. */
const FIRST_AFTER_FILE_ERA: [number, number, number] = [2026, 3, 0];

/** The release reads the tool profiles of plugin manifests (after the file era; assumed when the release is not known): tool-policy.ts. */
export function readsManifestProfiles(version: OpenClawVersion | undefined): boolean {
  return version === undefined || !versionBefore(version, FIRST_AFTER_FILE_ERA);
}

/**
 * The shapes to try, most likely first: by the installed OpenClaw's version
 * (or, without its CLI, the version that last wrote openclaw.json), then the
 * others, in case the era boundary lies elsewhere. An explicit --keys choice
 * is the only candidate for the paths.
 */
export function candidateShapes(keys: PathsKeys, version: OpenClawVersion | undefined): IntegrationShape[] {
  const fileEra = version !== undefined && versionBefore(version, FIRST_AFTER_FILE_ERA);
  const preferred = fileEra ? FILE_ERA_SHAPE : CURRENT_SHAPE;
  const all: IntegrationShape[] = [preferred, fileEra ? CURRENT_SHAPE : FILE_ERA_SHAPE, { keys: preferred.keys, conversationAccess: !preferred.conversationAccess }, { keys: fileEra ? 'current' : 'legacy', conversationAccess: preferred.conversationAccess }];
  if (keys === 'auto') return all;
  const forced = [preferred.conversationAccess, !preferred.conversationAccess].map((conversationAccess) => ({ keys, conversationAccess }));
  return forced;
}

/** OpenClaw's complaint is about what we added (so another shape may pass), not about the rest of the file. */
function rejectsOurKeys(output: string): boolean {
  return /memorySearch|memory\.search|memory: Unrecognized key: "search"|oc-memory|allowConversationAccess|"hooks"/.test(output);
}

/** The version that last wrote openclaw.json (`meta.lastTouchedVersion`), when OpenClaw's CLI cannot be asked. */
function versionFromConfig(text: string): OpenClawVersion | undefined {
  const m = /lastTouchedVersion["']?\s*:\s*["']([^"']+)["']/.exec(text);
  return m ? parseOpenClawVersion(m[1]!) : undefined;
}

/** The shape `--print` shows: by the installed OpenClaw's version, no validation. */
export async function printShape(options: { env: Record<string, string | undefined>; keys?: PathsKeys | undefined; configText?: string | undefined; cli?: OpenClawCliOptions }): Promise<{ shape: IntegrationShape; version?: OpenClawVersion | undefined }> {
  const version = (await openClawVersion(options.cli ?? { env: options.env })) ?? (options.configText ? versionFromConfig(options.configText) : undefined);
  return { shape: candidateShapes(options.keys ?? 'auto', version)[0]!, version };
}

export interface IntegrationPreview {
  location: OpenClawLocation;
  /** The settings to merge into openclaw.json, as JSON text. */
  snippet: string;
  /** The plugin's files in this package, to copy into `location.pluginDir`. */
  pluginFiles: string[];
  /** The installed OpenClaw's version (or the one openclaw.json last saw), when known. */
  version?: OpenClawVersion | undefined;
}

/** `integrate openclaw --print`: what the integration would write and where, changing nothing. */
export async function integrationPreview(options: { paths: HomePaths; env: Record<string, string | undefined>; plugin: PluginSettings; keys: PathsKeys }): Promise<IntegrationPreview> {
  const location = await locateOpenClaw(options.env);
  const configText = await readFile(location.configPath, 'utf8').catch(() => undefined);
  const { shape, version } = await printShape({ env: options.env, keys: options.keys, configText });
  const snippet = integrationSnippet({ folders: memoryFolders(options.paths), plugin: options.plugin, shape, configText });
  const pluginFiles = PLUGIN_FILES.map((name) => pluginSourcePath(name));
  return { location, snippet, pluginFiles, version };
}

/**
 * The plugin as one package folder (manifests and compiled entry side by
 * side), for `openclaw plugins install`: kept in the home's machine folder,
 * so OpenClaw's record of where the plugin came from stays a real path.
 */
async function stagePluginPackage(paths: HomePaths): Promise<string> {
  const dir = join(paths.machine, 'openclaw-plugin');
  await copyPlugin(dir);
  return dir;
}

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

/** OpenClaw's install record of our plugin in the file its installer wrote (2026.2 keeps it in openclaw.json). */
async function installRecordIn(configPath: string): Promise<unknown> {
  try {
    const root = JsonParser.parse(await readFile(configPath, 'utf8'), JsonObjectNode);
    const record = getAt(root, ['plugins', 'installs', PLUGIN_ID]);
    return record instanceof JsonObjectNode ? record.toJSON() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts the plugin in place: through `openclaw plugins install` when the CLI
 * is there, so OpenClaw records its origin; copied when there is no CLI or
 * OpenClaw refuses the package (the note says why).
 */
async function placePlugin(location: OpenClawLocation, paths: HomePaths, cli: OpenClawCliOptions, configCopy: string): Promise<{ how: 'openclaw' | 'copied'; note?: string; files: string[] }> {
  const installed = await installPluginWithOpenClaw(cli, await stagePluginPackage(paths), configCopy);
  if (installed.ok) return { how: 'openclaw', files: PLUGIN_FILES.map((name) => join(location.pluginDir, name)) };
  const files = await copyPlugin(location.pluginDir);
  if (!installed.available) return { how: 'copied', files };
  const reason = installed.output.split('\n').map((l) => l.trim()).filter((l) => l && !/^WARNING|outside ClawHub|^Plugin manifest id/.test(l)).slice(-2).join(' ');
  return { how: 'copied', note: `\`openclaw plugins install\` refused it (${reason || 'no reason given'}), so it was copied and OpenClaw may warn that it cannot verify where it came from`, files };
}

/** The temporary copy OpenClaw checked, with the backups OpenClaw's installer made of it (`<copy>.bak`, `<copy>.bak.1`). */
async function removeCheckCopy(checkFile: string): Promise<void> {
  const name = basename(checkFile);
  const names = await readdir(dirname(checkFile)).catch(() => [] as string[]);
  for (const n of names) if (n === name || n.startsWith(`${name}.bak`)) await rm(join(dirname(checkFile), n), { force: true });
}

export async function installOpenClawIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  plugin: PluginSettings;
  keys?: PathsKeys;
  userHome?: string;
  now?: Date;
  /** How to run OpenClaw's CLI (default: `openclaw` on env.PATH). */
  cli?: OpenClawCliOptions;
}): Promise<InstallReport> {
  const { paths } = options;
  const cli: OpenClawCliOptions = options.cli ?? { env: options.env };
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
  // Refuse a broken file before anything is touched.
  if (original.trim() !== '') parseConfigText(original, location.configPath);
  const version = (await openClawVersion(cli)) ?? versionFromConfig(original);
  const createdConfig = previous?.configPath === location.configPath ? previous.createdConfig : !location.configExists;
  const mode = location.configExists ? (await stat(location.configPath)).mode & 0o777 : 0o600;

  // Back up once, before our first edit; a later re-install keeps that original.
  let backup = previous?.configPath === location.configPath && previous.backup && (await exists(previous.backup)) ? previous.backup : '';
  let backupMadeNow = false;
  if (!backup && location.configExists) {
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    backup = `${location.configPath}.oc-memory-backup-${stamp}`;
    await writeFileAtomic(backup, original, { mode: 0o600 });
    backupMadeNow = true;
  }
  const pluginWasThere = await exists(join(location.pluginDir, 'openclaw.plugin.json'));
  const checkFile = join(dirname(location.configPath), `.openclaw.oc-memory-check-${process.pid}.json`);
  // The plugin first, so OpenClaw checks our plugin entry against our manifest. Its installer
  // rewrites the config it is given its own way (plain JSON, comments gone): it gets a copy,
  // and only its install record is carried over into the user's file.
  if (location.configExists) await writeFileAtomic(checkFile, original, { mode: 0o600 });
  let placed: Awaited<ReturnType<typeof placePlugin>>;
  let installRecord: unknown;
  try {
    placed = await placePlugin(location, paths, cli, checkFile);
    installRecord = placed.how === 'openclaw' ? await installRecordIn(checkFile) : undefined;
  } catch (error) {
    await removeCheckCopy(checkFile);
    if (backupMadeNow) await rm(backup, { force: true });
    throw error;
  }

  const rollBack = async () => {
    if (location.configExists) await writeFileAtomic(location.configPath, original, { mode });
    else await rm(location.configPath, { force: true });
    if (!pluginWasThere) await removePluginFiles(location.pluginDir);
    if (backupMadeNow) await rm(backup, { force: true });
  };

  let chosen: { shape: IntegrationShape; edit: EditResult; next: string } | undefined;
  let validated: InstallReport['validated'] = 'not-available';
  const rejections: string[] = [];
  try {
    for (const shape of candidateShapes(options.keys ?? 'auto', version)) {
      const base = original.trim() === '' ? '{\n}\n' : original;
      const edit = applyIntegration(base, { folders, plugin: options.plugin, shape, installRecord, file: location.configPath });
      const next =
        original.trim() === ''
          ? `// OpenClaw configuration (JSON5). Created by OC-Memory's \`ocm-run integrate openclaw\`.\n${applyIntegration('{}', { folders, plugin: options.plugin, shape, installRecord }).text}\n`
          : edit.text;
      // The installed OpenClaw checks a copy first: the real file (which a running gateway reloads) only ever gets a result it accepts.
      await writeFileAtomic(checkFile, next, { mode: 0o600 });
      const check = await validateOpenClawConfig(cli, checkFile);
      if (!check.available) {
        chosen = { shape, edit, next };
        break;
      }
      if (check.ok) {
        chosen = { shape, edit, next };
        validated = 'ok';
        break;
      }
      rejections.push(check.output);
      if (!rejectsOurKeys(check.output)) break;
    }
  } catch (error) {
    await rollBack();
    throw error;
  } finally {
    await removeCheckCopy(checkFile);
  }
  if (!chosen) {
    await rollBack();
    const said = rejections[rejections.length - 1] ?? '';
    throw new OcmError('CONFIG_INVALID', `OpenClaw${version ? ` ${version.text}` : ''} does not accept openclaw.json with OC-Memory's settings, so nothing was changed:\n${said.split('\n').slice(0, 8).join('\n')}`, {
      hint: rejectsOurKeys(said)
        ? 'Print the settings with `ocm-run integrate openclaw --print` and add what your OpenClaw accepts by hand, or report the OpenClaw version.'
        : 'OpenClaw rejects the file for a reason of its own: fix that first (`openclaw doctor` helps), then run `ocm-run integrate openclaw` again.',
    });
  }
  const { shape, edit, next } = chosen;
  if (next !== original) await writeFileAtomic(location.configPath, next, { mode });
  if (backupMadeNow && next === original) {
    await rm(backup, { force: true });
    backup = '';
  }
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
    // ('' when no backup was needed.)
    backup: backup || undefined,
    pluginDir: location.pluginDir,
    pluginFiles: placed.files,
    pluginInstall: placed.how,
    pluginInstallNote: placed.note,
    createdConfig: original.trim() === '',
    shape,
    openClawVersion: version?.text,
    validated,
    toolPolicy: memoryToolPolicyAdvice(parseConfigText(next, location.configPath).toJSON(), { manifestProfiles: readsManifestProfiles(version) }),
  };
}

/** Our plugin's files (only ours: anything the user put there stays, and then the folder too). */
async function removePluginFiles(pluginDir: string): Promise<boolean> {
  if (!(await isOurPlugin(pluginDir))) return false;
  try {
    const names = await readdir(pluginDir);
    // index.ts: the entry of installs from before the plugin was compiled.
    const ours: readonly string[] = [...PLUGIN_FILES, 'index.ts'];
    for (const name of ours) await rm(join(pluginDir, name), { force: true });
    if (names.every((n) => ours.includes(n))) await rm(pluginDir, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

export interface UninstallReport {
  configPath: string;
  /** restored: the backup was put back byte for byte; edited: our additions were taken out; none: nothing of ours was there. */
  mode: 'restored' | 'edited' | 'deleted' | 'none';
  changes: string[];
  pluginRemoved: boolean;
  /** openclaw: `openclaw plugins uninstall` removed the plugin and OpenClaw's record of it; files: its files were deleted (no CLI, or OpenClaw refused: see the note). */
  pluginUninstall?: 'openclaw' | 'files' | undefined;
  pluginUninstallNote?: string | undefined;
}

/**
 * The reverse of placePlugin: when the `openclaw` CLI is there and our
 * plugin is installed, `openclaw plugins uninstall` on a copy of the config
 * (made in a temporary folder beside it, removed with the backups OpenClaw
 * makes of it), so OpenClaw forgets its install record; openclaw.json itself
 * is given back by the caller.
 */
async function uninstallPluginThroughOpenClaw(cli: OpenClawCliOptions, configPath: string, pluginDir: string): Promise<{ ok: boolean; note?: string }> {
  if (!(await isOurPlugin(pluginDir))) return { ok: false };
  let temp: string;
  try {
    temp = await mkdtemp(join(dirname(configPath), '.oc-memory-uninstall-'));
  } catch {
    return { ok: false };
  }
  try {
    const copy = join(temp, basename(configPath));
    const current = await readFile(configPath, 'utf8').catch(() => '{}\n');
    await writeFileAtomic(copy, current, { mode: 0o600 });
    const r = await uninstallPluginWithOpenClaw(cli, PLUGIN_ID, copy);
    if (r.ok || !r.available) return { ok: r.ok };
    const reason = r.output.split('\n').map((l) => l.trim()).filter((l) => l && !/^\[/.test(l)).slice(-2).join(' ');
    return { ok: false, note: `\`openclaw plugins uninstall\` refused (${reason || 'no reason given'}), so the plugin's files were deleted; \`openclaw plugins list\` may still name it until \`openclaw plugins uninstall ${PLUGIN_ID}\` is run` };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function isOurPlugin(pluginDir: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(join(pluginDir, 'openclaw.plugin.json'), 'utf8')) as { id?: string }).id === PLUGIN_ID;
  } catch {
    return false;
  }
}

export async function uninstallOpenClawIntegration(options: { paths: HomePaths; env: Record<string, string | undefined>; userHome?: string; cli?: OpenClawCliOptions }): Promise<UninstallReport> {
  const { paths } = options;
  const record = await readRecord(paths);
  const location = await locateOpenClaw(options.env, options.userHome);
  const configPath = record?.configPath ?? location.configPath;
  const pluginDir = record?.pluginDir ?? location.pluginDir;
  // OpenClaw first, while the plugin is still there for it to find (it installed it: it takes it out, with its record).
  const byOpenClaw = await uninstallPluginThroughOpenClaw(options.cli ?? { env: options.env }, configPath, pluginDir);
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
  // Whatever OpenClaw left of ours (everything, when it was not there to ask).
  const filesRemoved = await removePluginFiles(pluginDir);
  await rm(recordPath(paths), { force: true });
  const pluginRemoved = byOpenClaw.ok || filesRemoved;
  return {
    configPath,
    mode,
    changes,
    pluginRemoved,
    pluginUninstall: !pluginRemoved ? undefined : byOpenClaw.ok ? 'openclaw' : 'files',
    pluginUninstallNote: byOpenClaw.note,
  };
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
  /** Per OpenClaw agent: is it offered OC-Memory's memory tools under openclaw.json's tool policy, and what to change if not (tool-policy.ts). */
  toolPolicy: AgentToolPolicy[];
  warning?: string;
}

/**
 * What `doctor` and `integrate openclaw status` report about the integration.
 * `version`: the installed OpenClaw's (decides whether plugin manifests' tool
 * profiles count); default: the one that last wrote openclaw.json.
 */
export async function integrationStatus(options: { paths: HomePaths; env: Record<string, string | undefined>; userHome?: string; version?: OpenClawVersion | undefined }): Promise<IntegrationStatus> {
  const location = await locateOpenClaw(options.env, options.userHome);
  const folders = memoryFolders(options.paths);
  const status: IntegrationStatus = { location, currentKey: false, legacyKey: false, pluginEntry: false, pluginInstalled: false, pluginOutdated: false, toolPolicy: [] };
  if (location.configExists) {
    try {
      const text = await readFile(location.configPath, 'utf8');
      const root = parseConfigText(text, location.configPath);
      status.toolPolicy = memoryToolPolicyByAgent(root.toJSON(), { manifestProfiles: readsManifestProfiles(options.version ?? versionFromConfig(text)) });
      const listHas = (path: string[], values: ExtraPath[]) => {
        const v = getAt(root, path);
        return values.length === 0 || (v instanceof JsonArrayNode && values.every((f) => v.toJSON().map(extraPathKey).includes(extraPathKey(f))));
      };
      // Only main: the shared key; several agents: each its own (see applyIntegration).
      const agents = configuredAgents(root);
      const has = (global: string[], perAgent: string[], patterns: boolean) =>
        agents.length === 0 ? listHas(global, sharedExtraPaths(folders, patterns)) : agents.every((a) => listHas([...a.path, ...perAgent], agentExtraPaths(folders, a.id, patterns)));
      status.currentKey = has(CURRENT_KEY, AGENT_CURRENT_KEY, true);
      status.legacyKey = has(LEGACY_KEY, AGENT_LEGACY_KEY, false);
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
