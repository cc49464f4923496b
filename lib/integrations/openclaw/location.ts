/** Where OpenClaw keeps its config and extensions, as OpenClaw itself resolves them. */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { exists } from '../../platform/home.js';
import { openClawHomeDir } from '../../sources/openclaw-files.js';
import { openClawConfigPath } from './config.js';
import { PLUGIN_ID } from './plugin-files.js';

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
  const stateDir =
    env.OPENCLAW_STATE_DIR || (env.OPENCLAW_CONFIG_PATH ? dirname(configPath) : join(openClawHomeDir(env, userHome), '.openclaw'));
  return {
    stateDir,
    configPath,
    pluginDir: join(stateDir, 'extensions', PLUGIN_ID),
    stateDirExists: await exists(stateDir),
    configExists: await exists(configPath),
  };
}
