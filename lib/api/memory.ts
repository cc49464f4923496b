/**
 * One handle on a memory home: what every front end (the CLI, the MCP
 * server, the OpenClaw plugin, the prompt hooks, the dashboard, the REST
 * API) asks of the memory, whatever carries the question. `openMemory(home)`
 * reads the home's config (or takes the caller's), and the handle searches,
 * reads, remembers, edits, marks, forgets, archives, recalls for a prompt,
 * reads active memory and reports status; it shows the timeline, the tiers
 * and the moves waiting for approval, approves, rejects and rolls back
 * moves, and gives the health page's figures — each through the module that
 * does it (search/, api/remember.ts, api/edit.ts, api/timeline.ts, jobs/,
 * tiers/, features/).
 *
 * Two ways to hold it: a one-off caller (a CLI command) lets each search
 * load what its filters need, as `ocm-run search` always has; a long-lived
 * one (`keepOpen`) keeps the index open between calls (search/engine.ts
 * IndexReader: reloaded only when an index update changed a tier), watches
 * the memory files for prompt recall, and reads config.yaml again when it
 * changes. Heavy modules load on the call that needs them, so a process that
 * only opens a handle pays for none of them.
 *
 * Size: the handle's methods, each a few lines handing the call to the module that does it (listed above).
 */
import { readFileSync, statSync } from 'node:fs';
import type { Config } from '../config/config-schema.js';
import { OcmError } from '../core/errors.js';
import type { Tier } from '../core/types.js';
import { activeMemoryPath, homePaths, type HomePaths } from '../platform/home.js';
import { withoutSuspiciousLines } from '../memory/suspicious.js';
import type { Logger } from '../platform/log.js';
import type { IndexReader } from '../search/engine.js';
import type { Embedder } from '../search/embedder.js';
import type { GetResult } from '../search/get.js';
import type { SearchRequest } from '../search/search.js';
import type { SearchFilters, SearchResponse, SearchResult } from '../search/types.js';
import type { ListPage } from './list.js';
import type { MarkRequest, MarkResult } from '../jobs/mark.js';
import type { ForgetNowOptions, ForgetNowResult } from '../jobs/forget.js';
import type { ForgetSelector } from '../tiers/forget.js';
import type { ApprovalResult, OpReport, TierJobOptions, TierRunResult } from '../tiers/tier-job.js';
import type { Proposal } from '../tiers/approvals.js';
import type { ProposalDetails } from '../tiers/proposal-details.js';
import type { AuditEntry } from '../tiers/audit.js';
import type { TierFile } from '../tiers/locations.js';
import type { StreamState } from '../platform/state.js';
import type { Stats, StatsCache } from '../features/stats.js';
import type { HeldObservation, StatusReport } from '../features/status.js';
import type { TimelineCursor, TimelineObservation, TimelinePage } from './timeline.js';
import type { TierSummary } from './tiers.js';
import type { EditResult, ObservationEdit } from './edit.js';
import type { LiveConfig, MemoryRecall, RecallRequest, RecallResult } from './recall.js';
import type { Remembered, RememberInput, ToolClient } from './remember.js';
import type { MemoryToolContext } from './tools.js';
import type { InjectedMemory, SkippedForTime } from './injections.js';
import type { MemoryScope } from '../sources/claude-code-project.js';

export type { MemoryScope } from '../sources/claude-code-project.js';

export interface OpenMemoryOptions {
  /** The home's config as the caller already read it (default: config.yaml and .env of the home; defaults when there is none). */
  config?: Config;
  /** The environment `${NAME}` in config.yaml is read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the handle's work is logged (default: nowhere). */
  logger?: Logger;
  now?: () => Date;
  /** How long a change waits for a job holding the home lock (ms; default: each operation's own, as its command has it). */
  lockWaitMs?: number;
  /** A long-lived caller: keep the index open between calls and follow config.yaml (default false). */
  keepOpen?: boolean;
  /** The query embedder searches use (default: the process's, search/embedder.ts processEmbedder). */
  embedder?: Embedder;
}

