/**
 * The interactive `setup` wizard (terminal UI with @clack/prompts): six
 * steps, each answer checked as it is typed (lib/setup/answers validate), the
 * API key masked and tried with a live call before it is kept, progress saved
 * after every step so an interrupted run resumes. Everything it decides is
 * written by lib/setup/apply.
 */
import * as p from '@clack/prompts';
import { resolve } from 'node:path';
import type { CommandContext } from './cli-context.js';
import { expandHome, homePaths } from '../lib/platform/home.js';
import { loadDotEnv } from '../lib/config/config.js';
import { PROVIDER_PRESETS } from '../lib/llm/presets.js';
import { OcmError } from '../lib/core/errors.js';
import {
  DEFAULT_MODELS,
  NO_VAULT,
  STEP_TITLES,
  STEPS,
  WIZARD_PROVIDERS,
  chosenSources,
  defaultVault,
  keyEnvName,
  needsKey,
  openClawObservedBrief,
  openClawObservedText,
  parseSources,
  summarize,
  validate,
  type SetupAnswers,
  type SetupProvider,
  type Step,
} from '../lib/setup/answers.js';
import { saveProgress, type SetupProgress } from '../lib/setup/progress.js';
import type { FoundSources } from '../lib/setup/start.js';

class Cancelled extends Error {}

function ask<T>(value: T): Exclude<T, symbol> {
  if (p.isCancel(value)) throw new Cancelled();
  return value as Exclude<T, symbol>;
}

/** A text prompt whose empty answer means "keep the default"; the validator sees what was typed. */
function samePath(a: string, b: string): boolean {
  return a !== '' && b !== '' && resolve(expandHome(a)) === resolve(expandHome(b));
}

async function textWithDefault(message: string, value: string, check?: (text: string) => string | undefined): Promise<string> {
  const answer = ask(
    await p.text({
      message,
      placeholder: value || undefined,
      defaultValue: value,
      ...(check ? { validate: (t: string | undefined) => (t ? check(t) : value ? undefined : check('')) } : {}),
    }),
  );
  return (answer || value).trim();
}

async function numberWithDefault(message: string, value: number, check: (text: string) => string | undefined): Promise<number> {
  return Number(await textWithDefault(message, String(value), check));
}

async function confirmWith(message: string, value: boolean): Promise<boolean> {
  return ask(await p.confirm({ message, initialValue: value }));
}

export interface WizardState {
  answers: SetupAnswers;
  /** A key typed in this run (never saved to the progress file). */
  apiKey?: string;
  /** The key is already available (environment or the home's .env). */
  keyAvailable: boolean;
  /** What the provider said when the key was tried in this run; 'refused' when the user kept it anyway. */
  keyCheck?: 'accepted' | 'refused';
  /** The encrypted sync's passphrase typed in this run (never saved to the progress file). */
  syncPassphrase?: string;
}

/** The review's line about the API key: says "checked" only when the provider accepted it. */
export function reviewKeyNote(state: WizardState): string {
  const provider = state.answers.llm.provider;
  if (!needsKey(provider)) return 'no key needed';
  const saved = state.apiKey ? `saved to .env as ${keyEnvName(provider)}` : 'already saved';
  if (state.keyCheck === 'accepted') return `key checked, ${saved}`;
  if (state.keyCheck === 'refused') return `key NOT accepted by the provider (kept anyway: fix it in .env), ${saved}`;
  return `key not checked, ${saved}`;
}

async function keyAlreadyThere(answers: SetupAnswers, env: NodeJS.ProcessEnv): Promise<boolean> {
  const name = keyEnvName(answers.llm.provider);
  if (!name) return false;
  if (env[name]) return true;
  const dotenv = await loadDotEnv(homePaths(expandHome(answers.basics.home)).env);
  return Boolean(dotenv[name]);
}

