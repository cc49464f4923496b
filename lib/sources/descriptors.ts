/**
 * One descriptor per transcript source, every source listed once: what the
 * rest of the program needs to know about it. `createSources` (jobs), `watch`
 * and discovery (`ocm-run sources`) iterate SOURCES; setup offers the
 * session-folder sources of AGENT_SOURCES. test/sources/source-descriptors.test.ts
 * fails when a source lacks a part (its config section, its place in
 * templates/config.yaml or docs/sources.md) or a part does not follow the
 * list. docs/architecture.md, "Add a transcript source".
 *
 * Two shapes: OpenClaw (file era and database era, always on, several state
 * folders, every agent) and generic logs (a list of globs) are described by
 * what they read and watch; the other agents' session folders (pi, Claude
 * Code, Codex) by their folder, and SessionFolderSource derives the rest.
 *
 * Light at import: a reader module is loaded only when its source is created.
 */
import { join } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { SOURCE_FOLDER_DEFAULTS, type SourceFolderKey, type SourceSettings } from '../config/source-defaults.js';
import { expandHome } from '../platform/home.js';
import type { Logger } from '../platform/log.js';
import type { SourceKind, TranscriptSource } from '../core/types.js';

export type { SourceSettings };

export interface SourceReaderOptions {
  masking: { emails: boolean; extraPatterns: RegExp[] };
  logger?: Logger;
}

/** What a descriptor needs to find and open its readers. */
export interface SourceContext extends SourceReaderOptions {
  config: Config;
  env: Record<string, string | undefined>;
  /** The user's home folder (`~`). */
  home: string;
}

/** A folder `watch` follows for a source. */
export interface SourceWatchTarget {
  dir: string;
  /** How many folder levels below it matter. */
  depth: number;
  /** Which source it belongs to (for logs). */
  source: string;
}

export interface SourceDescriptor<K extends SourceKind = SourceKind> {
  kind: K;
  /** Its section of config.yaml: `sources.<configKey>`. */
  configKey: keyof Config['sources'];
  /** Its name for people (setup, `sources`, docs/sources.md). */
  label: string;
  /** Read by jobs with this config. */
  enabled(config: Config): boolean;
  /** Its readers (one per configured log for generic logs); called only when enabled. */
  create(context: SourceContext): Promise<TranscriptSource[]>;
  /** The folders `watch` follows for it with this config (none when it is not read). */
  watchTargets(context: Omit<SourceContext, 'masking' | 'logger'>): Promise<SourceWatchTarget[]>;
}

/** The kinds a session-folder descriptor describes: every SourceKind but OpenClaw's, generic logs and the demo. */
export type AgentSourceKind = Exclude<SourceKind, 'openclaw' | 'openclaw-db' | 'generic' | 'demo'>;

/** Another agent's own session folder: opt-in, one folder, one reader. */
export interface SessionFolderSource<K extends AgentSourceKind = AgentSourceKind, S extends SourceSettings = SourceSettings>
  extends SourceDescriptor<K> {
  configKey: SourceFolderKey;
  /** The schema's default of `sources.<configKey>.dir` (lib/config/source-defaults.ts); left at it, the folder follows the agent's own environment (defaultDir). */
  dirDefault: string;
  /** The folder the agent writes to when `dir` is left at its default (its own environment variables decide). */
  defaultDir(env: Record<string, string | undefined>, home: string): Promise<string>;
  /** Folder levels below that folder that hold transcripts (what `watch` follows). */
  watchDepth: number;
  /** The other settings of its config section, with their defaults. */
  settings: S;
  /** The memory its transcripts are filed under (discovery's agent column). */
  agent(config: Config): string;
  /** The folder its reader reads with this config. */
  dir(config: Config, env: Record<string, string | undefined>, home: string): Promise<string>;
  /** The reader for the folder `dir`. */
  createReader(dir: string, config: Config, options: SourceReaderOptions): Promise<TranscriptSource>;
}

const logging = (options: SourceReaderOptions) => (options.logger ? { logger: options.logger } : {});

