/**
 * The defaults of the agents' session-folder sources in config.yaml
 * (`sources.pi`, `sources.claude_code`, `sources.codex`): their folder and
 * their other settings. Plain data, so both the schema (config-schema.ts)
 * and the source descriptors (lib/sources/descriptors.ts, which tell whether
 * `dir` was left at its default) read it without loading the schema library.
 */

/** Settings of `sources.<key>` besides `enabled` and `dir`, with their defaults. */
export type SourceSettings = Record<string, string | boolean>;

export interface SourceFolderDefaults<S extends SourceSettings = SourceSettings> {
  /** `dir`'s default; left at it, the folder follows the agent's own environment (lib/sources/descriptors.ts, defaultDir). */
  dir: string;
  /** The other settings of the section. */
  settings: S;
}

export const SOURCE_FOLDER_DEFAULTS = {
  pi: { dir: '~/.pi/agent/sessions', settings: {} },
  /** `agent`: the memory the transcripts are filed under (its own by default; "main" merges them). `per_project`: each project (its cwd) its own memory. */
  claude_code: { dir: '~/.claude/projects', settings: { agent: 'claude-code', per_project: false } },
  codex: { dir: '~/.codex/sessions', settings: { agent: 'codex' } },
} as const satisfies Record<string, SourceFolderDefaults>;

/** The config keys of the session-folder sources. */
export type SourceFolderKey = keyof typeof SOURCE_FOLDER_DEFAULTS;
