/**
 * `integrate openclaw`: make OpenClaw use OC-Memory without changing its
 * code (docs/running.md, "ocm-run integrate openclaw").
 *
 * 1. The plugin — its manifests from templates/openclaw-plugin/ and its
 *    JavaScript compiled by `npm run build` into dist/templates/openclaw-plugin/
 *    (OpenClaw refuses to install a package whose entry is TypeScript only) —
 *    goes into <state dir>/extensions/oc-memory/: through `openclaw plugins
 *    install` when OpenClaw's CLI is there (OpenClaw then records where it
 *    came from and trusts it), copied otherwise.
 * 2. openclaw.json (JSON5) gets our memory folders and an entry for our
 *    plugin, in the keys the installed OpenClaw knows: 2026.9 reads
 *    `memory.search.extraPaths` and rejects `agents.defaults.memorySearch`;
 *    the 2026.2 file era reads only `agents.defaults.memorySearch.extraPaths`
 *    and rejects `memory.search` and `plugins.entries.<id>.hooks`
 *    (see docs/running.md). The file is edited through a concrete syntax tree
 *    (@croct/json5-parser) so the user's comments, unquoted keys, quotes and
 *    trailing commas stay as they were; it is backed up first, and the
 *    result is checked by the installed OpenClaw on a temporary copy before
 *    it replaces the real file (a running gateway reloads that file).
 *
 * `--uninstall` reverses both: when openclaw.json is still exactly what we
 * wrote, the backup is restored byte for byte; when the user edited it since,
 * only what we added is taken out.
 *
 * This module is the integration's entry; each concern has its own:
 *
 *   location.ts        where OpenClaw keeps its config and extensions
 *   extra-paths.ts     which of our folders each agent searches, under which keys
 *   shapes.ts          the settings' shape per OpenClaw era, and which to try
 *   json5-tree.ts      openclaw.json as a syntax tree: key paths, minimal removals
 *   settings-edit.ts   adding and removing our settings (applyIntegration, removeIntegration)
 *   plugin-files.ts    the plugin's files: staged, placed, taken out
 *   install.ts         the install transaction, run through install-journal.ts
 *   uninstall.ts       `--uninstall`
 *   record.ts          the home's record of an install
 *   status.ts          `status`, `doctor` and `--print`
 */
export { locateOpenClaw, type OpenClawLocation } from './location.js';
export { agentExtraPaths, memoryFolders, sharedExtraPaths, type ExtraPath } from './extra-paths.js';
export {
  candidateShapes,
  CURRENT_SHAPE,
  FILE_ERA_SHAPE,
  printShape,
  readsManifestProfiles,
  type IntegrationShape,
  type PathsKeys,
} from './shapes.js';
export {
  applyIntegration,
  integrationSnippet,
  removeIntegration,
  type ApplyOptions,
  type EditResult,
  type PluginSettings,
} from './settings-edit.js';
export { PLUGIN_FILES, PLUGIN_ID, pluginSourcePath } from './plugin-files.js';
export { installOpenClawIntegration, type InstallReport, type InstallStep } from './install.js';
export { uninstallOpenClawIntegration, type UninstallReport } from './uninstall.js';
export { integrationPreview, integrationStatus, type IntegrationPreview, type IntegrationStatus } from './status.js';
