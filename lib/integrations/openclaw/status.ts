/**
 * What `doctor`, `integrate openclaw status` and `--print` report: whether
 * the folders, the plugin entry and the plugin's files are in place, each
 * agent's tool policy, and the settings the integration would write.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JsonArrayNode, JsonObjectNode } from '@croct/json5-parser';
import type { HomePaths } from '../../platform/home.js';
import type { OpenClawVersion } from './cli.js';
import {
  AGENT_CURRENT_KEY,
  AGENT_LEGACY_KEY,
  agentExtraPaths,
  configuredAgents,
  CURRENT_KEY,
  extraPathKey,
  LEGACY_KEY,
  memoryFolders,
  sharedExtraPaths,
  type ExtraPath,
} from './extra-paths.js';
import { getAt, parseConfigText } from './json5-tree.js';
import { locateOpenClaw, type OpenClawLocation } from './location.js';
import { PLUGIN_FILES, PLUGIN_ID, pluginSourcePath } from './plugin-files.js';
import { integrationSnippet, type PluginSettings } from './settings-edit.js';
import { printShape, readsManifestProfiles, versionFromConfig, type PathsKeys } from './shapes.js';
import { memoryToolPolicyByAgent, type AgentToolPolicy } from './tool-policy.js';

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
export async function integrationStatus(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
  version?: OpenClawVersion | undefined;
}): Promise<IntegrationStatus> {
  const location = await locateOpenClaw(options.env, options.userHome);
  const folders = memoryFolders(options.paths);
  const status: IntegrationStatus = {
    location,
    currentKey: false,
    legacyKey: false,
    pluginEntry: false,
    pluginInstalled: false,
    pluginOutdated: false,
    toolPolicy: [],
  };
  if (location.configExists) {
    try {
      const text = await readFile(location.configPath, 'utf8');
      const root = parseConfigText(text, location.configPath);
      status.toolPolicy = memoryToolPolicyByAgent(root.toJSON(), {
        manifestProfiles: readsManifestProfiles(options.version ?? versionFromConfig(text)),
      });
      const listHas = (path: string[], values: ExtraPath[]) => {
        const v = getAt(root, path);
        return (
          values.length === 0 || (v instanceof JsonArrayNode && values.every((f) => v.toJSON().map(extraPathKey).includes(extraPathKey(f))))
        );
      };
      // Only main: the shared key; several agents: each its own (see applyIntegration).
      const agents = configuredAgents(root);
      const has = (global: string[], perAgent: string[], patterns: boolean) =>
        agents.length === 0
          ? listHas(global, sharedExtraPaths(folders, patterns))
          : agents.every((a) => listHas([...a.path, ...perAgent], agentExtraPaths(folders, a.id, patterns)));
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
export async function integrationPreview(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  plugin: PluginSettings;
  keys: PathsKeys;
}): Promise<IntegrationPreview> {
  const location = await locateOpenClaw(options.env);
  const configText = await readFile(location.configPath, 'utf8').catch(() => undefined);
  const { shape, version } = await printShape({ env: options.env, keys: options.keys, configText });
  const snippet = integrationSnippet({ folders: memoryFolders(options.paths), plugin: options.plugin, shape, configText });
  const pluginFiles = PLUGIN_FILES.map((name) => pluginSourcePath(name));
  return { location, snippet, pluginFiles, version };
}
