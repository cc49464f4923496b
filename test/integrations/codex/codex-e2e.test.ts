/**
 * The real Codex CLI (pinned, from the npm registry, installed into the
 * agent cache) with OC-Memory integrated, run headless (`codex exec`, always
 * under a time limit: with its model server down it retries for ever)
 * against a fake Responses API on 127.0.0.1 that records every request and
 * scripts the model's tool calls. HOME is a temp dir; plugins (which reach a
 * public Git host), the update check and usage metrics (OpenTelemetry to
 * ab.chatgpt.com) are off; an HTTP(S) proxy that
 * refuses and records everything stands in for the rest of the network.
 *
 * Codex hands MCP tools to the model behind its tool search: the first
 * request carries a `tool_search` tool, the model searches, and the oc-memory
 * tools arrive in the `tool_search_output` as the namespace `mcp__oc_memory`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installPinned } from '../../helpers/agent-cache.js';
import { startRecordingProxy } from '../../helpers/anthropic-server.js';
import {
  startFakeResponses,
  type ResponsesInputItem,
  type ResponsesReply,
  type ResponsesRequest,
  type ResponsesScript,
  type ResponsesTool,
} from '../../helpers/responses-server.js';
import { CLI, tempDir } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait.js';
import {
  REMEMBER_CALLS,
  SEARCH_CALLS,
  SESSION_ONE_PROMPT,
  SESSION_TWO_ANSWER,
  SESSION_TWO_PROMPT,
  assertRecalled,
  assertRememberedAndObserved,
  assertRestatementNotObserved,
} from '../../helpers/memory-scenario.js';
import { localDateTime } from '../../../lib/platform/time-zone.js';

const CODEX_VERSION = '0.169.0';
const NAMESPACE = 'mcp__oc_memory';
const TOOLS = ['search_memory', 'get_memory', 'remember', 'active_memory'];

const inputItems = (r: ResponsesRequest): ResponsesInputItem[] => (Array.isArray(r.body.input) ? r.body.input : []);

/** The text of every function_call_output in a request. */
function toolOutputs(r: ResponsesRequest): string[] {
  return inputItems(r)
    .filter((x) => x.type === 'function_call_output')
    .map((x) =>
      typeof x.output === 'string'
        ? x.output
        : Array.isArray(x.output)
          ? x.output.map((c: { text?: string }) => c.text ?? '').join('\n')
          : '',
    );
}

/** The oc-memory namespace from the request's tool search results, if it has arrived. */
function memoryNamespace(r: ResponsesRequest): ResponsesTool | undefined {
  for (const x of inputItems(r)) if (x.type === 'tool_search_output') for (const t of x.tools ?? []) if (t.name === NAMESPACE) return t;
  return undefined;
}

/**
 * Search for the deferred tools first, as a real model does (again, up to 5
 * times, while the MCP server is still starting and the search finds
 * nothing), then the scripted calls, then `finalText`.
 */
function scripted(calls: Array<{ name: string; arguments: Record<string, unknown> }>, finalText: string): ResponsesScript {
  return (req): ResponsesReply => {
    const searches = inputItems(req).filter((x) => x.type === 'tool_search_output').length;
    if (!memoryNamespace(req) && searches < 5) return { toolSearch: { query: 'memory search remember' } };
    const done = toolOutputs(req).length;
    const next = calls[done];
    return next ? { functionCall: { name: next.name, namespace: NAMESPACE, arguments: next.arguments } } : { text: finalText };
  };
}

