/**
 * `ocm-run integrate codex`: memory for the Codex CLI, through its own
 * extension points (docs/running.md, "Codex"):
 *
 * - the MCP server `oc-memory` (`ocm-run mcp --agent <agent>`) as
 *   `[mcp_servers.oc-memory]` in `$CODEX_HOME/config.toml` (~/.codex), with
 *   `default_tools_approval_mode = "approve"` so `codex exec` may call its
 *   tools (none deletes anything);
 * - hooks in `$CODEX_HOME/hooks.json` — the same format and the same hook
 *   command as Claude Code's (lib/integrations/claude-code/integration.ts): SessionStart →
 *   the active memory, UserPromptSubmit → memories related to the prompt,
 *   Stop → observe + index in the background;
 * - trust for those hooks: Codex runs a user hook only when
 *   `[hooks.state."<key>"] trusted_hash` matches the hash it computes for it
 *   (otherwise it skips the hook without a word). The key and hash are asked
 *   from Codex itself (`codex app-server` `hooks/list`, lib/integrations/codex/cli.ts) and
 *   written as its `/hooks` screen would; without `codex` on PATH the hooks
 *   stay untrusted and the command says so;
 * - `sources.codex.enabled: true` in OC-Memory's config.
 *
 * config.toml is edited as text: OC-Memory appends one block between marker
 * comments and never touches a byte outside it, and every result is parsed
 * with smol-toml before it is written (a block that would clash with the
 * user's tables is refused, the file left as it was). No maintained
 * JavaScript TOML library keeps comments and layout on a round trip, and an
 * appended block needs none. Uninstall removes exactly that block.
 */
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  addHooks,
  backup,
  isEmptyObjectText,
  integrationRecordPath,
  isOwnHookCommand,
  mcpServerEntry,
  readIntegrationRecord,
  removeHooks,
  safeJson,
  writeKeepingMode,
  type ClaudeCodeOptions,
  type ConfigAccess,
  type HookWiring,
} from '../claude-code/integration.js';
import { ConfigError } from '../../core/errors.js';
import { readTextIfExists, type HomePaths } from '../../platform/home.js';
import { MCP_SERVER_NAME } from '../../core/injected-context.js';

export interface CodexLocation {
  codexHome: string;
  configPath: string;
  hooksPath: string;
}

/** Where Codex keeps its config: $CODEX_HOME, else ~/.codex (as Codex resolves it). */
export function locateCodex(env: Record<string, string | undefined>, userHome: string = homedir()): CodexLocation {
  const codexHome = env.CODEX_HOME?.trim() || join(userHome, '.codex');
  return { codexHome, configPath: join(codexHome, 'config.toml'), hooksPath: join(codexHome, 'hooks.json') };
}

/** Codex's hook events (the names of its hooks.json) and what OC-Memory runs on each. Codex has no session-end event: Stop ends every turn. */
export const CODEX_HOOK_WIRING: HookWiring = {
  events: [
    { event: 'SessionStart', kind: 'session-start', timeout: 10 },
    { event: 'UserPromptSubmit', kind: 'prompt', timeout: 5 },
    { event: 'Stop', kind: 'after-turn', timeout: 10 },
  ],
  permission: false,
};

export const BLOCK_START = '# >>> oc-memory (added by `ocm-run integrate codex`; `ocm-run integrate codex --uninstall` takes it out)';
export const BLOCK_END = '# <<< oc-memory';

/** A hook Codex should trust: its key and the hash Codex computed for it. */
export interface HookTrust {
  key: string;
  hash: string;
}

/** OC-Memory's block for config.toml: the MCP server, then the hooks' trust. */
export function configBlock(options: ClaudeCodeOptions, trust: readonly HookTrust[]): string {
  const entry = mcpServerEntry(options);
  const server = stringifyToml({
    mcp_servers: { [MCP_SERVER_NAME]: { command: entry.command, args: entry.args, default_tools_approval_mode: 'approve' } },
  });
  const parts = [BLOCK_START, server.trim()];
  for (const t of trust) parts.push('', stringifyToml({ hooks: { state: { [t.key]: { trusted_hash: t.hash } } } }).trim());
  parts.push(BLOCK_END);
  return `${parts.join('\n')}\n`;
}

function checkToml(text: string, file: string, what: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${file} ${what}: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'Fix the file (Codex reads it as TOML), or add the settings by hand: `ocm-run integrate codex --print` shows them.',
      cause: error,
    });
  }
}

/** The config.toml text without OC-Memory's block (the block and the separator it was appended with). */
export function withoutBlock(text: string, inserted?: string): { text: string; removed: boolean } {
  if (inserted && text.includes(inserted)) return { text: text.replace(inserted, ''), removed: true };
  const start = text.indexOf(BLOCK_START);
  if (start === -1) return { text, removed: false };
  const endMarker = text.indexOf(BLOCK_END, start);
  if (endMarker === -1) return { text, removed: false };
  let end = endMarker + BLOCK_END.length;
  if (text[end] === '\n') end++;
  // The blank line the block was appended after.
  const begin = start >= 2 && text.slice(start - 2, start) === '\n\n' ? start - 1 : start;
  return { text: text.slice(0, begin) + text.slice(end), removed: true };
}

