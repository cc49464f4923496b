/**
 * `ocm-run integrate claude-code`: memory for Claude Code, through its own
 * extension points (docs/running.md, "Claude Code"):
 *
 * - the MCP server `oc-memory` (`ocm-run mcp --agent <agent>`) in the user
 *   scope, `mcpServers` of `~/.claude.json` ($CLAUDE_CONFIG_DIR/.claude.json
 *   when set) — what `claude mcp add --scope user` writes;
 * - hooks in `~/.claude/settings.json` ($CLAUDE_CONFIG_DIR/settings.json):
 *   SessionStart → the active memory, UserPromptSubmit → memories related to
 *   the prompt, Stop and SessionEnd → observe + index in the background; and
 *   `mcp__oc-memory` in its `permissions.allow`, so the tools run unasked;
 * - `sources.claude_code.enabled: true` in OC-Memory's config, so the turns'
 *   transcripts are observed.
 *
 * Both JSON files are edited through a concrete syntax tree
 * (@croct/json5-parser): only our keys change, every other byte stays. Each
 * file is copied to `<file>.oc-memory-backup-<time>` before its first edit.
 * `--uninstall` deletes exactly what was added (Claude Code rewrites
 * ~/.claude.json itself all the time, so a backup cannot simply be put back),
 * keys and files it created included, and turns the source off again if the
 * integration turned it on.
 */
import { JsonArrayNode, JsonObjectNode, JsonParser } from '@croct/json5-parser';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { readTextIfExists, type HomePaths } from '../../platform/home.js';
import { MCP_SERVER_NAME } from '../../core/injected-context.js';

type JsonValue = Parameters<JsonObjectNode['set']>[1];

export interface ClaudeCodeLocation {
  /** settings.json (hooks). */
  settingsPath: string;
  /** .claude.json (user-scope MCP servers). */
  mcpConfigPath: string;
}

/** Where Claude Code keeps its user settings and user-scope MCP servers (as Claude Code itself resolves them). */
export function locateClaudeCode(env: Record<string, string | undefined>, userHome: string = homedir()): ClaudeCodeLocation {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  return {
    settingsPath: join(configDir || join(userHome, '.claude'), 'settings.json'),
    mcpConfigPath: join(configDir || userHome, '.claude.json'),
  };
}

/** The program that runs OC-Memory: node and the CLI script. */
export interface Runner {
  node: string;
  cli: string;
  /**
   * The prompt hook's own entry (dist/scripts/prompt-hook.cjs): CommonJS, so the
   * process an agent starts before every prompt never starts Node's ESM loader
   * (docs/performance.md, "Per-prompt hook"). Without it the prompt hook runs `cli`.
   */
  promptHook?: string;
}

export interface ClaudeCodeOptions {
  paths: HomePaths;
  runner: Runner;
  /** The memory the observations and `remember` go to (sources.claude_code.agent). */
  agent: string;
  /** Per-project memory (sources.claude_code.per_project): hooks and server pass --per-project. */
  perProject?: boolean;
}

/** A word for a POSIX shell: single-quoted unless it is plain. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export type HookKind = 'session-start' | 'prompt' | 'after-turn';

/** Claude Code's hook events and what OC-Memory runs on each (seconds: Claude Code's own time limit for the command). */
export const HOOK_EVENTS: ReadonlyArray<{ event: string; kind: HookKind; timeout: number }> = [
  { event: 'SessionStart', kind: 'session-start', timeout: 10 },
  { event: 'UserPromptSubmit', kind: 'prompt', timeout: 5 },
  { event: 'Stop', kind: 'after-turn', timeout: 10 },
  { event: 'SessionEnd', kind: 'after-turn', timeout: 10 },
];

/**
 * The permission rule that lets Claude Code call every oc-memory tool without
 * asking (none deletes anything; in `claude -p` an unallowed tool is refused).
 */
export const PERMISSION_RULE = `mcp__${MCP_SERVER_NAME}`;

