import type { CommandContext, CommandSpec } from '../cli-context.js';
import { configTemplate } from '../cli-context.js';
import { EXIT, OcmError } from '../../lib/core/errors.js';

type Answers = import('../../lib/setup/answers.js').SetupAnswers;

/** After the config is written: schedule, the OpenClaw integration, the opt-in agent integrations, next steps. Shared by both paths. */
async function finish(ctx: CommandContext, answers: Answers, apiKey: string | undefined, installSchedule: boolean, integrateOpenClaw: boolean, say: (text: string) => void, agents: { claudeCode?: boolean; codex?: boolean; pi?: boolean } = {}): Promise<number> {
  const { applySetup } = await import('../../lib/setup/apply.js');
  const applied = await applySetup({ answers, ...(apiKey ? { apiKey } : {}), configTemplate, env: ctx.env });
  say(`Wrote ${applied.configFile}${applied.keySaved ? ` and ${applied.paths.env} (${applied.keySaved}, mode 0600)` : ''}.`);
  const { OPTIONAL_SOURCE_LABELS } = await import('../../lib/setup/answers.js');
  say(`Observed: every OpenClaw agent${answers.sources.observe.map((s) => `, ${OPTIONAL_SOURCE_LABELS[s]}`).join('')}.`);
  if (applied.vault?.created) say(`Created the Obsidian ${applied.vault.created === 'vault' ? 'vault' : 'OC-Memory folder'} at ${applied.vault.root} from the template.`);
  let code: number = EXIT.ok;
  if (installSchedule) {
    try {
      const s = await import('../../lib/jobs/schedule/index.js');
      const env = { runner: s.defaultRunner, xdgConfigHome: ctx.env.XDG_CONFIG_HOME };
      const platform = await s.detectPlatform(s.defaultRunner);
      const target = s.scheduleTarget(applied.paths, answers.basics.everyMinutes);
      const plan = s.planSchedule(platform, target, await s.loadScheduleTemplates(), env);
      await s.installSchedule(plan, target, env);
      say(`Schedule installed: ${platform} runs \`ocm-run run\` every ${answers.basics.everyMinutes} minute(s).`);
    } catch (error) {
      const { describeError } = await import('../../lib/core/errors.js');
      const d = describeError(error);
      say(`The schedule was not installed: ${d.message}${d.hint ? ` (${d.hint})` : ''}`);
      code = EXIT.error;
    }
  }
  let integrated = false;
  if (integrateOpenClaw) {
    try {
      const i = await import('../../lib/integrations/openclaw/integration.js');
      const { cliEntry } = await import('../../lib/jobs/schedule/index.js');
      const r = await i.installOpenClawIntegration({ paths: applied.paths, env: ctx.env, plugin: { home: applied.paths.root, node: process.execPath, cli: cliEntry() } });
      say(`OpenClaw integration: ${r.changes.length ? r.changes.join('; ') : 'already in place'}; plugin in ${r.pluginDir}${r.backup ? ` (backup: ${r.backup})` : ''}.`);
      integrated = true;
    } catch (error) {
      const { describeError } = await import('../../lib/core/errors.js');
      const d = describeError(error);
      say(`The OpenClaw integration was not set up: ${d.message}${d.hint ? ` (${d.hint})` : ''}`);
      code = EXIT.error;
    }
  }
  // The opt-in agent integrations, each through the same setup as `ocm-run integrate <agent>`.
  const chosen: Array<{ name: string; setUp: () => Promise<{ lines: string[] }> }> = [];
  if (agents.claudeCode) chosen.push({ name: 'Claude Code', setUp: async () => (await import('../../lib/integrations/agent-setup.js')).setUpClaudeCode({ paths: applied.paths, configFile: applied.configFile, env: ctx.env, runner: { node: process.execPath, cli: process.argv[1]! }, perProject: false }) });
  if (agents.codex) chosen.push({ name: 'Codex', setUp: async () => (await import('../../lib/integrations/agent-setup.js')).setUpCodex({ paths: applied.paths, configFile: applied.configFile, env: ctx.env, runner: { node: process.execPath, cli: process.argv[1]! } }) });
  if (agents.pi) chosen.push({ name: 'pi', setUp: async () => (await import('../../lib/integrations/agent-setup.js')).setUpPi({ paths: applied.paths, configFile: applied.configFile, env: ctx.env, runner: { node: process.execPath, cli: process.argv[1]! } }) });
  for (const agent of chosen) {
    try {
      for (const line of (await agent.setUp()).lines) say(line);
    } catch (error) {
      const { describeError } = await import('../../lib/core/errors.js');
      const d = describeError(error);
      say(`The ${agent.name} integration was not set up: ${d.message}${d.hint ? ` (${d.hint})` : ''}`);
      code = EXIT.error;
    }
  }
  const home = applied.paths.root;
  const flag = `--home ${JSON.stringify(home)}`;
  say(
    [
      'Next steps:',
      `  ocm-run doctor ${flag}            check that everything works`,
      `  ocm-run observe ${flag}           read the transcripts now`,
      `  ocm-run status ${flag}            what has been observed`,
      `  ocm-run start --daemon ${flag}    optional: sub-second updates`,
      // Only after a successful integration: after a failed one there is nothing new to load.
      ...(integrated ? ['  restart the OpenClaw gateway so it loads the plugin'] : []),
    ].join('\n'),
  );
  return code;
}

