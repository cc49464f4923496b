/**
 * OC-Memory as a library: the package's public entry (`import { openMemory }
 * from 'oc-memory'`, package.json `exports`). Everything a front end needs —
 * the handle on a memory home, the agent-facing memory tools, prompt recall,
 * and the pure helpers and types they speak (errors, the injected-context
 * marker) — and nothing of how the memory is stored. The OpenClaw plugin
 * loads this module from the install it is configured with
 * (docs/architecture.md, "The front door").
 */
export {
  openMemory,
  type ActiveMemory,
  type AgeRequest,
  type Approved,
  type ArchiveRequest,
  type DecisionOptions,
  type Edited,
  type ForgetRequest,
  type Health,
  type MemoryHandle,
  type OpenMemoryOptions,
  type Rejected,
  type RememberRequest,
  type TierChangeOptions,
} from './memory.js';
export type { ListedObservation, ListPage } from './list.js';
export { EditRefused, type EditRefusal, type EditResult, type ObservationEdit } from './edit.js';
export { charCount, REMEMBER_MAX_CHARS, type Remembered, type RememberInput, type ToolClient } from './remember.js';
export { classifyPrompt, wrapInjectedContext, type PromptKind, type RecallRequest, type RecallResult } from './recall.js';
export {
  findMemoryTool,
  MEMORY_TOOLS,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  type JsonSchemaObject,
  type MemoryTool,
  type MemoryToolContext,
  type ToolHints,
  type ToolOutput,
} from './tools.js';
export { injectedMemoryIds, logPromptInjection, type InjectedMemory, type SkippedForTime } from './injections.js';
export { MEMORY_TOOL_NAMES, pluginToolName, type MemoryToolName } from '../core/injected-context.js';
export { usePackageRoot } from '../platform/package-root.js';
export { ConfigError, describeError, EXIT, OcmError, type ErrorCode, type ExitCode } from '../core/errors.js';
export type { Observation, ObservationMark, Priority, Provenance, Tier } from '../core/types.js';
export type { Config } from '../config/config-schema.js';
export type { SearchRequest, SearchMode } from '../search/search.js';
export type { SearchFilters, SearchResponse, SearchResult } from '../search/types.js';
export type { GetResult, LineRange } from '../search/get.js';
export type { MarkRequest, MarkResult } from '../jobs/mark.js';
export type { ForgetNowResult } from '../jobs/forget.js';
export type { ForgetPlan, ForgetResult, ForgetSelector } from '../tiers/forget.js';
export type { ApprovalResult, OpReport, TierRunResult } from '../tiers/tier-job.js';
export { proposalWhy, type Proposal, type ProposalWhy } from '../tiers/approvals.js';
export type { ProposalDetails } from '../tiers/proposal-details.js';
export type { AuditEntry } from '../tiers/audit.js';
export type { TierFile } from '../tiers/locations.js';
export { formatBytes, formatProposals, formatTierResult } from '../tiers/report.js';
export { assertKnownAgents, NO_LOG, underHomeLock, type MemoryHome } from './home.js';
export { HOME_LOCK_WAIT_MS } from '../platform/lock.js';
export {
  backupHome,
  exportMemory,
  importMemory,
  restoreHome,
  type BackedUp,
  type BackupOptions,
  type Exported,
  type ExportOptions,
  type ImportOptions,
  type RestoreOptions,
  type SealedFor,
} from './transfer.js';
export { NEW_PASSPHRASE, newSyncKey, syncNow, type Synced, type SyncNowOptions } from './sync.js';
export {
  reflectMemory,
  updateSearchIndex,
  type IndexUpdate,
  type IndexUpdateOptions,
  type ReflectOptions,
} from './maintenance.js';
export { formatMemoryStats, memoryStats, type StatsOptions } from './stats.js';
export { searchOnce } from './one-off-search.js';
export { claimDemoHome, runDemo, type DemoHome, type DemoHomeOptions, type DemoRun } from './demo.js';
export { watchHome, type TickEvent, type Watching, type WatchHomeOptions } from './watch.js';
export type { ImportResult } from '../tiers/import.js';
export type { RestoreResult } from '../tiers/backup.js';
export type { ExportFormat } from '../tiers/export.js';
export type { SyncResult } from '../jobs/sync/index.js';
export type { ReflectNowResult } from '../jobs/reflect.js';
export type { IndexResult } from '../search/indexer.js';
export type { Stats } from '../features/stats.js';
export { closestNames, didYouMean, type OcmErrorOptions } from './errors.js';
export {
  alertsEndpoint,
  installSchedule,
  isSchedulePlatform,
  observe,
  runAfterTurn,
  scheduleStatus,
  sendTestAlert,
  startAfterTurnJob,
  startWatcher,
  stopWatcher,
  tick,
  uninstallSchedule,
  uptimeText,
  type JobContext,
  type JobRun,
  type ObserveOptions,
  type ScheduleOptions,
  type StartWatcherOptions,
  type StopWatcherOptions,
} from './jobs.js';
export { configValue, readConfig, setConfig, type ConfigLocation, type ConfigValueRequest, type LoadedConfig } from './config.js';
export { memoryScope, type MemoryScope } from './memory.js';
export {
  claudeCodePreview,
  claudeCodeStatus,
  codexPreview,
  codexStatus,
  installClaudeCode,
  installCodex,
  installOpenClaw,
  installPi,
  openClawPreview,
  openClawStatus,
  piPreview,
  piStatus,
  repoint,
  toolPolicyText,
  uninstallClaudeCode,
  uninstallCodex,
  uninstallOpenClaw,
  uninstallPi,
  type AgentIntegrationOptions,
  type AgentSide,
  type OpenClawReport,
  type PathsKeys,
  type Runner,
} from './integrations.js';
export {
  clearSetupProgress,
  discoverSources,
  finishSetup,
  findAgents,
  findSetupSources,
  runDoctor,
  settleSetupKey,
  setupProgressFile,
  sqliteProblem,
  startSetup,
  wizardProgress,
  type Check,
  type DoctorRunOptions,
  type SetupReport,
  type SourceReport,
  type StartSetupOptions,
} from './setup.js';
export { logMasker, packageVersion, vectorServer } from './serving.js';
export type { TimelineCursor, TimelineDay, TimelineObservation, TimelinePage } from './timeline.js';
export type { TierSummary } from './tiers.js';
export { headerTokens, heldForReview, statusOfState, type HeldObservation, type StatusReport } from '../features/status.js';