export interface RememberRequest extends RememberInput {
  /** The agent whose memory it goes into (default main). */
  agent?: string;
  /** Who asks (the provenance's session). */
  client?: ToolClient;
}

/** An observation edited: where it is and what changed. */
export interface Edited extends EditResult {
  id: string;
  agent: string;
  tier: Tier;
}

export interface ForgetRequest extends Partial<Pick<ForgetNowOptions, 'dryRun' | 'confirm' | 'onPlan' | 'onRecovered' | 'onStep'>> {
  /** What to forget: observation ids, or a query / date range (`ocm-run forget`). */
  selector: ForgetSelector;
}

/** What a tier change may be told: the named steps of its op, for tests that stop a run there (scripts/tier-context.ts crashHook). */
export interface TierChangeOptions {
  onStep?: TierJobOptions['onStep'];
}

export interface ArchiveRequest extends TierChangeOptions {
  olderThanDays: number;
  /** warm: moved now; cold: proposed for approval (moved at once when `approveAll` or tiers.cold_requires_approval is off). */
  to: 'warm' | 'cold';
  dryRun?: boolean;
  approveAll?: boolean;
}

export interface AgeRequest extends TierChangeOptions {
  /** Show what would move; change nothing. */
  dryRun?: boolean;
}

export interface DecisionOptions extends TierChangeOptions {
  /** One proposal that is no longer pending and that the audit log says was decided: `alreadyDecided` says how, instead of a refusal (a form sent twice). */
  unlessDecided?: boolean;
}

export interface Approved extends ApprovalResult {
  alreadyDecided?: 'approve' | 'reject' | undefined;
}

export interface Rejected {
  rejected: Proposal[];
  alreadyDecided?: 'approve' | 'reject' | undefined;
}

/** The health page: the jobs and sources from state.json (`status`), every stream's cursor, the figures of `ocm-run stats` and the last search times. */
export interface Health extends Pick<StatusReport, 'sources' | 'jobs' | 'lastError'> {
  streams: StreamState[];
  stats: Stats;
  /** ms of each search in logs/search.log, oldest first. */
  searchTimes: number[];
}

export interface ToolContextOptions {
  /** The agent `remember` writes for and whose active memory is read. */
  agent: string;
  /** Only these agents' memory may be searched and read, besides `agent`'s (an agent plugin: each agent its own memory). */
  sharedFrom?: string[];
  /** Without `sharedFrom`: every agent's memory may be searched; these stand in for `agent`'s active memory, and are the default search. */
  activeMemoryFallbacks?: string[];
  defaultSearchAgents?: string[];
  /** Who calls (a function: an MCP client is known only after `initialize`). */
  client: ToolClient | (() => ToolClient | undefined) | undefined;
}

export interface ActiveMemory {
  agent: string;
  path: string;
  text: string;
}

