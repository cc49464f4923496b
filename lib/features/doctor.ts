/**
 * `doctor`: every thing that has to be right for OC-Memory to work, checked
 * one by one, each a ✅ / ⚠️ / ❌ line with the fix. Checks never throw: a
 * check that cannot run is itself a finding.
 *
 * Size: a list of independent checks, each a small function in the order `doctor` prints them.
 */
import { access, constants, readdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { describeError, errorCode } from '../core/errors.js';
import { expandHome, type HomePaths } from '../platform/home.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  id: string;
  status: CheckStatus;
  title: string;
  detail: string;
  /** What to do (warn and fail). */
  fix?: string;
  /** `openclaw.tools`: each OpenClaw agent, whether its model is offered OC-Memory's memory tools, and what to change if not. */
  toolPolicy?: import('../integrations/openclaw/tool-policy.js').AgentToolPolicy[];
}

export interface DoctorOptions {
  paths: HomePaths;
  configFile: string;
  env: Record<string, string | undefined>;
  userHome: string;
  now?: Date;
  /** Skip the live API-key call. */
  offline?: boolean;
  /** Injected for tests; default: lib/setup/key-check. */
  checkKey?: typeof import('../setup/key-check.js').checkLlmKey;
  /** Injected for tests; default: lib/schedule collectScheduleInfo. */
  scheduleInfo?: (paths: HomePaths, every: number) => Promise<import('../jobs/schedule/index.js').ScheduleInfo>;
  /** `openclaw --version`, when its CLI is installed (injected for tests). */
  openClawVersion?: () => Promise<string | undefined>;
  /** How Codex reports its hooks (default: `codex app-server` from env.PATH; lib/features/doctor-agents.ts). */
  codexHooks?: import('./doctor-agents.js').AgentChecksOptions['codexHooks'];
  /** How to run OpenClaw's CLI for its own checks (default: `openclaw` on env.PATH). */
  openClawCli?: import('../integrations/openclaw/cli.js').OpenClawCliOptions;
}

const ok = (id: string, title: string, detail: string): Check => ({ id, status: 'ok', title, detail });
const warn = (id: string, title: string, detail: string, fix: string): Check => ({ id, status: 'warn', title, detail, fix });
const fail = (id: string, title: string, detail: string, fix: string): Check => ({ id, status: 'fail', title, detail, fix });

async function writable(dir: string): Promise<string | undefined> {
  const probe = join(dir, `.ocm-doctor-${process.pid}`);
  try {
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return errorCode(error) ?? 'error';
  }
}

async function modeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

