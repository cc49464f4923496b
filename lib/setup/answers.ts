/**
 * The setup wizard's answers: the six steps, their defaults (built-in, from
 * an existing config for --reconfigure, from flags), the validation of every
 * answer (shared by the prompts and the flags, so both refuse the same input
 * with the same reason), and the config.yaml values they become. Pure.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import { PROVIDER_PRESETS, type LlmProvider } from '../llm/presets.js';
import type { SourceReport } from '../sources/discovery.js';
import { AGENT_SOURCES, type AgentSourceKind, type SessionFolderSource } from '../sources/descriptors.js';

export const STEPS = ['basics', 'tiers', 'llm', 'obsidian', 'sync', 'review'] as const;
export type Step = (typeof STEPS)[number];

export const STEP_TITLES: Record<Step, string> = {
  basics: '1/6 Basics',
  tiers: '2/6 Memory tiers',
  llm: '3/6 LLM provider',
  obsidian: '4/6 Obsidian vault',
  sync: '5/6 Sync',
  review: '6/6 Review and confirm',
};

/** The providers the wizard offers (LM Studio and custom stay reachable through flags). */
export const WIZARD_PROVIDERS = ['gemini', 'openai', 'anthropic', 'openrouter', 'ollama', 'heuristic'] as const;
export type SetupProvider = LlmProvider | 'heuristic';

export const DEFAULT_MODELS: Record<SetupProvider, string> = {
  heuristic: '',
  gemini: 'gemini-2.5-flash',
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
  openrouter: 'google/gemini-2.5-flash',
  ollama: 'llama3.1:8b',
  lmstudio: 'qwen2.5-7b-instruct',
  custom: '',
};

export interface Basics {
  home: string;
  budgetTokens: number;
  everyMinutes: number;
}
export interface Tiers {
  hotTtlDays: number;
  warmTtlDays: number;
  autoHotToWarm: boolean;
  coldRequiresApproval: boolean;
}
export interface Llm {
  provider: SetupProvider;
  model: string;
  reflectorModel: string;
  /** '' = the provider's default endpoint. */
  apiBase: string;
}
export interface Obsidian {
  /** '' = no cold tier vault. */
  vaultPath: string;
}
export interface Sync {
  mode: 'none' | 'git' | 'command';
  gitRemote: string;
  gitBranch: string;
  command: string;
  /** Only ciphertext leaves the machine (sync.encrypt). */
  encrypt: boolean;
  /** The age key file (created when missing); '' = the passphrase in OCM_SYNC_PASSPHRASE (.env). */
  keyFile: string;
}

/**
 * The other agents whose transcripts setup can turn on (asked in the basics
 * step): one per source descriptor (lib/sources/descriptors.ts). OpenClaw is
 * not among them: it is observed by default (`sources.openclaw`, described by
 * openClawObservedText); these are opt-in (docs/sources.md).
 */
export const OPTIONAL_SOURCES: readonly OptionalSource[] = AGENT_SOURCES.map((d) => d.kind);
export type OptionalSource = AgentSourceKind;

/** config.yaml section of each (`sources.<key>.enabled`). */
export const OPTIONAL_SOURCE_KEYS = Object.fromEntries(AGENT_SOURCES.map((d) => [d.kind, d.configKey])) as Record<
  OptionalSource,
  SessionFolderSource['configKey']
>;

export const OPTIONAL_SOURCE_LABELS = Object.fromEntries(AGENT_SOURCES.map((d) => [d.kind, d.label])) as Record<OptionalSource, string>;

export interface Sources {
  /** Other agents observed besides OpenClaw, in OPTIONAL_SOURCES order. */
  observe: OptionalSource[];
  /** What of OpenClaw the config observes (setup shows it and leaves it as it is). */
  openClaw: OpenClawObserved;
}

/** `sources.openclaw` / `sources.openclaw_db` of a config: which eras, which agents ([] = every one). */
export interface OpenClawObserved {
  files: boolean;
  database: boolean;
  agents: string[];
}

const EVERY_OPENCLAW_AGENT: OpenClawObserved = { files: true, database: true, agents: [] };

/**
 * What is observed of OpenClaw, said precisely: the agents are looked up again at every tick in the
 * state folders (`stateDirs`, when known), so an agent added later is observed too — unless
 * `sources.openclaw.agents` names some, or an era is turned off.
 */
