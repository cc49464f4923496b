/**
 * The transcript sources a job reads, from config: OpenClaw (file era) by
 * default; the other kinds when enabled.
 */
import { homedir } from 'node:os';
import { expandHome } from '../home.js';
import { compileExtraPatterns } from '../masking.js';
import type { Config } from '../config-schema.js';
import type { Logger } from '../log.js';
import type { TranscriptSource } from '../types.js';

export interface SourceOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  home?: string;
}

export function maskingOptions(config: Config): { emails: boolean; extraPatterns: RegExp[] } {
  return { emails: config.masking.emails, extraPatterns: compileExtraPatterns(config.masking.extra_patterns) };
}

export async function createSources(options: SourceOptions): Promise<TranscriptSource[]> {
  const { config, env } = options;
  const home = options.home ?? homedir();
  const masking = maskingOptions(config);
  const sources: TranscriptSource[] = [];
  if (config.sources.openclaw.enabled) {
    const { createOpenClawFileSource, defaultOpenClawStateDirs } = await import('./openclaw-files.js');
    const stateDirs = config.sources.openclaw.state_dirs.length > 0 ? config.sources.openclaw.state_dirs.map((d) => expandHome(d, home)) : defaultOpenClawStateDirs(env, home);
    sources.push(
      createOpenClawFileSource({
        stateDirs,
        ...(config.sources.openclaw.agents.length > 0 ? { agents: config.sources.openclaw.agents } : {}),
        masking,
        ...(options.logger ? { logger: options.logger } : {}),
      }),
    );
  }
  return sources;
}
