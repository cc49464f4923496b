/**
 * The transcript sources a job reads, from config: every source descriptor
 * (descriptors.ts) that the config turns on, in the descriptors' order —
 * OpenClaw (file era and database era, every agent) by default; the other
 * agents' sessions and generic logs when enabled (opt-in).
 */
import { homedir } from 'node:os';
import { compileExtraPatterns } from '../masking/masking.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../platform/log.js';
import type { TranscriptSource } from '../core/types.js';
import { SOURCES } from './descriptors.js';

export { openClawStateDirs, sourceDir } from './descriptors.js';

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
  const context = {
    config,
    env,
    home: options.home ?? homedir(),
    masking: maskingOptions(config),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  const sources: TranscriptSource[] = [];
  for (const descriptor of SOURCES) {
    if (descriptor.enabled(config)) sources.push(...(await descriptor.create(context)));
  }
  return sources;
}
