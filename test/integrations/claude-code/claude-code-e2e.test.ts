/**
 * The real Claude Code CLI (pinned, from the npm registry, installed into the
 * agent cache) with OC-Memory integrated, run headless (`claude -p`) against a
 * fake Anthropic Messages API on 127.0.0.1 that records every request and
 * scripts the model's tool calls. HOME is a temp dir; an HTTP(S) proxy that
 * refuses and records everything stands in for the rest of the network.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installPinned, pinnedNode } from '../../helpers/agent-cache.js';
import { startFakeAnthropic, startRecordingProxy, type MessagesRequest, type ModelScript } from '../../helpers/anthropic-server.js';
import { CLI, tempDir } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait.js';
import { SESSION_TWO_ANSWER, assertRestatementNotObserved } from '../../helpers/memory-scenario.js';
import { localDateTime } from '../../../lib/platform/time-zone.js';
import { readTextSteady } from '../../../lib/platform/atomic-file.js';

const CLAUDE_CODE_VERSION = '2.1.332';
const TOOLS = ['mcp__oc-memory__search_memory', 'mcp__oc-memory__get_memory', 'mcp__oc-memory__remember', 'mcp__oc-memory__active_memory'];

async function readIf(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/** The text of every tool_result block in a request. */
function toolResults(request: MessagesRequest): string[] {
  const out: string[] = [];
  for (const m of request.body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (block?.type !== 'tool_result') continue;
      const c = block.content;
      out.push(typeof c === 'string' ? c : Array.isArray(c) ? c.map((x: { text?: string }) => x.text ?? '').join('\n') : '');
    }
  }
  return out;
}

const toolNames = (r: MessagesRequest): string[] => (r.body.tools ?? []).map((t: { name: string }) => t.name);
/** The agent's own requests (with its tools), not side requests. */
const agentRequests = (rs: MessagesRequest[]) => rs.filter((r) => r.path.startsWith('/v1/messages') && toolNames(r).includes(TOOLS[0]!));

