/**
 * OC-Memory's memory tools (oc_memory_search, _get, _remember, _active) under
 * OpenClaw 2026.9.6's restricted tool policies, with the real release: its
 * gateway on 127.0.0.1, a fake OpenAI-compatible provider that records every
 * request, and real turns through `openclaw agent`.
 *
 * - `tools.profile: "coding"` (the plugin's manifest adds the tools to the
 *   coding and messaging profiles): the model of a turn is offered them, and
 *   `integrate openclaw` asks for nothing;
 * - an agent with its own `tools.allow` that does not name them: the model of
 *   its turn is not offered them, `integrate openclaw` says exactly what to
 *   add, and once that is added the next turn offers them;
 * - `tools.profile: "minimal"`: the same, through `tools.alsoAllow`.
 * Each time, `integrate openclaw status` (and once `doctor`) says of each agent
 * what its turn shows: offered, or the key to change.
 * The advice itself, case by case: tool-policy.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSON5 from 'json5';
import { runCli, tempDir } from '../../helpers/cli.js';
import { ok, startOpenAiServer, type OpenAiTestServer, type RecordedRequest } from '../../helpers/openai-server.js';
import {
  agentTurn,
  createOpenClawSandbox,
  installOpenClaw,
  isOpenClawStateContention,
  OPENCLAW_RELEASES,
  startGateway,
  type OpenClawSandbox,
  type RunningGateway,
} from '../../helpers/openclaw.js';

const MEMORY_TOOL_NAMES = ['oc_memory_search', 'oc_memory_get', 'oc_memory_remember', 'oc_memory_active'];
const TURN_MS = 240_000;

/** The openclaw.json fields these tests edit (the file holds more: it is written back whole). */
interface ToolPolicyConfig {
  tools?: { profile?: string; alsoAllow?: string[]; [key: string]: unknown };
  agents: { entries: { work: { tools?: { allow: string[] }; [key: string]: unknown }; [agent: string]: unknown } };
  [key: string]: unknown;
}

function offeredTools(request: RecordedRequest): string[] {
  const tools = Array.isArray(request.body.tools) ? (request.body.tools as Array<{ function?: { name?: string }; name?: string }>) : [];
  return tools.map((t) => t.function?.name ?? t.name ?? '');
}