/** The hook command for one kind (agent-neutral: any agent with Claude Code's hook protocol can run it). */
export function hookCommand(options: ClaudeCodeOptions, kind: HookKind): string {
  const program = kind === 'prompt' && options.runner.promptHook ? options.runner.promptHook : options.runner.cli;
  const words = [options.runner.node, program, 'hook', kind, '--agent', options.agent, '--home', options.paths.root];
  if (options.perProject && kind !== 'after-turn') words.push('--per-project');
  return words.map(shellWord).join(' ');
}

/**
 * The server entry. `alwaysLoad: true`: Claude Code (2.1.332) connects MCP
 * servers in the background and sends the first request without the tools of
 * one not connected yet — on a busy machine `ocm-run mcp` (a Node process
 * loading the MCP SDK) takes seconds to answer `initialize`, and the first
 * turn had no memory tools. An `alwaysLoad` server is waited for before the
 * first request (5 s at most, MCP_CONNECT_TIMEOUT_MS, so `ocm-run mcp` answers
 * `initialize` before it opens the memory) and its tools are never deferred.
 * docs/running.md, "Claude Code".
 */
export function mcpServerEntry(options: ClaudeCodeOptions): {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  alwaysLoad: true;
} {
  const args = [options.runner.cli, 'mcp', '--home', options.paths.root, '--agent', options.agent];
  if (options.perProject) args.push('--per-project');
  return { type: 'stdio', command: options.runner.node, args, env: {}, alwaysLoad: true };
}

/** Is this hook command one of OC-Memory's (any home)? */
export function isOwnHookCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    / hook (session-start|prompt|after-turn) /.test(`${command} `) &&
    /(cli\.js|prompt-hook\.cjs|ocm-run|oc-memory)/.test(command)
  );
}

