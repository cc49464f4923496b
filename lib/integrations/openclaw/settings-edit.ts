/**
 * The edit of openclaw.json: `applyIntegration` adds OC-Memory's folders,
 * plugin entry and allow-list id (idempotent, in the keys of the shape
 * given), `removeIntegration` takes out exactly that again as a minimal text
 * edit, `integrationSnippet` is the same settings for `--print`.
 */
import { JsonArrayNode, JsonObjectNode } from '@croct/json5-parser';
import { ConfigError } from '../../core/errors.js';
import {
  AGENT_CURRENT_KEY,
  AGENT_LEGACY_KEY,
  agentExtraPaths,
  configuredAgents,
  CURRENT_KEY,
  describeExtraPath,
  extraPathKey,
  LEGACY_KEY,
  sharedExtraPaths,
  sharedForms,
  type ExtraPath,
} from './extra-paths.js';
import {
  describePath,
  finishSpans,
  getAt,
  isEmptyShell,
  objectAt,
  parseConfigText,
  propertyNode,
  setDeep,
  widen,
  type JsonValue,
} from './json5-tree.js';
import { PLUGIN_ID } from './plugin-files.js';
import { CURRENT_SHAPE, type IntegrationShape } from './shapes.js';

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

function addFolders(
  root: JsonObjectNode,
  path: string[],
  folders: ExtraPath[],
  file: string,
  result: EditResult,
  under: string[] = [],
): void {
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
    throw new ConfigError(`${file}: ${shown} is not a list.`, {
      hint: 'Make it a list of folders, then run `ocm-run integrate openclaw` again.',
    });
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
      result.changes.push(
        `removed ${describeExtraPath(values[i] as ExtraPath)} from ${describePath(path)} (each agent now gets only its own memory)`,
      );
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
      dropFolders(
        root,
        era.global,
        sharedForms(options.folders).filter((f) => !kept.has(extraPathKey(f))),
        result,
      );
      addFolders(root, era.global, shared, file, result);
    } else {
      dropFolders(root, era.global, sharedForms(options.folders), result);
      for (const agent of agents)
        addFolders(agent.node, era.perAgent, agentExtraPaths(options.folders, agent.id, era.patterns), file, result, agent.path);
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

/** An object or an array of parsed settings: what a key (or an index as text) can be read from and written to. */
function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The value at a key path of parsed settings; undefined where the path leaves them. */
function dig(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((o, k) => (isContainer(o) ? o[k] : undefined), value);
}

/**
 * Take out exactly what applyIntegration added (the user's own additions
 * stay). A minimal text edit at the parsed nodes' positions: every other
 * byte of the file — comments, quotes, layout — is left as it is.
 */
export function removeIntegration(
  text: string,
  options: { folders: string[]; created: string[][]; allowAdded: boolean; file?: string },
): { text: string; changes: string[] } {
  const file = options.file ?? 'openclaw.json';
  const root = parseConfigText(text, file);
  const changes: string[] = [];
  const spans: Array<[number, number]> = [];
  // What the settings look like without our parts, to know which created keys end up empty.
  const after: unknown = root.toJSON();
  // Ours: the shared roots, and each configured agent's own paths (in either era's form).
  const lists: Array<{ path: string[]; ours: Set<string> }> = [CURRENT_KEY, LEGACY_KEY].map((path) => ({
    path,
    ours: new Set(sharedForms(options.folders).map(extraPathKey)),
  }));
  for (const agent of configuredAgents(root)) {
    const ours = new Set([true, false].flatMap((patterns) => agentExtraPaths(options.folders, agent.id, patterns)).map(extraPathKey));
    for (const key of [AGENT_CURRENT_KEY, AGENT_LEGACY_KEY]) lists.push({ path: [...agent.path, ...key], ours });
  }
  for (const { path, ours } of lists) {
    const list = dig(after, path);
    const parent = dig(after, path.slice(0, -1));
    if (Array.isArray(list) && isContainer(parent)) parent[path[path.length - 1]!] = list.filter((v) => !ours.has(extraPathKey(v)));
  }
  for (const map of ['entries', 'installs']) {
    const entries = dig(after, ['plugins', map]);
    if (isContainer(entries)) delete entries[PLUGIN_ID];
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
  for (const [start, end] of finishSpans(
    text,
    spans.map(([a, b]) => widen(text, a, b)),
  ).reverse())
    out = out.slice(0, start) + out.slice(end);
  return { text: out, changes };
}

/** The settings as a JSON5 snippet, for `--print` and for users who edit by hand. */
export function integrationSnippet(options: {
  folders: string[];
  plugin: PluginSettings;
  shape?: IntegrationShape;
  configText?: string | undefined;
}): string {
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
      ...(shape.keys !== 'current' && agentExtraPaths(options.folders, id, false).length > 0
        ? { memorySearch: { extraPaths: agentExtraPaths(options.folders, id, false) } }
        : {}),
    });
    data.agents =
      agents[0]!.path[1] === 'entries'
        ? { entries: Object.fromEntries(agents.map((a) => [a.id, own(a.id)])) }
        : { list: agents.map((a) => ({ id: a.id, ...own(a.id) })) };
  }
  data.plugins = { entries: { [PLUGIN_ID]: pluginEntry(options.plugin, shape) } };
  return JSON.stringify(data, null, 2);
}
