/**
 * The real OpenClaw for end-to-end tests: a pinned release from the npm
 * registry (installed by agent-cache.ts, run by the Node it needs), a
 * sandbox with its own HOME and OPENCLAW_STATE_DIR in a temp folder, an
 * OpenAI-compatible fake provider on 127.0.0.1 as its only model, the
 * gateway bound to loopback, and real turns through `openclaw agent`.
 *
 * Every child process has a time limit; the gateway is stopped (SIGTERM,
 * then SIGKILL) by `stop()`.
 */
import { execa, type ResultPromise } from 'execa';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { dirname, join } from 'node:path';
import { installPinned, pinnedNode } from './agent-cache.js';

/** The releases the suite runs against: the database era and the file era (JSONL transcripts). */
export const OPENCLAW_RELEASES = { database: '2026.9.6', files: '2026.2.26' } as const;
/** OpenClaw 2026.9 needs Node ≥ 24.16; the file era runs on it too. */
export const OPENCLAW_NODE = '24.21.0';

export interface OpenClawRelease {
  version: string;
  /** The Node binary that runs it. */
  node: string;
  /** Its folder (with `openclaw.mjs`). */
  packageDir: string;
  /** `openclaw.mjs`, the CLI entry. */
  entry: string;
  /** A folder with an `openclaw` executable that runs this release (put it first on PATH). */
  binDir: string;
}

/**
 * Installs (once, into the shared cache) the given OpenClaw release and the
 * Node that runs it. The 2026.2 releases pull libsignal from a git URL
 * (through @whiskeysockets/baileys, WhatsApp only); the tests reach the npm
 * registry, not GitHub, so it is replaced by the same library's npm release.
 * `timeoutMs` bounds the npm install (agent-cache.ts's default otherwise).
 */
