/**
 * Is OpenClaw on this machine, and what was seen that says so. A state folder alone is no evidence:
 * OC-Memory's own default home is ~/.openclaw/oc-memory, and an earlier integration may have written
 * ~/.openclaw/openclaw.json, so ~/.openclaw exists on a machine that never ran OpenClaw. Evidence is
 * OpenClaw's `openclaw` command on PATH, an `agents/` folder in a state folder (what OpenClaw creates
 * on its first run, and what OC-Memory reads), or an openclaw.json holding settings of OpenClaw's own
 * (anything besides the plugins, memory and agents keys the integration writes). `doctor`,
 * `integrate openclaw status` and `setup` say what they saw from this.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expandHome } from '../../platform/home.js';
import type { OpenClawVersion } from './cli.js';

export interface OpenClawPresence {
  /** The `openclaw` command answered, or a state folder has agents. */
  installed: boolean;
  /** `openclaw --version`, when the command is on PATH. */
  version?: OpenClawVersion | undefined;
  /** The state folders looked at. */
  stateDirs: string[];
  /** The agent ids found under <state>/agents/ (all state folders). */
  agents: string[];
  /** openclaw.json holds settings of OpenClaw's own (not only what an integration wrote). */
  ownConfig: boolean;
  /** What was seen, one sentence for a check's detail: "`openclaw` 2026.9.6 on PATH, 2 agents in ~/.openclaw". */
  seen: string;
}

/** The top-level keys of openclaw.json that OC-Memory's integration writes; any other is OpenClaw's own. */
const INTEGRATION_KEYS = ['plugins', 'memory', 'agents'];

async function agentIds(stateDir: string): Promise<string[]> {
  try {
    return (await readdir(join(stateDir, 'agents'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * Looks for OpenClaw: its command (`version` passed in when the caller asked it already; `undefined`
 * asks it here) and its agents in `stateDirs` (default: $OPENCLAW_STATE_DIR, else .openclaw in OpenClaw's home:
 * $OPENCLAW_HOME or the user's).
 */
export async function findOpenClaw(options: {
  env: Record<string, string | undefined>;
  userHome?: string;
  stateDirs?: string[];
  version?: OpenClawVersion | null;
}): Promise<OpenClawPresence> {
  // OpenClaw's own home: $OPENCLAW_HOME when set, as OpenClaw resolves it (its state and openclaw.json live there).
  const { openClawHomeDir } = await import('../../sources/openclaw-files.js');
  const userHome = openClawHomeDir(options.env, options.userHome ?? homedir());
  const override = options.env.OPENCLAW_STATE_DIR?.trim();
  const stateDirs =
    options.stateDirs && options.stateDirs.length > 0
      ? options.stateDirs
      : [override ? expandHome(override, userHome) : join(userHome, '.openclaw')];
  let version: OpenClawVersion | undefined;
  if (options.version === undefined) {
    const { openClawVersion } = await import('./cli.js');
    version = await openClawVersion({ env: options.env });
  } else version = options.version ?? undefined;
  const agents: string[] = [];
  const withAgents: string[] = [];
  for (const dir of stateDirs) {
    const ids = await agentIds(dir);
    if (ids.length > 0) withAgents.push(dir);
    agents.push(...ids);
  }
  const { openClawConfigPath, readOpenClawJson } = await import('./config.js');
  const configPath = openClawConfigPath(options.env, options.userHome ?? homedir());
  const data = (await readOpenClawJson(configPath)).data;
  const ownConfig = data !== undefined && Object.keys(data).some((key) => !INTEGRATION_KEYS.includes(key));
  const command = version ? `\`openclaw\` ${version.text} on PATH` : 'no `openclaw` command on PATH';
  const where =
    withAgents.length > 0 ? `${agents.length} agent(s) in ${withAgents.join(', ')}` : `no agents/ folder in ${stateDirs.join(', ')}`;
  const config = ownConfig ? `, OpenClaw's settings in ${configPath}` : '';
  return {
    installed: version !== undefined || agents.length > 0 || ownConfig,
    version,
    stateDirs,
    agents,
    ownConfig,
    seen: `${command}, ${where}${config}`,
  };
}