/** Ask for the key (masked) and try it until it works, or the user chooses otherwise. */
async function askKey(state: WizardState, env: NodeJS.ProcessEnv): Promise<void> {
  const { checkLlmKey } = await import('../lib/setup/key-check.js');
  const llm = state.answers.llm;
  const name = keyEnvName(llm.provider)!;
  for (;;) {
    const keep = state.keyAvailable;
    const typed = ask(
      await p.password({
        message: `${PROVIDER_PRESETS[llm.provider as Exclude<SetupProvider, 'heuristic'>].name} API key${keep ? ' (Enter keeps the saved one)' : ''}`,
        mask: '•',
        validate: (t: string | undefined) => (!t && keep ? undefined : validate.apiKey(t ?? '')),
      }),
    );
    const key = typed.trim();
    const spin = p.spinner();
    spin.start('Checking the key with one tiny call…');
    const probeEnv: Record<string, string | undefined> = {
      ...env,
      ...(await loadDotEnv(homePaths(expandHome(state.answers.basics.home)).env)),
    };
    if (key) probeEnv[name] = key;
    const r = await checkLlmKey({ provider: llm.provider, model: llm.model, api_base: llm.apiBase, api_key: key }, probeEnv, {
      timeoutMs: 20_000,
    }).catch((e: unknown) => ({ outcome: 'error' as const, message: (e as Error).message }));
    if (r.outcome === 'accepted') {
      spin.stop('The key works.');
      if (key) state.apiKey = key;
      state.keyAvailable = true;
      state.keyCheck = 'accepted';
      return;
    }
    spin.error(`Not accepted: ${r.message}`);
    const next = ask(
      await p.select({
        message: 'What now?',
        options: [
          { value: 'retry', label: 'Type the key again' },
          { value: 'keep', label: 'Keep it anyway (fix it later; ticks retry and nothing is lost)' },
        ],
      }),
    );
    if (next === 'keep') {
      if (key) state.apiKey = key;
      state.keyAvailable = true;
      state.keyCheck = 'refused';
      return;
    }
  }
}

/** Which other agents to observe: the ones found on this machine, none selected unless already on. */
async function askSources(a: SetupAnswers, found: FoundSources): Promise<void> {
  if (found.problem) p.log.warn(`Could not look for other agents' transcripts (${found.problem}); \`ocm-run sources\` lists them later.`);
  if (found.choices.length === 0) {
    p.log.info(
      `Observed: ${openClawObservedText(a.sources.openClaw)}. No pi, Claude Code or Codex transcripts were found ` +
        `here; \`ocm-run config set sources.claude_code.enabled true\` (or sources.codex / sources.pi) turns one on ` +
        `later.`,
    );
    return;
  }
  const offered = found.choices.map((c) => c.source);
  const picked = ask(
    await p.multiselect({
      message: `Also observe these agents' transcripts? (observed anyway: ${openClawObservedBrief(a.sources.openClaw)}; Space selects, Enter confirms, none is fine)`,
      options: found.choices.map((c) => ({ value: c.source, label: c.label })),
      initialValues: a.sources.observe.filter((s) => offered.includes(s)),
      required: false,
    }),
  );
  // The same names and rules as `--sources` (the prompt can only offer valid ones).
  const text = picked.join(',');
  const reason = validate.sources(text);
  if (reason) throw new OcmError('INTERNAL', `The sources question offered a name it does not accept: ${reason}.`);
  a.sources.observe = chosenSources(a.sources.observe, offered, parseSources(text));
}

async function stepBasics(a: SetupAnswers, findSources: () => Promise<FoundSources>): Promise<void> {
  const { homedir } = await import('node:os');
  const vaultWasDefault = a.obsidian.vaultPath === defaultVault(a.basics.home, homedir());
  a.basics.home = await textWithDefault('Memory home (where the Markdown memory lives)', a.basics.home, validate.home);
  // The proposed vault follows the home it was proposed for.
  if (vaultWasDefault) a.obsidian.vaultPath = defaultVault(expandHome(a.basics.home), homedir());
  a.basics.budgetTokens = await numberWithDefault(
    'Active memory token budget (what the agent loads every turn)',
    a.basics.budgetTokens,
    validate.budgetTokens,
  );
  a.basics.everyMinutes = await numberWithDefault(
    'Poll interval in minutes (how often the scheduled tick runs)',
    a.basics.everyMinutes,
    validate.everyMinutes,
  );
  await askSources(a, await findSources());
}

