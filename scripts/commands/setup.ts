import { join, resolve } from 'node:path';
import { configTemplate, defineCommand } from '../cli-context.js';
import { EXIT, OcmError } from '../../lib/api/errors.js';

import type { FinishSetupOptions, SetupFlags, SetupKeyOptions, SetupReport } from '../../lib/api/setup.js';
import type { Flags, FlagValues, TextFlag } from '../flags.js';
import { thisRunner } from '../runner.js';

/**
 * OpenClaw's database era (2026.8 and later) needs SQLite: when no driver loads (not even the
 * WebAssembly one the package carries: a damaged install), say so now, not at the first observe.
 */
async function sqliteWarning(): Promise<string | undefined> {
  const { sqliteProblem } = await import('../../lib/api/setup.js');
  const problem = await sqliteProblem();
  if (problem === undefined) return undefined;
  const { hint } = problem;
  return `⚠️  OpenClaw's database (OpenClaw 2026.8 and later) cannot be read on Node ${process.versions.node}: no SQLite driver could be loaded (not node:sqlite, better-sqlite3 or sql.js). Its transcripts are kept for later, nothing is lost; the other sources work.${hint ? `\n   → ${hint}` : ''}`;
}

/** Which Obsidian vault setup picked, and what opening it shows. */
function vaultLine(applied: SetupReport['applied']): string {
  const root = applied.vault?.root;
  if (!root) return 'Obsidian: no vault (the cold tier stays out of Obsidian; `ocm-run config set tiers.vault_path <folder>` adds one).';
  if (resolve(root) === resolve(applied.paths.root))
    return `Obsidian vault: ${root}, the memory home itself — open it in Obsidian ("Open folder as vault") to see every day of every tier.`;
  return `Obsidian vault: ${root} — the cold tier's days go to ${join(root, 'OC-Memory')}.`;
}

/** What setup did, as lines for the user; the next steps last. */
async function reportLines(report: SetupReport, warning?: string): Promise<string[]> {
  const { applied } = report;
  const lines = [`Wrote ${applied.configFile}${applied.keySaved ? ` and ${applied.paths.env} (${applied.keySaved}, mode 0600)` : ''}.`];
  const others = report.observed.join(', ');
  lines.push(
    report.openClawSeen.installed || report.openClaw?.ok
      ? `Observed: ${report.openClawObserved}${others ? `; and ${others}` : ''}.`
      : `Observed: ${others || 'nothing yet'}; OpenClaw is not installed here (${report.openClawSeen.seen}) — its agents are observed once it is.`,
  );
  if (warning) lines.push(warning);
  const secret = applied.syncSecret;
  if (secret) {
    lines.push(
      'keyFile' in secret
        ? `Sync is encrypted (age) with the key file ${secret.keyFile}${secret.created ? ' (made now, mode 0600)' : ''}: copy it to your other devices; a lost key means the remote copy is lost.`
        : `Sync is encrypted (age) with the passphrase in ${applied.paths.env} (OCM_SYNC_PASSPHRASE${secret.passphraseSaved ? ', saved now' : ''}): use the same on your other devices; a lost passphrase means the remote copy is lost.`,
    );
  }
  if (applied.vault?.created)
    lines.push(
      `Created the Obsidian ${applied.vault.created === 'vault' ? 'vault' : 'OC-Memory folder'} at ${applied.vault.root} from the template.`,
    );
  lines.push(vaultLine(applied));
  const failed = (what: string, failure: { message: string; hint?: string | undefined }) =>
    `${what}: ${failure.message}${failure.hint ? ` (${failure.hint})` : ''}`;
  if (report.schedule?.ok)
    lines.push(
      `Schedule installed: ${report.schedule.value.platform} runs \`ocm-run run\` every ${report.schedule.value.everyMinutes} minute(s).`,
    );
  else if (report.schedule) lines.push(failed('The schedule was not installed', report.schedule.failure));
  if (report.openClaw?.ok) {
    const r = report.openClaw.value;
    lines.push(
      `OpenClaw integration: ${r.changes.length ? r.changes.join('; ') : 'already in place'}; plugin in ${r.pluginDir}${r.backup ? ` (backup: ${r.backup})` : ''}.`,
    );
    const { toolPolicyText } = await import('../../lib/api/integrations.js');
    lines.push(...(await toolPolicyText(r.toolPolicy)));
  } else if (report.openClaw) lines.push(failed('The OpenClaw integration was not set up', report.openClaw.failure));
  for (const { name, outcome } of report.agents) {
    if (outcome.ok) lines.push(...outcome.value);
    else lines.push(failed(`The ${name} integration was not set up`, outcome.failure));
  }
  const flag = `--home ${JSON.stringify(applied.paths.root)}`;
  lines.push(
    [
      'Next steps:',
      `  ocm-run doctor ${flag}            check that everything works`,
      `  ocm-run observe ${flag}           read the transcripts now`,
      `  ocm-run status ${flag}            what has been observed`,
      `  ocm-run start --daemon ${flag}    optional: sub-second updates`,
      // Only after a successful integration: after a failed one there is nothing new to load.
      ...(report.openClaw?.ok ? ['  restart the OpenClaw gateway so it loads the plugin'] : []),
    ].join('\n'),
  );
  return lines;
}

