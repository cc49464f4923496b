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
import { OcmError, isNotFound } from '../core/errors.js';
import { loadDotEnv } from '../platform/dotenv.js';
import { exists } from '../platform/home.js';
import { generateSyncKey, PASSPHRASE_VARIABLE, writeKeyFile } from '../platform/encryption.js';

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
  /** Encrypted sync: where its secret is (a key file made now or found, or the passphrase saved to .env). */
  syncSecret?: { keyFile: string; created: boolean } | { passphraseSaved: boolean };
  vault?: { root: string; created?: 'vault' | 'folder' };
}

export async function applySetup(options: {
  answers: SetupAnswers;
  /** A key typed during setup (already checked), saved to .env. */
  apiKey?: string | undefined;
  /** The encrypted sync's passphrase typed during setup (else OCM_SYNC_PASSPHRASE of the environment), saved to .env. */
  syncPassphrase?: string | undefined;
  configTemplate: () => Promise<string>;
  env?: NodeJS.ProcessEnv | undefined;
  userHome?: string;
}): Promise<ApplyResult> {
  const { answers } = options;
  const paths = homePaths(expandHome(answers.basics.home, options.userHome));
  const encrypt = answers.sync.mode !== 'none' && answers.sync.encrypt;
  const passphrase = options.syncPassphrase || options.env?.[PASSPHRASE_VARIABLE];
  if (encrypt && !answers.sync.keyFile && !passphrase && !(await loadDotEnv(paths.env))[PASSPHRASE_VARIABLE]) {
    throw new OcmError('BAD_INPUT', 'Encrypted sync needs a secret, and none was given.', {
      hint: `Give --sync-key-file FILE (created when missing), or set ${PASSPHRASE_VARIABLE} in the environment (it is saved to the home's .env); --encrypt no sends the memory in clear.`,
    });
  }
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
  if (encrypt && answers.sync.keyFile) {
    const file = expandHome(answers.sync.keyFile, options.userHome);
    const created = !(await exists(file));
    if (created) await writeKeyFile(file, await generateSyncKey(), new Date());
    result.syncSecret = { keyFile: file, created };
  } else if (encrypt) {
    if (passphrase) await setEnvValue(paths.env, PASSPHRASE_VARIABLE, passphrase);
    result.syncSecret = { passphraseSaved: Boolean(passphrase) };
  }
  if (answers.obsidian.vaultPath) {
    const { ensureVault } = await import('../tiers/vault.js');
    result.vault = await ensureVault(expandHome(answers.obsidian.vaultPath, options.userHome));
  }
  return result;
}