/** Append OC-Memory's block to config.toml text (taking out the one appended before, `previous`, first); returns the text and exactly what was appended. */
export function withBlock(
  text: string | undefined,
  block: string,
  file = 'config.toml',
  previous?: string,
): { text: string; inserted: string } {
  const base = text === undefined ? '' : withoutBlock(text, previous).text;
  if (base.trim()) checkToml(base, file, 'is not TOML OC-Memory can edit');
  const separator = base === '' ? '' : base.endsWith('\n\n') ? '' : base.endsWith('\n') ? '\n' : '\n\n';
  const inserted = `${separator}${block}`;
  const result = base + inserted;
  const parsed = checkToml(
    result,
    file,
    'would not be valid TOML with the oc-memory settings (does it define mcp_servers.oc-memory or the same hooks.state keys already?)',
  );
  const servers = parsed.mcp_servers as Record<string, unknown> | undefined;
  if (!servers?.[MCP_SERVER_NAME])
    throw new ConfigError(`${file}: the oc-memory MCP server did not come out as a table.`, {
      hint: 'Add it by hand: `ocm-run integrate codex --print`.',
    });
  return { text: result, inserted };
}

/** What the integration did, to undo exactly that: <home>/.ocm/integrations/codex.json. */
export interface CodexRecord {
  configPath: string;
  hooksPath: string;
  configCreated: boolean;
  hooksCreated: boolean;
  hooksKeysCreated: string[];
  /** The exact text appended to config.toml (separator included). */
  inserted: string;
  configChanged: Record<string, unknown>;
  backups: string[];
  agent: string;
  /** Hook keys trusted in config.toml. */
  trusted: string[];
}

export function codexRecordPath(paths: HomePaths): string {
  return integrationRecordPath(paths, 'codex');
}

export async function readCodexRecord(paths: HomePaths): Promise<CodexRecord | undefined> {
  return readIntegrationRecord<CodexRecord>(codexRecordPath(paths));
}

/** Asks Codex for its hooks (lib/integrations/codex/cli.ts listCodexHooks); undefined when `codex` is not installed. */
export type HookLister = () => Promise<Array<{ key: string; command: string | null; sourcePath: string; currentHash: string }> | undefined>;

export interface CodexInstall {
  location: CodexLocation;
  changes: string[];
  backups: string[];
  /** Our hooks and whether Codex will run them. */
  trust: 'trusted' | 'no-codex' | 'not-found';
}

