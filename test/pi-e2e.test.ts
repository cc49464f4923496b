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
import { installPinned } from './helpers/agent-cache.js';
import { startRecordingProxy } from './helpers/anthropic-server.js';
import { startFakeChatCompletions, type ChatReply, type ChatRequest, type ChatScript } from './helpers/chat-completions-server.js';
import { CLI, tempDir } from './helpers/cli.js';
import { waitFor } from './helpers/wait.js';
import { localDateTime } from '../lib/time-zone.js';

const PI_VERSION = '0.73.1';
const TOOLS = ['search_memory', 'get_memory', 'remember', 'active_memory'];

async function readIf(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

const messages = (r: ChatRequest): Array<Record<string, any>> => (Array.isArray(r.body.messages) ? r.body.messages : []);
const toolOutputs = (r: ChatRequest): string[] => messages(r).filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

function scripted(calls: Array<{ name: string; arguments: Record<string, unknown> }>, finalText: string): ChatScript {
  return (req): ChatReply => {
    const next = calls[toolOutputs(req).length];
    return next ? { toolCall: next } : { text: finalText };
  };
}

test('pi (real CLI): integrate, the memory tools in the request, remember and search across sessions, session-start and per-prompt memory, after-turn observe, offline, uninstall removes the extension', { timeout: 900_000 }, async () => {
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
  const ocmRun = (args: string[]) => execa(process.execPath, [CLI, ...args, '--home', ocm], { env, extendEnv: false, reject: false, timeout: 180_000, stdin: 'ignore' });
  const pi = (prompt: string) => execa(piBin, ['-p', '--provider', 'fake', '--model', 'fake-1', prompt], { cwd: project, env, extendEnv: false, reject: false, timeout: 240_000, stdin: 'ignore' });
  const today = localDateTime(new Date(), 'UTC').date;
  const dayFile = join(ocm, 'memory', 'pi', `${today}.md`);
  const afterTurnIdle = async () => waitFor('the after-turn job to finish', async () => (existsSync(join(ocm, '.ocm', 'after-turn.json')) ? undefined : true), 120_000);

  try {
    const integrated = await ocmRun(['integrate', 'pi']);
    assert.equal(integrated.exitCode, 0, `${integrated.stdout}\n${integrated.stderr}`);
    const status = await ocmRun(['integrate', 'pi', 'status']);
    assert.doesNotMatch(status.stdout, /❌/, status.stdout);

    // ---- Session 1: remember; the user's words are observed after the turn.
    script = scripted([{ name: 'remember', arguments: { text: 'The staging host is db-stage-7.' } }], 'Noted.');
    const first = await pi('My favourite database for the billing service is PostgreSQL 16. Remember that the staging host is db-stage-7.');
    assert.equal(first.exitCode, 0, `${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, /Noted\./);
    const s1 = [...api.requests];
    assert.ok(s1.length >= 2, `session 1 made ${s1.length} requests`);
    for (const name of TOOLS) {
      const tool = (s1[0]!.body.tools ?? []).find((t: { function?: { name?: string } }) => t.function?.name === name);
      assert.ok(tool, `${name} in the request's tools`);
      assert.ok(String(tool.function.description).length > 80);
      assert.equal(tool.function.parameters.type, 'object');
    }
    assert.match(toolOutputs(s1[1]!).join('\n'), /Saved to memory as o-[0-9a-f]{10} \(🔴 high, fact\) in memory\/pi\//);
    assert.match(await readFile(dayFile, 'utf8'), /- 🔴 \d\d:\d\d \[fact\] The staging host is db-stage-7\. \^o-/);
    await waitFor('the turn observed into the day file', async () => {
      const text = await readIf(dayFile);
      return text && /PostgreSQL 16/.test(text) ? text : undefined;
    }, 120_000);
    await afterTurnIdle();

    // ---- Session 2: session-start and per-prompt memory; searches find both facts.
    const before = api.requests.length;
    script = scripted(
      [
        { name: 'search_memory', arguments: { query: 'billing database' } },
        { name: 'search_memory', arguments: { query: 'staging host' } },
      ],
      'You like PostgreSQL 16; staging is db-stage-7.',
    );
    const second = await pi('Which database do I like for the billing service?');
    assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
    const s2 = api.requests.slice(before);
    assert.ok(s2.length >= 3, `session 2 made ${s2.length} requests`);
    assert.match(s2[0]!.raw, /<oc-memory>\\nLong-term memory from earlier conversations \(OC-Memory\)/, 'session-start context');
    assert.match(s2[0]!.raw, /The staging host is db-stage-7/, 'active memory carries the 🔴 remembered fact');
    assert.match(s2[0]!.raw, /<oc-memory>\\nMemories related to this prompt[^<]*PostgreSQL 16/, 'per-prompt related memories');
    const withOutputs = (n: number) => s2.find((r) => toolOutputs(r).length === n);
    assert.match(toolOutputs(withOutputs(1)!).join('\n'), /PostgreSQL 16/);
    assert.match(toolOutputs(withOutputs(2)!).at(-1)!, /The staging host is db-stage-7\./);
    assert.match(withOutputs(2)!.raw, /PostgreSQL 16/, 'the following request carries what the search returned');
    await afterTurnIdle();

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
