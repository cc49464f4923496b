/**
 * `ocm-run integrate pi`: memory for pi through an extension
 * (`<pi agent dir>/extensions/oc-memory/`, docs/running.md "pi"). pi has no
 * MCP client, so the extension (templates/pi-extension/index.ts) is one: it
 * starts the same `ocm-run mcp` server Claude Code and Codex use and registers
 * its tools with pi, runs the same `ocm-run hook` commands before a prompt
 * (session-start, prompt) and after it (after-turn), and hands pi the context
 * they print. The folder holds the extension and its settings
 * (oc-memory.json); `--uninstall` deletes those two files, and the folder when
 * nothing else is in it.
 */
import { copyFile, mkdir, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { integrationRecordPath, readIntegrationRecord, type ConfigAccess, type Runner } from '../claude-code/integration.js';
import type { HomePaths } from '../../platform/home.js';
import { exists } from '../../platform/home.js';
import { MCP_SERVER_NAME } from '../../core/injected-context.js';
import { packagePath } from '../../platform/package-root.js';

export const PI_EXTENSION_FILES = ['index.ts', 'oc-memory.json'] as const;

/** pi's agent folder ($PI_CODING_AGENT_DIR, else ~/.pi/agent) and OC-Memory's extension folder in it. */
export function locatePi(
  env: Record<string, string | undefined>,
  userHome: string = homedir(),
): { agentDir: string; extensionDir: string } {
  const agentDir = env.PI_CODING_AGENT_DIR?.trim() || join(userHome, '.pi', 'agent');
  return { agentDir, extensionDir: join(agentDir, 'extensions', MCP_SERVER_NAME) };
}

/** What the extension reads from oc-memory.json. */
export interface PiExtensionSettings {
  node: string;
  cli: string;
  home: string;
  agent: string;
  /** The MCP SDK's client modules, resolved from OC-Memory's own dependencies. */
  sdkClient: string;
  sdkStdio: string;
}

export function piExtensionSettings(options: { paths: HomePaths; runner: Runner; agent: string }): PiExtensionSettings {
  const require = createRequire(import.meta.url);
  return {
    node: options.runner.node,
    cli: options.runner.cli,
    home: options.paths.root,
    agent: options.agent,
    sdkClient: require.resolve('@modelcontextprotocol/sdk/client/index.js'),
    sdkStdio: require.resolve('@modelcontextprotocol/sdk/client/stdio.js'),
  };
}

interface PiRecord {
  extensionDir: string;
  configChanged: Record<string, unknown>;
}

export async function installPiIntegration(options: {
  paths: HomePaths;
  runner: Runner;
  agent: string;
  env: Record<string, string | undefined>;
  userHome?: string;
  config: ConfigAccess;
}): Promise<{ extensionDir: string; changes: string[] }> {
  const { extensionDir } = locatePi(options.env, options.userHome);
  const changes: string[] = [];
  await mkdir(extensionDir, { recursive: true });
  await copyFile(packagePath('templates', 'pi-extension', 'index.ts'), join(extensionDir, 'index.ts'));
  await writeFile(join(extensionDir, 'oc-memory.json'), `${JSON.stringify(piExtensionSettings(options), null, 2)}\n`);
  changes.push(`extension written to ${extensionDir}`);
  const previous = await readIntegrationRecord<PiRecord>(integrationRecordPath(options.paths, 'pi'));
  const configChanged: Record<string, unknown> = {};
  if (options.config.get('sources.pi.enabled') !== true) {
    configChanged['sources.pi.enabled'] = options.config.get('sources.pi.enabled');
    await options.config.set('sources.pi.enabled', true);
    changes.push('OC-Memory config: sources.pi.enabled set to true');
  }
  const record: PiRecord = { extensionDir, configChanged: { ...configChanged, ...(previous?.configChanged ?? {}) } };
  await mkdir(dirname(integrationRecordPath(options.paths, 'pi')), { recursive: true, mode: 0o700 });
  await writeFile(integrationRecordPath(options.paths, 'pi'), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return { extensionDir, changes };
}

export async function uninstallPiIntegration(options: {
  paths: HomePaths;
  env: Record<string, string | undefined>;
  userHome?: string;
  config: ConfigAccess;
}): Promise<{ extensionDir: string; changes: string[] }> {
  const record = await readIntegrationRecord<PiRecord>(integrationRecordPath(options.paths, 'pi'));
  const extensionDir = record?.extensionDir ?? locatePi(options.env, options.userHome).extensionDir;
  const changes: string[] = [];
  for (const name of PI_EXTENSION_FILES) {
    const file = join(extensionDir, name);
    if (await exists(file)) {
      await rm(file, { force: true });
      changes.push(`removed ${file}`);
    }
  }
  if ((await exists(extensionDir)) && (await readdir(extensionDir)).length === 0) await rmdir(extensionDir);
  for (const [key, before] of Object.entries(record?.configChanged ?? {})) {
    await options.config.set(key, before ?? false);
    changes.push(`OC-Memory config: ${key} set back to ${String(before ?? false)}`);
  }
  await rm(integrationRecordPath(options.paths, 'pi'), { force: true });
  return { extensionDir, changes };
}