/** Wire OC-Memory into Codex, trust its hooks as Codex's /hooks would, and turn on the Codex transcript source. */
export async function installCodexIntegration(
  options: ClaudeCodeOptions & {
    env: Record<string, string | undefined>;
    userHome?: string;
    config: ConfigAccess;
    listHooks: HookLister;
    now?: Date;
  },
): Promise<CodexInstall> {
  const location = locateCodex(options.env, options.userHome);
  const now = options.now ?? new Date();
  const previous = await readCodexRecord(options.paths);
  const configText = await readTextIfExists(location.configPath);
  const hooksText = await readTextIfExists(location.hooksPath);
  const changes: string[] = [];
  const backups: string[] = [];
  // Check both edits before writing either.
  const hooks = addHooks(hooksText, options, location.hooksPath, CODEX_HOOK_WIRING);
  let config = withBlock(configText, configBlock(options, []), location.configPath, previous?.inserted);
  if (!previous) {
    for (const [path, text] of [
      [location.configPath, configText],
      [location.hooksPath, hooks.changes.length ? hooksText : undefined],
    ] as const) {
      const b = await backup(path, text, now);
      if (b) backups.push(b);
    }
  }
  if (hooks.changes.length) {
    await writeKeepingMode(location.hooksPath, hooks.after);
    changes.push(...hooks.changes.map((c) => `${location.hooksPath}: ${c}`));
  }
  // Codex hashes a hook as it reads it from hooks.json: ask it now that the file is written.
  const listed = await options.listHooks();
  const ours = (listed ?? []).filter((h) => h.sourcePath === location.hooksPath && isOwnHookCommand(h.command));
  const trust = ours.map((h) => ({ key: h.key, hash: h.currentHash }));
  config = withBlock(configText, configBlock(options, trust), location.configPath, previous?.inserted);
  if (config.text !== configText) {
    await writeKeepingMode(location.configPath, config.text);
    changes.push(
      `${location.configPath}: ${configText?.includes(BLOCK_START) ? 'updated' : 'added'} the MCP server ${MCP_SERVER_NAME}${trust.length ? ` and trust for ${trust.length} hooks` : ''}`,
    );
  }
  const configChanged: Record<string, unknown> = {};
  if (options.config.get('sources.codex.enabled') !== true) {
    configChanged['sources.codex.enabled'] = options.config.get('sources.codex.enabled');
    await options.config.set('sources.codex.enabled', true);
    changes.push('OC-Memory config: sources.codex.enabled set to true');
  }
  const record: CodexRecord = {
    configPath: location.configPath,
    hooksPath: location.hooksPath,
    configCreated: previous?.configCreated ?? configText === undefined,
    hooksCreated: previous?.hooksCreated ?? hooksText === undefined,
    hooksKeysCreated: [...new Set([...(previous?.hooksKeysCreated ?? []), ...hooks.created])],
    inserted: config.inserted,
    configChanged: { ...configChanged, ...(previous?.configChanged ?? {}) },
    backups: [...(previous?.backups ?? []), ...backups],
    agent: options.agent,
    trusted: trust.map((t) => t.key),
  };
  await mkdir(dirname(codexRecordPath(options.paths)), { recursive: true, mode: 0o700 });
  await writeFile(codexRecordPath(options.paths), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return {
    location,
    changes,
    backups,
    trust: listed === undefined ? 'no-codex' : trust.length === CODEX_HOOK_WIRING.events.length ? 'trusted' : 'not-found',
  };
}

export interface CodexUninstall {
  location: CodexLocation;
  changes: string[];
  deleted: string[];
}

/** Take out exactly what the integration added, and put back the config value it changed. */
export async function uninstallCodexIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
  config: ConfigAccess;
}): Promise<CodexUninstall> {
  const record = await readCodexRecord(options.paths);
  const location = record
    ? { ...locateCodex(options.env, options.userHome), configPath: record.configPath, hooksPath: record.hooksPath }
    : locateCodex(options.env, options.userHome);
  const changes: string[] = [];
  const deleted: string[] = [];
  const hooksText = await readTextIfExists(location.hooksPath);
  if (hooksText !== undefined) {
    const r = removeHooks(hooksText, record?.hooksKeysCreated ?? [], location.hooksPath, CODEX_HOOK_WIRING);
    changes.push(...r.changes.map((c) => `${location.hooksPath}: ${c}`));
    if ((record?.hooksCreated ?? false) && isEmptyObjectText(r.text)) {
      await rm(location.hooksPath, { force: true });
      deleted.push(location.hooksPath);
    } else if (r.changes.length) await writeKeepingMode(location.hooksPath, r.text);
  }
  const configText = await readTextIfExists(location.configPath);
  if (configText !== undefined) {
    const r = withoutBlock(configText, record?.inserted);
    if (r.removed) {
      changes.push(`${location.configPath}: removed the MCP server ${MCP_SERVER_NAME} and its hooks' trust`);
      if ((record?.configCreated ?? false) && !r.text.trim()) {
        await rm(location.configPath, { force: true });
        deleted.push(location.configPath);
      } else await writeKeepingMode(location.configPath, r.text);
    }
  }
  for (const [key, before] of Object.entries(record?.configChanged ?? {})) {
    await options.config.set(key, before ?? false);
    changes.push(`OC-Memory config: ${key} set back to ${String(before ?? false)}`);
  }
  await rm(codexRecordPath(options.paths), { force: true });
  return { location, changes, deleted };
}

export interface CodexStatus {
  location: CodexLocation;
  mcpServer: boolean;
  hooks: Record<string, boolean>;
  /** Hook keys with a trusted_hash recorded by the integration. */
  trusted: number;
}

export async function codexStatus(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
}): Promise<CodexStatus> {
  const location = locateCodex(options.env, options.userHome);
  const hooksData = safeJson(await readTextIfExists(location.hooksPath)) as
    | { hooks?: Record<string, Array<{ hooks?: Array<{ command?: unknown }> }>> }
    | undefined;
  const hooks: Record<string, boolean> = {};
  for (const { event } of CODEX_HOOK_WIRING.events)
    hooks[event] = (hooksData?.hooks?.[event] ?? []).some((g) => (g?.hooks ?? []).some((h) => isOwnHookCommand(h?.command)));
  let config: Record<string, unknown> = {};
  try {
    config = parseToml((await readTextIfExists(location.configPath)) ?? '') as Record<string, unknown>;
  } catch {
    /* unreadable: nothing of ours counted */
  }
  const servers = config.mcp_servers as Record<string, unknown> | undefined;
  const states = ((config.hooks as Record<string, unknown> | undefined)?.state ?? {}) as Record<string, { trusted_hash?: unknown }>;
  const record = await readCodexRecord(options.paths);
  const trusted = (record?.trusted ?? []).filter((key) => typeof states[key]?.trusted_hash === 'string').length;
  return { location, mcpServer: !!servers?.[MCP_SERVER_NAME], hooks, trusted };
}

/** The settings, for `--print` and for users who edit by hand. */
export function codexSnippet(options: ClaudeCodeOptions): { configToml: string; hooksJson: string } {
  const hooks = addHooks(undefined, options, 'hooks.json', CODEX_HOOK_WIRING);
  return { configToml: configBlock(options, []), hooksJson: hooks.after };
}