function parseObject(text: string, file: string): JsonObjectNode {
  try {
    return JsonParser.parse(text, JsonObjectNode);
  } catch (error) {
    throw new ConfigError(`${file} is not a JSON object OC-Memory can edit: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'Fix the file (Claude Code reads it as JSON), or add the settings by hand: `ocm-run integrate claude-code --print` shows them.',
      cause: error,
    });
  }
}

function objectChild(parent: JsonObjectNode, key: string, file: string): JsonObjectNode | undefined {
  if (!parent.has(key)) return undefined;
  const node = parent.get(key);
  if (!(node instanceof JsonObjectNode))
    throw new ConfigError(`${file}: "${key}" is not an object, so OC-Memory cannot add its settings under it.`, {
      hint: 'Fix that key, then run `ocm-run integrate claude-code` again.',
    });
  return node;
}

/** New files are written as Claude Code writes them: two-space JSON. */
function render(root: JsonObjectNode, original: string | undefined): string {
  if (original === undefined || !original.trim() || /^\s*\{\s*\}\s*$/.test(original)) return `${JSON.stringify(root.toJSON(), null, 2)}\n`;
  return root.toString();
}

export interface FileEdit {
  path: string;
  /** The text before (undefined: the file did not exist). */
  before: string | undefined;
  after: string;
  changes: string[];
  /** Top-level keys this edit created ('hooks', 'mcpServers') and hook events it created. */
  created: string[];
}

/** Which hook events an agent gets, and whether its hooks file also carries Claude Code's permission rule. */
export interface HookWiring {
  events: ReadonlyArray<{ event: string; kind: HookKind; timeout: number }>;
  permission: boolean;
}

const CLAUDE_CODE_WIRING: HookWiring = { events: HOOK_EVENTS, permission: true };

/** Add (or bring up to date) the hooks in settings.json text (or another file in Claude Code's hook format, such as Codex's hooks.json). Idempotent. */
export function addHooks(
  text: string | undefined,
  options: ClaudeCodeOptions,
  file = 'settings.json',
  wiring: HookWiring = CLAUDE_CODE_WIRING,
): FileEdit {
  const root = parseObject(text?.trim() ? text : '{}', file);
  const changes: string[] = [];
  const created: string[] = [];
  let hooks = objectChild(root, 'hooks', file);
  if (!hooks) {
    root.set('hooks', {});
    hooks = root.get('hooks') as JsonObjectNode;
    created.push('hooks');
  }
  for (const { event, kind, timeout } of wiring.events) {
    const command = hookCommand(options, kind);
    const group: JsonValue = { hooks: [{ type: 'command', command, timeout }] };
    if (!hooks.has(event)) {
      hooks.set(event, [group]);
      if (!created.includes('hooks')) created.push(`hooks.${event}`);
      changes.push(`added a ${event} hook`);
      continue;
    }
    const list = hooks.get(event);
    if (!(list instanceof JsonArrayNode))
      throw new ConfigError(`${file}: hooks.${event} is not a list.`, {
        hint: 'Make it a list of hook groups, then run `ocm-run integrate claude-code` again.',
      });
    const groups = list.toJSON() as Array<{ hooks?: Array<{ command?: unknown }> }>;
    const ours = groups.findIndex((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isOwnHookCommand(h?.command)));
    if (ours === -1) {
      list.push(group);
      changes.push(`added a ${event} hook`);
    } else if (JSON.stringify(groups[ours]) !== JSON.stringify(group)) {
      list.set(ours, group);
      changes.push(`updated the ${event} hook`);
    }
  }
  if (wiring.permission) addPermission(root, file, changes, created);
  return { path: file, before: text, after: changes.length ? render(root, text) : (text ?? ''), changes, created };
}

function addPermission(root: JsonObjectNode, file: string, changes: string[], created: string[]): void {
  const permissions = objectChild(root, 'permissions', file);
  if (!permissions) {
    root.set('permissions', { allow: [PERMISSION_RULE] });
    created.push('permissions');
  } else if (!permissions.has('allow')) {
    permissions.set('allow', [PERMISSION_RULE]);
    created.push('permissions.allow');
  } else {
    const allow = permissions.get('allow');
    if (!(allow instanceof JsonArrayNode))
      throw new ConfigError(`${file}: permissions.allow is not a list.`, {
        hint: 'Make it a list of rules, then run `ocm-run integrate claude-code` again.',
      });
    if (allow.toJSON().includes(PERMISSION_RULE)) return;
    allow.push(PERMISSION_RULE);
  }
  changes.push(`allowed the oc-memory tools (permissions.allow ${PERMISSION_RULE})`);
}

function removePermission(root: JsonObjectNode, created: readonly string[], changes: string[]): void {
  if (!root.has('permissions')) return;
  const permissions = root.get('permissions');
  if (!(permissions instanceof JsonObjectNode) || !permissions.has('allow')) return;
  const allow = permissions.get('allow');
  if (!(allow instanceof JsonArrayNode)) return;
  const i = allow.toJSON().indexOf(PERMISSION_RULE);
  if (i === -1) return;
  allow.delete(i);
  changes.push(`removed ${PERMISSION_RULE} from permissions.allow`);
  if (allow.elements.length === 0 && (created.includes('permissions.allow') || created.includes('permissions')))
    permissions.delete('allow');
  if (created.includes('permissions') && permissions.properties.length === 0) root.delete('permissions');
}

/** Take OC-Memory's hooks and permission rule out of settings.json text: our entries, and the lists and objects the integration created once they are empty. */
export function removeHooks(
  text: string,
  created: readonly string[],
  file = 'settings.json',
  wiring: HookWiring = CLAUDE_CODE_WIRING,
): { text: string; changes: string[] } {
  const root = parseObject(text, file);
  const changes: string[] = [];
  if (wiring.permission) removePermission(root, created, changes);
  const hooks = objectChild(root, 'hooks', file);
  if (!hooks) return { text: changes.length ? root.toString() : text, changes };
  for (const { event } of wiring.events) {
    if (!hooks.has(event)) continue;
    const list = hooks.get(event);
    if (!(list instanceof JsonArrayNode)) continue;
    const groups = list.toJSON() as Array<{ hooks?: Array<{ command?: unknown }> }>;
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i];
      if (Array.isArray(g?.hooks) && g.hooks.length > 0 && g.hooks.every((h) => isOwnHookCommand(h?.command))) {
        list.delete(i);
        changes.push(`removed the ${event} hook`);
      }
    }
    if (list.elements.length === 0 && (created.includes(`hooks.${event}`) || created.includes('hooks'))) hooks.delete(event);
  }
  if (created.includes('hooks') && hooks.properties.length === 0) root.delete('hooks');
  return { text: changes.length ? root.toString() : text, changes };
}

/** Add (or bring up to date) the MCP server in .claude.json text. Idempotent. */
export function addMcpServer(text: string | undefined, options: ClaudeCodeOptions, file = '.claude.json'): FileEdit {
  const root = parseObject(text?.trim() ? text : '{}', file);
  const changes: string[] = [];
  const created: string[] = [];
  const entry = mcpServerEntry(options);
  let servers = objectChild(root, 'mcpServers', file);
  if (!servers) {
    root.set('mcpServers', {});
    servers = root.get('mcpServers') as JsonObjectNode;
    created.push('mcpServers');
  }
  const before = servers.has(MCP_SERVER_NAME) ? JSON.stringify(servers.get(MCP_SERVER_NAME).toJSON()) : undefined;
  if (before !== JSON.stringify(entry)) {
    servers.set(MCP_SERVER_NAME, entry as unknown as JsonValue);
    changes.push(`${before === undefined ? 'added' : 'updated'} the MCP server ${MCP_SERVER_NAME}`);
  }
  return { path: file, before: text, after: changes.length ? render(root, text) : (text ?? ''), changes, created };
}

export function removeMcpServer(text: string, created: readonly string[], file = '.claude.json'): { text: string; changes: string[] } {
  const root = parseObject(text, file);
  const servers = objectChild(root, 'mcpServers', file);
  if (!servers?.has(MCP_SERVER_NAME)) return { text, changes: [] };
  servers.delete(MCP_SERVER_NAME);
  if (created.includes('mcpServers') && servers.properties.length === 0) root.delete('mcpServers');
  return { text: root.toString(), changes: [`removed the MCP server ${MCP_SERVER_NAME}`] };
}

/** What the integration did, to undo exactly that: <home>/.ocm/integrations/claude-code.json. */
export interface ClaudeCodeRecord {
  settingsPath: string;
  mcpConfigPath: string;
  /** The file did not exist before the integration. */
  settingsCreated: boolean;
  mcpConfigCreated: boolean;
  settingsKeysCreated: string[];
  mcpKeysCreated: string[];
  /** Config keys the integration changed, with the value each had before (sources.claude_code.enabled, .per_project). */
  configChanged: Record<string, unknown>;
  backups: string[];
  agent: string;
}

/** Where an agent integration keeps what it did (to undo exactly that): <home>/.ocm/integrations/<agent>.json. */
export function integrationRecordPath(paths: HomePaths, agent: 'claude-code' | 'codex' | 'pi'): string {
  return join(paths.machine, 'integrations', `${agent}.json`);
}

export function recordPath(paths: HomePaths): string {
  return integrationRecordPath(paths, 'claude-code');
}

/** An integration's record, or undefined when there is none (or it cannot be read). */
export async function readIntegrationRecord<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export async function readRecord(paths: HomePaths): Promise<ClaudeCodeRecord | undefined> {
  return readIntegrationRecord<ClaudeCodeRecord>(recordPath(paths));
}

export async function backup(path: string, text: string | undefined, now: Date): Promise<string | undefined> {
  if (text === undefined) return undefined;
  const target = `${path}.oc-memory-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  await copyFile(path, target);
  return target;
}

/** Write `text` over `path` keeping its mode (a new file: 0600, as Claude Code's own). */
export async function writeKeepingMode(path: string, text: string): Promise<void> {
  const { writeFileAtomic } = await import('../../platform/atomic-file.js');
  const { stat } = await import('node:fs/promises');
  const mode = await stat(path).then(
    (st) => st.mode & 0o777,
    () => 0o600,
  );
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text, { mode });
}

export interface ClaudeCodeInstall {
  location: ClaudeCodeLocation;
  changes: string[];
  backups: string[];
  configChanged: Record<string, unknown>;
}

/** OC-Memory's own config, as the integration reads and changes it. */
export interface ConfigAccess {
  get(key: string): unknown;
  set(key: string, value: unknown): Promise<void>;
}

function wantedConfig(perProject: boolean): Record<string, unknown> {
  return { 'sources.claude_code.enabled': true, 'sources.claude_code.per_project': perProject };
}

/** The config the integration needs: the Claude Code source on, per-project memory as asked. Returns what it changed, with the old values. */
async function configure(config: ConfigAccess, perProject: boolean): Promise<Record<string, unknown>> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wantedConfig(perProject))) {
    const before = config.get(key);
    if (before === value) continue;
    await config.set(key, value);
    changed[key] = before;
  }
  return changed;
}

