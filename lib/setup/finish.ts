/**
 * The end of `setup`, after the answers are settled (by the wizard or by
 * flags): write config.yaml, .env and the vault (apply.ts), then install the
 * schedule and the chosen agent integrations. A step that fails is reported
 * with its message and hint and the others still run; nothing is printed
 * here — `scripts/commands/setup.ts` turns the report into lines.
 */
import { describeError } from '../core/errors.js';
import { applySetup, type ApplyResult } from './apply.js';
import { OPTIONAL_SOURCE_LABELS, openClawObservedText, type SetupAnswers } from './answers.js';

export interface FinishSetupOptions {
  answers: SetupAnswers;
  /** A key given during setup (already checked), saved to .env. */
  apiKey?: string | undefined;
  /** The encrypted sync's passphrase, when typed in the wizard. */
  syncPassphrase?: string | undefined;
  configTemplate: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  installSchedule: boolean;
  integrate: { openClaw: boolean; claudeCode: boolean; codex: boolean; pi: boolean };
  /** The node binary and CLI entry the agents' hooks and servers run. */
  runner: { node: string; cli: string };
}

/** A step that did not work out: what happened, and what to do (when known). */
export interface StepFailure {
  message: string;
  hint?: string | undefined;
}

export type StepOutcome<T> = { ok: true; value: T } | { ok: false; failure: StepFailure };

export interface SetupReport {
  applied: ApplyResult;
  /** Labels of the sources observed besides OpenClaw. */
  observed: string[];
  /** OpenClaw on this machine, as seen (its agents are observed once it is there). */
  openClawSeen: { installed: boolean; seen: string };
  /** What of OpenClaw the written config observes, said precisely (openClawObservedText), with the state folders it reads. */
  openClawObserved: string;
  schedule?: StepOutcome<{ platform: string; everyMinutes: number }>;
  openClaw?: StepOutcome<{
    changes: string[];
    pluginDir: string;
    backup?: string | undefined;
    toolPolicy: import('../integrations/openclaw/tool-policy.js').ToolPolicyAdvice[];
  }>;
  /** Claude Code, Codex, pi, in that order: what each setup did (its lines), or why it failed. */
  agents: Array<{ name: string; outcome: StepOutcome<string[]> }>;
}

/** Did every step that ran succeed? */
export function setupSucceeded(report: SetupReport): boolean {
  return [report.schedule, report.openClaw, ...report.agents.map((a) => a.outcome)].every((o) => o === undefined || o.ok);
}

async function attempt<T>(step: () => Promise<T>): Promise<StepOutcome<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (error) {
    const { message, hint } = describeError(error);
    return { ok: false, failure: { message, hint } };
  }
}

/** The written config's OpenClaw sources, in words, with the state folders they read (as a tick resolves them). */
async function openClawObserved(configFile: string, envFile: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [{ loadConfig }, { openClawStateDirs }, { homedir }] = await Promise.all([
    import('../config/config.js'),
    import('../sources/descriptors.js'),
    import('node:os'),
  ]);
  const { config } = await loadConfig({ file: configFile, envFile, env });
  const o = {
    files: config.sources.openclaw.enabled,
    database: config.sources.openclaw_db.enabled,
    agents: config.sources.openclaw.agents,
  };
  return openClawObservedText(o, await openClawStateDirs(config, env, homedir()));
}

export async function finishSetup(options: FinishSetupOptions): Promise<SetupReport> {
  const { answers, env, runner } = options;
  const applied = await applySetup({
    answers,
    apiKey: options.apiKey,
    syncPassphrase: options.syncPassphrase,
    configTemplate: options.configTemplate,
    env,
  });
  const { findOpenClaw } = await import('../integrations/openclaw/presence.js');
  const presence = await findOpenClaw({ env });
  const report: SetupReport = {
    applied,
    observed: answers.sources.observe.map((s) => OPTIONAL_SOURCE_LABELS[s]),
    openClawSeen: { installed: presence.installed, seen: presence.seen },
    openClawObserved: await openClawObserved(applied.configFile, applied.paths.env, env),
    agents: [],
  };
  const { paths, configFile } = applied;
  if (options.installSchedule) {
    report.schedule = await attempt(async () => {
      const s = await import('../jobs/schedule/index.js');
      const scheduleEnv = { runner: s.defaultRunner, xdgConfigHome: env.XDG_CONFIG_HOME };
      const platform = await s.detectPlatform(s.defaultRunner);
      const target = s.scheduleTarget(paths, answers.basics.everyMinutes, { environment: s.scheduleEnvironment(env), configFile });
      await s.installSchedule(s.planSchedule(platform, target, await s.loadScheduleTemplates(), scheduleEnv), target, scheduleEnv);
      return { platform, everyMinutes: answers.basics.everyMinutes };
    });
  }
  if (options.integrate.openClaw) {
    report.openClaw = await attempt(async () => {
      const { installOpenClawIntegration } = await import('../integrations/openclaw/integration.js');
      const { cliEntry } = await import('../jobs/schedule/index.js');
      const r = await installOpenClawIntegration({ paths, env, plugin: { home: paths.root, node: process.execPath, cli: cliEntry() } });
      return { changes: r.changes, pluginDir: r.pluginDir, backup: r.backup, toolPolicy: r.toolPolicy };
    });
  }
  // The opt-in agent integrations, each through the same setup as `ocm-run integrate <agent>`.
  const agentSetup = () => import('../integrations/agent-setup.js');
  const chosen: Array<[name: string, wanted: boolean, setUp: () => Promise<{ lines: string[] }>]> = [
    [
      'Claude Code',
      options.integrate.claudeCode,
      async () => (await agentSetup()).setUpClaudeCode({ paths, configFile, env, runner, perProject: false }),
    ],
    ['Codex', options.integrate.codex, async () => (await agentSetup()).setUpCodex({ paths, configFile, env, runner })],
    ['pi', options.integrate.pi, async () => (await agentSetup()).setUpPi({ paths, configFile, env, runner })],
  ];
  for (const [name, wanted, setUp] of chosen) {
    if (wanted) report.agents.push({ name, outcome: await attempt(async () => (await setUp()).lines) });
  }
  return report;
}
