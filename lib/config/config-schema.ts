/**
 * The config.yaml schema: every key, its type and its default. Documented for
 * users in templates/config.yaml (keep both in step).
 *
 * Valibot rather than zod: it validates the same way but loads in ~10 ms
 * instead of ~100 ms, and config is read on every cron tick.
 */
import * as v from 'valibot';
import { SOURCE_FOLDER_DEFAULTS, type SourceFolderDefaults, type SourceSettings } from './source-defaults.js';

const int = (min: number, max?: number) =>
  max === undefined ? v.pipe(v.number(), v.integer(), v.minValue(min)) : v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const num = (min: number, max?: number) =>
  max === undefined ? v.pipe(v.number(), v.minValue(min)) : v.pipe(v.number(), v.minValue(min), v.maxValue(max));
const str = (fallback = '') => v.optional(v.string(), fallback);
const bool = (fallback: boolean) => v.optional(v.boolean(), fallback);
const list = <S extends v.GenericSchema>(item: S) => v.optional(v.array(item), () => []);
/** A nested section: absent means all its defaults. */
const section = <E extends v.ObjectEntries>(entries: E) => v.optional(v.strictObject(entries), () => ({}) as never);

type SettingSchemas<S extends SourceSettings> = { [K in keyof S]: S[K] extends boolean ? ReturnType<typeof bool> : ReturnType<typeof str> };
/** `sources.<key>` of an agent's session folder (source-defaults.ts; read by lib/sources/descriptors.ts): off by default, its folder, its own settings. */
const sourceSection = <S extends SourceSettings>(d: SourceFolderDefaults<S>) => {
  const settings = Object.fromEntries(
    Object.entries(d.settings).map(([key, value]) => [key, typeof value === 'boolean' ? bool(value) : str(value)]),
  ) as SettingSchemas<S>;
  return section({ enabled: bool(false), dir: str(d.dir), ...settings });
};

export const LLM_PROVIDERS = ['heuristic', 'openai', 'openrouter', 'gemini', 'anthropic', 'ollama', 'lmstudio', 'custom'] as const;
/** OpenAI-compatible embedding endpoints; every name but `openai` presets `api_base` (embeddings.ts). */
export const EMBEDDING_ENDPOINTS = ['openai', 'openrouter', 'gemini', 'ollama', 'lmstudio', 'custom'] as const;
/** `local`: the model bundled in the package (lib/search/local-model.ts); an endpoint; `none`: text search only. */
export const EMBEDDING_PROVIDERS = ['local', 'none', ...EMBEDDING_ENDPOINTS] as const;

const fallbackEntry = v.strictObject({
  provider: v.picklist(LLM_PROVIDERS),
  model: v.string(),
  api_base: str(),
  api_key: str(),
});

const llmRole = (defaults: { temperature: number; max_tokens: number; timeout_ms: number }) => ({
  provider: v.optional(v.picklist(LLM_PROVIDERS), 'heuristic'),
  model: str(),
  api_base: str(),
  api_key: str(),
  temperature: v.optional(num(0, 2), defaults.temperature),
  max_tokens: v.optional(int(1), defaults.max_tokens),
  timeout_ms: v.optional(int(100), defaults.timeout_ms),
  fallback: list(fallbackEntry),
  retry_delays_ms: v.optional(v.array(int(0)), () => [2000, 4000, 8000]),
});

