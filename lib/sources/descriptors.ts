/**
 * One descriptor per opt-in transcript source (another agent's own session
 * folder): everything the rest of the program needs to know about it, in one
 * place. The config schema, `createSources`, discovery (`ocm-run sources`),
 * `watch` and `setup` iterate these instead of listing the sources each in
 * their own table; test/sources/source-descriptors.test.ts fails when a
 * source lacks a part (its config section, its place in templates/config.yaml
 * or docs/sources.md). docs/architecture.md, "Add a transcript source".
 *
 * OpenClaw (both eras, always on, several state folders) and generic logs
 * (a list of globs) have shapes of their own and are handled beside these.
 *
 * Light at import: a reader module is loaded only when its source is created.
 */
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { SourceKind, TranscriptSource } from '../core/types.js';

/** The kinds a descriptor describes: every SourceKind but OpenClaw's, generic logs and the demo. */
export type AgentSourceKind = Exclude<SourceKind, 'openclaw' | 'openclaw-db' | 'generic' | 'demo'>;

/** Settings of `sources.<configKey>` besides `enabled` and `dir`, with their defaults. */
export type SourceSettings = Record<string, string | boolean>;

export interface SourceReaderOptions {
  masking: { emails: boolean; extraPatterns: RegExp[] };
  logger?: Logger;
}

export interface SourceDescriptor<K extends AgentSourceKind = AgentSourceKind, S extends SourceSettings = SourceSettings> {
  kind: K;
  /** Its section of config.yaml: `sources.<configKey>`. */
  configKey: 'pi' | 'claude_code' | 'codex';
  /** Its name for people (setup, `sources`). */
  label: string;
  /** The schema's default of `sources.<configKey>.dir`; left at it, the folder follows the agent's own environment (defaultDir). */
  dirDefault: string;
  /** The folder the agent writes to when `dir` is left at its default (its own environment variables decide). */
  defaultDir(env: Record<string, string | undefined>, home: string): Promise<string>;
  /** Folder levels below that folder that hold transcripts (what `watch` follows). */
  watchDepth: number;
  /** The other settings of its config section, with their defaults. */
  settings: S;
  /** The memory its transcripts are filed under (discovery's agent column). */
  agent(config: Config): string;
  /** The reader for the folder `dir`. */
  create(dir: string, config: Config, options: SourceReaderOptions): Promise<TranscriptSource>;
}

const logging = (options: SourceReaderOptions) => (options.logger ? { logger: options.logger } : {});

const pi: SourceDescriptor<'pi', Record<never, never>> = {
  kind: 'pi',
  configKey: 'pi',
  label: 'pi',
  dirDefault: '~/.pi/agent/sessions',
  defaultDir: async (env, home) => (await import('./openclaw-files.js')).defaultPiSessionsDir(env, home),
  watchDepth: 2,
  settings: {},
  agent: () => 'pi',
  create: async (dir, _config, options) =>
    (await import('./openclaw-files.js')).createOpenClawFileSource({ kind: 'pi', stateDirs: [], piSessionsDir: dir, masking: options.masking, ...logging(options) }),
};

const claudeCode: SourceDescriptor<'claude-code', { agent: string; per_project: boolean }> = {
  kind: 'claude-code',
  configKey: 'claude_code',
  label: 'Claude Code',
  dirDefault: '~/.claude/projects',
  defaultDir: async (env, home) => (await import('./claude-code.js')).defaultClaudeCodeDir(env, home),
  watchDepth: 4,
  settings: { agent: 'claude-code', per_project: false },
  agent: (config) => config.sources.claude_code.agent,
  create: async (dir, config, options) =>
    (await import('./claude-code.js')).createClaudeCodeSource({ dir, agent: config.sources.claude_code.agent, perProject: config.sources.claude_code.per_project, masking: options.masking, ...logging(options) }),
};

const codex: SourceDescriptor<'codex', { agent: string }> = {
  kind: 'codex',
  configKey: 'codex',
  label: 'Codex CLI',
  dirDefault: '~/.codex/sessions',
  defaultDir: async (env, home) => (await import('./codex.js')).defaultCodexDir(env, home),
  watchDepth: 5,
  settings: { agent: 'codex' },
  agent: (config) => config.sources.codex.agent,
  create: async (dir, config, options) => (await import('./codex.js')).createCodexSource({ dir, agent: config.sources.codex.agent, masking: options.masking, ...logging(options) }),
};

/** By kind; a SourceKind added to core/types.ts without a descriptor here does not type-check. */
export const SOURCE_DESCRIPTORS = { pi, 'claude-code': claudeCode, codex } as const satisfies { [K in AgentSourceKind]: SourceDescriptor<K, SourceSettings> };

/** In the order jobs read them, setup offers them and `sources` lists them. */
export const AGENT_SOURCES: readonly SourceDescriptor[] = [pi, claudeCode, codex];
