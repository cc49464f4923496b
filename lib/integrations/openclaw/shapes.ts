/**
 * The shape of the settings for an OpenClaw era (which extra-paths keys,
 * whether plugin entries know `hooks`), chosen by the installed release and
 * tried in order of likelihood until OpenClaw accepts one.
 */
import { openClawVersion, parseOpenClawVersion, versionBefore, type OpenClawCliOptions, type OpenClawVersion } from './cli.js';

/**
 * Which extra-paths key(s) to write: what the installed OpenClaw accepts
 * (auto, the default), the current one, the older one, or both.
 */
export type PathsKeys = 'auto' | 'both' | 'current' | 'legacy';
/** The keys of one OpenClaw era: where the folders go, and whether plugin entries know `hooks`. */
export interface IntegrationShape {
  keys: Exclude<PathsKeys, 'auto'>;
  /** `plugins.entries.<id>.hooks.allowConversationAccess` (2026.9 needs it for conversation hooks; 2026.2 rejects it). */
  conversationAccess: boolean;
}
export const CURRENT_SHAPE: IntegrationShape = { keys: 'current', conversationAccess: true };
export const FILE_ERA_SHAPE: IntegrationShape = { keys: 'legacy', conversationAccess: false };

/** The first OpenClaw release whose schema has `memory.search` is after the 2026.2 file era. */
const FIRST_AFTER_FILE_ERA: [number, number, number] = [2026, 3, 0];

/** The release reads the tool profiles of plugin manifests (after the file era; assumed when the release is not known): tool-policy.ts. */
export function readsManifestProfiles(version: OpenClawVersion | undefined): boolean {
  return version === undefined || !versionBefore(version, FIRST_AFTER_FILE_ERA);
}

/**
 * The shapes to try, most likely first: by the installed OpenClaw's version
 * (or, without its CLI, the version that last wrote openclaw.json), then the
 * others, in case the era boundary lies elsewhere. An explicit --keys choice
 * is the only candidate for the paths.
 */
export function candidateShapes(keys: PathsKeys, version: OpenClawVersion | undefined): IntegrationShape[] {
  const fileEra = version !== undefined && versionBefore(version, FIRST_AFTER_FILE_ERA);
  const preferred = fileEra ? FILE_ERA_SHAPE : CURRENT_SHAPE;
  const all: IntegrationShape[] = [
    preferred,
    fileEra ? CURRENT_SHAPE : FILE_ERA_SHAPE,
    { keys: preferred.keys, conversationAccess: !preferred.conversationAccess },
    { keys: fileEra ? 'current' : 'legacy', conversationAccess: preferred.conversationAccess },
  ];
  if (keys === 'auto') return all;
  const forced = [preferred.conversationAccess, !preferred.conversationAccess].map((conversationAccess) => ({ keys, conversationAccess }));
  return forced;
}

/** OpenClaw's complaint is about what we added (so another shape may pass), not about the rest of the file. */
export function rejectsOurKeys(output: string): boolean {
  return /memorySearch|memory\.search|memory: Unrecognized key: "search"|oc-memory|allowConversationAccess|"hooks"/.test(output);
}

/** The version that last wrote openclaw.json (`meta.lastTouchedVersion`), when OpenClaw's CLI cannot be asked. */
export function versionFromConfig(text: string): OpenClawVersion | undefined {
  const m = /lastTouchedVersion["']?\s*:\s*["']([^"']+)["']/.exec(text);
  return m ? parseOpenClawVersion(m[1]!) : undefined;
}

/** The shape `--print` shows: by the installed OpenClaw's version, no validation. */
export async function printShape(options: {
  env: Record<string, string | undefined>;
  keys?: PathsKeys | undefined;
  configText?: string | undefined;
  cli?: OpenClawCliOptions;
}): Promise<{ shape: IntegrationShape; version?: OpenClawVersion | undefined }> {
  const version =
    (await openClawVersion(options.cli ?? { env: options.env })) ??
    (options.configText ? versionFromConfig(options.configText) : undefined);
  return { shape: candidateShapes(options.keys ?? 'auto', version)[0]!, version };
}