/** The parts of a session-folder source that differ from one agent to another. */
type SessionFolderParts<K extends AgentSourceKind, S extends SourceSettings> = Pick<
  SessionFolderSource<K, S>,
  'kind' | 'configKey' | 'label' | 'defaultDir' | 'watchDepth' | 'agent' | 'createReader'
> & { settings: S };

function sessionFolder<K extends AgentSourceKind, S extends SourceSettings>(parts: SessionFolderParts<K, S>): SessionFolderSource<K, S> {
  const dirDefault = SOURCE_FOLDER_DEFAULTS[parts.configKey].dir;
  const dir = async (config: Config, env: Record<string, string | undefined>, home: string) => {
    const configured = config.sources[parts.configKey].dir;
    return configured === dirDefault ? parts.defaultDir(env, home) : expandHome(configured, home);
  };
  return {
    ...parts,
    dirDefault,
    dir,
    enabled: (config) => config.sources[parts.configKey].enabled,
    create: async (context) => [await parts.createReader(await dir(context.config, context.env, context.home), context.config, context)],
    watchTargets: async (context) =>
      context.config.sources[parts.configKey].enabled
        ? [{ dir: await dir(context.config, context.env, context.home), depth: parts.watchDepth, source: parts.configKey }]
        : [],
  };
}

/** The OpenClaw state dirs the file and database sources read: `sources.openclaw.state_dirs`, else $OPENCLAW_STATE_DIR, else the default folders that exist. */
export async function openClawStateDirs(config: Config, env: Record<string, string | undefined>, home: string): Promise<string[]> {
  if (config.sources.openclaw.state_dirs.length > 0) return config.sources.openclaw.state_dirs.map((d) => expandHome(d, home));
  const { defaultOpenClawStateDirs } = await import('./openclaw-files.js');
  return defaultOpenClawStateDirs(env, home);
}

const openClawAgents = (config: Config) => (config.sources.openclaw.agents.length > 0 ? { agents: config.sources.openclaw.agents } : {});

/** agents/<id>/sessions/<session>.jsonl and agents/<id>/agent/openclaw-agent.sqlite(-wal), in every state dir; nothing there yet: where OpenClaw will create it. */
async function openClawWatchTargets(context: Omit<SourceContext, 'masking' | 'logger'>): Promise<SourceWatchTarget[]> {
  const dirs = await openClawStateDirs(context.config, context.env, context.home);
  return (dirs.length > 0 ? dirs : [join(context.home, '.openclaw')]).map((dir) => ({
    dir: join(dir, 'agents'),
    depth: 3,
    source: 'openclaw',
  }));
}

const openclaw: SourceDescriptor<'openclaw'> = {
  kind: 'openclaw',
  configKey: 'openclaw',
  label: 'OpenClaw, file era',
  enabled: (config) => config.sources.openclaw.enabled,
  create: async (context) => {
    const { createOpenClawFileSource } = await import('./openclaw-files.js');
    const stateDirs = await openClawStateDirs(context.config, context.env, context.home);
    return [createOpenClawFileSource({ stateDirs, ...openClawAgents(context.config), masking: context.masking, ...logging(context) })];
  },
  // The database era's folders are the same; watch follows them while either era is on.
  watchTargets: async (context) =>
    context.config.sources.openclaw.enabled || context.config.sources.openclaw_db.enabled ? openClawWatchTargets(context) : [],
};

const openclawDb: SourceDescriptor<'openclaw-db'> = {
  kind: 'openclaw-db',
  configKey: 'openclaw_db',
  label: 'OpenClaw, database era',
  // The database era is OpenClaw too: on unless OpenClaw as a whole is off.
  enabled: (config) => config.sources.openclaw.enabled && config.sources.openclaw_db.enabled,
  create: async (context) => {
    const { createOpenClawDbSource } = await import('./openclaw-db.js');
    const stateDirs = await openClawStateDirs(context.config, context.env, context.home);
    return [createOpenClawDbSource({ stateDirs, ...openClawAgents(context.config), masking: context.masking, ...logging(context) })];
  },
  watchTargets: async (context) =>
    context.config.sources.openclaw.enabled || context.config.sources.openclaw_db.enabled ? openClawWatchTargets(context) : [],
};