async function stepTiers(a: SetupAnswers): Promise<void> {
  a.tiers.hotTtlDays = await numberWithDefault(
    'Days an observation stays hot (memory/) before it moves to warm (archive/)',
    a.tiers.hotTtlDays,
    validate.hotTtlDays,
  );
  const hot = a.tiers.hotTtlDays;
  a.tiers.warmTtlDays = await numberWithDefault(
    'Days before warm observations are proposed for the cold tier (Obsidian)',
    Math.max(a.tiers.warmTtlDays, hot + 1),
    (t) => validate.warmTtlDays(t, hot),
  );
  a.tiers.autoHotToWarm = await confirmWith('Move hot → warm automatically?', a.tiers.autoHotToWarm);
  a.tiers.coldRequiresApproval = await confirmWith('Ask for approval before moving warm → cold?', a.tiers.coldRequiresApproval);
}

async function stepLlm(state: WizardState, env: NodeJS.ProcessEnv): Promise<void> {
  const a = state.answers;
  const labels: Record<(typeof WIZARD_PROVIDERS)[number], string> = {
    gemini: 'Google Gemini',
    openai: 'OpenAI',
    anthropic: 'Anthropic',
    openrouter: 'OpenRouter',
    ollama: 'Ollama (local)',
    heuristic: 'Offline heuristic (no LLM, nothing leaves this machine)',
  };
  const current = (WIZARD_PROVIDERS as readonly string[]).includes(a.llm.provider) ? a.llm.provider : 'heuristic';
  const provider = ask(
    await p.select({
      message: 'Which LLM turns conversations into observations?',
      initialValue: current as (typeof WIZARD_PROVIDERS)[number],
      options: WIZARD_PROVIDERS.map((value) => ({ value, label: labels[value] })),
    }),
  ) as SetupProvider;
  if (provider !== a.llm.provider) a.llm = { provider, model: DEFAULT_MODELS[provider], reflectorModel: '', apiBase: '' };
  if (provider === 'heuristic') {
    a.llm = { provider, model: '', reflectorModel: '', apiBase: '' };
    return;
  }
  a.llm.model = await textWithDefault('Observer model', a.llm.model || DEFAULT_MODELS[provider], (t) => validate.model(t, provider));
  a.llm.reflectorModel = await textWithDefault('Reflector model (compresses old observations)', a.llm.reflectorModel || a.llm.model, (t) =>
    validate.model(t, provider),
  );
  const preset = PROVIDER_PRESETS[provider as Exclude<SetupProvider, 'heuristic'>];
  const base = await textWithDefault(`API endpoint (Enter for ${preset.baseURL || 'none'})`, a.llm.apiBase || preset.baseURL, (t) =>
    validate.apiBase(t, provider),
  );
  a.llm.apiBase = base === preset.baseURL ? '' : base;
  state.keyAvailable = await keyAlreadyThere(a, env);
  if (needsKey(provider)) await askKey(state, env);
  else {
    const { checkLlmKey } = await import('../lib/setup/key-check.js');
    const spin = p.spinner();
    spin.start(`Checking ${preset.name}…`);
    const r = await checkLlmKey({ provider, model: a.llm.model, api_base: a.llm.apiBase, api_key: '' }, env, { timeoutMs: 10_000 });
    if (r.outcome === 'accepted') spin.stop(`${preset.name} answered.`);
    else spin.error(`${preset.name} did not answer (${r.message}); setup goes on — start it before the first tick.`);
  }
}

async function stepObsidian(a: SetupAnswers): Promise<void> {
  const { homedir } = await import('node:os');
  const inHome = samePath(a.obsidian.vaultPath, a.basics.home);
  const message = `Obsidian vault for the cold tier${inHome ? ' (the memory home itself: Obsidian opened on it shows every day of every tier)' : ''}; "${NO_VAULT}": no vault`;
  const answer = await textWithDefault(message, a.obsidian.vaultPath, (t) => validate.vaultPath(t, homedir()));
  const path = answer === NO_VAULT ? '' : answer;
  a.obsidian.vaultPath = path;
  // The memory home is made by setup itself: nothing to ask.
  if (!path || samePath(path, a.basics.home)) return;
  const { stat } = await import('node:fs/promises');
  const exists = await stat(expandHome(path)).then(
    (s) => (s.isDirectory() ? 'dir' : 'file'),
    () => 'none',
  );
  if (exists === 'file') {
    p.log.error(`${path} is a file, not a folder.`);
    return stepObsidian(a);
  }
  if (exists === 'none' && !(await confirmWith(`${path} does not exist. Create it from OC-Memory's vault template?`, true))) {
    a.obsidian.vaultPath = '';
  }
}