/** Every flag that answers a question is a text flag of lib/setup's SetupFlags (typed: none missed). */
const SETUP_FLAGS = {
  reconfigure: { description: 'Change an existing setup (current values are the defaults)' },
  yes: { description: 'Non-interactive: take every answer from the flags (or the defaults)' },
  budgetTokens: { value: '<n>', description: 'Active memory token budget (200–200000)' },
  sources: {
    value: '<names>',
    description: 'Other agents to observe besides OpenClaw (always on): pi, claude-code, codex, comma-separated, or none',
  },
  every: { value: '<minutes>', description: 'Poll interval of the scheduled tick (1–1440)' },
  hotTtlDays: { value: '<n>', description: 'Days an observation stays hot' },
  warmTtlDays: { value: '<n>', description: 'Days before warm observations are proposed for cold' },
  autoHotToWarm: { value: '<yes|no>', description: 'Move hot → warm automatically' },
  coldApproval: { value: '<yes|no>', description: 'Ask before moving warm → cold' },
  provider: { value: '<name>', description: 'gemini | openai | anthropic | openrouter | ollama | lmstudio | custom | heuristic' },
  model: { value: '<name>', description: 'Observer model' },
  reflectorModel: { value: '<name>', description: 'Reflector model (default: the observer model)' },
  apiBase: { value: '<url>', description: 'OpenAI-compatible endpoint (default: the provider’s)' },
  apiKey: { value: '<key>', description: 'API key (prefer --api-key-env: a key on the command line lands in shell history)' },
  apiKeyEnv: { value: '<NAME>', description: 'Read the API key from this environment variable' },
  skipKeyCheck: { description: 'Do not try the key with a live call' },
  vault: { value: '<path>', description: 'Obsidian vault for the cold tier (created from the template when missing)' },
  sync: { value: '<mode>', description: 'none | git | command' },
  gitRemote: { value: '<url>', description: 'Git remote for --sync git' },
  gitBranch: { value: '<name>', description: 'Branch for --sync git (default main)' },
  syncCommand: { value: '<cmd>', description: 'Command for --sync command' },
  encrypt: {
    value: '<yes|no>',
    description: 'Sync only ciphertext (default yes): the passphrase from OCM_SYNC_PASSPHRASE, or --sync-key-file',
  },
  syncKeyFile: { value: '<file>', description: 'Encrypt sync with this age key file (created when missing)' },
  installSchedule: { description: 'Also install the schedule (with --yes)' },
  integrateOpenclaw: { description: 'Also set up the OpenClaw integration (with --yes)' },
  integrateClaudeCode: { description: 'Also give Claude Code the memory: MCP server and hooks (with --yes)' },
  integrateCodex: { description: 'Also give Codex the memory: MCP server and trusted hooks (with --yes)' },
  integratePi: { description: 'Also give pi the memory: the oc-memory extension (with --yes)' },
} as const satisfies Flags & Record<keyof SetupFlags, TextFlag>;

type SetupFlagValues = FlagValues<typeof SETUP_FLAGS>;

/** `setup --yes`: the flags as the key to settle (given, from a variable, or none) and whether to try it. */
function keyRequest(flags: SetupFlagValues, llm: SetupKeyOptions['llm']): Omit<SetupKeyOptions, 'env' | 'envFile'> {
  return { llm, apiKey: flags.apiKey, apiKeyEnv: flags.apiKeyEnv, skipCheck: flags.skipKeyCheck };
}