/** The same in a few words, for the review and the sources question: "OpenClaw (every agent, also added later)". */
export function openClawObservedBrief(o: OpenClawObserved): string {
  if (!o.files && !o.database) return 'OpenClaw off';
  const era = !o.files ? ', database only' : !o.database ? ', files only' : '';
  return o.agents.length > 0 ? `OpenClaw (only ${o.agents.join(', ')}${era})` : `OpenClaw (every agent, also added later${era})`;
}

export function openClawObservedText(o: OpenClawObserved, stateDirs?: string[]): string {
  if (!o.files && !o.database) return 'no OpenClaw agent (sources.openclaw.enabled and sources.openclaw_db.enabled are false)';
  const where =
    stateDirs === undefined ? '' : stateDirs.length > 0 ? ` in ${stateDirs.join(', ')}` : ' in ~/.openclaw once OpenClaw creates it';
  const who =
    o.agents.length > 0
      ? `only the OpenClaw agent${o.agents.length > 1 ? 's' : ''} ${o.agents.join(', ')} (sources.openclaw.agents)${where}`
      : `every OpenClaw agent${where}, looked up again at every tick (agents added later too)`;
  const era = !o.files
    ? ', database only (sources.openclaw.enabled is false)'
    : !o.database
      ? ', transcript files only (sources.openclaw_db.enabled is false)'
      : '';
  return `${who}${era}`;
}

export interface SetupAnswers {
  basics: Basics;
  /** Answered in the basics step. */
  sources: Sources;
  tiers: Tiers;
  llm: Llm;
  obsidian: Obsidian;
  sync: Sync;
}

/** What `--vault` and the wizard's vault question take for "no vault". */
export const NO_VAULT = 'none';

/**
 * The vault setup proposes: the memory home itself, so that Obsidian opened on
 * that one folder shows every day of every tier (docs/tiers-and-sync.md).
 * Never the user's home folder itself (Obsidian would index all of it): a home
 * placed there gets an `OC-Memory` folder inside it instead.
 */
export function defaultVault(home: string, userHome?: string): string {
  return userHome !== undefined && resolve(home) === resolve(userHome) ? join(home, 'OC-Memory') : home;
}

/** `userHome`: the user's home folder (the vault is never that folder itself). */
export function defaultAnswers(home: string, userHome?: string): SetupAnswers {
  return {
    basics: { home, budgetTokens: 4000, everyMinutes: 1 },
    sources: { observe: [], openClaw: EVERY_OPENCLAW_AGENT },
    tiers: { hotTtlDays: 90, warmTtlDays: 365, autoHotToWarm: true, coldRequiresApproval: true },
    llm: { provider: 'heuristic', model: '', reflectorModel: '', apiBase: '' },
    obsidian: { vaultPath: defaultVault(home, userHome) },
    sync: { mode: 'none', gitRemote: '', gitBranch: 'main', command: '', encrypt: true, keyFile: '' },
  };
}

/** The current settings as answers (`--reconfigure`). */
export function answersFromConfig(config: Config, home: string): SetupAnswers {
  const provider = config.observer.provider as SetupProvider;
  return {
    basics: { home, budgetTokens: config.active_memory.budget_tokens, everyMinutes: config.schedule.every_minutes },
    sources: {
      observe: OPTIONAL_SOURCES.filter((s) => config.sources[OPTIONAL_SOURCE_KEYS[s]].enabled),
      openClaw: {
        files: config.sources.openclaw.enabled,
        database: config.sources.openclaw_db.enabled,
        agents: [...config.sources.openclaw.agents],
      },
    },
    tiers: {
      hotTtlDays: config.tiers.hot_ttl_days,
      warmTtlDays: config.tiers.warm_ttl_days,
      autoHotToWarm: config.tiers.auto_hot_to_warm,
      coldRequiresApproval: config.tiers.cold_requires_approval,
    },
    llm: {
      provider,
      model: config.observer.model,
      reflectorModel: config.reflector.model || config.observer.model,
      apiBase: config.observer.api_base,
    },
    obsidian: { vaultPath: config.tiers.vault_path },
    sync: {
      mode: config.sync.git.enabled ? 'git' : config.sync.command ? 'command' : 'none',
      gitRemote: config.sync.git.remote,
      gitBranch: config.sync.git.branch || 'main',
      command: config.sync.command,
      encrypt: config.sync.encrypt,
      keyFile: config.sync.key_file,
    },
  };
}

