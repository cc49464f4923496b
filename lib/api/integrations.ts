/**
 * The agents' side as a caller sets it up (`ocm-run integrate`, `repoint`):
 * OpenClaw (the memory folders in openclaw.json and the plugin), Claude Code
 * and Codex (the MCP server and the hooks), pi (the extension) — each one's
 * status, the settings printed instead of written, the install and the
 * uninstall — and every installed piece pointed at this program again. Each
 * call loads its integration (lib/integrations/) when it runs; the plugin
 * the OpenClaw integration installs runs this package's CLI entry.
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { ConfigAccess, Runner } from '../integrations/claude-code/integration.js';
import type {
  InstallReport,
  InstallStep,
  IntegrationPreview,
  IntegrationStatus,
  PathsKeys,
  UninstallReport,
} from '../integrations/openclaw/integration.js';
import type { OpenClawPresence } from '../integrations/openclaw/presence.js';
import type { ToolPolicyAdvice } from '../integrations/openclaw/tool-policy.js';
import type {
  ClaudeCodeInstall,
  ClaudeCodeLocation,
  ClaudeCodeStatus,
  ClaudeCodeUninstall,
} from '../integrations/claude-code/integration.js';
import type { CodexInstall, CodexLocation, CodexStatus, CodexUninstall } from '../integrations/codex/integration.js';
import type { PiExtensionSettings } from '../integrations/pi/integration.js';
import type { RepointResult } from '../jobs/repoint.js';

export type { Runner } from '../integrations/claude-code/integration.js';
export type {
  InstallReport,
  IntegrationPreview,
  IntegrationStatus,
  PathsKeys,
  UninstallReport,
} from '../integrations/openclaw/integration.js';
export type { OpenClawPresence } from '../integrations/openclaw/presence.js';
export type { AgentToolPolicy, ToolPolicyAdvice } from '../integrations/openclaw/tool-policy.js';
export type {
  ClaudeCodeInstall,
  ClaudeCodeLocation,
  ClaudeCodeStatus,
  ClaudeCodeUninstall,
} from '../integrations/claude-code/integration.js';
export type { CodexInstall, CodexLocation, CodexStatus, CodexUninstall } from '../integrations/codex/integration.js';
export type { PiExtensionSettings } from '../integrations/pi/integration.js';
export type { RepointPiece, RepointResult } from '../jobs/repoint.js';

/** Where the integrations look for each agent (HOME, OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR, CODEX_HOME, …). */
export interface AgentSide {
  paths: HomePaths;
  env: NodeJS.ProcessEnv;
}

/** The plugin's settings: this home, run by this Node and this package's CLI. */
async function pluginSettings(paths: HomePaths): Promise<{ home: string; node: string; cli: string }> {
  const { cliEntry } = await import('../jobs/schedule/index.js');
  return { home: paths.root, node: process.execPath, cli: cliEntry() };
}

/** `integrate openclaw --print`: the settings and the plugin's files, changing nothing. */
export async function openClawPreview(options: AgentSide & { keys: PathsKeys }): Promise<IntegrationPreview> {
  const { integrationPreview } = await import('../integrations/openclaw/integration.js');
  return integrationPreview({ paths: options.paths, env: options.env, plugin: await pluginSettings(options.paths), keys: options.keys });
}

/** `integrate openclaw`: one transaction (every step undone on a failure), checked by OpenClaw when it is installed. */
export async function installOpenClaw(
  options: AgentSide & { keys: PathsKeys; onStep?: ((step: InstallStep) => void | Promise<void>) | undefined },
): Promise<InstallReport> {
  const { installOpenClawIntegration } = await import('../integrations/openclaw/integration.js');
  return installOpenClawIntegration({
    paths: options.paths,
    env: options.env,
    plugin: await pluginSettings(options.paths),
    keys: options.keys,
    onStep: options.onStep,
  });
}

/** `integrate openclaw --uninstall`: openclaw.json restored (or only our settings taken out) and the plugin removed. */
export async function uninstallOpenClaw(options: AgentSide): Promise<UninstallReport> {
  const { uninstallOpenClawIntegration } = await import('../integrations/openclaw/integration.js');
  return uninstallOpenClawIntegration({ paths: options.paths, env: options.env });
}

