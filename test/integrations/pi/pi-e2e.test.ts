/**
 * The real pi CLI (pinned, from the npm registry, installed into the agent
 * cache) with OC-Memory's extension, run headless (`pi -p`, PI_OFFLINE=1,
 * PI_SKIP_VERSION_CHECK=1) against a fake Chat Completions API on 127.0.0.1
 * (a custom provider in ~/.pi/agent/models.json) that records every request
 * and scripts the model's tool calls. HOME is a temp dir; an HTTP(S) proxy
 * that refuses and records everything stands in for the rest of the network.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installPinned } from '../../helpers/agent-cache.js';
import { startRecordingProxy } from '../../helpers/anthropic-server.js';
import {
  startFakeChatCompletions,
  type ChatMessage,
  type ChatReply,
  type ChatRequest,
  type ChatScript,
} from '../../helpers/chat-completions-server.js';
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

const PI_VERSION = '0.73.1';
/** The server's tools as the extension names them for pi (the prefix OC-Memory's readers know as their own). */
const TOOLS = ['oc_memory_search', 'oc_memory_get', 'oc_memory_remember', 'oc_memory_active'];
const piName = (serverName: string) => `oc_memory_${serverName.replace(/_memory$/, '')}`;

const messages = (r: ChatRequest): ChatMessage[] => (Array.isArray(r.body.messages) ? r.body.messages : []);
const toolOutputs = (r: ChatRequest): string[] =>
  messages(r)
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

function scripted(calls: Array<{ name: string; arguments: Record<string, unknown> }>, finalText: string): ChatScript {
  return (req): ChatReply => {
    const next = calls[toolOutputs(req).length];
    return next ? { toolCall: { name: piName(next.name), arguments: next.arguments } } : { text: finalText };
  };
}

test('pi (real CLI): integrate, the memory tools in the request, remember and search across sessions, session-start and per-prompt memory, after-turn observe, offline, uninstall removes the extension', {
  timeout: 900_000,
}, async () => {
  const piPkg = await installPinned({ name: '@mariozechner/pi-coding-agent', version: PI_VERSION });
  const piBin = piPkg.bin('pi');
  const tmp = await tempDir('ocm-pi-e2e-');
  const home = join(tmp.dir, 'home');
  const ocm = join(tmp.dir, 'ocm');
  const project = join(tmp.dir, 'project');
  const agentDir = join(home, '.pi', 'agent');
  for (const dir of [home, ocm, project, join(agentDir, 'extensions')]) await mkdir(dir, { recursive: true });
  await writeFile(join(ocm, 'config.yaml'), 'timezone: UTC\n');
  const api = await startFakeChatCompletions();
  let script: ChatScript = () => ({ text: 'OK.' });
  api.setScript((req, i) => script(req, i));
  const proxy = await startRecordingProxy();
  const models = `${JSON.stringify({ providers: { fake: { baseUrl: api.url, api: 'openai-completions', apiKey: 'sk-test-0000', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'fake-1' }] } } }, null, 2)}\n`;
  await writeFile(join(agentDir, 'models.json'), models);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TZ: 'UTC',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    NO_PROXY: '127.0.0.1,localhost',
    OCM_HOOK_TIMEOUT_MS: '4000',
  };
  const ocmRun = (args: string[]) =>
    execa(process.execPath, [CLI, ...args, '--home', ocm], { env, extendEnv: false, reject: false, timeout: 180_000, stdin: 'ignore' });
  const pi = (prompt: string) =>
    execa(piBin, ['-p', '--provider', 'fake', '--model', 'fake-1', prompt], {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      stdin: 'ignore',
    });
  const today = localDateTime(new Date(), 'UTC').date;
  const dayFile = join(ocm, 'memory', 'pi', `${today}.md`);
  const afterTurnIdle = async () =>
    waitFor('the after-turn job to finish', async () => (existsSync(join(ocm, '.ocm', 'after-turn.json')) ? undefined : true), 120_000);

  try {
    const integrated = await ocmRun(['integrate', 'pi']);
    assert.equal(integrated.exitCode, 0, `${integrated.stdout}\n${integrated.stderr}`);
    const status = await ocmRun(['integrate', 'pi', 'status']);
    assert.doesNotMatch(status.stdout, /❌/, status.stdout);

    // ---- Session 1: remember; the user's words are observed after the turn.
    script = scripted(REMEMBER_CALLS, 'Noted.');
    const first = await pi(SESSION_ONE_PROMPT);
    assert.equal(first.exitCode, 0, `${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, /Noted\./);
    const s1 = [...api.requests];
    assert.ok(s1.length >= 2, `session 1 made ${s1.length} requests`);
    for (const name of TOOLS) {
      const tool = (s1[0]!.body.tools ?? []).find((t: { function?: { name?: string } }) => t.function?.name === name);
      assert.ok(tool, `${name} in the request's tools`);
      assert.ok(String(tool.function?.description).length > 80);
      assert.equal(tool.function?.parameters?.type, 'object');
    }
    await assertRememberedAndObserved({ saved: toolOutputs(s1[1]!).join('\n'), dayFile, agent: 'pi', afterTurnIdle });

    // ---- Session 2: session-start and per-prompt memory; searches find both facts.
    const before = api.requests.length;
    script = scripted(SEARCH_CALLS, SESSION_TWO_ANSWER);
    const second = await pi(SESSION_TWO_PROMPT);
    assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
    const s2 = api.requests.slice(before);
    assert.ok(s2.length >= 3, `session 2 made ${s2.length} requests`);
    assertRecalled({
      firstRaw: s2[0]!.raw,
      afterOutputs: (n) => {
        const r = s2.find((x) => toolOutputs(x).length === n);
        return r && { outputs: toolOutputs(r), raw: r.raw };
      },
      agent: 'pi',
    });
    await afterTurnIdle();
    await assertRestatementNotObserved({ dayFile });

    assert.deepEqual(proxy.attempts, []);
    for (const r of api.requests) assert.match(r.path, /^\/v1\/chat\/completions/);

    // ---- Uninstall: the extension is gone, the user's pi files as they were.
    const removed = await ocmRun(['integrate', 'pi', '--uninstall']);
    assert.equal(removed.exitCode, 0, removed.stderr);
    assert.deepEqual(await readdir(join(agentDir, 'extensions')), []);
    assert.equal(await readFile(join(agentDir, 'models.json'), 'utf8'), models);
  } finally {
    await api.close();
    await proxy.close();
    await tmp.cleanup();
  }
});