// ---------------------------------------------------------------------------
// Validation: each returns the reason an answer is refused, or undefined.

function intIn(text: string, min: number, max: number, what: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${what} must be a whole number`;
  const n = Number(t);
  if (n < min || n > max) return `${what} must be between ${min} and ${max}`;
  return undefined;
}

/** A source name as typed: the kind (`claude-code`) or its config key (`claude_code`), any case. */
function sourceName(text: string): OptionalSource | undefined {
  const t = text.trim().toLowerCase().replace(/_/g, '-');
  return (OPTIONAL_SOURCES as readonly string[]).includes(t) ? (t as OptionalSource) : undefined;
}

/** Names separated by commas or spaces; `none` (or nothing) = no other agent. */
function sourceNames(text: string): string[] {
  const names = text.split(/[\s,]+/).filter(Boolean);
  return names.length === 1 && names[0]!.toLowerCase() === 'none' ? [] : names;
}

/** The other agents named in `text` (validated with validate.sources first), in OPTIONAL_SOURCES order. */
export function parseSources(text: string): OptionalSource[] {
  const chosen = new Set(sourceNames(text).map(sourceName));
  return OPTIONAL_SOURCES.filter((s) => chosen.has(s));
}

/** A found source the basics step offers. */
export interface SourceChoice {
  source: OptionalSource;
  /** Name, path and session count, as `ocm-run sources` reports them. */
  label: string;
}

/** The other agents' transcripts that discovery found on this machine, in OPTIONAL_SOURCES order. */
export function sourceChoices(reports: SourceReport[]): SourceChoice[] {
  return OPTIONAL_SOURCES.flatMap((source) => {
    const r = reports.find((x) => x.kind === source && x.found);
    return r
      ? [{ source, label: `${OPTIONAL_SOURCE_LABELS[source]} — ${r.path} · ${r.sessions} session${r.sessions === 1 ? '' : 's'}` }]
      : [];
  });
}

/**
 * What is observed after the question: the ones picked among those offered,
 * plus the ones already on that were not offered (not found right now — a
 * missing folder does not silently turn a source off).
 */
export function chosenSources(current: OptionalSource[], offered: OptionalSource[], picked: OptionalSource[]): OptionalSource[] {
  const on = new Set([...picked, ...current.filter((s) => !offered.includes(s))]);
  return OPTIONAL_SOURCES.filter((s) => on.has(s));
}

export const validate = {
  sources(text: string): string | undefined {
    for (const name of sourceNames(text)) {
      if (sourceName(name)) continue;
      if (/^openclaw/i.test(name))
        return `OpenClaw is always observed (which of its agents: sources.openclaw in config.yaml); name only the other agents to add: ${OPTIONAL_SOURCES.join(', ')}`;
      if (name.toLowerCase() === 'none') return '"none" cannot be combined with source names';
      return `unknown source "${name}": choose from ${OPTIONAL_SOURCES.join(', ')} (comma-separated), or none`;
    }
    return undefined;
  },
  home(text: string): string | undefined {
    const t = text.trim();
    if (!t) return 'the memory home cannot be empty';
    if (!(t === '~' || t.startsWith('~/') || isAbsolute(t))) return 'use an absolute path (or one starting with ~/)';
    if (/[\n\r]/.test(t)) return 'the path cannot contain a line break';
    return undefined;
  },
  budgetTokens: (text: string) => intIn(text, 200, 200000, 'the token budget'),
  everyMinutes: (text: string) => intIn(text, 1, 1440, 'the interval (minutes)'),
  hotTtlDays: (text: string) => intIn(text, 1, 36500, 'the hot tier age (days)'),
  warmTtlDays(text: string, hotTtlDays: number): string | undefined {
    const base = intIn(text, 1, 36500, 'the warm tier age (days)');
    if (base) return base;
    if (Number(text.trim()) <= hotTtlDays) return `the warm tier age must be more than the hot tier age (${hotTtlDays} days)`;
    return undefined;
  },
  model(text: string, provider: SetupProvider): string | undefined {
    if (provider === 'heuristic') return undefined;
    if (!text.trim()) return `name a model (e.g. ${DEFAULT_MODELS[provider] || 'the one your endpoint serves'})`;
    if (/\s/.test(text.trim())) return 'a model name has no spaces';
    return undefined;
  },
  apiBase(text: string, provider: SetupProvider): string | undefined {
    const t = text.trim();
    if (!t) return provider === 'custom' ? 'a custom provider needs the base URL of its OpenAI-compatible API' : undefined;
    try {
      const u = new URL(t);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'use an http:// or https:// URL';
    } catch {
      return 'that is not a URL (e.g. http://127.0.0.1:11434/v1)';
    }
    return undefined;
  },
  apiKey(text: string): string | undefined {
    const t = text.trim();
    if (!t) return 'type or paste the API key (it is checked, then saved to .env with mode 0600)';
    if (/\s/.test(t)) return 'an API key has no spaces';
    if (t.length < 8) return 'that is too short to be an API key';
    return undefined;
  },
  /** `userHome`: the user's home folder, which is refused as a vault (written `~` it is refused anyway). */
  vaultPath(text: string, userHome?: string): string | undefined {
    const t = text.trim();
    if (!t || t === NO_VAULT) return undefined;
    const reason = validate.home(t)?.replace('the memory home', 'the vault path');
    if (reason) return reason;
    if (/^~\/*$/.test(t) || (userHome !== undefined && isAbsolute(t) && resolve(t) === resolve(userHome))) {
      return 'not your home folder itself (Obsidian would index all of it): use a folder inside it, e.g. ~/OC-Memory, or the memory home';
    }
    return undefined;
  },
  keyFile(text: string): string | undefined {
    const t = text.trim();
    if (!t) return undefined;
    return validate.home(t)?.replace('the memory home', 'the key file');
  },
  gitRemote(text: string): string | undefined {
    const t = text.trim();
    if (!t) return 'give the remote URL (e.g. git@github.com:you/memory.git)';
    if (/\s/.test(t)) return 'a Git remote has no spaces';
    return undefined;
  },
  gitBranch(text: string): string | undefined {
    const t = text.trim();
    if (!t) return 'give a branch name';
    if (!/^[A-Za-z0-9._/-]+$/.test(t) || t.startsWith('-') || t.includes('..')) return 'that is not a valid branch name';
    return undefined;
  },
  syncCommand(text: string): string | undefined {
    return text.trim() ? undefined : 'give the command to run (e.g. rclone sync … remote:OC-Memory)';
  },
};

export function needsKey(provider: SetupProvider): boolean {
  return provider !== 'heuristic' && PROVIDER_PRESETS[provider].needsKey;
}

/** The .env variable that holds the provider's key. */
export function keyEnvName(provider: SetupProvider): string | undefined {
  return provider === 'heuristic' ? undefined : PROVIDER_PRESETS[provider].keyEnv[0];
}

/** config.yaml values for the answers, as [dotted key, value] pairs. */
export function configValues(a: SetupAnswers): Array<[string, unknown]> {
  const llm = a.llm;
  const env = keyEnvName(llm.provider);
  const keyRef = env ? `\${${env}}` : '';
  const out: Array<[string, unknown]> = [
    ['active_memory.budget_tokens', a.basics.budgetTokens],
    // Every optional source is written, so a source turned off in --reconfigure is off.
    ...OPTIONAL_SOURCES.map((s): [string, unknown] => [`sources.${OPTIONAL_SOURCE_KEYS[s]}.enabled`, a.sources.observe.includes(s)]),
    ['schedule.every_minutes', a.basics.everyMinutes],
    ['tiers.hot_ttl_days', a.tiers.hotTtlDays],
    ['tiers.warm_ttl_days', a.tiers.warmTtlDays],
    ['tiers.auto_hot_to_warm', a.tiers.autoHotToWarm],
    ['tiers.cold_requires_approval', a.tiers.coldRequiresApproval],
    ['tiers.vault_path', a.obsidian.vaultPath.trim()],
    ['observer.provider', llm.provider],
    ['observer.model', llm.model],
    ['observer.api_base', llm.apiBase.trim()],
    ['observer.api_key', llm.provider === 'heuristic' ? '' : keyRef],
    ['reflector.provider', llm.provider],
    ['reflector.model', llm.reflectorModel || llm.model],
    ['reflector.api_base', llm.apiBase.trim()],
    ['reflector.api_key', llm.provider === 'heuristic' ? '' : keyRef],
    ['sync.git.enabled', a.sync.mode === 'git'],
    ['sync.git.remote', a.sync.mode === 'git' ? a.sync.gitRemote.trim() : ''],
    ['sync.git.branch', a.sync.gitBranch.trim() || 'main'],
    ['sync.command', a.sync.mode === 'command' ? a.sync.command.trim() : ''],
    ['sync.encrypt', a.sync.mode !== 'none' && a.sync.encrypt],
    ['sync.key_file', a.sync.mode !== 'none' && a.sync.encrypt ? a.sync.keyFile.trim() : ''],
  ];
  return out;
}

/** A readable summary for the review step. */
export function summarize(a: SetupAnswers, keyNote: string): string {
  const p = a.llm.provider;
  const llm =
    p === 'heuristic'
      ? 'heuristic observer (offline, no API key, nothing leaves this machine)'
      : `${PROVIDER_PRESETS[p].name}: observer ${a.llm.model}, reflector ${a.llm.reflectorModel || a.llm.model}${a.llm.apiBase ? ` at ${a.llm.apiBase}` : ''} · ${keyNote}`;
  return [
    `Home:          ${a.basics.home}`,
    `Sources:       ${openClawObservedBrief(a.sources.openClaw)}${a.sources.observe.map((s) => ` + ${OPTIONAL_SOURCE_LABELS[s]}`).join('')}`,
    `Active memory: at most ${a.basics.budgetTokens} tokens · tick every ${a.basics.everyMinutes} min`,
    `Tiers:         hot ${a.tiers.hotTtlDays} days → warm${a.tiers.autoHotToWarm ? ' (automatic)' : ' (manual)'} · ` +
      `warm ${a.tiers.warmTtlDays} days → cold${a.tiers.coldRequiresApproval ? ' (after approval)' : ' (automatic)'}`,
    `LLM:           ${llm}`,
    `Obsidian:      ${a.obsidian.vaultPath ? a.obsidian.vaultPath : 'no cold-tier vault'}`,
    `Sync:          ${a.sync.mode === 'git' ? `Git ${a.sync.gitRemote} (${a.sync.gitBranch})` : a.sync.mode === 'command' ? `command: ${a.sync.command}` : 'none'}${a.sync.mode === 'none' ? '' : a.sync.encrypt ? ` · encrypted (age) with ${a.sync.keyFile ? `the key file ${a.sync.keyFile}` : 'the passphrase in .env (OCM_SYNC_PASSPHRASE)'}` : ' · in clear (not encrypted)'}`,
  ].join('\n');
}

function bool(value: string, flag: string): boolean {
  const t = value.toLowerCase();
  if (['yes', 'y', 'true', '1', 'on'].includes(t)) return true;
  if (['no', 'n', 'false', '0', 'off'].includes(t)) return false;
  throw new OcmError('BAD_INPUT', `--${flag} must be yes or no (got ${value}).`);
}

function check(reason: string | undefined, flag: string): void {
  if (reason) throw new OcmError('BAD_INPUT', `--${flag}: ${reason}.`, { hint: 'Run `ocm-run setup --help` for every flag.' });
}

/**
 * The answers `setup` takes from its command line, by flag (`budgetTokens` is `--budget-tokens`),
 * each as typed (a flag given twice: the last value); undefined: not given, the default stands.
 */
export interface SetupFlags {
  budgetTokens?: string | undefined;
  sources?: string | undefined;
  every?: string | undefined;
  hotTtlDays?: string | undefined;
  warmTtlDays?: string | undefined;
  /** yes or no. */
  autoHotToWarm?: string | undefined;
  /** yes or no. */
  coldApproval?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  reflectorModel?: string | undefined;
  apiBase?: string | undefined;
  vault?: string | undefined;
  /** none, git or command. */
  sync?: string | undefined;
  gitRemote?: string | undefined;
  gitBranch?: string | undefined;
  syncCommand?: string | undefined;
  /** yes or no. */
  encrypt?: string | undefined;
  syncKeyFile?: string | undefined;
}

/** Apply command-line flags over defaults; every value is validated like at the prompt. */
export function answersFromFlags(flags: SetupFlags, base: SetupAnswers, userHome?: string): SetupAnswers {
  const a: SetupAnswers = structuredClone(base);
  const set = (v: string | undefined, apply: (v: string) => void) => v !== undefined && apply(v);
  set(flags.budgetTokens, (v) => {
    check(validate.budgetTokens(v), 'budget-tokens');
    a.basics.budgetTokens = Number(v);
  });
  set(flags.every, (v) => {
    check(validate.everyMinutes(v), 'every');
    a.basics.everyMinutes = Number(v);
  });
  set(flags.sources, (v) => {
    const reason = validate.sources(v);
    // Which sources to read is configuration: exit 2, like the other config errors (docs/architecture.md, "Errors, exit codes and --json").
    if (reason)
      throw new OcmError('CONFIG_INVALID', `--sources: ${reason}.`, {
        hint: 'See what is on this machine with `ocm-run sources`; OpenClaw needs no flag.',
      });
    a.sources = { ...a.sources, observe: parseSources(v) };
  });
  set(flags.hotTtlDays, (v) => {
    check(validate.hotTtlDays(v), 'hot-ttl-days');
    a.tiers.hotTtlDays = Number(v);
  });
  set(flags.warmTtlDays, (v) => (a.tiers.warmTtlDays = Number(v)));
  check(validate.warmTtlDays(String(a.tiers.warmTtlDays), a.tiers.hotTtlDays), 'warm-ttl-days');
  set(flags.autoHotToWarm, (v) => (a.tiers.autoHotToWarm = bool(v, 'auto-hot-to-warm')));
  set(flags.coldApproval, (v) => (a.tiers.coldRequiresApproval = bool(v, 'cold-approval')));
  set(flags.provider, (v) => {
    if (!(v === 'heuristic' || v in PROVIDER_PRESETS))
      throw new OcmError('BAD_INPUT', `--provider must be one of ${[...WIZARD_PROVIDERS, 'lmstudio', 'custom'].join(', ')} (got ${v}).`);
    if (v !== a.llm.provider)
      a.llm = { provider: v as SetupProvider, model: DEFAULT_MODELS[v as SetupProvider], reflectorModel: '', apiBase: '' };
  });
  set(flags.model, (v) => (a.llm.model = v));
  set(flags.reflectorModel, (v) => (a.llm.reflectorModel = v));
  set(flags.apiBase, (v) => (a.llm.apiBase = v));
  if (a.llm.provider === 'heuristic') a.llm = { provider: 'heuristic', model: '', reflectorModel: '', apiBase: '' };
  check(validate.model(a.llm.model, a.llm.provider), 'model');
  check(validate.apiBase(a.llm.apiBase, a.llm.provider), 'api-base');
  set(flags.vault, (v) => {
    check(validate.vaultPath(v, userHome), 'vault');
    a.obsidian.vaultPath = v.trim() === NO_VAULT ? '' : v.trim();
  });
  set(flags.sync, (v) => {
    if (!['none', 'git', 'command'].includes(v)) throw new OcmError('BAD_INPUT', `--sync must be none, git or command (got ${v}).`);
    a.sync.mode = v as Sync['mode'];
  });
  set(flags.gitRemote, (v) => (a.sync.gitRemote = v));
  set(flags.gitBranch, (v) => (a.sync.gitBranch = v));
  set(flags.syncCommand, (v) => (a.sync.command = v));
  set(flags.encrypt, (v) => (a.sync.encrypt = bool(v, 'encrypt')));
  set(flags.syncKeyFile, (v) => {
    check(validate.keyFile(v), 'sync-key-file');
    a.sync.keyFile = v.trim();
  });
  if (a.sync.mode === 'git') {
    check(validate.gitRemote(a.sync.gitRemote), 'git-remote');
    check(validate.gitBranch(a.sync.gitBranch), 'git-branch');
  }
  if (a.sync.mode === 'command') check(validate.syncCommand(a.sync.command), 'sync-command');
  return a;
}
