/**
 * Where `setup` starts from: the current config (when there is one) as the
 * answers' defaults, with the flags applied; the saved progress of an
 * interrupted wizard; and what the wizard may offer — the agents found on
 * this machine and the transcripts discovery sees.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { OcmError, describeError } from '../core/errors.js';
import { exists, type HomePaths } from '../platform/home.js';
import {
  answersFromConfig,
  answersFromFlags,
  defaultAnswers,
  sourceChoices,
  type SetupAnswers,
  type SetupFlags,
  type SourceChoice,
} from './answers.js';
import type { Config } from '../config/config-schema.js';
import type { SetupProgress } from './progress.js';

export interface SetupStart {
  /** The config of an existing setup (undefined: a new one). */
  current?: Config | undefined;
  /** The answers to start from: the current config's or the defaults, the flags applied. */
  defaults: SetupAnswers;
}

export async function startSetup(options: {
  paths: HomePaths;
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** The answers given on the command line. */
  flags: SetupFlags;
  /** `--reconfigure`: an existing setup must be there. */
  reconfigure: boolean;
}): Promise<SetupStart> {
  const { paths, env } = options;
  const hasConfig = await exists(options.configFile);
  if (options.reconfigure && !hasConfig) {
    throw new OcmError('CONFIG_MISSING', `There is no setup to change at ${paths.root} (no config.yaml).`, {
      hint: 'Run `ocm-run setup` first (or pass --home to the home you set up).',
    });
  }
  const userHome = homedir();
  if (!hasConfig) return { defaults: answersFromFlags(options.flags, defaultAnswers(paths.root, userHome), userHome) };
  const { loadConfig } = await import('../config/config.js');
  const current = (await loadConfig({ file: options.configFile, envFile: paths.env, env })).config;
  return { current, defaults: answersFromFlags(options.flags, answersFromConfig(current, paths.root), userHome) };
}

/** The wizard's progress to resume: the saved one when it is for the same kind of run, else a fresh one. */
export function wizardProgress(
  saved: SetupProgress | undefined,
  options: { root: string; mode: SetupProgress['mode']; reconfigure: boolean; now: Date },
): SetupProgress {
  if (saved && saved.mode === options.mode && !options.reconfigure) return saved;
  return { version: 1, startedFor: options.root, mode: options.mode, done: [], answers: {}, updatedAt: options.now.toISOString() };
}

/** The agents installed on this machine, whose integration the wizard offers. */
export interface AgentsFound {
  openClaw: boolean;
  claudeCode: boolean;
  codex: boolean;
  pi: boolean;
}

export async function findAgents(env: NodeJS.ProcessEnv): Promise<AgentsFound> {
  const [{ locateClaudeCode }, { locateCodex }, { locatePi }] = await Promise.all([
    import('../integrations/claude-code/integration.js'),
    import('../integrations/codex/integration.js'),
    import('../integrations/pi/integration.js'),
  ]);
  // Not ~/.openclaw existing: OC-Memory's own default home lives there (presence.ts says what counts).
  const { findOpenClaw } = await import('../integrations/openclaw/presence.js');
  const presence = await findOpenClaw({ env });
  return {
    openClaw: presence.installed,
    claudeCode: await exists(dirname(locateClaudeCode(env).settingsPath)),
    codex: await exists(locateCodex(env).codexHome),
    pi: await exists(locatePi(env).agentDir),
  };
}

/** What discovery found for the sources question (or why it could not look). */
export interface FoundSources {
  choices: SourceChoice[];
  problem?: string;
}

/** The other agents' transcripts on this machine, for the sources question. */
export async function findSources(options: {
  current?: Config | undefined;
  env: NodeJS.ProcessEnv;
  statePath: string;
}): Promise<FoundSources> {
  try {
    const { validateConfig } = await import('../config/config.js');
    const { discoverSources } = await import('../sources/discovery.js');
    const reports = await discoverSources({
      config: options.current ?? validateConfig({}),
      env: options.env,
      statePath: options.statePath,
    });
    return { choices: sourceChoices(reports) };
  } catch (error) {
    return { choices: [], problem: describeError(error).message };
  }
}
