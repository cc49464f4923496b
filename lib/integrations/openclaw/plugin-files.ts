/**
 * The plugin's files: where this package has them, staging them as one
 * package folder for `openclaw plugins install`, placing them (through
 * OpenClaw's installer, or copied), and taking them out again (through
 * `openclaw plugins uninstall`, then whatever of ours is left).
 */
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { JsonObjectNode, JsonParser } from '@croct/json5-parser';
import { writeFileAtomic } from '../../platform/atomic-file.js';
import type { HomePaths } from '../../platform/home.js';
import { packagePath } from '../../platform/package-root.js';
import { installPluginWithOpenClaw, uninstallPluginWithOpenClaw, type OpenClawCliOptions } from './cli.js';
import { getAt } from './json5-tree.js';
import type { OpenClawLocation } from './location.js';

export const PLUGIN_ID = 'oc-memory';
export const PLUGIN_FILES = ['openclaw.plugin.json', 'package.json', 'index.js'] as const;

/**
 * Where each file of the plugin package comes from: the manifests as written,
 * the entry as compiled (package.json's `openclaw.extensions` names index.js).
 */
export function pluginSourcePath(name: (typeof PLUGIN_FILES)[number]): string {
  return name.endsWith('.js')
    ? packagePath('dist', 'templates', 'openclaw-plugin', name)
    : packagePath('templates', 'openclaw-plugin', name);
}

/**
 * The plugin as one package folder (manifests and compiled entry side by
 * side), for `openclaw plugins install`: kept in the home's machine folder,
 * so OpenClaw's record of where the plugin came from stays a real path.
 */
export async function stagePluginPackage(paths: HomePaths): Promise<string> {
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
export async function installRecordIn(configPath: string): Promise<unknown> {
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
export async function placePlugin(
  location: OpenClawLocation,
  paths: HomePaths,
  cli: OpenClawCliOptions,
  configCopy: string,
): Promise<{ how: 'openclaw' | 'copied'; note?: string; files: string[] }> {
  const installed = await installPluginWithOpenClaw(cli, await stagePluginPackage(paths), configCopy);
  if (installed.ok) return { how: 'openclaw', files: PLUGIN_FILES.map((name) => join(location.pluginDir, name)) };
  const files = await copyPlugin(location.pluginDir);
  if (!installed.available) return { how: 'copied', files };
  const reason = installed.output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^WARNING|outside ClawHub|^Plugin manifest id/.test(l))
    .slice(-2)
    .join(' ');
  return {
    how: 'copied',
    note: `\`openclaw plugins install\` refused it (${reason || 'no reason given'}), so it was copied and OpenClaw may warn that it cannot verify where it came from`,
    files,
  };
}

/** Our plugin's files (only ours: anything the user put there stays, and then the folder too). */
export async function removePluginFiles(pluginDir: string): Promise<boolean> {
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

/**
 * The reverse of placePlugin: when the `openclaw` CLI is there and our
 * plugin is installed, `openclaw plugins uninstall` on a copy of the config
 * (made in a temporary folder beside it, removed with the backups OpenClaw
 * makes of it), so OpenClaw forgets its install record; openclaw.json itself
 * is given back by the caller.
 */
export async function uninstallPluginThroughOpenClaw(
  cli: OpenClawCliOptions,
  configPath: string,
  pluginDir: string,
): Promise<{ ok: boolean; note?: string }> {
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
    const reason = r.output
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^\[/.test(l))
      .slice(-2)
      .join(' ');
    return {
      ok: false,
      note: `\`openclaw plugins uninstall\` refused (${reason || 'no reason given'}), so the plugin's files were deleted; \`openclaw plugins list\` may still name it until \`openclaw plugins uninstall ${PLUGIN_ID}\` is run`,
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

export async function isOurPlugin(pluginDir: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(join(pluginDir, 'openclaw.plugin.json'), 'utf8')) as { id?: string }).id === PLUGIN_ID;
  } catch {
    return false;
  }
}
