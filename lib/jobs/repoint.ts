/**
 * Re-pointing: after an upgrade (another Node), a move of the program (a new
 * npm prefix, a clone moved or replaced by the package) every agent
 * integration and the schedule still run the program they were written for.
 * This installs again, with the program now running, exactly the pieces that
 * are installed for the home — Claude Code, Codex and pi (their records in
 * `.ocm/integrations/`, or their entries in the agent's files), the OpenClaw
 * plugin entry and the schedule — and leaves out what is not. Each install is
 * the same one `integrate <agent>` and `schedule install` run, so it keeps
 * the user's files as those do (backups, only our entries changed).
 */
import type { Config } from '../config/config-schema.js';
import type { HomePaths } from '../platform/home.js';
import type { AgentRunner } from '../integrations/agent-setup.js';

export type RepointPiece = 'claude-code' | 'codex' | 'pi' | 'openclaw' | 'schedule';

export interface RepointOptions {
  paths: HomePaths;
  config: Config;
  /** The home's config.yaml. */
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** The program the pieces should run from now on (this process's Node and CLI). */
  runner: AgentRunner & { promptHook?: string };
  /** The CLI entry the OpenClaw plugin and the schedule run (dist/scripts/cli.js of this install). */
  cliEntry: string;
}

export interface RepointResult {
  /** What was installed again, each with what its install said. */
  repointed: Array<{ piece: RepointPiece; lines: string[] }>;
  /** What is not installed for this home, so was left alone. */
  notInstalled: RepointPiece[];
}

export async function repointIntegrations(options: RepointOptions): Promise<RepointResult> {
  const { paths, env } = options;
  const repointed: RepointResult['repointed'] = [];
  const notInstalled: RepointPiece[] = [];
  const { readIntegrationRecord, integrationRecordPath, claudeCodeStatus } = await import('../integrations/claude-code/integration.js');
  const setup = await import('../integrations/agent-setup.js');
  const base = { paths, configFile: options.configFile, env, runner: options.runner };

  const claude = await claudeCodeStatus({ paths, env });
  if (claude.installedByRecord || claude.mcpServer || Object.values(claude.hooks).some(Boolean)) {
    const r = await setup.setUpClaudeCode({ ...base, perProject: options.config.sources.claude_code.per_project });
    repointed.push({ piece: 'claude-code', lines: r.lines });
  } else notInstalled.push('claude-code');

  const { codexStatus } = await import('../integrations/codex/integration.js');
  const codex = await codexStatus({ paths, env });
  if (
    (await readIntegrationRecord(integrationRecordPath(paths, 'codex'))) !== undefined ||
    codex.mcpServer ||
    Object.values(codex.hooks).some(Boolean)
  ) {
    repointed.push({ piece: 'codex', lines: (await setup.setUpCodex(base)).lines });
  } else notInstalled.push('codex');

  if ((await readIntegrationRecord(integrationRecordPath(paths, 'pi'))) !== undefined) {
    repointed.push({ piece: 'pi', lines: (await setup.setUpPi(base)).lines });
  } else notInstalled.push('pi');

  const openclaw = await import('../integrations/openclaw/integration.js');
  const oc = await openclaw.integrationStatus({ paths, env });
  if (oc.pluginEntry) {
    const r = await openclaw.installOpenClawIntegration({
      paths,
      env,
      plugin: { home: paths.root, node: options.runner.node, cli: options.cliEntry },
      keys: 'auto',
    });
    repointed.push({
      piece: 'openclaw',
      lines: [`OpenClaw: ${r.changes.length === 0 ? 'already pointed at this program' : r.changes.join('; ')} (${r.location.configPath})`],
    });
  } else notInstalled.push('openclaw');

  const schedule = await import('./schedule/home-schedule.js');
  const everyMinutes = options.config.schedule.every_minutes;
  const { status } = await schedule.homeScheduleStatus({ paths, env, everyMinutes, now: () => new Date() });
  if (status.installed) {
    const r = await schedule.installHomeSchedule({
      paths,
      env,
      everyMinutes: status.everyMinutes ?? everyMinutes,
      config: options.config,
      configFile: options.configFile,
      dryRun: false,
    });
    repointed.push({
      piece: 'schedule',
      lines: [
        `schedule: ${r.platform} runs ${r.target.cli} every ${r.target.everyMinutes} minute(s)${r.installed?.unchanged ? ' (unchanged)' : ''}`,
      ],
    });
  } else notInstalled.push('schedule');

  return { repointed, notInstalled };
}
