/**
 * The config.yaml schema: every key, its type and its default. Documented for
 * users in templates/config.yaml (keep both in step).
 */
import { z } from 'zod';

const llmEndpoint = {
  /** heuristic | openai | openrouter | gemini | anthropic | ollama | lmstudio | custom */
  provider: z.enum(['heuristic', 'openai', 'openrouter', 'gemini', 'anthropic', 'ollama', 'lmstudio', 'custom']).default('heuristic'),
  model: z.string().default(''),
  api_base: z.string().default(''),
  api_key: z.string().default(''),
};

const fallbackEntry = z.strictObject({
  provider: llmEndpoint.provider,
  model: z.string(),
  api_base: z.string().default(''),
  api_key: z.string().default(''),
});

const retryDelays = z.array(z.number().int().min(0)).default([2000, 4000, 8000]);

export const configSchema = z.strictObject({
  /** IANA time zone for observation dates/times; '' = the system's. */
  timezone: z.string().default(''),

  active_memory: z
    .strictObject({
      budget_tokens: z.number().int().min(200).max(200000).default(4000),
      recent_days: z.number().int().min(1).max(365).default(7),
    })
    .prefault({}),

  observer: z
    .strictObject({
      ...llmEndpoint,
      temperature: z.number().min(0).max(2).default(0.3),
      max_tokens: z.number().int().min(1).default(2000),
      timeout_ms: z.number().int().min(100).default(60000),
      fallback: z.array(fallbackEntry).default([]),
      /** Buffer a session's messages until this many unobserved tokens… */
      batch_tokens: z.number().int().min(1).default(2000),
      /** …or until the session has been idle this long. */
      idle_minutes: z.number().min(0).default(10),
      retry_delays_ms: retryDelays,
    })
    .prefault({}),

  reflector: z
    .strictObject({
      ...llmEndpoint,
      temperature: z.number().min(0).max(2).default(0),
      max_tokens: z.number().int().min(1).default(4000),
      timeout_ms: z.number().int().min(100).default(120000),
      fallback: z.array(fallbackEntry).default([]),
      retry_delays_ms: retryDelays,
      /** Reflect when hot observations exceed this many tokens. */
      threshold_tokens: z.number().int().min(100).default(30000),
    })
    .prefault({}),

  sources: z
    .strictObject({
      openclaw: z
        .strictObject({
          enabled: z.boolean().default(true),
          /** State dirs to read; [] = $OPENCLAW_STATE_DIR, else ~/.openclaw and ~/.clawdbot. */
          state_dirs: z.array(z.string()).default([]),
          /** Agent ids to observe; [] = all. */
          agents: z.array(z.string()).default([]),
        })
        .prefault({}),
      openclaw_db: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
      pi: z.strictObject({ enabled: z.boolean().default(false), dir: z.string().default('~/.pi/agent/sessions') }).prefault({}),
      claude_code: z.strictObject({ enabled: z.boolean().default(false), dir: z.string().default('~/.claude/projects') }).prefault({}),
      codex: z.strictObject({ enabled: z.boolean().default(false), dir: z.string().default('~/.codex/sessions') }).prefault({}),
      generic: z
        .array(
          z.strictObject({
            name: z.string().min(1),
            enabled: z.boolean().default(true),
            /** A glob of files to read. */
            path: z.string().min(1),
            format: z.enum(['jsonl', 'regex']).default('jsonl'),
            agent: z.string().default('main'),
            /** jsonl: dotted field paths. */
            fields: z
              .strictObject({
                role: z.string().default('role'),
                text: z.string().default('text'),
                time: z.string().default('timestamp'),
                session: z.string().default(''),
                id: z.string().default(''),
              })
              .prefault({}),
            /** regex: named groups (?<text>…) and optional (?<time>…). */
            user_pattern: z.string().default(''),
            assistant_pattern: z.string().default(''),
            timestamp_pattern: z.string().default(''),
          }),
        )
        .default([]),
    })
    .prefault({}),

  masking: z
    .strictObject({
      emails: z.boolean().default(false),
      /** Extra regular expressions whose matches are masked. */
      extra_patterns: z.array(z.string()).default([]),
    })
    .prefault({}),

  search: z
    .strictObject({
      vector_weight: z.number().min(0).max(1).default(0.7),
      text_weight: z.number().min(0).max(1).default(0.3),
      min_score: z.number().min(0).max(1).default(0),
      default_limit: z.number().int().min(1).max(1000).default(10),
    })
    .prefault({}),

  embeddings: z
    .strictObject({
      enabled: z.boolean().default(false),
      provider: z.enum(['openai', 'openrouter', 'gemini', 'ollama', 'lmstudio', 'custom']).default('openai'),
      model: z.string().default('text-embedding-3-small'),
      api_base: z.string().default(''),
      api_key: z.string().default(''),
      batch_size: z.number().int().min(1).max(2048).default(64),
      timeout_ms: z.number().int().min(100).default(30000),
    })
    .prefault({}),

  tiers: z
    .strictObject({
      hot_ttl_days: z.number().int().min(1).default(90),
      warm_ttl_days: z.number().int().min(1).default(365),
      auto_hot_to_warm: z.boolean().default(true),
      cold_requires_approval: z.boolean().default(true),
      /** Per-priority hot retention in days, e.g. { low: 30 }. */
      ttl_by_priority: z
        .strictObject({ high: z.number().int().min(1).optional(), medium: z.number().int().min(1).optional(), low: z.number().int().min(1).optional() })
        .default({}),
      /** The Obsidian vault of the cold tier ('' = none configured). */
      vault_path: z.string().default(''),
    })
    .prefault({}),

  sync: z
    .strictObject({
      git: z
        .strictObject({
          enabled: z.boolean().default(false),
          remote: z.string().default(''),
          branch: z.string().default('main'),
        })
        .prefault({}),
      /** A shell command run after tier/sync, e.g. "rclone sync <vault>/OC-Memory remote:OC-Memory". */
      command: z.string().default(''),
      after_tier: z.boolean().default(false),
    })
    .prefault({}),

  alerts: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** OpenClaw gateway base URL ('' = discover). */
      openclaw_url: z.string().default(''),
      openclaw_token: z.string().default(''),
      openclaw_hooks_path: z.string().default('/hooks'),
      /** Any URL receiving {source, event, severity, details, timestamp}. */
      webhook_url: z.string().default(''),
      min_interval_minutes: z.number().min(0).default(60),
    })
    .prefault({}),

  schedule: z
    .strictObject({
      every_minutes: z.number().int().min(1).max(1440).default(1),
    })
    .prefault({}),

  logging: z
    .strictObject({
      level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    })
    .prefault({}),
});

export type Config = z.infer<typeof configSchema>;