describe(`OpenClaw ${OPENCLAW_RELEASES.database}: OC-Memory's tools under restricted tool policies (real gateway, fake provider on 127.0.0.1)`, {
  timeout: 30 * 60_000,
}, () => {
  let sandbox: OpenClawSandbox;
  let provider: OpenAiTestServer;
  let gateway: RunningGateway | undefined;
  let memoryHome: string;
  let cleanupTemp: () => Promise<void>;

  const editConfig = async (edit: (config: ToolPolicyConfig) => void) => {
    const config = JSON5.parse(await readFile(sandbox.configPath, 'utf8')) as ToolPolicyConfig;
    edit(config);
    await writeFile(sandbox.configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  };
  const integrate = async () => {
    const r = await runCli(['integrate', 'openclaw', '--home', memoryHome], { env: sandbox.env, timeoutMs: 600_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return r.stdout;
  };
  /** What `integrate openclaw status --json` says of each agent: 'offered', or the keys to change. */
  const statusSays = async () => {
    const r = await runCli(['integrate', 'openclaw', 'status', '--json', '--home', memoryHome], { env: sandbox.env, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const s = JSON.parse(r.stdout) as { toolPolicy: Array<{ agent: string; offered: boolean; advice: Array<{ key: string }> }> };
    return Object.fromEntries(s.toolPolicy.map((a) => [a.agent, a.offered ? 'offered' : a.advice.map((x) => x.key).join(' ')]));
  };
  // Four gateway starts in all; on a 2-core machine shared with other suites one start took over the helper's default 3 minutes.
  const restartGateway = async () => {
    await gateway?.stop();
    gateway = await startGateway(sandbox, { timeoutMs: 480_000 });
  };
  /** The tools the model was offered in `agent`'s turn with `message` (the turn's first request to the model). */
  const toolsOfferedIn = async (agent: string, message: string): Promise<string[]> => {
    const since = provider.requests.length;
    const requestOf = () =>
      provider.requests.slice(since).find((r) => r.messages.some((m) => m.role === 'user' && m.content.includes(message)));
    let turn = await agentTurn(sandbox, agent, message, { timeoutMs: TURN_MS });
    // OpenClaw's own state-lifecycle contention on a starved CPU (isOpenClawStateContention; the e2e
    // scenario's runTurn says more): restart the gateway once, as a user would, and ask again.
    if (!requestOf() && turn.code !== 0 && isOpenClawStateContention(turn)) {
      console.log(
        `# ${agent}: OpenClaw refused the turn before the model got it (its state-lifecycle contention); the gateway is restarted once`,
      );
      await restartGateway();
      turn = await agentTurn(sandbox, agent, message, { timeoutMs: TURN_MS });
    }
    const request = requestOf();
    // The request is what this test is about; a turn that failed before reaching the model fails here.
    assert.ok(
      request,
      `no model request for "${message}" (openclaw agent exited ${turn.code}: ${turn.stdout.slice(-800)} ${turn.stderr.slice(-800)})`,
    );
    return offeredTools(request)
      .filter((name) => name.startsWith('oc_memory_'))
      .sort();
  };

  before(async () => {
    const release = await installOpenClaw(OPENCLAW_RELEASES.database);
    const temp = await tempDir('ocm-openclaw-policy-');
    cleanupTemp = temp.cleanup;
    provider = await startOpenAiServer(() => ok('Noted.'));
    sandbox = await createOpenClawSandbox(
      release,
      temp.dir,
      { provider: 'fake', model: 'fake-model', baseUrl: provider.url },
      { agents: ['work'] },
    );
    memoryHome = join(temp.dir, 'memory-home');
    const setup = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', memoryHome], {
      env: sandbox.env,
      timeoutMs: 120_000,
    });
    assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  });

  after(async () => {
    await gateway?.stop();
    await provider?.close();
    // The plugin's last background `ocm-run observe` (detached, under the home lock) may still be writing: wait for the lock, bounded.
    if (memoryHome) {
      const { acquireHomeLock } = await import('../../../lib/platform/lock.js');
      const { homePaths } = await import('../../../lib/platform/home.js');
      const release = await acquireHomeLock(homePaths(memoryHome).lock, { waitMs: 120_000 }).catch(() => undefined);
      await release?.();
    }
    await cleanupTemp?.();
  });

  test('the coding profile offers the tools (manifest profiles); an agent whose own allow list leaves them out is not offered them, integrate says what to add, and with it added they are offered', async () => {
    await editConfig((c) => {
      c.tools = { ...(c.tools ?? {}), profile: 'coding' };
      c.agents.entries.work.tools = { allow: ['read'] };
    });
    const said = await integrate();
    assert.match(said, /OpenClaw's tool policy hides OC-Memory's memory tools/);
    assert.match(said, /add "oc-memory" to agents\.entries\.work\.tools\.allow/);
    assert.doesNotMatch(said, /to tools\.(allow|alsoAllow)/, 'the coding profile needs nothing');
    assert.deepEqual(await statusSays(), { main: 'offered', work: 'agents.entries.work.tools.allow' });
    const d = await runCli(['doctor', '--json', '--offline', '--home', memoryHome], { env: sandbox.env, timeoutMs: 300_000 });
    const tools = (JSON.parse(d.stdout) as { checks: Array<{ id: string; status: string; fix?: string }> }).checks.find(
      (c) => c.id === 'openclaw.tools',
    );
    assert.equal(tools?.status, 'warn', d.stdout);
    assert.match(tools!.fix!, /^work: add "oc-memory" to agents\.entries\.work\.tools\.allow;/);
    await restartGateway();

    assert.deepEqual(
      await toolsOfferedIn('main', 'Please note: the build server is called hawk.'),
      MEMORY_TOOL_NAMES.slice().sort(),
      'main, under the coding profile',
    );
    assert.deepEqual(await toolsOfferedIn('work', 'Please note: the deploy window is on Thursdays.'), [], "work's allow list hides them");

    // What integrate said, done as a user would.
    await editConfig((c) => c.agents.entries.work.tools!.allow.push('oc-memory'));
    assert.doesNotMatch(await integrate(), /hides OC-Memory's memory tools/, 'nothing left to add');
    assert.deepEqual(await statusSays(), { main: 'offered', work: 'offered' });
    await restartGateway();
    assert.deepEqual(
      await toolsOfferedIn('work', 'Please note: the on-call rota changes on Mondays.'),
      MEMORY_TOOL_NAMES.slice().sort(),
      'work, with oc-memory in its allow list',
    );
  });

  test('the minimal profile hides the tools; integrate says to add the plugin to tools.alsoAllow, and with it the tools are offered', async () => {
    // This test sets the state it starts from (not what the test before left), so its verdict is its own.
    await editConfig((c) => {
      c.tools = { ...(c.tools ?? {}), profile: 'minimal' };
      c.agents.entries.work.tools = { allow: ['read', 'oc-memory'] };
    });
    const said = await integrate();
    assert.match(said, /add "oc-memory" to tools\.alsoAllow — the "minimal" tool profile/);
    // work's own allow list (with oc-memory) does not undo the global profile: each layer only restricts.
    assert.deepEqual(await statusSays(), { main: 'tools.alsoAllow', work: 'tools.alsoAllow' });
    await restartGateway();
    assert.deepEqual(
      await toolsOfferedIn('main', 'Please note: the staging database is called otter.'),
      [],
      'minimal leaves plugin tools out',
    );
    // work, too: 2026.9.6 even refuses its turn before any model request ("No callable tools remain after resolving explicit tool allowlist").
    const since = provider.requests.length;
    await agentTurn(sandbox, 'work', 'Please note: the staging cache is called lynx.', { timeoutMs: TURN_MS });
    const workOffered = provider.requests
      .slice(since)
      .filter((r) => r.messages.some((m) => m.role === 'user' && m.content.includes('staging cache')))
      .flatMap(offeredTools);
    assert.deepEqual(
      workOffered.filter((name) => name.startsWith('oc_memory_')),
      [],
      'minimal leaves them out for work too, its own allow list notwithstanding',
    );

    await editConfig((c) => {
      c.tools!.alsoAllow = ['oc-memory'];
    });
    assert.doesNotMatch(await integrate(), /hides OC-Memory's memory tools/);
    assert.deepEqual(await statusSays(), { main: 'offered', work: 'offered' });
    await restartGateway();
    assert.deepEqual(
      await toolsOfferedIn('main', 'Please note: the release train leaves on Fridays.'),
      MEMORY_TOOL_NAMES.slice().sort(),
      'minimal + alsoAllow oc-memory',
    );
  });
});