export interface MemoryHandle {
  readonly paths: HomePaths;
  /** The config in use (a `keepOpen` handle reads config.yaml again when it changed, before each call). */
  readonly config: Config;
  /** Ranked observations for a question (`ocm-run search`); `lockWaitMs`: how long an index behind the files may wait for the home lock to be updated (0: answer as it is). */
  search(request: SearchRequest, options?: { lockWaitMs?: number }): Promise<SearchResponse>;
  /** The index can be read as it is (false: missing or broken, a search would rebuild it first under the home lock). */
  indexReadable(): Promise<boolean>;
  /** Every observation, newest first, with search's filters, one page at a time (list.ts). */
  list(filters: SearchFilters, page: { offset: number; limit: number }): Promise<ListPage>;
  /** One observation by id with its provenance, or lines of a memory file (`path[:from[:lines]]`). */
  get(target: string): Promise<GetResult>;
  /** The observation with id `id` (undefined: none). */
  find(id: string): Promise<SearchResult | undefined>;
  /** Write one observation now (masked) to today's day file of the agent. */
  remember(request: RememberRequest): Promise<Remembered>;
  /** Change one observation by id: text, priority, category, tags, pin, done, a lifecycle mark. */
  edit(id: string, edit: ObservationEdit): Promise<Edited>;
  /** Set or clear an observation's lifecycle mark (`ocm-run mark`). */
  mark(id: string, request: MarkRequest): Promise<MarkResult>;
  /** Erase observations everywhere, journaled (`ocm-run forget ID…`). */
  forget(request: ForgetRequest): Promise<ForgetNowResult>;
  /** Move or propose to move day files older than a number of days (`ocm-run archive`). */
  archive(request: ArchiveRequest): Promise<TierRunResult>;
  /** Age the memory by the tiers' ages (`ocm-run tier`): hot → warm moved, warm → cold proposed; a real run is recorded for the daily tick. */
  age(request?: AgeRequest): Promise<TierRunResult>;
  /** Each tier's day files: how many, their size, the oldest and newest day. */
  tiers(): Promise<TierSummary[]>;
  /** The moves waiting for approval, each with what its file holds summarised (`ocm-run approvals`). */
  approvals(): Promise<ProposalDetails[]>;
  /** Approve pending proposals by id (`all`: every one): moved now, one op per direction (`ocm-run approvals approve`). */
  approve(ids: string[], options?: DecisionOptions): Promise<Approved>;
  /** Reject pending proposals: they stay, and are not proposed again (`ocm-run approvals reject`). */
  reject(ids: string[], options?: DecisionOptions): Promise<Rejected>;
  /** Undo a committed move byte for byte (`ocm-run tier --rollback`). */
  rollback(opId: string, options?: TierChangeOptions): Promise<OpReport & { target: string }>;
  /** The tiers' audit log (moves, approvals, rejections, forgets), oldest first. */
  audit(): Promise<AuditEntry[]>;
  /** The timeline: every tier's observations by day, newest first, with search's filters, a page at a time (timeline.ts). */
  timeline(filters: SearchFilters, from?: TimelineCursor): Promise<TimelinePage>;
  /** The day file of the memory `ref` names, as the index names files (any other path: undefined). */
  dayFile(ref: string): Promise<TierFile | undefined>;
  /** Every observation of one day file, located. */
  dayObservations(file: TierFile): Promise<TimelineObservation[]>;
  /** The reflection file `ref` names, when it is a Markdown file inside reflections/. */
  reflectionFile(ref: string): Promise<string | undefined>;
  /** The health page's jobs, sources, cursors and figures (a long-lived handle re-reads only the day files that changed). */
  health(): Promise<Health>;
  /** The memories related to an agent's prompt, above an absolute relevance floor (the OpenClaw plugin's lookup). */
  recall(request: RecallRequest): Promise<RecallResult>;
  /** An agent's active memory within the budget (the first of `agents` that has one). */
  activeMemory(agents: string | readonly string[], budgetTokens?: number): Promise<ActiveMemory | undefined>;
  /** The agents with memory in the hot tier, and main (sorted). */
  agents(): Promise<string[]>;
  /** `agent`'s active memory file as it is on disk (undefined when there is none): the dashboard shows it whole. */
  activeMemoryFile(agent: string): Promise<string | undefined>;
  /** Hot observations the suspicious-text detector holds out of every injection, for the user to review. */
  heldForReview(): Promise<HeldObservation[]>;
  /** The last `limit` injections the front ends logged (logs/hooks.log: hook.prompt, hook.session_start), newest first. */
  recentInjections(limit: number): Promise<Array<Record<string, unknown>>>;
  /** `agent`'s own active memory file as a prompt shows it ('' when none): synchronous, for a prompt's time. */
  promptActiveMemory(agent: string): string;
  /** Log which memories went into an agent's prompt (logs/hooks.log). */
  recordInjection(entry: { agent: string; via: string; injected: InjectedMemory[]; ms: number }): Promise<void>;
  /** Log (logs/hooks.log, read by `status`) memory a front end left out for time: the whole prompt lookup, or the last turn still being observed. */
  recordSkippedForTime(entry: SkippedForTime): Promise<void>;
  /** What the memory tools (api/tools.ts) need to run for `agent` on this handle. */
  toolContext(options: ToolContextOptions): Promise<MemoryToolContext>;
  /** Bring the index up to date and open it ahead of the first prompt; warnings when it could not be. */
  prepare(lockWaitMs?: number): Promise<string[]>;
  /** `ocm-run status`. */
  status(): Promise<StatusReport>;
  /** Forget what the open index loaded (after a change made to the files without the handle): the next call reads afresh. */
  refresh(): void;
  /** Let go of the open index and the watch of the memory files. */
  close(): Promise<void>;
}