/** `integrate openclaw status`: the integration's pieces, OpenClaw as seen, and each agent's tool policy. */
export interface OpenClawReport {
  status: IntegrationStatus;
  presence: OpenClawPresence;
  /** The installed OpenClaw's version, as `openclaw --version` says it. */
  version?: string | undefined;
}

export async function openClawStatus(options: AgentSide): Promise<OpenClawReport> {
  const { integrationStatus } = await import('../integrations/openclaw/integration.js');
  const { openClawVersion } = await import('../integrations/openclaw/cli.js');
  const version = await openClawVersion({ env: options.env });
  const status = await integrationStatus({ paths: options.paths, env: options.env, version });
  const { findOpenClaw } = await import('../integrations/openclaw/presence.js');
  const presence = await findOpenClaw({ env: options.env, version: version ?? null });
  return { status, presence, version: version?.text };
}

/** The lines that say which OpenClaw agents the tool policy hides the memory tools from, and what to change. */
export async function toolPolicyText(advice: readonly ToolPolicyAdvice[]): Promise<string[]> {
  const { toolPolicyLines } = await import('../integrations/openclaw/tool-policy.js');
  return toolPolicyLines(advice);
}

/** One piece of advice as a sentence ("add … to tools.alsoAllow of agent …"). */
export async function adviceText(): Promise<(advice: ToolPolicyAdvice) => string> {
  const { describeAdvice } = await import('../integrations/openclaw/tool-policy.js');
  return describeAdvice;
}

/** Claude Code, Codex and pi: the agent's side, the home's config and the program they run. */
export interface AgentIntegrationOptions extends AgentSide {
  config: Config;
  /** The home's config.yaml (the transcript source is turned on and off there). */
  configFile: string;
  /** How the agent runs this OC-Memory (the CLI and the prompt hook's own entry). */
  runner: Runner;
}

/** OC-Memory's config as an uninstall changes it (the transcript source turned off, comments kept). */
async function configAccessOf(options: Omit<AgentIntegrationOptions, 'runner'>): Promise<ConfigAccess> {
  const { configAccess } = await import('../integrations/agent-setup.js');
  return configAccess(options.config, options.configFile, options.paths, options.env);
}

/** `integrate claude-code status`. */
export async function claudeCodeStatus(options: AgentSide): Promise<ClaudeCodeStatus> {
  const i = await import('../integrations/claude-code/integration.js');
  return i.claudeCodeStatus({ paths: options.paths, env: options.env });
}

/** What `integrate claude-code --print` shows: where each setting goes, the settings, and the `claude mcp add` command's arguments. */
export interface ClaudeCodePreview {
  location: ClaudeCodeLocation;
  snippet: ReturnType<typeof import('../integrations/claude-code/integration.js').claudeCodeSnippet>;
  mcpArgs: string[];
}

/** `integrate claude-code --print`. */
export async function claudeCodePreview(
  options: AgentSide & { runner: Runner; agent: string; perProject: boolean },
): Promise<ClaudeCodePreview> {
  const i = await import('../integrations/claude-code/integration.js');
  const base = { paths: options.paths, runner: options.runner, agent: options.agent, perProject: options.perProject };
  return { location: i.locateClaudeCode(options.env), snippet: i.claudeCodeSnippet(base), mcpArgs: i.mcpServerEntry(base).args };
}

/** `integrate claude-code`: the MCP server, the hooks and the transcript source, with backups; the lines that say what was done. */
export async function installClaudeCode(
  options: AgentSide & { configFile: string; runner: Runner; perProject: boolean },
): Promise<{ result: ClaudeCodeInstall; validated: string; lines: string[] }> {
  const { setUpClaudeCode } = await import('../integrations/agent-setup.js');
  return setUpClaudeCode({
    paths: options.paths,
    configFile: options.configFile,
    env: options.env,
    runner: options.runner,
    perProject: options.perProject,
  });
}