/** Wire OC-Memory into Claude Code, and turn on the Claude Code transcript source (and per-project memory if asked) in OC-Memory's config. */
export async function installClaudeCodeIntegration(
  options: ClaudeCodeOptions & { env: Record<string, string | undefined>; userHome?: string; config: ConfigAccess; now?: Date },
): Promise<ClaudeCodeInstall> {
  const location = locateClaudeCode(options.env, options.userHome);
  const now = options.now ?? new Date();
  const settingsText = await readTextIfExists(location.settingsPath);
  const mcpText = await readTextIfExists(location.mcpConfigPath);
  const hooks = addHooks(settingsText, options, location.settingsPath);
  const mcp = addMcpServer(mcpText, options, location.mcpConfigPath);
  const previous = await readRecord(options.paths);
  const backups: string[] = [];
  // Back up a file before its first edit by the integration (not again on a re-run).
  if (hooks.changes.length) {
    const b = previous ? undefined : await backup(location.settingsPath, settingsText, now);
    if (b) backups.push(b);
    await writeKeepingMode(location.settingsPath, hooks.after);
  }
  if (mcp.changes.length) {
    const b = previous ? undefined : await backup(location.mcpConfigPath, mcpText, now);
    if (b) backups.push(b);
    await writeKeepingMode(location.mcpConfigPath, mcp.after);
  }
  const configChanged = await configure(options.config, options.perProject ?? false);
  const record: ClaudeCodeRecord = {
    settingsPath: location.settingsPath,
    mcpConfigPath: location.mcpConfigPath,
    settingsCreated: previous?.settingsCreated ?? settingsText === undefined,
    mcpConfigCreated: previous?.mcpConfigCreated ?? mcpText === undefined,
    settingsKeysCreated: [...new Set([...(previous?.settingsKeysCreated ?? []), ...hooks.created])],
    mcpKeysCreated: [...new Set([...(previous?.mcpKeysCreated ?? []), ...mcp.created])],
    // The values before the first run are the ones to put back.
    configChanged: { ...configChanged, ...(previous?.configChanged ?? {}) },
    backups: [...(previous?.backups ?? []), ...backups],
    agent: options.agent,
  };
  await mkdir(dirname(recordPath(options.paths)), { recursive: true, mode: 0o700 });
  await writeFile(recordPath(options.paths), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  const changes = [
    ...hooks.changes.map((c) => `${location.settingsPath}: ${c}`),
    ...mcp.changes.map((c) => `${location.mcpConfigPath}: ${c}`),
  ];
  const wanted = wantedConfig(options.perProject ?? false);
  for (const key of Object.keys(configChanged)) changes.push(`OC-Memory config: ${key} set to ${String(wanted[key])}`);
  return { location, changes, backups, configChanged };
}

export interface ClaudeCodeUninstall {
  location: ClaudeCodeLocation;
  changes: string[];
  /** Files the integration had created and that held nothing else: deleted. */
  deleted: string[];
}

/** Take out exactly what the integration added, and put back the config values it changed. */
export async function uninstallClaudeCodeIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
  config: ConfigAccess;
}): Promise<ClaudeCodeUninstall> {
  const record = await readRecord(options.paths);
  const location = record
    ? { settingsPath: record.settingsPath, mcpConfigPath: record.mcpConfigPath }
    : locateClaudeCode(options.env, options.userHome);
  const changes: string[] = [];
  const deleted: string[] = [];
  // Each file: our entries out; a file the integration created and that holds nothing else is deleted.
  const undo = async (path: string, created: boolean, remove: (text: string) => { text: string; changes: string[] }) => {
    const text = await readTextIfExists(path);
    if (text === undefined) return;
    const r = remove(text);
    changes.push(...r.changes.map((c) => `${path}: ${c}`));
    if (created && isEmptyObjectText(r.text)) {
      await rm(path, { force: true });
      deleted.push(path);
    } else if (r.changes.length) await writeKeepingMode(path, r.text);
  };
  await undo(location.settingsPath, record?.settingsCreated ?? false, (text) =>
    removeHooks(text, record?.settingsKeysCreated ?? [], location.settingsPath),
  );
  await undo(location.mcpConfigPath, record?.mcpConfigCreated ?? false, (text) =>
    removeMcpServer(text, record?.mcpKeysCreated ?? [], location.mcpConfigPath),
  );
  for (const [key, before] of Object.entries(record?.configChanged ?? {})) {
    await options.config.set(key, before ?? false);
    changes.push(`OC-Memory config: ${key} set back to ${String(before ?? false)}`);
  }
  await rm(recordPath(options.paths), { force: true });
  return { location, changes, deleted };
}