export const configSchema = v.strictObject({
  /** IANA time zone for observation dates/times; '' = the system's. */
  timezone: str(),

  active_memory: section({
    budget_tokens: v.optional(int(200, 200000), 4000),
    recent_days: v.optional(int(1, 365), 7),
    /** The active task is left out of active memory once this many days old. */
    active_task_max_age_days: v.optional(int(0, 3650), 7),
  }),

  observer: section({
    ...llmRole({ temperature: 0.3, max_tokens: 2000, timeout_ms: 60000 }),
    /**
     * Buffer a session's messages until this many unobserved tokens (short
     * finished sessions are packed together up to it)… 4000 keeps the LLM
     * Observer's input within 1.2× the new content (bench/token-efficiency.ts).
     */
    batch_tokens: v.optional(int(1), 4000),
    /** …or until the session has been idle this long. */
    idle_minutes: v.optional(num(0), 10),
    /** Who speaks: observations say "Dana prefers…" instead of "User prefers…" ('' = "User"). */
    user_name: str(),
    /** The agent's (or the other person's) name ('' = "Assistant"). */
    assistant_name: str(),
    /** Heuristic Observer: learn names from how speakers address each other ("Thanks, Mel"). */
    // On by default: "Caroline went to a support group" is a memory where "User went…" is ambiguous, and
    // questions name people (docs/heuristic-observer.md; measured: docs/performance.md). A configured name always wins.
    infer_names: bool(true),
  }),

  reflector: section({
    ...llmRole({ temperature: 0, max_tokens: 4000, timeout_ms: 120000 }),
    /** Reflect when hot observations exceed this many tokens. */
    threshold_tokens: v.optional(int(100), 30000),
  }),

  sources: section({
    openclaw: section({
      enabled: bool(true),
      /** State dirs to read; [] = $OPENCLAW_STATE_DIR, else ~/.openclaw and ~/.clawdbot. */
      state_dirs: list(v.string()),
      /** Agent ids to observe; [] = all. */
      agents: list(v.string()),
    }),
    openclaw_db: section({ enabled: bool(true) }),
    // The agents' session folders, opt-in (test/sources/source-descriptors.test.ts checks each descriptor has its section).
    /** `agent`: the memory the transcripts are filed under (its own by default; "main" merges them). */
    /** `per_project` (Claude Code): each project (its cwd) its own memory, named by projectAgent() of lib/sources/claude-code-project.ts. */
    pi: sourceSection(SOURCE_FOLDER_DEFAULTS.pi),
    claude_code: sourceSection(SOURCE_FOLDER_DEFAULTS.claude_code),
    codex: sourceSection(SOURCE_FOLDER_DEFAULTS.codex),
    generic: list(
      v.strictObject({
        name: v.pipe(v.string(), v.minLength(1)),
        enabled: bool(true),
        /** A glob of files to read. */
        path: v.pipe(v.string(), v.minLength(1)),
        format: v.optional(v.picklist(['jsonl', 'regex']), 'jsonl'),
        agent: str('main'),
        /** jsonl: dotted field paths. */
        fields: section({
          role: str('role'),
          text: str('text'),
          time: str('timestamp'),
          session: str(),
          id: str(),
        }),
        /** regex: named groups (?<text>…) and optional (?<time>…). */
        user_pattern: str(),
        assistant_pattern: str(),
        timestamp_pattern: str(),
      }),
    ),
  }),

  masking: section({
    emails: bool(false),
    /** Extra regular expressions whose matches are masked. */
    extra_patterns: list(v.string()),
  }),

  search: section({
    /** How text and vector scores (and several renderings of a question) are fused: lib/search/fusion.ts. */
    fusion: v.optional(v.picklist(['linear', 'rrf']), 'linear'),
    vector_weight: v.optional(num(0, 1), 0.5),
    text_weight: v.optional(num(0, 1), 0.5),
    min_score: v.optional(num(0, 1), 0),
    default_limit: v.optional(int(1, 1000), 10),
    /** A question gets a rendering in the other language (English ↔ Korean) through a general lexicon: lib/search/bridge.ts. */
    bridge_languages: v.optional(v.boolean(), true),
  }),

  embeddings: section({
    /** Who embeds (embeddingProvider() of lib/search/embeddings.ts); `enabled: false` (older configs) keeps embeddings off. */
    provider: v.optional(v.picklist(EMBEDDING_PROVIDERS), 'local'),
    /** Older configs' switch, kept so that they still read the same: false = provider none. */
    enabled: v.optional(v.boolean()),
    /** The endpoint's model ('' = text-embedding-3-small); the local provider has its one bundled model. */
    model: str(),
    api_base: str(),
    api_key: str(),
    batch_size: v.optional(int(1, 2048), 64),
    timeout_ms: v.optional(int(100), 30000),
    /** Ask for shorter vectors (OpenAI text-embedding-3 models); 0 = the model's own size. */
    dimensions: v.optional(int(0, 8192), 0),
  }),

  tiers: section({
    hot_ttl_days: v.optional(int(1), 90),
    warm_ttl_days: v.optional(int(1), 365),
    auto_hot_to_warm: bool(true),
    cold_requires_approval: bool(true),
    /** Per-priority hot retention in days, e.g. { low: 30 }. */
    ttl_by_priority: section({ high: v.optional(int(1)), medium: v.optional(int(1)), low: v.optional(int(1)) }),
    /** The Obsidian vault of the cold tier ('' = none configured). */
    vault_path: str(),
    /** Keep the old bytes of moved files this many days, for `tier --rollback`. */
    rollback_days: v.optional(int(1), 30),
  }),

  sync: section({
    git: section({
      enabled: bool(false),
      remote: str(),
      branch: str('main'),
    }),
    /** A shell command run after tier/sync, e.g. "rclone sync <vault>/OC-Memory remote:OC-Memory". */
    command: str(),
    after_tier: bool(false),
    /** Encrypt everything that leaves the machine (age format); the home keeps plain Markdown. */
    encrypt: bool(false),
    /** An age identity file (0600), e.g. made by `ocm-run sync --new-key FILE`; '' = the passphrase in OCM_SYNC_PASSPHRASE. */
    key_file: str(),
  }),

  alerts: section({
    enabled: bool(true),
    /** OpenClaw gateway base URL ('' = discover). */
    openclaw_url: str(),
    openclaw_token: str(),
    openclaw_hooks_path: str('/hooks'),
    /** Any URL receiving {source, event, severity, details, timestamp}. */
    webhook_url: str(),
    min_interval_minutes: v.optional(num(0), 60),
  }),

  schedule: section({
    every_minutes: v.optional(int(1, 1440), 1),
  }),

  logging: section({
    level: v.optional(v.picklist(['debug', 'info', 'warn', 'error']), 'info'),
  }),
});

export type Config = v.InferOutput<typeof configSchema>;