/** `integrate claude-code --uninstall`. */
export async function uninstallClaudeCode(options: Omit<AgentIntegrationOptions, 'runner'>): Promise<ClaudeCodeUninstall> {
  const i = await import('../integrations/claude-code/integration.js');
  return i.uninstallClaudeCodeIntegration({
    paths: options.paths,
    env: options.env,
    config: await configAccessOf(options),
  });
}

/** `integrate codex status`, with how many hooks Codex must trust. */
export async function codexStatus(options: AgentSide): Promise<CodexStatus & { hooksToTrust: number }> {
  const i = await import('../integrations/codex/integration.js');
  return { ...(await i.codexStatus({ paths: options.paths, env: options.env })), hooksToTrust: i.CODEX_HOOK_WIRING.events.length };
}

/** `integrate codex --print`: where each setting goes, and the settings. */
export async function codexPreview(
  options: AgentSide & { runner: Runner; agent: string },
): Promise<{ location: CodexLocation; snippet: { configToml: string; hooksJson: string } }> {
  const i = await import('../integrations/codex/integration.js');
  return {
    location: i.locateCodex(options.env),
    snippet: i.codexSnippet({ paths: options.paths, runner: options.runner, agent: options.agent }),
  };
}

/** `integrate codex`: the MCP server, trusted hooks and the transcript source, with backups. */
export async function installCodex(
  options: AgentSide & { configFile: string; runner: Runner },
): Promise<{ result: CodexInstall; validated: string; lines: string[] }> {
  const { setUpCodex } = await import('../integrations/agent-setup.js');
  return setUpCodex({ paths: options.paths, configFile: options.configFile, env: options.env, runner: options.runner });
}

/** `integrate codex --uninstall`. */
export async function uninstallCodex(options: Omit<AgentIntegrationOptions, 'runner'>): Promise<CodexUninstall> {
  const i = await import('../integrations/codex/integration.js');
  return i.uninstallCodexIntegration({
    paths: options.paths,
    env: options.env,
    config: await configAccessOf(options),
  });
}

/** `integrate pi status`: where the extension goes and whether it is there. */
export async function piStatus(options: AgentSide): Promise<{ extensionDir: string; installed: boolean }> {
  const i = await import('../integrations/pi/integration.js');
  const { exists } = await import('../platform/home.js');
  const { join } = await import('node:path');
  const { extensionDir } = i.locatePi(options.env);
  return { extensionDir, installed: await exists(join(extensionDir, 'oc-memory.json')) };
}

/** `integrate pi --print`: the extension's source in this package, where it goes, and its settings. */
export async function piPreview(
  options: AgentSide & { runner: Runner },
): Promise<{ extensionDir: string; extensionSource: string; settings: PiExtensionSettings }> {
  const i = await import('../integrations/pi/integration.js');
  const { packagePath } = await import('../platform/package-root.js');
  return {
    extensionDir: i.locatePi(options.env).extensionDir,
    extensionSource: packagePath('templates', 'pi-extension', 'index.ts'),
    settings: i.piExtensionSettings({ paths: options.paths, runner: options.runner, agent: 'pi' }),
  };
}

/** `integrate pi`: the extension and the transcript source. */
export async function installPi(
  options: AgentSide & { configFile: string; runner: Runner },
): Promise<Awaited<ReturnType<typeof import('../integrations/agent-setup.js').setUpPi>>> {
  const { setUpPi } = await import('../integrations/agent-setup.js');
  return setUpPi({ paths: options.paths, configFile: options.configFile, env: options.env, runner: options.runner });
}

/** `integrate pi --uninstall`. */
export async function uninstallPi(options: Omit<AgentIntegrationOptions, 'runner'>): Promise<{ extensionDir: string; changes: string[] }> {
  const i = await import('../integrations/pi/integration.js');
  return i.uninstallPiIntegration({
    paths: options.paths,
    env: options.env,
    config: await configAccessOf(options),
  });
}

/** `repoint`: every installed integration and the schedule run this program from now on. */
export async function repoint(options: AgentIntegrationOptions): Promise<RepointResult> {
  const { repointIntegrations } = await import('../jobs/repoint.js');
  const { cliEntry } = await import('../jobs/schedule/index.js');
  return repointIntegrations({ ...options, cliEntry: cliEntry() });
}
