/**
 * What of the user's shell a scheduled tick needs. cron, launchd, systemd and Task Scheduler start the
 * tick with a bare environment, so a source found through a variable (OpenClaw's OPENCLAW_STATE_DIR,
 * Claude Code's CLAUDE_CONFIG_DIR, Codex's CODEX_HOME, pi's PI_CODING_AGENT_DIR) would silently read
 * nothing there. `schedule install` copies the ones that are set into the schedule (render.ts), and
 * `--dry-run` shows them. Secrets (OPENCLAW_HOOKS_TOKEN, API keys) never go there: they belong in the
 * home's .env, which every tick reads.
 */

/** The variables that decide where the sources are, or what the tick writes (TZ: the day files' dates). */
export const SOURCE_ENVIRONMENT = [
  'OPENCLAW_HOME',
  'OPENCLAW_STATE_DIR',
  'OPENCLAW_CONFIG_PATH',
  'OPENCLAW_GATEWAY_PORT',
  'OPENCLAW_API_URL',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'PI_CODING_AGENT_DIR',
  'PI_CODING_AGENT_SESSION_DIR',
  'TZ',
] as const;

/** The SOURCE_ENVIRONMENT variables `env` sets to something, in that order, as [name, value]. */
export function scheduleEnvironment(env: NodeJS.ProcessEnv): Array<[name: string, value: string]> {
  const out: Array<[string, string]> = [];
  for (const name of SOURCE_ENVIRONMENT) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') out.push([name, value]);
  }
  return out;
}
