/**
 * The transcript sources a job reads, from config: OpenClaw (file era and
 * database era, every agent) by default; pi, Claude Code, Codex and generic
 * logs when enabled (opt-in).
 */
import { homedir } from 'node:os';
import { expandHome } from '../platform/home.js';
import { compileExtraPatterns } from '../masking/masking.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { TranscriptSource } from '../core/types.js';

export interface SourceOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  home?: string;
}

export function maskingOptions(config: Config): { emails: boolean; extraPatterns: RegExp[] } {
  return { emails: config.masking.emails, extraPatterns: compileExtraPatterns(config.masking.extra_patterns) };
}

/** The OpenClaw state dirs the file and database sources read. */
export async function openClawStateDirs(config: Config, env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  if (config.sources.openclaw.state_dirs.length > 0) return config.sources.openclaw.state_dirs.map((d) => expandHome(d, home));
  const { defaultOpenClawStateDirs } = await import('./openclaw-files.js');
  return defaultOpenClawStateDirs(env, home);
}

/** A configured folder; the default value follows the agent's own environment variable. */
export async function sourceDir(kind: 'pi' | 'claude_code' | 'codex', config: Config, env: NodeJS.ProcessEnv, home: string): Promise<string> {
  const dir = config.sources[kind].dir;
  if (dir === SOURCE_DIR_DEFAULTS[kind]) {
    if (kind === 'pi') return (await import('./openclaw-files.js')).defaultPiSessionsDir(env, home);
    if (kind === 'claude_code') return (await import('./claude-code.js')).defaultClaudeCodeDir(env, home);
    return (await import('./codex.js')).defaultCodexDir(env, home);
  }
  return expandHome(dir, home);
}

/** The defaults of config-schema.ts's `sources.<kind>.dir`. */
export const SOURCE_DIR_DEFAULTS = { pi: '~/.pi/agent/sessions', claude_code: '~/.claude/projects', codex: '~/.codex/sessions' } as const;

export async function createSources(options: SourceOptions): Promise<TranscriptSource[]> {
  const { config, env } = options;
  const home = options.home ?? homedir();
  const masking = maskingOptions(config);
  const logger = options.logger ? { logger: options.logger } : {};
  const sources: TranscriptSource[] = [];
  const agents = config.sources.openclaw.agents.length > 0 ? { agents: config.sources.openclaw.agents } : {};
  if (config.sources.openclaw.enabled) {
    const { createOpenClawFileSource } = await import('./openclaw-files.js');
    sources.push(createOpenClawFileSource({ stateDirs: await openClawStateDirs(config, env, home), ...agents, masking, ...logger }));
  }
  // The database era is OpenClaw too: on unless OpenClaw as a whole is off.
  if (config.sources.openclaw.enabled && config.sources.openclaw_db.enabled) {
    const { createOpenClawDbSource } = await import('./openclaw-db.js');
    sources.push(createOpenClawDbSource({ stateDirs: await openClawStateDirs(config, env, home), ...agents, masking, ...logger }));
  }
  if (config.sources.pi.enabled) {
    const { createOpenClawFileSource } = await import('./openclaw-files.js');
    sources.push(createOpenClawFileSource({ kind: 'pi', stateDirs: [], piSessionsDir: await sourceDir('pi', config, env, home), masking, ...logger }));
  }
  if (config.sources.claude_code.enabled) {
    const { createClaudeCodeSource } = await import('./claude-code.js');
    sources.push(createClaudeCodeSource({ dir: await sourceDir('claude_code', config, env, home), agent: config.sources.claude_code.agent, perProject: config.sources.claude_code.per_project, masking, ...logger }));
  }
  if (config.sources.codex.enabled) {
    const { createCodexSource } = await import('./codex.js');
    sources.push(createCodexSource({ dir: await sourceDir('codex', config, env, home), agent: config.sources.codex.agent, masking, ...logger }));
  }
  const generic = config.sources.generic.filter((g) => g.enabled);
  if (generic.length > 0) {
    const { createGenericSource } = await import('./generic.js');
    config.sources.generic.forEach((g, index) => {
      if (g.enabled) sources.push(createGenericSource({ config: g, index, masking, home, ...logger }));
    });
  }
  return sources;
}