/** Open the memory home at `home`. */
export async function openMemory(home: string, options: OpenMemoryOptions = {}): Promise<MemoryHandle> {
  if (options.config) return memoryOf(home, options.config, options);
  const paths = homePaths(home);
  return new Memory(paths, await liveConfig(paths, options.env), options);
}

/** The handle on `home` with the config the caller read already (a CLI command, the dashboard): no file is read to open it. */
export function memoryOf(home: string, config: Config, options: Omit<OpenMemoryOptions, 'config' | 'env'> = {}): MemoryHandle {
  return new Memory(homePaths(home), fixedConfig(config), options);
}

function fixedConfig(config: Config): LiveConfig {
  return { current: config, refresh: async () => config };
}

/** config.yaml as last read, read again (one stat) when its mtime changed. */
async function liveConfig(paths: HomePaths, env: NodeJS.ProcessEnv | undefined): Promise<LiveConfig> {
  const { loadConfig } = await import('../config/config.js');
  const read = async () => (await loadConfig({ file: paths.config, envFile: paths.env, env })).config;
  let mtime = mtimeOf(paths.config);
  let current = await read();
  return {
    get current() {
      return current;
    },
    async refresh() {
      const now = mtimeOf(paths.config);
      if (now !== mtime) {
        current = await read();
        mtime = now;
      }
      return current;
    },
  };
}

/** Synchronous: one stat per call, cheaper than a thread-pool turn on a busy gateway. */
function mtimeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * The handle's logger when the caller gave none: told apart by identity (recall then keeps no logger of its
 * own), so never the api's NO_LOG (home.ts), a logger a caller passes on purpose.
 */
const NO_LOGGER_GIVEN: Logger = { log: () => undefined, flush: async () => undefined };

class Memory implements MemoryHandle {
  readonly paths: HomePaths;
  private readonly settings: LiveConfig;
  private readonly logger: Logger;
  private readonly now: () => Date;
  /** As the caller asked (undefined: each operation's own default). */
  private readonly lockWaitMs: number | undefined;
  private readonly keepOpen: boolean;
  private readonly embedder: Embedder | undefined;
  private reader: IndexReader | undefined;
  private recaller: Promise<MemoryRecall> | undefined;
  /** Each day file's tally for health(), read again only when the file changed. */
  private readonly statsCache: StatsCache = new Map();

  constructor(paths: HomePaths, settings: LiveConfig, options: OpenMemoryOptions) {
    this.paths = paths;
    this.settings = settings;
    this.logger = options.logger ?? NO_LOGGER_GIVEN;
    this.now = options.now ?? (() => new Date());
    this.lockWaitMs = options.lockWaitMs;
    this.keepOpen = options.keepOpen === true;
    this.embedder = options.embedder;
  }

  get config(): Config {
    return this.settings.current;
  }

