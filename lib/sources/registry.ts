/**
 * The transcript sources a job reads, from config: OpenClaw (file era and
 * database era, every agent) by default; the other agents' sessions
 * (descriptors.ts) and generic logs when enabled (opt-in).
 */
import { homedir } from 'node:os';
import { expandHome } from '../platform/home.js';
import { compileExtraPatterns } from '../masking/masking.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { TranscriptSource } from '../core/types.js';
import { AGENT_SOURCES, type SourceDescriptor } from './descriptors.js';

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
export async function sourceDir(key: SourceDescriptor['configKey'], config: Config, env: NodeJS.ProcessEnv, home: string): Promise<string> {
  const descriptor = AGENT_SOURCES.find((d) => d.configKey === key)!;
  const dir = config.sources[key].dir;
  return dir === descriptor.dirDefault ? descriptor.defaultDir(env, home) : expandHome(dir, home);
}

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
  for (const descriptor of AGENT_SOURCES) {
    if (!config.sources[descriptor.configKey].enabled) continue;
    sources.push(await descriptor.create(await sourceDir(descriptor.configKey, config, env, home), config, { masking, ...logger }));
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