export async function installOpenClaw(version: string, options: { timeoutMs?: number } = {}): Promise<OpenClawRelease> {
  const node = await pinnedNode(OPENCLAW_NODE);
  const fileEra = version.startsWith('2026.2.');
  const installed = await installPinned({
    name: 'openclaw',
    version,
    scripts: true,
    node,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(fileEra ? { overrides: { libsignal: 'npm:libsignal@6.0.0' } } : {}),
  });
  const entry = join(installed.packageDir, 'openclaw.mjs');
  // A launcher, so code under test that runs `openclaw` from PATH gets this release and this Node.
  const binDir = join(installed.prefix, 'launcher');
  const launcher = join(binDir, 'openclaw');
  const script = `#!/bin/sh\nexec "${node}" "${entry}" "$@"\n`;
  const current = await readFile(launcher, 'utf8').catch(() => '');
  if (current !== script) {
    await mkdir(binDir, { recursive: true });
    await writeFile(`${launcher}.tmp-${process.pid}`, script, { mode: 0o755 });
    const { rename } = await import('node:fs/promises');
    await rename(`${launcher}.tmp-${process.pid}`, launcher);
  }
  return { version, node, packageDir: installed.packageDir, entry, binDir };
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ProviderModel {
  /** The provider id in OpenClaw's config (`models.providers.<id>`). */
  provider: string;
  model: string;
  /** Base URL with `/v1`. */
  baseUrl: string;
}

export interface OpenClawSandbox {
  release: OpenClawRelease;
  /** HOME of every OpenClaw process. */
  home: string;
  stateDir: string;
  configPath: string;
  workspace: string;
  port: number;
  token: string;
  /** Environment for OpenClaw (and for OC-Memory commands that look for it). */
  env: Record<string, string>;
}

/** The config a fresh OpenClaw needs: local gateway on loopback with a token, the fake provider as the model, agents. */
export function sandboxConfig(options: {
  version: string;
  port: number;
  token: string;
  provider: ProviderModel;
  home: string;
  agents?: string[];
  logFile: string;
}): Record<string, unknown> {
  const agents = options.agents ?? [];
  const workspace = (id: string) => join(options.home, `workspace-${id}`);
  // 2026.9 keys agents by id (agents.entries); the file era lists them (agents.list).
  const roster = options.version.startsWith('2026.2.')
    ? { list: [{ id: 'main', default: true }, ...agents.map((id) => ({ id, workspace: workspace(id) }))] }
    : { ownership: 'explicit', entries: Object.fromEntries([['main', {}], ...agents.map((id) => [id, { workspace: workspace(id) }])]) };
  return {
    gateway: { mode: 'local', port: options.port, bind: 'loopback', auth: { mode: 'token', token: options.token } },
    // The webhook endpoint OC-Memory's alerts post to (`<hooks.path>/agent`).
    hooks: { enabled: true, token: `hooks-${options.token}`, path: '/hooks' },
    logging: { file: options.logFile },
    update: { checkOnStart: false },
    models: {
      mode: 'merge',
      providers: {
        [options.provider.provider]: {
          baseUrl: options.provider.baseUrl,
          apiKey: 'fake-key',
          api: 'openai-completions',
          models: [
            {
              id: options.provider.model,
              name: 'Fake model',
              reasoning: false,
              input: ['text'],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    agents: {
      defaults: {
        model: { primary: `${options.provider.provider}/${options.provider.model}` },
        workspace: join(options.home, 'workspace'),
        // 2026.9 runs heartbeats, wakes and webhook turns of a multi-agent roster only for a named owner.
        ...(agents.length > 0 && !options.version.startsWith('2026.2.') ? { systemAgent: { agentId: 'main' } } : {}),
      },
      ...(agents.length > 0 ? roster : {}),
    },
  };
}

/** A fresh OpenClaw state folder in `root` with openclaw.json pointing at the fake provider. */
export async function createOpenClawSandbox(
  release: OpenClawRelease,
  root: string,
  provider: ProviderModel,
  options: { agents?: string[] } = {},
): Promise<OpenClawSandbox> {
  const home = join(root, 'home');
  const stateDir = join(home, '.openclaw');
  const configPath = join(stateDir, 'openclaw.json');
  await mkdir(stateDir, { recursive: true });
  const port = await freePort();
  const token = `ocm-test-${port}-${process.pid}`;
  const config = sandboxConfig({
    version: release.version,
    port,
    token,
    provider,
    home,
    logFile: join(stateDir, 'logs', 'openclaw.log'),
    ...(options.agents ? { agents: options.agents } : {}),
  });
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // A heartbeat with nothing to do is skipped: give main's a task, so a wake reaches the model.
  await mkdir(join(home, 'workspace'), { recursive: true });
  await writeFile(join(home, 'workspace', 'HEARTBEAT.md'), '# Heartbeat\n\n- Check whether the nightly build finished.\n');
  const env: Record<string, string> = {
    HOME: home,
    OPENCLAW_STATE_DIR: stateDir,
    OPENCLAW_GATEWAY_TOKEN: token,
    OPENCLAW_GATEWAY_PORT: String(port),
    PATH: `${release.binDir}:${dirname(release.node)}:${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    CI: '1',
    // A failed CLI command prints its error's details (the gateway's log has the rest: openclaw-e2e-scenario.ts).
    OPENCLAW_DEBUG: '1',
  };
  return { release, home, stateDir, configPath, workspace: join(home, 'workspace'), port, token, env };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `openclaw <args>` of the sandbox's release, with a time limit. */
export async function runOpenClaw(
  sandbox: OpenClawSandbox,
  args: string[],
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const r = await execa(sandbox.release.node, [sandbox.release.entry, ...args], {
    reject: false,
    env: { ...sandbox.env, ...options.env },
    extendEnv: false,
    cwd: sandbox.home,
    timeout: options.timeoutMs ?? 120_000,
    stdin: 'ignore',
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export interface RunningGateway {
  /** Everything the gateway printed so far. */
  output(): string;
  stop(): Promise<void>;
}

async function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` every `everyMs` until it returns a value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${options.timeoutMs ?? 60_000} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 250));
  }
}

/**
 * OpenClaw 2026.9.6 gives its gateway's state lease heartbeat 5 s to become
 * ready at startup (LEASE_HEARTBEAT_START_TIMEOUT_MS in its
 * dist/openclaw-state-lease-heartbeat-*.mjs). On a starved CPU it misses
 * that, before OC-Memory has done anything in it, and the gateway exits,
 * either at once ("Gateway failed to start: state lease heartbeat did not
 * become ready (phase=startup, trigger=timeout …") or through the startup
 * doctor's migration step that lost its maintenance lease ("Agent database
 * maintenance deferred: … lease … was lost | state lease heartbeat did not
 * become ready (phase=startup, trigger=timeout …"). Only that exit is tried
 * again, at most three starts in all.
 */
const STARTUP_DEADLINE_MISSED = /state lease heartbeat did not become ready \(phase=startup, trigger=timeout/;

/** Starts `openclaw gateway run` on loopback and waits until it accepts connections. */
export async function startGateway(sandbox: OpenClawSandbox, options: { timeoutMs?: number } = {}): Promise<RunningGateway> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startGatewayOnce(sandbox, options);
    } catch (error) {
      if (attempt >= 3 || !STARTUP_DEADLINE_MISSED.test((error as Error).message)) throw error;
    }
  }
}

async function startGatewayOnce(sandbox: OpenClawSandbox, options: { timeoutMs?: number }): Promise<RunningGateway> {
  let output = '';
  const child: ResultPromise = execa(
    sandbox.release.node,
    [sandbox.release.entry, 'gateway', 'run', '--port', String(sandbox.port), '--bind', 'loopback'],
    {
      reject: false,
      env: sandbox.env,
      extendEnv: false,
      cwd: sandbox.home,
      stdin: 'ignore',
      buffer: false,
      forceKillAfterDelay: 10_000,
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exited = false;
  void child.then(() => (exited = true));
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await Promise.race([child, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (!exited) child.kill('SIGKILL');
    await child;
  };
  try {
    await waitFor(
      `the OpenClaw ${sandbox.release.version} gateway on port ${sandbox.port}`,
      async () => {
        if (exited) throw new Error(`the gateway exited before it listened:\n${output.slice(-3000)}`);
        return canConnect(sandbox.port);
      },
      { timeoutMs: options.timeoutMs ?? 180_000, everyMs: 500 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { output: () => output, stop };
}

export interface TurnResult extends RunResult {
  /** The reply text(s), when the JSON output had them. */
  json?: unknown;
}

/**
 * Did OpenClaw 2026.9.6 fail the turn on its own state-lifecycle lock (its
 * session maintenance holds it past the 5 s its close waits, on a starved CPU;
 * docs/sources.md, "Known OpenClaw failure")? The turn's `--json` output names
 * the error. What a test does about it: test/helpers/openclaw-e2e-scenario.ts.
 */
export function isOpenClawStateContention(result: { stdout: string }): boolean {
  try {
    const parsed = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { origin?: string; error?: { message?: string } };
    return parsed.origin === 'gateway' && STATE_LIFECYCLE_CONTENTION.test(parsed.error?.message ?? '');
  } catch {
    return false;
  }
}

/**
 * The messages of that one failure as OpenClaw reports it: the Worker's close
 * ("Agent database cleanup failed"), the same contention met by the gateway's
 * own close and lease cleanup ("Agent native close and lease cleanup failed | …",
 * seen beside a CPU hog, dist/openclaw-agent-execution-*.mjs), or the lock's
 * own error when it is the only one.
 */
const STATE_LIFECYCLE_CONTENTION =
  /^(?:Agent database cleanup failed$|Agent native close and lease cleanup failed\b)|another OpenClaw process owns state-lifecycle/;

/** One real turn: `openclaw agent --agent <id> --message <text> --json` through the gateway. */
export async function agentTurn(
  sandbox: OpenClawSandbox,
  agent: string,
  message: string,
  options: { timeoutMs?: number; sessionId?: string } = {},
): Promise<TurnResult> {
  const seconds = Math.ceil((options.timeoutMs ?? 240_000) / 1000);
  const r = await runOpenClaw(
    sandbox,
    [
      'agent',
      '--agent',
      agent,
      '--message',
      message,
      '--json',
      '--timeout',
      String(seconds),
      ...(options.sessionId ? ['--session-id', options.sessionId] : []),
    ],
    {
      timeoutMs: (seconds + 30) * 1000,
    },
  );
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    /* not JSON: the caller sees stdout */
  }
  return { ...r, ...(json !== undefined ? { json } : {}) };
}