  /** The open index of a long-lived handle (undefined for a one-off one: each search loads what it needs). */
  private async openIndex(): Promise<IndexReader | undefined> {
    if (!this.keepOpen) return undefined;
    if (!this.reader) {
      const { openIndexReader } = await import('../search/open-engine.js');
      this.reader ??= openIndexReader(this.paths.index);
    }
    return this.reader;
  }

  /** After a change: what an open index loaded is read again on the next call. */
  private changed(): void {
    this.reader?.close();
  }

  refresh(): void {
    this.changed();
  }

  private recall_(): Promise<MemoryRecall> {
    this.recaller ??= (async () => {
      const [{ MemoryRecall }, { openIndexReader }] = await Promise.all([import('./recall.js'), import('../search/open-engine.js')]);
      this.reader ??= openIndexReader(this.paths.index);
      return new MemoryRecall(this.paths, this.settings, this.reader, this.logger === NO_LOGGER_GIVEN ? undefined : this.logger);
    })();
    return this.recaller;
  }

  async search(request: SearchRequest, options: { lockWaitMs?: number } = {}): Promise<SearchResponse> {
    const config = await this.settings.refresh();
    const openIndex = await this.openIndex();
    const { searchMemory } = await import('../search/search.js');
    // An open index answers every query afresh; the repeated-query cache is for one-off searches. A long-lived
    // caller waits only briefly for the home lock when the index is behind the files: a long job must not hold it up.
    const asked = openIndex ? { ...request, cache: false } : request;
    const lockWaitMs = options.lockWaitMs ?? (openIndex ? 2000 : undefined);
    const deps = {
      logger: this.logger,
      now: this.now,
      ...(openIndex ? { openIndex } : {}),
      ...(lockWaitMs !== undefined ? { lockWaitMs } : {}),
      ...(this.embedder ? { embedder: this.embedder } : {}),
    };
    try {
      return await searchMemory(this.paths, config, asked, deps);
    } catch (error) {
      // A segment an `index` run removed under the query: load again, once.
      if (!openIndex || !isSegmentGone(error)) throw error;
      openIndex.close();
      return searchMemory(this.paths, config, asked, deps);
    }
  }

  async indexReadable(): Promise<boolean> {
    const [{ TIERS }, { openEngine }] = await Promise.all([import('../search/engine.js'), import('../search/open-engine.js')]);
    return ((await this.openIndex()) ?? openEngine(this.paths.index)).generations(TIERS).problems.length === 0;
  }

  async list(filters: SearchFilters, page: { offset: number; limit: number }): Promise<ListPage> {
    const config = await this.settings.refresh();
    const { listMemories } = await import('./list.js');
    return listMemories(this.paths, config, filters, page);
  }

  async get(target: string): Promise<GetResult> {
    const config = await this.settings.refresh();
    const { getMemory } = await import('../search/get.js');
    return getMemory(this.paths, config, target, { logger: this.logger, now: this.now });
  }

  async find(id: string): Promise<SearchResult | undefined> {
    const config = await this.settings.refresh();
    const { getObservation, normaliseIdTarget } = await import('../search/get.js');
    return getObservation(this.paths, config, normaliseIdTarget(id), { logger: this.logger, now: this.now });
  }

  async remember(request: RememberRequest): Promise<Remembered> {
    const config = await this.settings.refresh();
    const { rememberObservation } = await import('./remember.js');
    const { agent, client, ...input } = request;
    const done = await rememberObservation(
      { paths: this.paths, config, agent: agent ?? 'main', client, logger: this.logger, now: this.now, lockWaitMs: this.lockWaitMs },
      input,
    );
    this.changed();
    return done;
  }

