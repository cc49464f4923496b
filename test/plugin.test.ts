/**
 * The OpenClaw plugin as it is shipped — compiled by `npm run build` to
 * dist/templates/openclaw-plugin/index.js from templates/openclaw-plugin/index.ts —
 * loaded the way OpenClaw loads it — its default export's register(api) — with a recording
 * `api`, and its handlers called against a real memory home built by the
 * real pipeline (`ocm-run demo`) and the real `ocm-run search --json`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginApi } from '../templates/openclaw-plugin/index.js';
import { readState } from '../lib/state.js';
import { CLI, runCli, tempDir } from './helpers/cli.js';
import { packagePath } from '../lib/package-root.js';

// The compiled plugin, not its source: what OpenClaw runs.
const compiled = (await import(pathToFileURL(packagePath('dist', 'templates', 'openclaw-plugin', 'index.js')).href)) as typeof import('../templates/openclaw-plugin/index.js');
const { default: plugin, approxTokens, composeContext, lastUserMessages, sectionLines } = compiled;
import { PiSessionWriter } from './helpers/pi-writer.js';

interface Recorded {
  api: PluginApi;
  handlers: Map<string, (event: unknown, ctx?: unknown) => unknown>;
  logs: Array<{ level: string; message: string }>;
}

function recordingApi(pluginConfig: unknown): Recorded {
  const handlers = new Map<string, (event: unknown, ctx?: unknown) => unknown>();
  const logs: Recorded['logs'] = [];
  const api: PluginApi = {
    pluginConfig,
    logger: {
      info: (message) => logs.push({ level: 'info', message }),
      warn: (message) => logs.push({ level: 'warn', message }),
      error: (message) => logs.push({ level: 'error', message }),
    },
    on(hook, handler) {
      assert.ok(!handlers.has(hook), `${hook} registered once`);
      handlers.set(hook, handler);
    },
  };
  plugin.register(api);
  return { api, handlers, logs };
}

let dir = '';
let cleanup: () => Promise<void> = async () => undefined;
let home = '';

const turn = {
  messages: [
    { role: 'user', content: 'Which language should the backend services use?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me check what you prefer.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Set up the project in TypeScript with strict mode please.' }] },
  ],
  prompt: 'Set up the project in TypeScript with strict mode please.',
};

before(async () => {
  ({ dir, cleanup } = await tempDir('ocm-plugin-'));
  home = join(dir, 'home');
  const demo = await runCli(['demo', '--home', home], { env: { HOME: dir } });
  assert.equal(demo.code, 0, demo.stderr);
});

after(async () => {
  await cleanup();
});

test('the plugin registers before_prompt_build, agent_end and before_reset, and is not a memory-slot plugin', () => {
  const r = recordingApi({ home, node: process.execPath, cli: CLI });
  assert.deepEqual([...r.handlers.keys()].sort(), ['agent_end', 'before_prompt_build', 'before_reset']);
  assert.equal((plugin as { kind?: string }).kind, undefined);
  assert.equal(plugin.id, 'oc-memory');
  const off = recordingApi({});
  assert.equal(off.handlers.size, 0, 'without its config it registers nothing');
  assert.match(off.logs[0]!.message, /needs home, node and cli/);
});

test('before_prompt_build prepends current task, preferences and related memories (score ≥ 0.4) with a marker, within the cap', async () => {
  const r = recordingApi({ home, node: process.execPath, cli: CLI });
  const out = (await r.handlers.get('before_prompt_build')!(turn, { agentId: 'main' })) as { prependContext: string };
  const text = out.prependContext;
  assert.match(text, /^<oc-memory>/);
  assert.match(text, /<\/oc-memory>$/);
  assert.match(text, /## Current task\n- .*Active task:/);
  assert.match(text, /## Preferences and constraints\n[^#]*TypeScript over JavaScript/);
  assert.match(text, /## Related memories\n- /, 'search results made it in');
  const related = text.split('## Related memories\n')[1]!.split('\n').filter((l) => l.startsWith('- '));
  assert.ok(related.length >= 1);
  assert.ok(!related.some((l) => /User prefers TypeScript over JavaScript/.test(l)), 'a result already in the preferences is not repeated');
  assert.match(text, /🧠 memory used: current task, \d+ preferences?, \d+ related memor/);
  assert.ok(approxTokens(text) <= 800);
  assert.ok(r.logs.some((l) => /tokens of memory/.test(l.message)));

  // The same search from the CLI: every related line comes from a result scoring at least 0.4.
  const search = await runCli(['search', lastUserMessages(turn).join(' '), '--json', '--limit', '5', '--home', home]);
  const results = JSON.parse(search.stdout).results as Array<{ score: number; snippet: string }>;
  for (const line of related) {
    const hit = results.find((res) => line.endsWith(res.snippet));
    assert.ok(hit, `related line comes from the search: ${line}`);
    assert.ok(hit.score >= 0.4);
  }

  const small = recordingApi({ home, node: process.execPath, cli: CLI, maxTokens: 120 });
  const capped = (await small.handlers.get('before_prompt_build')!(turn, { agentId: 'main' })) as { prependContext: string };
  assert.ok(approxTokens(capped.prependContext) <= 120, `capped: ${approxTokens(capped.prependContext)} tokens`);
});

test('before_prompt_build never breaks a turn: broken CLI, a hanging search, a missing home', async () => {
  const brokenCli = recordingApi({ home, node: process.execPath, cli: join(dir, 'no-such-cli.js') });
  const a = (await brokenCli.handlers.get('before_prompt_build')!(turn, {})) as { prependContext: string };
  assert.match(a.prependContext, /Preferences and constraints/, 'active memory still used');
  assert.doesNotMatch(a.prependContext, /Related memories/);
  assert.ok(brokenCli.logs.some((l) => l.level === 'warn' && /search skipped/.test(l.message)));

  const slow = join(dir, 'slow-cli.js');
  await writeFile(slow, 'setTimeout(() => {}, 60_000);\n');
  const hanging = recordingApi({ home, node: process.execPath, cli: slow, timeoutMs: 400 });
  const b = (await hanging.handlers.get('before_prompt_build')!(turn, {})) as { prependContext: string } | undefined;
  assert.ok(b === undefined || !/Related memories/.test(b.prependContext));
  assert.ok(hanging.logs.some((l) => l.level === 'warn'), 'the timeout is logged');

  const nowhere = recordingApi({ home: join(dir, 'missing-home'), node: join(dir, 'no-node'), cli: slow });
  const c = await nowhere.handlers.get('before_prompt_build')!({ messages: 'not an array' }, null);
  assert.equal(c, undefined, 'nothing to add, and no exception');
  assert.deepEqual(lastUserMessages({ currentUserMessage: 'only this' }), ['only this']);
  assert.deepEqual(sectionLines('## Current context\n_None yet._\n## Next', /current/i), []);
  assert.equal(composeContext({ task: [], preferences: [], related: [], maxTokens: 500, marker: true }), undefined);
});

test('agent_end runs observe on the real home, which reads the new transcript line', async () => {
  const stateDir = join(dir, 'openclaw');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const w = new PiSessionWriter('9c8b7a6d-1111-4222-8333-944455556666', new Date('2026-04-11T10:00:00Z'));
  await writeFile(join(sessions, '9c8b7a6d-1111-4222-8333-944455556666.jsonl'), w.header() + w.message({ role: 'user', text: 'From now on I want release notes written in British English.' }) + w.message({ role: 'assistant', text: 'Understood.' }));
  const saved = process.env.OPENCLAW_STATE_DIR;
  process.env.OPENCLAW_STATE_DIR = stateDir; // the spawned observe inherits OpenClaw's environment
  try {
    const r = recordingApi({ home, node: process.execPath, cli: CLI });
    await r.handlers.get('agent_end')!({ success: true, messages: [] }, { agentId: 'main' });
    const deadline = Date.now() + 60_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      const { state } = await readState(join(home, '.ocm', 'state.json'));
      found = Object.values(state.streams).some((s) => s.session === '9c8b7a6d-1111-4222-8333-944455556666' && s.messages >= 2);
      if (!found) await new Promise((res) => setTimeout(res, 200));
    }
    assert.ok(found, 'observe ran in the background and read the session');
    // A burst of turn ends starts one observe, not one per event.
    await r.handlers.get('before_reset')!({}, {});
    assert.ok(!r.logs.some((l) => l.level === 'warn'));
  } finally {
    if (saved === undefined) delete process.env.OPENCLAW_STATE_DIR;
    else process.env.OPENCLAW_STATE_DIR = saved;
  }
});