const pi = sessionFolder({
  kind: 'pi',
  configKey: 'pi',
  label: 'pi',
  defaultDir: async (env, home) => (await import('./openclaw-files.js')).defaultPiSessionsDir(env, home),
  watchDepth: 2,
  settings: SOURCE_FOLDER_DEFAULTS.pi.settings,
  agent: () => 'pi',
  createReader: async (dir, _config, options) =>
    (await import('./openclaw-files.js')).createOpenClawFileSource({
      kind: 'pi',
      stateDirs: [],
      piSessionsDir: dir,
      masking: options.masking,
      ...logging(options),
    }),
});

const claudeCode = sessionFolder({
  kind: 'claude-code',
  configKey: 'claude_code',
  label: 'Claude Code',
  defaultDir: async (env, home) => (await import('./claude-code.js')).defaultClaudeCodeDir(env, home),
  watchDepth: 4,
  settings: SOURCE_FOLDER_DEFAULTS.claude_code.settings,
  agent: (config) => config.sources.claude_code.agent,
  createReader: async (dir, config, options) =>
    (await import('./claude-code.js')).createClaudeCodeSource({
      dir,
      agent: config.sources.claude_code.agent,
      perProject: config.sources.claude_code.per_project,
      masking: options.masking,
      ...logging(options),
    }),
});

const codex = sessionFolder({
  kind: 'codex',
  configKey: 'codex',
  label: 'Codex CLI',
  defaultDir: async (env, home) => (await import('./codex.js')).defaultCodexDir(env, home),
  watchDepth: 5,
  settings: SOURCE_FOLDER_DEFAULTS.codex.settings,
  agent: (config) => config.sources.codex.agent,
  createReader: async (dir, config, options) =>
    (await import('./codex.js')).createCodexSource({
      dir,
      agent: config.sources.codex.agent,
      masking: options.masking,
      ...logging(options),
    }),
});

/** The static folder prefix of a glob ("/logs/**\/*.jsonl" → "/logs"). */
export function globBase(pattern: string): string {
  const parts = pattern.split(/[/\\]/);
  const out: string[] = [];
  for (const part of parts) {
    if (/[*?[\]{}()!]/.test(part)) break;
    out.push(part);
  }
  if (out.length === parts.length) out.pop(); // a plain file path: watch its folder
  const base = out.join('/') || (pattern.startsWith('/') ? '/' : '.');
  return base;
}

const generic: SourceDescriptor<'generic'> = {
  kind: 'generic',
  configKey: 'generic',
  label: 'Generic JSONL / log',
  enabled: (config) => config.sources.generic.some((g) => g.enabled),
  create: async (context) => {
    const { createGenericSource } = await import('./generic.js');
    return context.config.sources.generic.flatMap((g, index) =>
      g.enabled ? [createGenericSource({ config: g, index, masking: context.masking, home: context.home, ...logging(context) })] : [],
    );
  },
  watchTargets: async (context) =>
    context.config.sources.generic
      .filter((g) => g.enabled)
      .map((g) => ({ dir: globBase(expandHome(g.path, context.home)), depth: 8, source: `generic:${g.name}` })),
};

/** Every source, in the order jobs read them and `sources` lists them; a SourceKind added to core/types.ts without a descriptor here does not type-check. */
export const SOURCE_DESCRIPTORS = {
  openclaw,
  'openclaw-db': openclawDb,
  pi,
  'claude-code': claudeCode,
  codex,
  generic,
} as const satisfies { [K in Exclude<SourceKind, 'demo'>]: SourceDescriptor<K> };

export const SOURCES: readonly SourceDescriptor[] = [openclaw, openclawDb, pi, claudeCode, codex, generic];

/** The other agents' session folders, opt-in, in the order jobs read them, setup offers them and `sources` lists them. */
export const AGENT_SOURCES: readonly SessionFolderSource[] = [pi, claudeCode, codex];

/** The folder a session-folder source reads with this config; the default value follows the agent's own environment variables. */
export function sourceDir(key: SourceFolderKey, config: Config, env: Record<string, string | undefined>, home: string): Promise<string> {
  return AGENT_SOURCES.find((d) => d.configKey === key)!.dir(config, env, home);
}