  async edit(id: string, edit: ObservationEdit): Promise<Edited> {
    const config = await this.settings.refresh();
    const found = await this.find(id);
    if (!found) throw notFound(id);
    const { editInFile } = await import('./edit.js');
    const { isAbsolute, join, relative } = await import('node:path');
    const path = isAbsolute(found.path) ? found.path : join(this.paths.root, found.path);
    const done = await editInFile(
      { paths: this.paths, config, logger: this.logger, now: this.now, lockWaitMs: this.lockWaitMs ?? 20_000 },
      { path, tier: found.tier, agent: found.agent, ref: relative(this.paths.root, path) },
      found.id,
      edit,
    );
    this.changed();
    this.logger.log('info', 'edit', { id: found.id, fields: Object.keys(edit), masked: done.masked });
    return { ...done, id: found.id, agent: found.agent, tier: found.tier };
  }

  async mark(id: string, request: MarkRequest): Promise<MarkResult> {
    const config = await this.settings.refresh();
    const { markObservation } = await import('../jobs/mark.js');
    const done = await markObservation({ paths: this.paths, config, logger: this.logger, now: this.now }, id, request);
    this.changed();
    return done;
  }

  async forget(request: ForgetRequest): Promise<ForgetNowResult> {
    const config = await this.settings.refresh();
    const { forgetNow } = await import('../jobs/forget.js');
    const done = await forgetNow({
      paths: this.paths,
      config,
      logger: this.logger,
      now: this.now,
      selector: request.selector,
      dryRun: request.dryRun === true,
      confirm: request.confirm ?? (async () => true),
      onPlan: request.onPlan,
      onRecovered: request.onRecovered,
      onStep: request.onStep,
      lockWaitMs: this.lockWaitMs,
    });
    this.changed();
    return done;
  }

  /** Run `change` with the tier job's options under the home lock; what an open index loaded is read again after. */
  private async tierChange<T>(options: TierChangeOptions, change: (tier: TierJobOptions) => Promise<T>): Promise<T> {
    const config = await this.settings.refresh();
    const [{ searchIndexUpdater }, { withHomeLock, HOME_LOCK_WAIT_MS }] = await Promise.all([
      import('../tiers/search-index.js'),
      import('../platform/lock.js'),
    ]);
    const base = { paths: this.paths, config, logger: this.logger, now: this.now };
    const tier: TierJobOptions = { ...base, updateIndex: searchIndexUpdater(base), ...(options.onStep ? { onStep: options.onStep } : {}) };
    try {
      return await withHomeLock(this.paths.lock, () => change(tier), { waitMs: this.lockWaitMs ?? HOME_LOCK_WAIT_MS });
    } finally {
      this.changed();
    }
  }

  async archive(request: ArchiveRequest): Promise<TierRunResult> {
    const { runArchive } = await import('../tiers/tier-job.js');
    return this.tierChange(request, (tier) =>
      runArchive({ ...tier, olderThanDays: request.olderThanDays, to: request.to, dryRun: request.dryRun, approveAll: request.approveAll }),
    );
  }

  async age(request: AgeRequest = {}): Promise<TierRunResult> {
    const { runTierJob } = await import('../tiers/tier-job.js');
    const result = await this.tierChange(request, (tier) => runTierJob({ ...tier, dryRun: request.dryRun === true }));
    if (!result.dryRun) {
      const { recordTierRun } = await import('../jobs/tier-step.js');
      await recordTierRun(this.paths, this.now());
    }
    return result;
  }

  async tiers(): Promise<TierSummary[]> {
    const config = await this.settings.refresh();
    const { tierSummaries } = await import('./tiers.js');
    return tierSummaries(this.paths, config);
  }

  async approvals(): Promise<ProposalDetails[]> {
    const [{ readApprovals }, { describeProposals }] = await Promise.all([
      import('../tiers/approvals.js'),
      import('../tiers/proposal-details.js'),
    ]);
    return describeProposals((await readApprovals(this.paths.approvals)).pending);
  }

  async approve(ids: string[], options: DecisionOptions = {}): Promise<Approved> {
    const [{ approveProposals }, { alreadyDecided }] = await Promise.all([import('../tiers/tier-job.js'), import('./tiers.js')]);
    return this.tierChange(options, async (tier) => {
      const decided = options.unlessDecided ? await alreadyDecided(this.paths, ids) : undefined;
      return decided ? { approved: [], ops: [], stale: [], skipped: [], alreadyDecided: decided } : approveProposals(tier, ids);
    });
  }