async function stepSync(state: WizardState, env: NodeJS.ProcessEnv): Promise<void> {
  const a = state.answers;
  a.sync.mode = ask(
    await p.select({
      message: 'Sync the memory elsewhere?',
      initialValue: a.sync.mode,
      options: [
        { value: 'none' as const, label: 'No (skip)' },
        { value: 'git' as const, label: 'Git remote (commit + push after changes)' },
        { value: 'command' as const, label: 'A command (e.g. rclone)' },
      ],
    }),
  );
  if (a.sync.mode === 'none') return;
  a.sync.encrypt = await confirmWith(
    'Encrypt everything that leaves this machine? (recommended: the remote then holds only ciphertext; your files here stay plain)',
    a.sync.encrypt,
  );
  if (a.sync.mode === 'git') {
    a.sync.gitRemote = await textWithDefault('Git remote URL', a.sync.gitRemote, validate.gitRemote);
    a.sync.gitBranch = await textWithDefault('Branch', a.sync.gitBranch || 'main', validate.gitBranch);
  } else {
    const example = a.sync.encrypt ? ' ({encrypted} is the encrypted copy, e.g. rclone sync {encrypted} remote:OC-Memory)' : '';
    a.sync.command = await textWithDefault(`Command to run after changes${example}`, a.sync.command, validate.syncCommand);
  }
  if (a.sync.encrypt) await askSyncSecret(state, env);
}

/** The encrypted sync's secret: a passphrase (saved to .env) or a key file (made when missing). Lost, the remote copy is lost. */
async function askSyncSecret(state: WizardState, env: NodeJS.ProcessEnv): Promise<void> {
  const a = state.answers;
  const kind = ask(
    await p.select({
      message: 'The secret that encrypts it (the same on every device; lose it and the remote copy is lost)',
      initialValue: a.sync.keyFile ? ('file' as const) : ('passphrase' as const),
      options: [
        { value: 'passphrase' as const, label: "A passphrase (saved in the home's .env as OCM_SYNC_PASSPHRASE)" },
        { value: 'file' as const, label: 'A key file (age format; made now if missing — copy it to your other devices)' },
      ],
    }),
  );
  if (kind === 'file') {
    a.sync.keyFile = await textWithDefault('Key file', a.sync.keyFile || '~/.oc-memory-sync.key', validate.keyFile);
    return;
  }
  a.sync.keyFile = '';
  const saved = env.OCM_SYNC_PASSPHRASE || (await loadDotEnv(homePaths(expandHome(a.basics.home)).env)).OCM_SYNC_PASSPHRASE;
  const typed = ask(
    await p.password({
      message: `Passphrase${saved ? ' (Enter keeps the one already set)' : ' (long: several words)'}`,
      mask: '•',
      validate: (t: string | undefined) => (!t && saved ? undefined : (t ?? '').length < 12 ? 'at least 12 characters' : undefined),
    }),
  );
  if (typed) state.syncPassphrase = typed;
}

export type WizardOutcome =
  | {
      kind: 'done';
      state: WizardState;
      installSchedule: boolean;
      integrateOpenClaw: boolean;
      integrateClaudeCode: boolean;
      integrateCodex: boolean;
      integratePi: boolean;
    }
  | { kind: 'cancelled' }
  | { kind: 'quit' };