export const command: CommandSpec = {
  name: 'setup',
  description: 'Set OC-Memory up: six steps (basics and sources, tiers, LLM, Obsidian, sync, review); resumes when interrupted; --yes with flags for scripts',
  options: [
    ['--reconfigure', 'Change an existing setup (current values are the defaults)'],
    ['--yes', 'Non-interactive: take every answer from the flags (or the defaults)'],
    ['--budget-tokens <n>', 'Active memory token budget (200–200000)'],
    ['--sources <names>', 'Other agents to observe besides OpenClaw (always on): pi, claude-code, codex, comma-separated, or none'],
    ['--every <minutes>', 'Poll interval of the scheduled tick (1–1440)'],
    ['--hot-ttl-days <n>', 'Days an observation stays hot'],
    ['--warm-ttl-days <n>', 'Days before warm observations are proposed for cold'],
    ['--auto-hot-to-warm <yes|no>', 'Move hot → warm automatically'],
    ['--cold-approval <yes|no>', 'Ask before moving warm → cold'],
    ['--provider <name>', 'gemini | openai | anthropic | openrouter | ollama | lmstudio | custom | heuristic'],
    ['--model <name>', 'Observer model'],
    ['--reflector-model <name>', 'Reflector model (default: the observer model)'],
    ['--api-base <url>', 'OpenAI-compatible endpoint (default: the provider’s)'],
    ['--api-key <key>', 'API key (prefer --api-key-env: a key on the command line lands in shell history)'],
    ['--api-key-env <NAME>', 'Read the API key from this environment variable'],
    ['--skip-key-check', 'Do not try the key with a live call'],
    ['--vault <path>', 'Obsidian vault for the cold tier (created from the template when missing)'],
    ['--sync <mode>', 'none | git | command'],
    ['--git-remote <url>', 'Git remote for --sync git'],
    ['--git-branch <name>', 'Branch for --sync git (default main)'],
    ['--sync-command <cmd>', 'Command for --sync command'],
    ['--install-schedule', 'Also install the schedule (with --yes)'],
    ['--integrate-openclaw', 'Also set up the OpenClaw integration (with --yes)'],
    ['--integrate-claude-code', 'Also give Claude Code the memory: MCP server and hooks (with --yes)'],
    ['--integrate-codex', 'Also give Codex the memory: MCP server and trusted hooks (with --yes)'],
    ['--integrate-pi', 'Also give pi the memory: the oc-memory extension (with --yes)'],
  ],
  examples: [
    'ocm-run setup',
    'ocm-run setup --reconfigure',
    'ocm-run setup --yes --provider ollama --model llama3.1:8b --install-schedule',
    'ocm-run setup --yes --sources claude-code,codex',
    'OPENAI_API_KEY=sk-… ocm-run setup --yes --provider openai --api-key-env OPENAI_API_KEY --vault ~/Obsidian/Memory',
  ],
  async run(ctx, _args, options) {
    const { exists } = await import('../../lib/platform/home.js');
    const { loadConfig } = await import('../../lib/config/config.js');
    const A = await import('../../lib/setup/answers.js');
    const P = await import('../../lib/setup/progress.js');
    const hasConfig = await exists(ctx.configFile);
    if (options.reconfigure && !hasConfig) {
      throw new OcmError('CONFIG_MISSING', `There is no setup to change at ${ctx.paths.root} (no config.yaml).`, { hint: 'Run `ocm-run setup` first (or pass --home to the home you set up).' });
    }
    const current = hasConfig ? (await loadConfig({ file: ctx.configFile, envFile: ctx.paths.env, env: ctx.env })).config : undefined;
    const base = current ? A.answersFromConfig(current, ctx.paths.root) : A.defaultAnswers(ctx.paths.root);
    const defaults = A.answersFromFlags(options, base);
    const progressFile = P.progressPath(ctx.paths.root, ctx.env);

    if (options.yes) {
      const provider = defaults.llm.provider;
      const envName = A.keyEnvName(provider);
      let key = options.apiKey !== undefined ? String(options.apiKey) : options.apiKeyEnv !== undefined ? ctx.env[String(options.apiKeyEnv)] : undefined;
      if (options.apiKeyEnv !== undefined && !key) throw new OcmError('BAD_INPUT', `--api-key-env ${String(options.apiKeyEnv)}: that variable is not set.`);
      if (key !== undefined) {
        const reason = A.validate.apiKey(key);
        if (reason) throw new OcmError('BAD_INPUT', `--api-key: ${reason}.`);
      }
      const dotenv = await (await import('../../lib/config/config.js')).loadDotEnv(ctx.paths.env);
      const known = key ?? (envName ? ctx.env[envName] || dotenv[envName] : undefined);
      if (A.needsKey(provider) && !known) {
        throw new OcmError('CONFIG_INVALID', `${provider} needs an API key.`, { hint: `Pass --api-key-env ${envName} (with the key in that variable) or --api-key, or choose --provider heuristic / ollama.` });
      }
      if (provider !== 'heuristic' && !options.skipKeyCheck) {
        const { checkLlmKey } = await import('../../lib/setup/key-check.js');
        const probeEnv: Record<string, string | undefined> = { ...dotenv, ...ctx.env, ...(key && envName ? { [envName]: key } : {}) };
        const r = await checkLlmKey({ provider, model: defaults.llm.model, api_base: defaults.llm.apiBase, api_key: key ?? '' }, probeEnv, { timeoutMs: 20_000 });
        if (r.outcome !== 'accepted') {
          throw new OcmError('LLM_ERROR', `The ${provider} check failed: ${r.message}. Nothing was written.`, { hint: 'Fix the key, model or endpoint and run setup again, or pass --skip-key-check to save it anyway.' });
        }
      }
      const code = await finish(ctx, defaults, key, Boolean(options.installSchedule), Boolean(options.integrateOpenclaw), (t) => ctx.out(t), { claudeCode: Boolean(options.integrateClaudeCode), codex: Boolean(options.integrateCodex), pi: Boolean(options.integratePi) });
      await P.clearProgress(progressFile);
      return code;
    }

    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new OcmError('BAD_INPUT', 'setup asks questions, but this is not a terminal.', { hint: 'Use `ocm-run setup --yes` with flags (see `ocm-run setup --help`).' });
    }
    const mode = hasConfig ? 'reconfigure' : 'new';
    const saved = await P.readProgress(progressFile);
    const progress: import('../../lib/setup/progress.js').SetupProgress =
      saved && saved.mode === mode && !options.reconfigure ? saved : { version: 1, startedFor: ctx.paths.root, mode, done: [], answers: {}, updatedAt: new Date().toISOString() };
    const { locateOpenClaw } = await import('../../lib/integrations/openclaw/integration.js');
    const oc = await locateOpenClaw(ctx.env);
    const { runWizard, prompts } = await import('../setup-wizard.js');
    // The other agents' transcripts on this machine, for the sources question (looked for once, when basics is asked).
    const findSources = async (): Promise<import('../setup-wizard.js').FoundSources> => {
      try {
        const { validateConfig } = await import('../../lib/config/config.js');
        const { discoverSources } = await import('../../lib/sources/discovery.js');
        const reports = await discoverSources({ config: current ?? validateConfig({}), env: ctx.env, statePath: ctx.paths.state });
        return { choices: A.sourceChoices(reports) };
      } catch (error) {
        const { describeError } = await import('../../lib/core/errors.js');
        return { choices: [], problem: describeError(error).message };
      }
    };
    const { locateClaudeCode } = await import('../../lib/integrations/claude-code/integration.js');
    const { exists: found } = await import('../../lib/platform/home.js');
    const { dirname } = await import('node:path');
    const claudeCodeFound = await found(dirname(locateClaudeCode(ctx.env).settingsPath));
    const { locateCodex } = await import('../../lib/integrations/codex/integration.js');
    const codexFound = await found(locateCodex(ctx.env).codexHome);
    const { locatePi } = await import('../../lib/integrations/pi/integration.js');
    const piFound = await found(locatePi(ctx.env).agentDir);
    const outcome = await runWizard(ctx, { progress, progressFile, defaults, openClawFound: oc.stateDirExists || oc.configExists, claudeCodeFound, codexFound, piFound, findSources });
    if (outcome.kind === 'cancelled') return 130;
    if (outcome.kind === 'quit') return EXIT.ok;
    const spin = prompts.spinner();
    spin.start('Writing the configuration…');
    const lines: string[] = [];
    let code: number;
    try {
      code = await finish(ctx, outcome.state.answers, outcome.state.apiKey, outcome.installSchedule, outcome.integrateOpenClaw, (t) => lines.push(t), { claudeCode: outcome.integrateClaudeCode, codex: outcome.integrateCodex, pi: outcome.integratePi });
    } catch (error) {
      spin.error('Could not write the configuration.');
      throw error;
    }
    spin.stop('Done.');
    for (const l of lines) prompts.log.info(l);
    await P.clearProgress(progressFile);
    prompts.outro('OC-Memory is set up.');
    return code;
  },
};