/** `setup --yes`: the flags as what to install besides the configuration. */
function scriptedExtras(flags: SetupFlagValues): Pick<FinishSetupOptions, 'installSchedule' | 'integrate'> {
  return {
    installSchedule: flags.installSchedule,
    integrate: {
      openClaw: flags.integrateOpenclaw,
      claudeCode: flags.integrateClaudeCode,
      codex: flags.integrateCodex,
      pi: flags.integratePi,
    },
  };
}

export const command = defineCommand({
  name: 'setup',
  description:
    'Set OC-Memory up: six steps (basics and sources, tiers, LLM, Obsidian, sync, review); resumes when interrupted; --yes with flags for scripts',
  flags: SETUP_FLAGS,
  examples: [
    'ocm-run setup',
    'ocm-run setup --reconfigure',
    'ocm-run setup --yes --provider ollama --model llama3.1:8b --install-schedule',
    'ocm-run setup --yes --sources claude-code,codex',
    'OPENAI_API_KEY=sk-… ocm-run setup --yes --provider openai --api-key-env OPENAI_API_KEY --vault ~/Obsidian/Memory',
  ],
  async run(ctx, _args, options) {
    const api = await import('../../lib/api/setup.js');
    const { current, defaults } = await api.startSetup({
      paths: ctx.paths,
      configFile: ctx.configFile,
      env: ctx.env,
      flags: options,
      reconfigure: options.reconfigure,
    });
    const progressFile = await api.setupProgressFile(ctx.paths.root, ctx.env);
    const runner = thisRunner();

    if (options.yes) {
      const apiKey = await api.settleSetupKey({ ...keyRequest(options, defaults.llm), env: ctx.env, envFile: ctx.paths.env });
      const { report, succeeded } = await api.finishSetup({
        answers: defaults,
        apiKey,
        configTemplate,
        env: ctx.env,
        ...scriptedExtras(options),
        runner,
      });
      for (const line of await reportLines(report, await sqliteWarning())) ctx.out(line);
      await api.clearSetupProgress(progressFile);
      return succeeded ? EXIT.ok : EXIT.error;
    }

    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new OcmError('BAD_INPUT', 'setup asks questions, but this is not a terminal.', {
        hint: 'Use `ocm-run setup --yes` with flags (see `ocm-run setup --help`).',
      });
    }
    const progress = await api.wizardProgress(progressFile, {
      root: ctx.paths.root,
      mode: current ? 'reconfigure' : 'new',
      reconfigure: options.reconfigure,
      now: new Date(),
    });
    const found = await api.findAgents(ctx.env);
    const { runWizard, prompts } = await import('../setup-wizard.js');
    const outcome = await runWizard(ctx, {
      progress,
      progressFile,
      defaults,
      openClawFound: found.openClaw,
      claudeCodeFound: found.claudeCode,
      codexFound: found.codex,
      piFound: found.pi,
      // Looked for once, when the basics step asks which sources to observe.
      findSources: () => api.findSetupSources({ current, env: ctx.env, statePath: ctx.paths.state }),
    });
    if (outcome.kind === 'cancelled') return 130;
    if (outcome.kind === 'quit') return EXIT.ok;
    const spin = prompts.spinner();
    spin.start('Writing the configuration…');
    let finished: { report: SetupReport; succeeded: boolean };
    try {
      finished = await api.finishSetup({
        answers: outcome.state.answers,
        apiKey: outcome.state.apiKey,
        syncPassphrase: outcome.state.syncPassphrase,
        configTemplate,
        env: ctx.env,
        installSchedule: outcome.installSchedule,
        integrate: {
          openClaw: outcome.integrateOpenClaw,
          claudeCode: outcome.integrateClaudeCode,
          codex: outcome.integrateCodex,
          pi: outcome.integratePi,
        },
        runner,
      });
    } catch (error) {
      spin.error('Could not write the configuration.');
      throw error;
    }
    spin.stop('Done.');
    for (const line of await reportLines(finished.report, await sqliteWarning())) prompts.log.info(line);
    await api.clearSetupProgress(progressFile);
    prompts.outro('OC-Memory is set up.');
    return finished.succeeded ? EXIT.ok : EXIT.error;
  },
});