  async reject(ids: string[], options: DecisionOptions = {}): Promise<Rejected> {
    const [{ rejectProposals }, { alreadyDecided }] = await Promise.all([import('../tiers/tier-job.js'), import('./tiers.js')]);
    return this.tierChange(options, async (tier) => {
      const decided = options.unlessDecided ? await alreadyDecided(this.paths, ids) : undefined;
      return decided ? { rejected: [], alreadyDecided: decided } : { rejected: await rejectProposals(tier, ids) };
    });
  }

  async rollback(opId: string, options: TierChangeOptions = {}): Promise<OpReport & { target: string }> {
    const { rollbackTierOp } = await import('../tiers/tier-job.js');
    return this.tierChange(options, (tier) => rollbackTierOp(tier, opId));
  }

  async audit(): Promise<AuditEntry[]> {
    const { readAudit } = await import('../tiers/audit.js');
    return readAudit(this.paths.audit);
  }

  async timeline(filters: SearchFilters, from?: TimelineCursor): Promise<TimelinePage> {
    const config = await this.settings.refresh();
    const { timelinePage } = await import('./timeline.js');
    return timelinePage(this.paths, config, filters, from);
  }

  async dayFile(ref: string): Promise<TierFile | undefined> {
    const config = await this.settings.refresh();
    const { findDayFile } = await import('./timeline.js');
    return findDayFile(this.paths, config, ref);
  }

  async dayObservations(file: TierFile): Promise<TimelineObservation[]> {
    const { readDayObservations } = await import('./timeline.js');
    return readDayObservations(this.paths, file);
  }

  async reflectionFile(ref: string): Promise<string | undefined> {
    const { findReflectionFile } = await import('./timeline.js');
    return findReflectionFile(this.paths, ref);
  }

  async health(): Promise<Health> {
    const config = await this.settings.refresh();
    const [{ statusOfState }, { collectStats, searchTimes }, { readState }, { readTextIfExists }, { join }] = await Promise.all([
      import('../features/status.js'),
      import('../features/stats.js'),
      import('../platform/state.js'),
      import('../platform/home.js'),
      import('node:path'),
    ]);
    const { state } = await readState(this.paths.state);
    // The last searches of `ocm-run search` and of the dashboard, from the log `stats` reads (its p95 is over the same log).
    const times = searchTimes((await readTextIfExists(join(this.paths.logs, 'search.log'))) ?? '');
    // The jobs and sources come from state.json alone; the figures from the day files' cached tallies,
    // with state.json and the search log as read here (not read a second time).
    const stats = await collectStats(this.paths, config, { now: this.now(), cache: this.statsCache, state, searchTimes: times });
    return { ...statusOfState(state), streams: Object.values(state.streams), stats, searchTimes: times };
  }

  async recall(request: RecallRequest): Promise<RecallResult> {
    return (await this.recall_()).related(request);
  }

  async activeMemory(agents: string | readonly string[], budgetTokens?: number): Promise<ActiveMemory | undefined> {
    const config = await this.settings.refresh();
    const { readActiveMemory } = await import('../memory/active-memory-reader.js');
    return readActiveMemory(this.paths, agents, budgetTokens ?? config.active_memory.budget_tokens);
  }

  async agents(): Promise<string[]> {
    const [{ listHotAgents }, { DEFAULT_AGENT }] = await Promise.all([import('../memory/memory-files.js'), import('../platform/home.js')]);
    return [...new Set([DEFAULT_AGENT, ...(await listHotAgents(this.paths))])].sort();
  }

  async activeMemoryFile(agent: string): Promise<string | undefined> {
    const { readTextIfExists } = await import('../platform/home.js');
    return readTextIfExists(activeMemoryPath(this.paths, agent));
  }

