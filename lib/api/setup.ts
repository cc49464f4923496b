/**
 * A home set up and checked (`ocm-run setup`, `doctor`, `sources`): where a
 * setup starts from (the current config or the defaults, the flags applied),
 * the API key settled, the answers applied (config, .env, vault, schedule,
 * integrations), the wizard's saved progress, the health checks, and the
 * transcript sources found on this machine. Each call loads what it needs
 * (lib/setup/, lib/features/doctor.ts, lib/sources/discovery.ts) when it runs.
 */
import type { HomePaths } from '../platform/home.js';
import type { Config } from '../config/config-schema.js';
import type { SetupFlags } from '../setup/answers.js';
import type { FinishSetupOptions, SetupReport } from '../setup/finish.js';
import type { SetupKeyOptions } from '../setup/key-check.js';
import type { SetupProgress } from '../setup/progress.js';
import type { AgentsFound, FoundSources, SetupStart } from '../setup/start.js';
import type { Check } from '../features/doctor.js';
import type { SourceReport } from '../sources/discovery.js';

export type { SetupAnswers, SetupFlags } from '../setup/answers.js';
export type { FinishSetupOptions, SetupReport, StepFailure, StepOutcome } from '../setup/finish.js';
export type { SetupKeyOptions } from '../setup/key-check.js';
export type { SetupProgress } from '../setup/progress.js';
export type { AgentsFound, FoundSources, SetupStart } from '../setup/start.js';
export type { Check, CheckStatus } from '../features/doctor.js';
export type { SourceCursorSummary, SourceReport } from '../sources/discovery.js';

export interface StartSetupOptions {
  paths: HomePaths;
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** The answers given on the command line. */
  flags: SetupFlags;
  /** Change an existing setup (CONFIG_MISSING when there is none). */
  reconfigure: boolean;
}

/** Where a setup starts: the current config (if any) and the answers to start from. */
export async function startSetup(options: StartSetupOptions): Promise<SetupStart> {
  const { startSetup: start } = await import('../setup/start.js');
  return start(options);
}

/** `setup --yes`: the API key to save (given, read from a variable, or none), tried with a live call unless skipped. */
export async function settleSetupKey(options: SetupKeyOptions): Promise<string | undefined> {
  const { settleSetupKey: settle } = await import('../setup/key-check.js');
  return settle(options);
}

/** The answers applied: config.yaml, .env, the vault, and the schedule and integrations asked for; what each did. */
export async function finishSetup(options: FinishSetupOptions): Promise<{ report: SetupReport; succeeded: boolean }> {
  const { finishSetup: finish, setupSucceeded } = await import('../setup/finish.js');
  const report = await finish(options);
  return { report, succeeded: setupSucceeded(report) };
}

/** The wizard's saved progress for this home (a new run starts fresh; an interrupted one resumes). */
export interface WizardProgress {
  file: string;
  progress: SetupProgress;
}

/** The progress file of a setup for `root` (outside the home: the home may not exist yet). */
export async function setupProgressFile(root: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { progressPath } = await import('../setup/progress.js');
  return progressPath(root, env);
}

/** The progress to resume: the saved one when it is for the same kind of run, else a fresh one. */
export async function wizardProgress(
  file: string,
  options: { root: string; mode: SetupProgress['mode']; reconfigure: boolean; now: Date },
): Promise<SetupProgress> {
  const { readProgress } = await import('../setup/progress.js');
  const { wizardProgress: resume } = await import('../setup/start.js');
  return resume(await readProgress(file), options);
}

/** A finished setup forgets its progress. */
export async function clearSetupProgress(file: string): Promise<void> {
  const { clearProgress } = await import('../setup/progress.js');
  await clearProgress(file);
}

/** The agents installed on this machine, whose integration the wizard offers. */
export async function findAgents(env: NodeJS.ProcessEnv): Promise<AgentsFound> {
  const { findAgents: find } = await import('../setup/start.js');
  return find(env);
}

/** The transcript sources the wizard offers to observe. */
export async function findSetupSources(options: {
  current?: Config | undefined;
  env: NodeJS.ProcessEnv;
  statePath: string;
}): Promise<FoundSources> {
  const { findSources } = await import('../setup/start.js');
  return findSources(options);
}

/**
 * OpenClaw's database era (2026.8 and later) needs SQLite: the problem when
 * no driver loads (not even the WebAssembly one the package carries: a
 * damaged install), undefined when one does.
 */
export async function sqliteProblem(): Promise<{ hint?: string } | undefined> {
  const { describeSqliteDriver } = await import('../platform/sqlite.js');
  try {
    await describeSqliteDriver();
    return undefined;
  } catch (error) {
    const hint = (error as { hint?: string }).hint;
    return hint === undefined ? {} : { hint };
  }
}

export interface DoctorRunOptions {
  paths: HomePaths;
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** The user's home folder (where the agents keep their settings). */
  userHome: string;
  now: Date;
  /** No live API-key call. */
  offline: boolean;
}

/** `doctor`: every check (config, key, paths, permissions, agents, schedule, index, disk), and whether one failed. */
export async function runDoctor(options: DoctorRunOptions): Promise<{ checks: Check[]; failed: boolean; text: string }> {
  const { runDoctor: run, formatChecks } = await import('../features/doctor.js');
  const checks = await run(options);
  return { checks, failed: checks.some((c) => c.status === 'fail'), text: formatChecks(checks) };
}

/** `sources`: every transcript source found on this machine, whether it is observed and how far it was read. */
export async function discoverSources(options: { config: Config; env: NodeJS.ProcessEnv; statePath: string }): Promise<SourceReport[]> {
  const { discoverSources: discover } = await import('../sources/discovery.js');
  return discover(options);
}