/** Run the steps not done yet; progress is saved after each one. */
export async function runWizard(
  ctx: CommandContext,
  options: {
    progress: SetupProgress;
    progressFile: string;
    defaults: SetupAnswers;
    openClawFound: boolean;
    claudeCodeFound?: boolean;
    codexFound?: boolean;
    piFound?: boolean;
    findSources: () => Promise<FoundSources>;
  },
): Promise<WizardOutcome> {
  const { progress } = options;
  let found: Promise<FoundSources> | undefined;
  const findSources = () => (found ??= options.findSources());
  const state: WizardState = { answers: { ...options.defaults, ...(progress.answers as SetupAnswers) }, keyAvailable: false };
  // What of OpenClaw is observed is the config's, whatever an earlier run saved.
  state.answers.sources = { ...state.answers.sources, openClaw: options.defaults.sources.openClaw };
  p.intro(progress.mode === 'reconfigure' ? 'OC-Memory setup — changing the current settings' : 'OC-Memory setup');
  if (progress.done.length > 0)
    p.note(`Resuming where you stopped: ${progress.done.map((s) => STEP_TITLES[s]).join(', ')} already answered.`, 'Welcome back');
  const save = async (step: Step) => {
    if (!progress.done.includes(step)) progress.done.push(step);
    progress.answers = state.answers;
    progress.updatedAt = new Date().toISOString();
    await saveProgress(options.progressFile, progress);
  };
  const runStep = async (step: Step) => {
    p.log.step(STEP_TITLES[step]);
    if (step === 'basics') await stepBasics(state.answers, findSources);
    else if (step === 'tiers') await stepTiers(state.answers);
    else if (step === 'llm') await stepLlm(state, ctx.env);
    else if (step === 'obsidian') await stepObsidian(state.answers);
    else if (step === 'sync') await stepSync(state, ctx.env);
    await save(step);
  };
  try {
    for (const step of STEPS) {
      if (step === 'review' || progress.done.includes(step)) continue;
      await runStep(step);
    }
    // A key typed before an interruption was not kept: ask again when one is needed and missing.
    if (needsKey(state.answers.llm.provider) && !state.apiKey) {
      state.keyAvailable = await keyAlreadyThere(state.answers, ctx.env);
      if (!state.keyAvailable) {
        p.log.info('The API key is never stored between runs: please type it again.');
        await askKey(state, ctx.env);
      }
    }
    // Nor a sync passphrase.
    const sync = state.answers.sync;
    if (
      sync.mode !== 'none' &&
      sync.encrypt &&
      !sync.keyFile &&
      !state.syncPassphrase &&
      !ctx.env.OCM_SYNC_PASSPHRASE &&
      !(await loadDotEnv(homePaths(expandHome(state.answers.basics.home)).env)).OCM_SYNC_PASSPHRASE
    ) {
      p.log.info('The sync passphrase is never stored between runs: please type it again.');
      await askSyncSecret(state, ctx.env);
    }
    for (;;) {
      p.log.step(STEP_TITLES.review);
      p.note(summarize(state.answers, reviewKeyNote(state)), 'Review');
      const choice = ask(
        await p.select({
          message: 'Write this configuration?',
          options: [
            { value: 'write' as const, label: 'Yes, write it' },
            { value: 'change' as const, label: 'Change a step' },
            { value: 'quit' as const, label: 'Not now (answers are kept for next time)' },
          ],
        }),
      );
      if (choice === 'quit') {
        p.outro('Nothing written. Run `ocm-run setup` again to pick up from the review.');
        return { kind: 'quit' };
      }
      if (choice === 'write') break;
      const which = ask(
        await p.select({
          message: 'Which step?',
          options: STEPS.filter((s) => s !== 'review').map((s) => ({ value: s, label: STEP_TITLES[s] })),
        }),
      );
      await runStep(which);
    }
    await save('review');
    const installSchedule = await confirmWith('Install the schedule now (runs `ocm-run run` every few minutes)?', true);
    const integrateOpenClaw = options.openClawFound
      ? await confirmWith('Set up the OpenClaw integration (memory folders in openclaw.json + the plugin)?', true)
      : false;
    // Opt-in, asked only where the agent is installed: each edits the agent's own settings.
    const integrateClaudeCode = options.claudeCodeFound
      ? await confirmWith(
          'Give Claude Code the memory too (MCP server + hooks in ~/.claude, reversible with `ocm-run integrate claude-code --uninstall`)?',
          false,
        )
      : false;
    const integrateCodex = options.codexFound
      ? await confirmWith(
          'Give Codex the memory too (MCP server + trusted hooks in ~/.codex, reversible with `ocm-run integrate codex --uninstall`)?',
          false,
        )
      : false;
    const integratePi = options.piFound
      ? await confirmWith(
          'Give pi the memory too (the oc-memory extension in ~/.pi/agent/extensions, reversible with `ocm-run integrate pi --uninstall`)?',
          false,
        )
      : false;
    return { kind: 'done', state, installSchedule, integrateOpenClaw, integrateClaudeCode, integrateCodex, integratePi };
  } catch (error) {
    if (error instanceof Cancelled) {
      p.cancel(`Setup paused after ${progress.done.length} of 6 steps. Run \`ocm-run setup\` again to continue where you stopped.`);
      return { kind: 'cancelled' };
    }
    throw error;
  }
}

export { p as prompts };