  async heldForReview(): Promise<HeldObservation[]> {
    const [{ heldForReview }, { listHotDayFiles, readObservations }] = await Promise.all([
      import('../features/status.js'),
      import('../memory/memory-files.js'),
    ]);
    return heldForReview(await readObservations(await listHotDayFiles(this.paths)));
  }

  async recentInjections(limit: number): Promise<Array<Record<string, unknown>>> {
    const [{ readTextIfExists }, { join }] = await Promise.all([import('../platform/home.js'), import('node:path')]);
    const text = (await readTextIfExists(join(this.paths.logs, 'hooks.log'))) ?? '';
    const out: Array<Record<string, unknown>> = [];
    for (const line of text.split('\n')) {
      if (!line.includes('"hook.prompt"') && !line.includes('"hook.session_start"')) continue;
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // A line cut short by a crash: skipped, as every log reader does.
      }
    }
    return out.slice(-limit).reverse();
  }

  promptActiveMemory(agent: string): string {
    // Synchronous: a few KB, and an async read waits for a thread-pool turn, which on a busy gateway cost more than the read.
    try {
      return withoutSuspiciousLines(readFileSync(activeMemoryPath(this.paths, agent), 'utf8'));
    } catch {
      return '';
    }
  }

  async recordInjection(entry: { agent: string; via: string; injected: InjectedMemory[]; ms: number }): Promise<void> {
    return (await this.recall_()).recordInjection(entry);
  }

  async recordSkippedForTime(entry: SkippedForTime): Promise<void> {
    return (await this.recall_()).recordSkippedForTime(entry);
  }

  async toolContext(options: ToolContextOptions): Promise<MemoryToolContext> {
    const config = await this.settings.refresh();
    const client = options.client;
    const context: MemoryToolContext = {
      memory: this,
      paths: this.paths,
      config,
      agent: options.agent,
      client: typeof client === 'function' ? client : () => client,
      logger: this.logger,
      now: this.now,
    };
    if (options.sharedFrom) {
      // Only the agent's own memory and what is shared with it.
      const { agentSlug } = await import('../platform/home.js');
      context.agentScope = [...new Set([options.agent, ...options.sharedFrom].map(agentSlug))].sort();
    } else {
      if (options.activeMemoryFallbacks) context.activeMemoryFallbacks = options.activeMemoryFallbacks;
      if (options.defaultSearchAgents) context.defaultSearchAgents = options.defaultSearchAgents;
    }
    return context;
  }

  async prepare(lockWaitMs?: number): Promise<string[]> {
    return (await this.recall_()).prepare(lockWaitMs);
  }

  async status(): Promise<StatusReport> {
    const config = await this.settings.refresh();
    const { collectStatus } = await import('../features/status.js');
    return collectStatus(this.paths, config);
  }

  async close(): Promise<void> {
    const recaller = this.recaller;
    this.recaller = undefined;
    const recall = await recaller?.catch(() => undefined);
    await recall?.close();
    this.reader?.close();
    this.reader = undefined;
  }
}

function notFound(id: string): OcmError {
  return new OcmError('NOT_FOUND', `No observation with id ${id}.`, {
    hint: 'Ids look like o-7f3a9c21e0 (the ^o-… at the end of a line); a search shows them.',
  });
}

function isSegmentGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || (error as Error | null)?.name === 'SegmentError' || (error as Error | null)?.name === 'IndexUnavailable';
}

/**
 * Per-project memory (sources.claude_code.per_project): the agent a caller
 * in `cwd` writes to, what it searches and the active memory it falls back
 * on; undefined: `agent`'s own memory.
 */
export async function memoryScope(agent: string, perProject: boolean, cwd: string | undefined): Promise<MemoryScope | undefined> {
  const { memoryScope: scopeOf } = await import('../sources/claude-code-project.js');
  return scopeOf(agent, perProject, cwd);
}