export function isEmptyObjectText(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}

export interface ClaudeCodeStatus {
  location: ClaudeCodeLocation;
  mcpServer: boolean;
  hooks: Record<string, boolean>;
  installedByRecord: boolean;
}

export async function claudeCodeStatus(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
}): Promise<ClaudeCodeStatus> {
  const location = locateClaudeCode(options.env, options.userHome);
  const settings = await readTextIfExists(location.settingsPath);
  const mcp = await readTextIfExists(location.mcpConfigPath);
  const hooks: Record<string, boolean> = {};
  const settingsData = safeJson(settings) as { hooks?: Record<string, Array<{ hooks?: Array<{ command?: unknown }> }>> } | undefined;
  for (const { event } of HOOK_EVENTS)
    hooks[event] = (settingsData?.hooks?.[event] ?? []).some((g) => (g?.hooks ?? []).some((h) => isOwnHookCommand(h?.command)));
  const mcpData = safeJson(mcp) as { mcpServers?: Record<string, unknown> } | undefined;
  return {
    location,
    mcpServer: !!mcpData?.mcpServers?.[MCP_SERVER_NAME],
    hooks,
    installedByRecord: (await readRecord(options.paths)) !== undefined,
  };
}

export function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The settings as JSON, for `--print` and for users who edit by hand. */
export function claudeCodeSnippet(options: ClaudeCodeOptions): {
  mcpServers: Record<string, unknown>;
  hooks: Record<string, unknown>;
  permissions: { allow: string[] };
} {
  const hooks: Record<string, unknown> = {};
  for (const { event, kind, timeout } of HOOK_EVENTS)
    hooks[event] = [{ hooks: [{ type: 'command', command: hookCommand(options, kind), timeout }] }];
  return { mcpServers: { [MCP_SERVER_NAME]: mcpServerEntry(options) }, hooks, permissions: { allow: [PERMISSION_RULE] } };
}
