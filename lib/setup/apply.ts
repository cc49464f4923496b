/**
 * Writing what setup decided: the home (created with private modes),
 * config.yaml (each value set in place, so a reconfigured file keeps its
 * comments), the API key in .env (0600), the Obsidian vault from
 * vault-template/ when it does not exist yet.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../platform/atomic-file.js';
import { setConfigValue } from '../config/config.js';
import { ensureHome, expandHome, homePaths, type HomePaths } from '../platform/home.js';
import { configValues, keyEnvName, type SetupAnswers } from './answers.js';
import { isNotFound } from '../core/errors.js';

/** Quote a .env value when it needs it (parseDotEnv reads it back). */
function envValue(value: string): string {
  return /^[A-Za-z0-9_./:@+=,-]*$/.test(value) ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Set NAME=value in a .env file, keeping every other line; mode 0600. */
export async function setEnvValue(file: string, name: string, value: string): Promise<void> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const line = `${name}=${envValue(value)}`;
  const at = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(l));
  if (at >= 0) lines[at] = line;
  else lines.push(line);
  await writeFileAtomic(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

export interface ApplyResult {
  paths: HomePaths;
  createdHome: boolean;
  configFile: string;
  keySaved?: string;
  vault?: { root: string; created?: 'vault' | 'folder' };
}

export async function applySetup(options: {
  answers: SetupAnswers;
  /** A key typed during setup (already checked), saved to .env. */
  apiKey?: string | undefined;
  configTemplate: () => Promise<string>;
  env?: NodeJS.ProcessEnv | undefined;
  userHome?: string;
}): Promise<ApplyResult> {
  const { answers } = options;
  const paths = homePaths(expandHome(answers.basics.home, options.userHome));
  const createdHome = await ensureHome(paths, options.configTemplate);
  const result: ApplyResult = { paths, createdHome, configFile: paths.config };
  const envName = keyEnvName(answers.llm.provider);
  if (options.apiKey && envName) {
    await setEnvValue(paths.env, envName, options.apiKey.trim());
    result.keySaved = envName;
  }
  for (const [keyPath, value] of configValues(answers)) {
    await setConfigValue({ file: paths.config, envFile: paths.env, keyPath, value, env: options.env });
  }
  if (answers.obsidian.vaultPath) {
    const { ensureVault } = await import('../tiers/vault.js');
    result.vault = await ensureVault(expandHome(answers.obsidian.vaultPath, options.userHome));
  }
  return result;
}