test('Codex (real CLI): integrate, MCP tools through tool search, remember and search across sessions, session-start and per-prompt memory from trusted hooks, after-turn observe, offline, uninstall restores the config', {
  timeout: 900_000,
}, async () => {
  const codexPkg = await installPinned({ name: '@openai/codex', version: CODEX_VERSION });
  const codexBin = codexPkg.bin('codex');
  const tmp = await tempDir('ocm-codex-e2e-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const project = join(tmp.dir, 'project');
  const codexHome = join(home, '.codex');
  for (const dir of [home, ocm, project, codexHome]) await mkdir(dir, { recursive: true });
  await writeFile(join(ocm, 'config.yaml'), 'timezone: UTC\n');

  let script: ResponsesScript = () => ({ text: 'OK.' });
  const api = await startFakeResponses((req, i) => script(req, i));
  const proxy = await startRecordingProxy();
  // The user's own config and hooks, which must come back byte for byte.
  const userConfig = [
    '# my Codex settings',
    'model = "gpt-5.5"   # a model whose metadata Codex knows (tool search on)',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${api.url}"`,
    'wire_api = "responses"',
    'env_key = "FAKE_KEY"',
    '',
    '[features]',
    'plugins = false',
    '',
    '# no usage metrics to ab.chatgpt.com',
    '[analytics]',
    'enabled = false',
    '',
    '[otel]',
    'metrics_exporter = "none"',
    '',
  ].join('\n');
  const configPath = join(codexHome, 'config.toml');
  await writeFile(configPath, userConfig);
  const userHooks = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "true" } ] }\n    ]\n  }\n}\n';
  const hooksPath = join(codexHome, 'hooks.json');
  await writeFile(hooksPath, userHooks);

  const env: Record<string, string> = {
    PATH: `${join(codexPkg.prefix, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: home,
    TZ: 'UTC',
    FAKE_KEY: 'sk-test-0000',
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    NO_PROXY: '127.0.0.1,localhost',
    // A loaded CI machine: the per-prompt lookup gets more time than the 1.5 s default.
    OCM_HOOK_TIMEOUT_MS: '4000',
  };
  const ocmRun = (args: string[]) =>
    execa(process.execPath, [CLI, ...args, '--home', ocm], { env, extendEnv: false, reject: false, timeout: 180_000, stdin: 'ignore' });
  const codex = (prompt: string) =>
    execa(codexBin, ['exec', '--skip-git-repo-check', '-C', project, prompt], {
      env,
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      stdin: 'ignore',
    });
  const today = localDateTime(new Date(), 'UTC').date;
  const dayFile = join(ocm, 'memory', 'codex', `${today}.md`);
  const afterTurnIdle = async () =>
    waitFor('the after-turn job to finish', async () => (existsSync(join(ocm, '.ocm', 'after-turn.json')) ? undefined : true), 120_000);

  try {
    const integrated = await ocmRun(['integrate', 'codex']);
    assert.equal(integrated.exitCode, 0, `${integrated.stdout}\n${integrated.stderr}`);
    assert.match(integrated.stdout, /hooks trusted with the hashes Codex itself computed/);
    assert.match(integrated.stdout, /`codex mcp list`: oc-memory enabled\./);
    const status = await ocmRun(['integrate', 'codex', 'status']);
    assert.doesNotMatch(status.stdout, /❌/, status.stdout);
    assert.ok(
      (await readFile(configPath, 'utf8')).startsWith(userConfig),
      "the user's config.toml is kept byte for byte ahead of the oc-memory block",
    );
    // doctor asks Codex itself whether it will run the hooks.
    const doctor = async () =>
      JSON.parse((await ocmRun(['doctor', '--json', '--offline'])).stdout) as {
        checks: Array<{ id: string; status: string; detail: string; fix?: string }>;
      };
    const trusted = (await doctor()).checks.find((c) => c.id === 'codex');
    assert.equal(trusted?.status, 'ok', JSON.stringify(trusted));
    assert.match(trusted!.detail, /3 of 3 hooks trusted \(as Codex reports\)/);

    // ---- Session 1: the model finds the tools, calls remember; the user's words are observed by the Stop hook.
    script = scripted(REMEMBER_CALLS, 'Noted.');
    const first = await codex(SESSION_ONE_PROMPT);
    assert.equal(first.exitCode, 0, `${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, /Noted\./);
    assert.match(first.stderr, /hook: SessionStart Completed/, 'Codex ran the trusted session-start hook');
    assert.match(first.stderr, /hook: Stop Completed/, 'Codex ran the trusted Stop hook');
    const s1 = [...api.requests];
    assert.ok(s1.length >= 3, `session 1 made ${s1.length} requests`);
    assert.ok(
      (s1[0]!.body.tools ?? []).some((t: { type?: string }) => t.type === 'tool_search'),
      'the first request offers tool search',
    );
    const withTools = s1.findIndex((r) => memoryNamespace(r) !== undefined);
    assert.ok(withTools > 0, `the tool search returned the ${NAMESPACE} namespace\n${first.stderr.slice(-1500)}`);
    const namespace = memoryNamespace(s1[withTools]!)!;
    for (const name of TOOLS) {
      const tool = (namespace.tools ?? []).find((t) => t.name === name);
      assert.ok(tool, `${name} in the tools the request carries`);
      assert.ok(String(tool.description).length > 80);
      assert.equal(tool.parameters?.type, 'object');
    }
    // No manual step: the Stop hook observes the rollout and indexes it.
    await assertRememberedAndObserved({ saved: toolOutputs(s1[withTools + 1]!).join('\n'), dayFile, agent: 'codex', afterTurnIdle });

    // ---- Session 2: session-start and per-prompt memory; searches find session 1's fact and the remembered one.
    const before = api.requests.length;
    script = scripted(SEARCH_CALLS, SESSION_TWO_ANSWER);
    const second = await codex(SESSION_TWO_PROMPT);
    assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
    const s2 = api.requests.slice(before);
    assert.ok(s2.length >= 4, `session 2 made ${s2.length} requests`);
    assertRecalled({
      firstRaw: s2[0]!.raw,
      afterOutputs: (n) => {
        const r = s2.find((x) => toolOutputs(x).length === n);
        return r && { outputs: toolOutputs(r), raw: r.raw };
      },
      agent: 'codex',
    });
    await afterTurnIdle();
    await assertRestatementNotObserved({ dayFile });

    // ---- Nothing left loopback.
    assert.deepEqual(proxy.attempts, []);
    for (const r of api.requests) assert.match(r.path, /^\/v1\/responses/);

    // ---- A hook edited after it was trusted: Codex would skip it silently; doctor says so, from what Codex reports.
    const hooksText = await readFile(hooksPath, 'utf8');
    await writeFile(hooksPath, hooksText.replace(/(hook prompt [^"]*)"/, '$1 --timeout-ms 1500"'));
    const modified = (await doctor()).checks.find((c) => c.id === 'codex');
    assert.equal(modified?.status, 'fail', JSON.stringify(modified));
    assert.match(modified!.detail, /Codex reports 1 of 3 oc-memory hooks as \w+: Codex skips an untrusted hook without a word/);
    assert.match(modified!.fix!, /ocm-run integrate codex/);
    await writeFile(hooksPath, hooksText);

    // ---- Uninstall: the user's config.toml and hooks.json come back byte for byte; Codex lists no oc-memory server.
    const removed = await ocmRun(['integrate', 'codex', '--uninstall']);
    assert.equal(removed.exitCode, 0, removed.stderr);
    assert.equal(await readFile(configPath, 'utf8'), userConfig);
    assert.equal(await readFile(hooksPath, 'utf8'), userHooks);
    assert.match(await readFile(join(ocm, 'config.yaml'), 'utf8'), /^timezone: UTC\n/);
    const list = await execa(codexBin, ['mcp', 'list'], { env, extendEnv: false, reject: false, timeout: 90_000, stdin: 'ignore' });
    assert.doesNotMatch(String(list.stdout), /oc-memory/);
  } finally {
    await api.close();
    await proxy.close();
    await tmp.cleanup();
  }
});