/** A temp HOME with the pinned Claude Code, an OC-Memory home, the fake Anthropic API and the refusing proxy; `claude -p` and `ocm-run` in it. */
async function claudeCodeRig(prefix: string) {
  const node24 = await pinnedNode('24.21.0');
  const claudePkg = await installPinned({ name: '@anthropic-ai/claude-code', version: CLAUDE_CODE_VERSION, scripts: true, node: node24 });
  const claudeBin = claudePkg.bin('claude');
  const tmp = await tempDir(prefix);
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const project = join(tmp.dir, 'project');
  for (const dir of [home, ocm, project, join(home, '.claude')]) await mkdir(dir, { recursive: true });
  await writeFile(join(ocm, 'config.yaml'), 'timezone: UTC\n');
  const rig = {
    claudeBin,
    tmp,
    home,
    ocm,
    project,
    script: (() => ({ text: 'OK.' })) as ModelScript,
    api: undefined as unknown as Awaited<ReturnType<typeof startFakeAnthropic>>,
    proxy: undefined as unknown as Awaited<ReturnType<typeof startRecordingProxy>>,
    env: {} as Record<string, string>,
    ocmRun: (args: string[]) =>
      execa(process.execPath, [CLI, ...args, '--home', ocm], {
        env: rig.env,
        extendEnv: false,
        reject: false,
        timeout: 180_000,
        stdin: 'ignore',
      }),
    claude: (prompt: string, cwd = project) =>
      execa(claudeBin, ['-p', prompt], { cwd, env: rig.env, extendEnv: false, reject: false, timeout: 300_000, stdin: 'ignore' }),
    afterTurnIdle: async () =>
      waitFor('the after-turn job to finish', async () => (existsSync(join(ocm, '.ocm', 'after-turn.json')) ? undefined : true), 120_000),
    close: async () => {
      await rig.api.close();
      await rig.proxy.close();
      await tmp.cleanup();
    },
  };
  rig.api = await startFakeAnthropic((req, i) => rig.script(req, i));
  rig.proxy = await startRecordingProxy();
  rig.env = {
    PATH: `${join(claudePkg.prefix, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: home,
    TZ: 'UTC',
    ANTHROPIC_BASE_URL: rig.api.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-0000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    ENABLE_TOOL_SEARCH: 'false',
    HTTPS_PROXY: rig.proxy.url,
    HTTP_PROXY: rig.proxy.url,
    NO_PROXY: '127.0.0.1,localhost',
    // A loaded CI machine: the per-prompt lookup gets more time than the 1.5 s default.
    OCM_HOOK_TIMEOUT_MS: '4000',
  };
  return rig;
}

test('Claude Code (real CLI): integrate, MCP tools in the request, remember and search across sessions, session-start and per-prompt memory, after-turn observe, offline, uninstall restores the config', {
  timeout: 900_000,
}, async () => {
  const rig = await claudeCodeRig('ocm-claude-e2e-');
  const { claudeBin, home, ocm, env, ocmRun, claude, afterTurnIdle, api, proxy } = rig;
  // The user's own settings, which must come back byte for byte.
  const userSettings =
    '{\n  "theme": "dark",\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "true"\n          }\n        ]\n      }\n    ]\n  },\n  "permissions": {\n    "allow": [\n      "Bash(ls:*)"\n    ]\n  }\n}\n';
  const settingsPath = join(home, '.claude', 'settings.json');
  await writeFile(settingsPath, userSettings);
  const today = localDateTime(new Date(), 'UTC').date;
  const dayFile = join(ocm, 'memory', 'claude-code', `${today}.md`);

  try {
    const integrated = await ocmRun(['integrate', 'claude-code']);
    assert.equal(integrated.exitCode, 0, `${integrated.stdout}\n${integrated.stderr}`);
    assert.match(integrated.stdout, /`claude mcp list`: oc-memory connected\./);
    const status = await ocmRun(['integrate', 'claude-code', 'status']);
    assert.doesNotMatch(status.stdout, /❌/, status.stdout);

    // ---- Session 1: the model calls remember; the user's words are observed by the after-turn hook.
    rig.script = (req) =>
      toolResults(req).length === 0
        ? { toolUse: { name: 'mcp__oc-memory__remember', input: { text: 'The staging host is db-stage-7.' } } }
        : { text: 'Noted.' };
    const first = await claude(
      'My favourite database for the billing service is PostgreSQL 16. Remember that the staging host is db-stage-7.',
    );
    assert.equal(first.exitCode, 0, first.stderr);
    assert.match(first.stdout, /Noted\./);
    const s1 = agentRequests(api.requests);
    assert.ok(s1.length >= 2, `session 1 made ${s1.length} agent requests`);
    // Full MCP tool definitions reach the model (ENABLE_TOOL_SEARCH=false).
    for (const name of TOOLS) {
      const tool = (s1[0]!.body.tools ?? []).find((t: { name: string }) => t.name === name);
      assert.ok(tool, `${name} in the request's tools`);
      assert.ok(String(tool.description).length > 80);
      assert.equal(tool.input_schema.type, 'object');
    }
    const saved = toolResults(s1[1]!).join('\n');
    assert.match(saved, /Saved to memory as o-[0-9a-f]{10} \(🔴 high, fact\) in memory\/claude-code\//);
    // Read as a person would while the after-turn observe may be writing the same file (it is aside for an instant).
    const afterRemember = await readTextSteady(dayFile);
    assert.match(afterRemember, /- 🔴 \d\d:\d\d The staging host is db-stage-7\. \^o-/);
    assert.match(afterRemember, new RegExp(`"?remember claude-code claude-code@${CLAUDE_CODE_VERSION.replace(/\./g, '\\.')} -`));
    // No manual step: the Stop / SessionEnd hooks observe the transcript and index it.
    await waitFor(
      'the turn observed into the day file',
      async () => {
        const text = await readIf(dayFile);
        return text && /\[preference\] User's favourite database for the billing service is PostgreSQL 16/.test(text) ? text : undefined;
      },
      120_000,
    );
    await afterTurnIdle();

    // ---- Session 2: session-start and per-prompt memory; searches find session 1's fact and the remembered one.
    const before = api.requests.length;
    // A busy machine: the MCP server is still opening the memory when Claude Code, done waiting for it (5 s), sends
    // the session's first request — it opens it only once that request has reached the model (a pause point). The
    // session must still have the memory tools from its first request, and the search must answer.
    // (Claude Code hands a stdio server only a few variables of its own environment, and the entry's `env`.)
    const released = join(rig.tmp.dir, 'first-request-sent');
    const claudeJsonPath = join(home, '.claude.json');
    const withPause = JSON.parse(await readFile(claudeJsonPath, 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    withPause.mcpServers['oc-memory']!.env = { OCM_TEST: '1', OCM_TEST_PAUSE_AT: 'mcp-open-memory', OCM_TEST_PAUSE_UNTIL: released };
    await writeFile(claudeJsonPath, JSON.stringify(withPause, null, 2));
    rig.script = (req) => {
      if ((req.body.tools ?? []).length > 0) writeFileSync(released, '');
      const results = toolResults(req);
      if (results.length === 0) return { toolUse: { name: 'mcp__oc-memory__search_memory', input: { query: 'billing database' } } };
      if (results.length === 1) return { toolUse: { name: 'mcp__oc-memory__search_memory', input: { query: 'staging host' } } };
      return { text: SESSION_TWO_ANSWER };
    };
    const second = await claude('Which database do I like for the billing service?');
    assert.equal(second.exitCode, 0, second.stderr);
    const s2 = agentRequests(api.requests.slice(before));
    assert.ok(s2.length >= 3, `session 2 made ${s2.length} agent requests`);
    const firstWithTools = api.requests.slice(before).find((r) => r.path.startsWith('/v1/messages') && (r.body.tools ?? []).length > 0);
    assert.equal(firstWithTools, s2[0], "the session's first request already has the memory tools");
    const firstRaw = s2[0]!.raw;
    assert.match(firstRaw, /<oc-memory>\\nLong-term memory from earlier conversations \(OC-Memory\)/, 'session-start context');
    assert.match(firstRaw, /The staging host is db-stage-7/, 'active memory carries the 🔴 remembered fact');
    assert.match(firstRaw, /<oc-memory>\\nMemories related to this prompt[^<]*PostgreSQL 16/, 'per-prompt related memories');
    const billing = toolResults(s2[1]!).join('\n');
    assert.match(billing, /memor(y|ies) for "billing database"/);
    assert.match(billing, /User's favourite database for the billing service is PostgreSQL 16/);
    assert.match(billing, /from claude-code claude-code session [0-9a-f]{8}/);
    const staging = toolResults(s2[2]!).at(-1)!;
    assert.match(staging, /The staging host is db-stage-7\./);
    assert.match(staging, /from remember claude-code session claude-code@/);
    // The next request carries what the search returned.
    assert.match(s2[2]!.raw, /PostgreSQL 16 on|PostgreSQL 16\./);
    await afterTurnIdle();
    await assertRestatementNotObserved({ dayFile });

    // ---- Nothing left loopback.
    assert.deepEqual(proxy.attempts, []);
    for (const r of api.requests) assert.match(r.path, /^\/v1\//);

    // ---- Uninstall: the user's settings come back byte for byte; no oc-memory server is left.
    const removed = await ocmRun(['integrate', 'claude-code', '--uninstall']);
    assert.equal(removed.exitCode, 0, removed.stderr);
    assert.equal(await readFile(settingsPath, 'utf8'), userSettings);
    const claudeJson = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as { mcpServers?: Record<string, unknown> };
    assert.equal(claudeJson.mcpServers, undefined);
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /^timezone: UTC\n/);
    const list = await execa(claudeBin, ['mcp', 'list'], { env, extendEnv: false, reject: false, timeout: 90_000, stdin: 'ignore' });
    assert.doesNotMatch(String(list.stdout), /oc-memory/);
  } finally {
    await rig.close();
  }
});

test("Claude Code (real CLI), per-project memory: two projects (cwd) keep their observations and remembered facts apart, and a project's session-start memory, per-prompt memory and search see its own memory, not the other's", {
  timeout: 900_000,
}, async () => {
  const rig = await claudeCodeRig('ocm-claude-projects-');
  const { ocm, ocmRun, claude, afterTurnIdle, api, proxy } = rig;
  const { projectAgent } = await import('../../../lib/sources/claude-code-project.js');
  const shop = join(rig.tmp.dir, 'work', 'shop');
  const blog = join(rig.tmp.dir, 'work', 'blog');
  for (const dir of [shop, blog]) await mkdir(dir, { recursive: true });
  const today = localDateTime(new Date(), 'UTC').date;
  const dayFileOf = (cwd: string) => join(ocm, 'memory', projectAgent('claude-code', cwd), `${today}.md`);
  try {
    const integrated = await ocmRun(['integrate', 'claude-code', '--per-project']);
    assert.equal(integrated.exitCode, 0, `${integrated.stdout}\n${integrated.stderr}`);
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /per_project: true/);

    // ---- One session in each project: the user states a fact (observed by the after-turn hook), the model saves another with remember.
    const sessions = [
      {
        cwd: shop,
        said: 'The shop checkout must retry payments with exponential backoff.',
        remembered: 'The shop deploys to the Frankfurt region.',
      },
      { cwd: blog, said: 'The blog must retry image uploads with exponential backoff.', remembered: 'The blog deploys to Netlify.' },
    ];
    for (const s of sessions) {
      rig.script = (req) =>
        toolResults(req).length === 0
          ? { toolUse: { name: 'mcp__oc-memory__remember', input: { text: s.remembered } } }
          : { text: 'Noted.' };
      const run = await claude(s.said, s.cwd);
      assert.equal(run.exitCode, 0, run.stderr);
      await waitFor(
        `the ${s.cwd === shop ? 'shop' : 'blog'} turn observed into its project's day file`,
        async () => {
          const text = await readIf(dayFileOf(s.cwd));
          return text?.includes(s.said.replace(/^The /, '').replace(/\.$/, '')) && text.includes(s.remembered) ? text : undefined;
        },
        120_000,
      );
      await afterTurnIdle();
    }
    const shopDay = await readTextSteady(dayFileOf(shop));
    const blogDay = await readTextSteady(dayFileOf(blog));
    assert.doesNotMatch(shopDay, /blog|Netlify/i, "nothing of the blog in the shop's memory");
    assert.doesNotMatch(blogDay, /shop|Frankfurt/i, "nothing of the shop in the blog's memory");
    assert.ok(!existsSync(join(ocm, 'memory', 'claude-code', `${today}.md`)), 'nothing filed under the agent without a project');

    // ---- Back in the shop: what reaches the model, and what a search finds, is the shop's.
    const before = api.requests.length;
    rig.script = (req) =>
      toolResults(req).length === 0
        ? { toolUse: { name: 'mcp__oc-memory__search_memory', input: { query: 'retry exponential backoff deploys' } } }
        : { text: 'Done.' };
    const again = await claude('How do we retry with exponential backoff here?', shop);
    assert.equal(again.exitCode, 0, again.stderr);
    const requests = agentRequests(api.requests.slice(before));
    assert.ok(requests.length >= 2, `the shop session made ${requests.length} agent requests`);
    const firstRaw = requests[0]!.raw;
    assert.match(
      firstRaw,
      /<oc-memory>\\nLong-term memory from earlier conversations \(OC-Memory\)[^<]*The shop deploys to the Frankfurt region/,
      "session start: the shop's active memory",
    );
    assert.match(
      firstRaw,
      /<oc-memory>\\nMemories related to this prompt[^<]*shop checkout must retry payments/,
      "per prompt: the shop's related memory",
    );
    assert.doesNotMatch(firstRaw, /blog must retry|Netlify/, 'nothing of the blog reaches the model');
    const found = toolResults(requests[1]!).join('\n');
    assert.match(found, /shop checkout must retry payments/);
    assert.doesNotMatch(found, /blog|Netlify/i, "the search covers the shop's memory and main's");
    await afterTurnIdle();

    assert.deepEqual(proxy.attempts, []);
  } finally {
    await rig.close();
  }
});