function mb(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

async function defaultOpenClawVersion(): Promise<string | undefined> {
  try {
    const { execa } = await import('execa');
    const r = await execa('openclaw', ['--version'], { reject: false, timeout: 10_000, stdin: 'ignore' });
    if (r.exitCode !== 0) return undefined;
    return String(r.stdout).trim().split('\n')[0] || undefined;
  } catch {
    return undefined;
  }
}

async function checkConfig(options: DoctorOptions): Promise<{ checks: Check[]; config?: Config; env: Record<string, string | undefined> }> {
  const { loadConfig } = await import('../config/config.js');
  try {
    const loaded = await loadConfig({ file: options.configFile, envFile: options.paths.env, env: options.env as NodeJS.ProcessEnv });
    const checks = [ok('config', 'Configuration', `${options.configFile} is valid`)];
    if (loaded.missingEnv.length > 0) {
      checks.push(
        warn(
          'config.env',
          'Secrets referenced by the config',
          `not set: ${loaded.missingEnv.map((n) => `\${${n}}`).join(', ')}`,
          `Add them to ${options.paths.env} as NAME=value (mode 0600), or export them.`,
        ),
      );
    }
    return { checks, config: loaded.config, env: loaded.env };
  } catch (error) {
    const d = describeError(error);
    return {
      checks: [fail('config', 'Configuration', d.message, d.hint ?? 'Fix config.yaml, then run `ocm-run config validate`.')],
      env: options.env,
    };
  }
}

/** Which embeddings search uses; the local model is loaded once here, so a broken install shows before a search meets it. */
async function checkEmbeddings(config: Config): Promise<Check> {
  const { collectEmbeddingStatus } = await import('./embedding-status.js');
  const s = await collectEmbeddingStatus(config);
  if (s.provider !== 'local') return ok('embeddings', 'Embeddings', s.label);
  const fix =
    'Reinstall OC-Memory (`npm ci`, or `npm install -g oc-memory`) to restore the bundled model, or `ocm-run config set embeddings.provider none`. Search answers by full text meanwhile.';
  if (s.problem) return warn('embeddings', 'Embeddings', `${s.label}: ${s.problem}`, fix);
  const { loadLocalModel } = await import('../search/local-model.js');
  const { EmbeddingError } = await import('../search/embeddings.js');
  const started = performance.now();
  try {
    await loadLocalModel();
  } catch (error) {
    if (!(error instanceof EmbeddingError)) throw error;
    return warn('embeddings', 'Embeddings', `${s.label}: ${error.message} — search falls back to full text`, fix);
  }
  return ok('embeddings', 'Embeddings', `${s.label}: loads in ${Math.round(performance.now() - started)} ms`);
}

async function checkLlm(config: Config, env: Record<string, string | undefined>, options: DoctorOptions): Promise<Check[]> {
  const o = config.observer;
  if (o.provider === 'heuristic' || !o.model) {
    return [ok('llm', 'Observer', 'heuristic (offline): no API key needed')];
  }
  if (options.offline)
    return [
      warn(
        'llm',
        'Observer API key',
        `${o.provider}/${o.model}: not checked (--offline)`,
        'Run `ocm-run doctor` without --offline to test the key with one tiny call.',
      ),
    ];
  const checkKey = options.checkKey ?? (await import('../setup/key-check.js')).checkLlmKey;
  const r = await checkKey(o, env, { timeoutMs: 15_000 });
  const label = `${o.provider}/${o.model}`;
  switch (r.outcome) {
    case 'accepted':
      return [ok('llm', 'Observer API key', `${label}: accepted`)];
    case 'no-key':
      return [
        fail(
          'llm',
          'Observer API key',
          `${label}: ${r.message}`,
          `Run \`ocm-run setup --reconfigure\`, or put the key in ${options.paths.env} (e.g. OPENAI_API_KEY=…).`,
        ),
      ];
    case 'rejected':
      return [
        fail(
          'llm',
          'Observer API key',
          `${label}: ${r.message}`,
          'Check the key at the provider (active, right project), then `ocm-run setup --reconfigure`.',
        ),
      ];
    case 'model':
      return [
        fail(
          'llm',
          'Observer model',
          `${label}: ${r.message}`,
          `Pick a model this endpoint serves: \`ocm-run config set observer.model <name>\`.`,
        ),
      ];
    case 'unreachable':
      return [
        warn(
          'llm',
          'Observer endpoint',
          `${label}: ${r.message}`,
          'Check the network or observer.api_base (for Ollama / LM Studio: is the server running?). Nothing is lost meanwhile: ticks retry.',
        ),
      ];
    default:
      return [warn('llm', 'Observer endpoint', `${label}: ${r.message}`, 'Try again later; `ocm-run status` shows the last LLM error.')];
  }
}

async function checkPaths(paths: HomePaths): Promise<Check[]> {
  const checks: Check[] = [];
  const bad: string[] = [];
  for (const dir of [paths.root, paths.memory, paths.reflections, paths.archive, paths.machine, paths.logs]) {
    const err = await writable(dir);
    if (err) bad.push(`${dir} (${err})`);
  }
  checks.push(
    bad.length === 0
      ? ok('paths', 'Memory home writable', paths.root)
      : fail(
          'paths',
          'Memory home writable',
          `cannot write: ${bad.join(', ')}`,
          `Fix the owner/mode (chown -R $USER "${paths.root}"; chmod 700 the folders), or point --home / OCM_HOME at a writable folder.`,
        ),
  );
  const loose: string[] = [];
  for (const file of [paths.config, paths.env]) {
    const mode = await modeOf(file);
    if (mode !== undefined && (mode & 0o077) !== 0) loose.push(`${file} is ${mode.toString(8).padStart(4, '0')}`);
  }
  const rootMode = await modeOf(paths.root);
  if (rootMode !== undefined && (rootMode & 0o077) !== 0) loose.push(`${paths.root} is ${rootMode.toString(8).padStart(4, '0')}`);
  checks.push(
    loose.length === 0 || process.platform === 'win32'
      ? ok('permissions', 'Permissions', 'config.yaml and .env are private (0600), the home 0700')
      : warn('permissions', 'Permissions', loose.join('; '), `chmod 600 "${paths.config}" "${paths.env}" && chmod 700 "${paths.root}"`),
  );
  return checks;
}

async function checkOpenClaw(config: Config, options: DoctorOptions): Promise<Check[]> {
  const { defaultOpenClawStateDirs } = await import('../sources/openclaw-files.js');
  const configured = config.sources.openclaw.state_dirs.map((d) => expandHome(d, options.userHome));
  const dirs = configured.length > 0 ? configured : defaultOpenClawStateDirs(options.env, options.userHome);
  const found: string[] = [];
  for (const d of dirs)
    if (
      await stat(d).then(
        (s) => s.isDirectory(),
        () => false,
      )
    )
      found.push(d);
  if (!config.sources.openclaw.enabled && !config.sources.openclaw_db.enabled)
    return [ok('openclaw', 'OpenClaw', 'not read (sources.openclaw disabled)')];
  // A state folder alone says nothing (OC-Memory's own home is ~/.openclaw/oc-memory): the command or its agents do.
  const versionText = await (options.openClawVersion ?? defaultOpenClawVersion)();
  const { parseOpenClawVersion } = await import('../integrations/openclaw/cli.js');
  const { findOpenClaw } = await import('../integrations/openclaw/presence.js');
  const presence = await findOpenClaw({
    env: options.env,
    userHome: options.userHome,
    stateDirs: dirs,
    version: versionText ? (parseOpenClawVersion(versionText) ?? { text: versionText, parts: [0, 0, 0] }) : null,
  });
  if (!presence.installed) {
    return [
      warn(
        'openclaw',
        'OpenClaw',
        `not installed: ${presence.seen}`,
        'Install OpenClaw and run it once, or set OPENCLAW_STATE_DIR / sources.openclaw.state_dirs to where it keeps its data. (Other agents: `ocm-run sources`.)',
      ),
      warn(
        'openclaw.integration',
        'OpenClaw integration',
        'not checked: OpenClaw is not installed here',
        'After installing OpenClaw: `ocm-run integrate openclaw`',
      ),
    ];
  }
  if (found.length === 0) {
    return [
      warn(
        'openclaw',
        'OpenClaw',
        `no state folder found (${dirs.join(', ') || '~/.openclaw'}); ${presence.seen}`,
        'Run OpenClaw once, or set OPENCLAW_STATE_DIR / sources.openclaw.state_dirs to where it keeps its data.',
      ),
    ];
  }
  const checks: Check[] = [];
  // Transcript storage: JSONL files (up to ~2026.7) or the per-agent SQLite database (2026.8+).
  let files = 0;
  let dbs = 0;
  let agents = 0;
  for (const d of found) {
    const agentNames = await readdir(join(d, 'agents')).catch(() => [] as string[]);
    agents += agentNames.length;
    for (const a of agentNames) {
      files += (await readdir(join(d, 'agents', a, 'sessions')).catch(() => [] as string[])).filter((n) => n.includes('.jsonl')).length;
      if (
        await access(join(d, 'agents', a, 'agent', 'openclaw-agent.sqlite'), constants.R_OK).then(
          () => true,
          () => false,
        )
      )
        dbs++;
    }
  }
  const storage =
    dbs > 0 && files > 0
      ? `database (${dbs}) and transcript files (${files})`
      : dbs > 0
        ? `database (openclaw-agent.sqlite × ${dbs})`
        : files > 0
          ? `transcript files (${files} .jsonl)`
          : 'no transcripts yet';
  const { openClawConfigPath, readOpenClawJson } = await import('../integrations/openclaw/config.js');
  const configPath = openClawConfigPath(options.env, options.userHome);
  const json = await readOpenClawJson(configPath);
  const meta = json.data?.meta as { lastTouchedVersion?: unknown } | undefined;
  const version =
    versionText ?? (typeof meta?.lastTouchedVersion === 'string' ? `${meta.lastTouchedVersion} (from openclaw.json)` : 'unknown');
  checks.push(ok('openclaw', 'OpenClaw', `${found.join(', ')} · version ${version} · ${agents} agent(s) · ${storage}`));
  if (dbs > 0 && !config.sources.openclaw_db.enabled) {
    checks.push(
      warn(
        'openclaw.db',
        'OpenClaw database transcripts',
        'this OpenClaw keeps transcripts in SQLite, but sources.openclaw_db is disabled',
        '`ocm-run config set sources.openclaw_db.enabled true`',
      ),
    );
  }
  if (dbs > 0 && config.sources.openclaw_db.enabled) checks.push(await checkSqlite());
  if (json.warning) {
    checks.push(
      fail(
        'openclaw.config',
        'openclaw.json',
        json.warning,
        'Fix openclaw.json (OpenClaw’s `openclaw doctor` helps); OC-Memory only reads it.',
      ),
    );
    return checks;
  }
  const { integrationStatus } = await import('../integrations/openclaw/integration.js');
  const st = await integrationStatus({
    paths: options.paths,
    env: options.env,
    userHome: options.userHome,
    version: parseOpenClawVersion(version),
  });
  if (!st.location.configExists && !st.pluginInstalled) {
    checks.push(
      warn(
        'openclaw.integration',
        'OpenClaw integration',
        'not set up: OpenClaw does not search OC-Memory’s files and no plugin adds memory to prompts',
        '`ocm-run integrate openclaw`',
      ),
    );
  } else {
    const parts = [
      `memory.search.extraPaths ${st.currentKey ? '✓' : '✗'}`,
      `agents.defaults.memorySearch.extraPaths ${st.legacyKey ? '✓' : '✗'}`,
      `plugin entry ${st.pluginEntry ? '✓' : '✗'}`,
      `plugin files ${st.pluginInstalled ? (st.pluginOutdated ? 'outdated' : '✓') : '✗'}`,
    ];
    const complete = (st.currentKey || st.legacyKey) && st.pluginEntry && st.pluginInstalled && !st.pluginOutdated;
    checks.push(
      complete
        ? ok('openclaw.integration', 'OpenClaw integration', `${configPath}: ${parts.join(', ')}`)
        : warn(
            'openclaw.integration',
            'OpenClaw integration',
            `${configPath}: ${parts.join(', ')}`,
            '`ocm-run integrate openclaw` (safe to run again; it backs up openclaw.json first)',
          ),
    );
    // Only when the plugin is there to offer the tools.
    if (st.toolPolicy.length > 0 && (st.pluginEntry || st.pluginInstalled)) checks.push(await toolPolicyCheck(st.toolPolicy, configPath));
    checks.push(...(await checkWithOpenClaw(st, options)));
  }
  return checks;
}

/**
 * Are OC-Memory's memory tools offered to each OpenClaw agent under
 * openclaw.json's tool policy (lib/integrations/openclaw/tool-policy.ts)? A
 * warning when not, like an incomplete integration: recall before each prompt
 * and observing go on without the tools.
 */
async function toolPolicyCheck(
  agents: import('../integrations/openclaw/tool-policy.js').AgentToolPolicy[],
  configPath: string,
): Promise<Check> {
  const { describeAdvice } = await import('../integrations/openclaw/tool-policy.js');
  const title = 'OC-Memory tools in OpenClaw';
  const hidden = agents.filter((a) => !a.offered);
  const offered = agents.filter((a) => a.offered).map((a) => a.agent);
  if (hidden.length === 0)
    return {
      ...ok('openclaw.tools', title, `offered to ${offered.join(', ')} (oc_memory_search, _get, _remember, _active)`),
      toolPolicy: agents,
    };
  const detail = `hidden from ${hidden.map((a) => a.agent).join(', ')} by the tool policy in ${configPath} (${[...new Set(hidden.flatMap((a) => a.advice.map((x) => x.why)))].join('; ')})${offered.length > 0 ? `; offered to ${offered.join(', ')}` : ''}`;
  const fix = `${hidden.map((a) => `${a.agent}: ${a.advice.map(describeAdvice).join(' and ')}`).join('; ')}; then restart the OpenClaw gateway (memory still reaches each prompt without the tools)`;
  return { ...warn('openclaw.tools', title, detail, fix), toolPolicy: agents };
}

/**
 * The integration as the installed OpenClaw sees it: its own validation of
 * openclaw.json, and our plugin's load status and origin (`openclaw plugins
 * inspect`, `plugins info` on 2026.2). Nothing when its CLI is not installed.
 */
async function checkWithOpenClaw(
  st: import('../integrations/openclaw/integration.js').IntegrationStatus,
  options: DoctorOptions,
): Promise<Check[]> {
  const { inspectPlugin, validateOpenClawConfig } = await import('../integrations/openclaw/cli.js');
  const { PLUGIN_ID } = await import('../integrations/openclaw/integration.js');
  const cli = options.openClawCli ?? { env: options.env };
  const checks: Check[] = [];
  if (st.location.configExists) {
    const v = await validateOpenClawConfig(cli, st.location.configPath);
    if (!v.available) return checks;
    checks.push(
      v.ok
        ? ok('openclaw.validate', 'OpenClaw accepts openclaw.json', 'its own validation passes')
        : fail(
            'openclaw.validate',
            'OpenClaw rejects openclaw.json',
            v.output.split('\n').slice(0, 6).join('; ') || 'no details',
            /memorySearch|memory\.search|"search"|oc-memory|hooks/.test(v.output)
              ? 'OC-Memory’s keys are named: run `ocm-run integrate openclaw` again (it writes the keys this OpenClaw accepts; `--uninstall` first removes old ones); else `openclaw doctor --fix`'
              : '`openclaw doctor --fix`, or fix what OpenClaw lists by hand',
          ),
    );
  }
  if (!st.pluginEntry && !st.pluginInstalled) return checks;
  const p = await inspectPlugin(cli, PLUGIN_ID);
  if (!p.available) return checks;
  if (!p.found) {
    checks.push(
      fail(
        'openclaw.plugin',
        'OC-Memory plugin in OpenClaw',
        'OpenClaw does not know the plugin',
        '`ocm-run integrate openclaw` installs it',
      ),
    );
  } else if (p.status !== 'loaded') {
    checks.push(
      fail(
        'openclaw.plugin',
        'OC-Memory plugin in OpenClaw',
        `status ${p.status ?? 'unknown'}${p.error ? `: ${p.error}` : ''}`,
        '`ocm-run integrate openclaw` again; `openclaw plugins doctor` shows OpenClaw’s own diagnosis',
      ),
    );
  } else if (p.untracked || p.warnings.length > 0) {
    checks.push(
      warn(
        'openclaw.plugin',
        'OC-Memory plugin in OpenClaw',
        `loaded, but ${p.untracked ? 'OpenClaw has no record of where it came from (it warns it cannot verify it)' : p.warnings[0]}`,
        '`ocm-run integrate openclaw` installs it through `openclaw plugins install`, which records its origin',
      ),
    );
  } else {
    checks.push(
      ok(
        'openclaw.plugin',
        'OC-Memory plugin in OpenClaw',
        `loaded${p.installSource ? `, installed from a ${p.installSource}` : ''}${p.enabled === false ? ' (disabled)' : ''}`,
      ),
    );
  }
  return checks;
}

/** Which SQLite driver reads OpenClaw's databases (docs/sources.md, "Libraries"), or what is missing. */
async function checkSqlite(): Promise<Check> {
  const { describeSqliteDriver } = await import('../platform/sqlite.js');
  try {
    const d = await describeSqliteDriver();
    return ok('sqlite', 'SQLite', `${d.name} (SQLite ${d.sqliteVersion}, Node ${process.versions.node})`);
  } catch (error) {
    const e = describeError(error);
    return fail('sqlite', 'SQLite', e.message, e.hint ?? 'Reinstall OC-Memory so that its sql.js dependency is there.');
  }
}

async function checkSchedule(config: Config, options: DoctorOptions): Promise<Check[]> {
  const { daemonStatus } = await import('../jobs/daemon.js');
  const daemon = await daemonStatus(options.paths, options.now);
  let info: import('../jobs/schedule/index.js').ScheduleInfo;
  try {
    info = options.scheduleInfo
      ? await options.scheduleInfo(options.paths, config.schedule.every_minutes)
      : await (await import('../jobs/schedule/index.js')).collectScheduleInfo(options.paths, config.schedule.every_minutes, {
          xdgConfigHome: options.env.XDG_CONFIG_HOME,
          now: options.now,
        });
  } catch (error) {
    return [warn('schedule', 'Schedule', `could not be checked: ${describeError(error).message}`, '`ocm-run schedule status` shows more.')];
  }
  const last = info.lastRun ? `last tick ${info.minutesSinceLastRun} min ago` : 'no tick yet';
  if (daemon.running)
    return [
      ok(
        'schedule',
        'Schedule',
        `watcher running (PID ${daemon.pid})${info.installed ? ` and ${info.platform} every ${info.everyMinutes} min` : ''}; ${last}`,
      ),
    ];
  if (!info.installed)
    return [
      warn(
        'schedule',
        'Schedule',
        `nothing runs OC-Memory automatically (${info.platform} entry not installed); ${last}`,
        '`ocm-run schedule install` (or keep `ocm-run start --daemon` running)',
      ),
    ];
  if (info.active === false)
    return [
      fail(
        'schedule',
        'Schedule',
        `${info.platform} entry installed but not active; ${last}`,
        '`ocm-run schedule install` again, then `ocm-run schedule status`',
      ),
    ];
  if (!info.ticking) {
    return [
      fail(
        'schedule',
        'Schedule',
        `${info.platform} every ${info.everyMinutes} min, but ${last}`,
        `Look at ${join(options.paths.logs, 'schedule.log')} and ${join(options.paths.logs, 'errors.log')}; run ` +
          `\`ocm-run run --verbose\` by hand to see the error.`,
      ),
    ];
  }
  return [ok('schedule', 'Schedule', `${info.platform} every ${info.everyMinutes} min; ${last}`)];
}

async function checkIndex(paths: HomePaths): Promise<Check[]> {
  const { openEngine } = await import('../search/open-engine.js');
  const engine = openEngine(paths.index);
  const parts: string[] = [];
  const problems: string[] = [];
  const outdated: string[] = [];
  let missing = 0;
  for (const tier of ['hot', 'warm'] as const) {
    const { state, reason } = engine.openTier(tier);
    if (state === 'missing') {
      missing++;
      continue;
    }
    if (state === 'version') {
      outdated.push(`${tier}: ${reason ?? 'older format'}`);
      continue;
    }
    if (state !== 'ok') {
      problems.push(`${tier}: ${reason ?? state}`);
      continue;
    }
    const files = engine.storedPaths(tier);
    let lost = 0;
    for (const path of files) if (!(await engine.intact(tier, path, false))) lost++;
    if (lost > 0) problems.push(`${tier}: ${lost} segment file(s) missing`);
    parts.push(`${tier} ${files.reduce((n, path) => n + (engine.stored(tier, path)?.docs ?? 0), 0)} documents in ${files.length} files`);
  }
  if (problems.length > 0)
    return [
      fail(
        'index',
        'Search index',
        problems.join('; '),
        '`ocm-run index --rebuild` (the index is rebuilt from the Markdown files; nothing is lost)',
      ),
    ];
  if (outdated.length > 0)
    return [
      warn(
        'index',
        'Search index',
        `built by an older version (${outdated.join('; ')})`,
        'The next `ocm-run run` rebuilds it; or now: `ocm-run index --rebuild`.',
      ),
    ];
  if (missing === 2) return [warn('index', 'Search index', 'not built yet', '`ocm-run index` (the next `ocm-run run` builds it too)')];
  return [ok('index', 'Search index', parts.join(', ') || 'empty')];
}

async function checkDisk(paths: HomePaths): Promise<Check[]> {
  try {
    const s = await statfs(paths.root);
    const free = s.bavail * s.bsize;
    if (free < 100 * 1024 ** 2)
      return [
        fail(
          'disk',
          'Disk space',
          `${mb(free)} free where the home is`,
          'Free some space: a full disk stops every job (nothing is lost; the cursor waits).',
        ),
      ];
    if (free < 1024 ** 3) return [warn('disk', 'Disk space', `${mb(free)} free where the home is`, 'Free some space soon.')];
    return [ok('disk', 'Disk space', `${mb(free)} free`)];
  } catch (error) {
    return [warn('disk', 'Disk space', `could not be read (${errorCode(error) ?? 'error'})`, 'Check with `df -h`.')];
  }
}

/**
 * Where an alert (an Observer that keeps failing, a full disk) would go, as the tick finds it: the
 * OpenClaw hooks endpoint when a token is found, and alerts.webhook_url. Alerts on with neither reach
 * nobody, which is a problem to show, not "no problems". No network call (`ocm-run alerts` tests it).
 */
async function checkAlerts(config: Config, env: Record<string, string | undefined>, options: DoctorOptions): Promise<Check> {
  if (!config.alerts.enabled) return ok('alerts', 'Alerts', 'off (alerts.enabled: false): failures are only in logs/ and `ocm-run status`');
  const { discoverOpenClawEndpoint } = await import('../integrations/openclaw/config.js');
  const endpoint = await discoverOpenClawEndpoint({ env, alerts: config.alerts, homeDir: options.userHome });
  const targets: string[] = [];
  if (endpoint.token)
    targets.push(
      `OpenClaw hooks ${endpoint.url}${endpoint.hooksPath}/agent (URL from ${endpoint.urlSource}, token from ${endpoint.tokenSource})`,
    );
  if (config.alerts.webhook_url) targets.push(`webhook ${config.alerts.webhook_url}`);
  if (targets.length > 0) return ok('alerts', 'Alerts', `to ${targets.join(' and ')}`);
  const looked = `no OpenClaw hooks token (not in alerts.openclaw_token, ${endpoint.configPath ? `hooks.token of ${endpoint.configPath}` : 'openclaw.json (none found)'} or OPENCLAW_HOOKS_TOKEN) and no alerts.webhook_url`;
  return warn(
    'alerts',
    'Alerts',
    `on, but they reach nobody: ${looked}`,
    "Set a webhook (`ocm-run config set alerts.webhook_url https://…`), or enable OpenClaw's hooks (hooks.enabled and hooks.token in openclaw.json); `ocm-run alerts test` sends one",
  );
}

export async function runDoctor(options: DoctorOptions): Promise<Check[]> {
  const { checks, config, env } = await checkConfig(options);
  checks.push(...(await checkPaths(options.paths)));
  if (config) {
    checks.push(...(await checkLlm(config, env, options)));
    checks.push(await checkEmbeddings(config));
    checks.push(...(await checkOpenClaw(config, options)));
    checks.push(...(await checkSchedule(config, options)));
    checks.push(...(await (await import('./doctor-sync.js')).checkSync(config, env)));
    checks.push(await checkAlerts(config, env, options));
    const { checkAgentIntegrations } = await import('./doctor-agents.js');
    checks.push(
      ...(await checkAgentIntegrations({
        paths: options.paths,
        config,
        env: options.env,
        userHome: options.userHome,
        codexHooks: options.codexHooks,
      })),
    );
  }
  checks.push(...(await checkIndex(options.paths)));
  checks.push(...(await checkDisk(options.paths)));
  return checks;
}

const ICON: Record<CheckStatus, string> = { ok: '✅', warn: '⚠️ ', fail: '❌' };

export function formatChecks(checks: Check[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${ICON[c.status]} ${c.title}: ${c.detail}`);
    if (c.fix && c.status !== 'ok') lines.push(`   → ${c.fix}`);
  }
  // The summary names what it counts, so "no problems" never hides a warning nobody reads.
  const titles = (status: CheckStatus) => [...new Set(checks.filter((c) => c.status === status).map((c) => c.title))];
  const fails = checks.filter((c) => c.status === 'fail').length;
  const warns = checks.filter((c) => c.status === 'warn').length;
  const warned = warns ? ` (${titles('warn').join(', ')})` : '';
  lines.push(
    '',
    fails
      ? `${fails} problem(s) to fix (${titles('fail').join(', ')}), ${warns} warning(s)${warned}.`
      : warns
        ? `No problems; ${warns} warning(s)${warned}.`
        : 'Everything looks right.',
  );
  return lines.join('\n');
}
