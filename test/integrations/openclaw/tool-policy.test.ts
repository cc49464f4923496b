/**
 * Which OpenClaw tool policies hide OC-Memory's memory tools, and what
 * `integrate openclaw` tells the user to change (lib/integrations/openclaw/tool-policy.ts).
 * The real 2026.9.6 turns that show the advice is right: openclaw-tool-policy-2026-9.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  memoryToolPolicyAdvice,
  memoryToolPolicyByAgent,
  PLUGIN_TOOL_NAMES,
  toolPolicyLines,
} from '../../../lib/integrations/openclaw/tool-policy.js';

const current = { manifestProfiles: true };
const fileEra = { manifestProfiles: false };
const advise = (config: unknown, options = current) =>
  memoryToolPolicyAdvice(config, options).map((a) => `${a.action} ${a.entry} ${a.key}`);

test('the plugin tools are the MCP memory tools under their OpenClaw names', () => {
  assert.deepEqual([...PLUGIN_TOOL_NAMES].sort(), ['oc_memory_active', 'oc_memory_get', 'oc_memory_remember', 'oc_memory_search']);
});

test('no policy, full, and (through the manifest) coding and messaging profiles leave the tools in', () => {
  assert.deepEqual(advise({}), []);
  for (const profile of ['full', 'coding', 'messaging']) assert.deepEqual(advise({ tools: { profile } }), [], profile);
});

test('the minimal profile, and on 2026.2 (no manifest profiles) coding and messaging too, need the plugin in alsoAllow', () => {
  assert.deepEqual(advise({ tools: { profile: 'minimal' } }), ['add oc-memory tools.alsoAllow']);
  assert.deepEqual(advise({ tools: { profile: 'coding' } }, fileEra), ['add oc-memory tools.alsoAllow']);
  assert.deepEqual(advise({ tools: { profile: 'minimal', alsoAllow: ['oc_memory_*'] } }), []);
  assert.deepEqual(advise({ tools: { profile: 'minimal', alsoAllow: ['group:plugins'] } }), []);
});

test('an allow list without the plugin (or with only some of its tools) needs the plugin id; *, group:plugins, the id or a pattern for all four let them through', () => {
  assert.deepEqual(advise({ tools: { allow: ['read', 'exec'] } }), ['add oc-memory tools.allow']);
  assert.deepEqual(advise({ tools: { allow: ['read', 'oc_memory_search'] } }), ['add oc-memory tools.allow']);
  for (const entry of ['*', 'group:plugins', 'oc-memory', 'OC_MEMORY_*', 'oc_*'])
    assert.deepEqual(advise({ tools: { allow: ['read', entry] } }), [], entry);
  // An allow list replaces the profile's choice: no alsoAllow advice beside it.
  assert.deepEqual(advise({ tools: { profile: 'minimal', allow: ['read'] } }), ['add oc-memory tools.allow']);
});

test('a deny entry that covers any memory tool must go (deny always wins)', () => {
  assert.deepEqual(advise({ tools: { deny: ['browser', 'oc_memory_remember', 'group:plugins'] } }), [
    'remove oc_memory_remember tools.deny',
    'remove group:plugins tools.deny',
  ]);
});

test("per-agent policies: 2026.9's agents.entries.<id>.tools and 2026.2's agents.list[i].tools, each scope on its own; an agent's profile overrides the global one", () => {
  assert.deepEqual(advise({ agents: { entries: { main: {}, work: { tools: { allow: ['read'] } } } } }), [
    'add oc-memory agents.entries.work.tools.allow',
  ]);
  assert.deepEqual(advise({ agents: { list: [{ id: 'main' }, { id: 'ops', tools: { profile: 'minimal' } }] } }), [
    'add oc-memory agents.list[1].tools.alsoAllow',
  ]);
  assert.deepEqual(
    advise({ tools: { profile: 'minimal', alsoAllow: ['oc-memory'] }, agents: { entries: { work: { tools: { profile: 'coding' } } } } }),
    [],
  );
  assert.deepEqual(advise({ tools: { byProvider: { openai: { allow: ['read'] } } } }), ['add oc-memory tools.byProvider.openai.allow']);
});

test('the lines say what to add and where, and that recall and observing go on without the tools', () => {
  assert.deepEqual(toolPolicyLines([]), []);
  const lines = toolPolicyLines(memoryToolPolicyAdvice({ agents: { entries: { work: { tools: { allow: ['read'] } } } } }, current));
  assert.match(
    lines.join('\n'),
    /add "oc-memory" to agents\.entries\.work\.tools\.allow — agents\.entries\.work\.tools\.allow lists the tools/,
  );
  assert.match(lines.join('\n'), /still put in front of each prompt/);
});

test('per agent: offered or not, with the changes that agent needs — the global scope for every agent, the global profile only for agents without their own', () => {
  const byAgent = (config: unknown) =>
    memoryToolPolicyByAgent(config, current).map(
      (a) => `${a.agent} ${a.offered ? 'offered' : 'hidden'}${a.advice.map((x) => ` ${x.action} ${x.entry} ${x.key}`).join('')}`,
    );
  assert.deepEqual(byAgent({}), ['main offered'], "no agents: OpenClaw's default agent main");
  assert.deepEqual(byAgent({ tools: { profile: 'minimal' } }), ['main hidden add oc-memory tools.alsoAllow']);
  assert.deepEqual(
    byAgent({ agents: { entries: { main: {}, work: { tools: { allow: ['read'] } }, ops: { tools: { profile: 'minimal' } } } } }),
    [
      'main offered',
      'work hidden add oc-memory agents.entries.work.tools.allow',
      'ops hidden add oc-memory agents.entries.ops.tools.alsoAllow',
    ],
  );
  assert.deepEqual(byAgent({ tools: { profile: 'minimal' }, agents: { entries: { main: {}, work: { tools: { profile: 'coding' } } } } }), [
    'main hidden add oc-memory tools.alsoAllow',
    'work offered',
  ]);
  assert.deepEqual(
    byAgent({ tools: { deny: ['group:plugins'] }, agents: { list: [{ id: 'main' }, { id: 'ops', tools: { allow: ['read'] } }] } }),
    ['main hidden remove group:plugins tools.deny', 'ops hidden remove group:plugins tools.deny add oc-memory agents.list[1].tools.allow'],
  );
  // All agents together, each change once.
  assert.deepEqual(
    advise({ tools: { deny: ['group:plugins'] }, agents: { list: [{ id: 'main' }, { id: 'ops', tools: { allow: ['read'] } }] } }),
    ['remove group:plugins tools.deny', 'add oc-memory agents.list[1].tools.allow'],
  );
});
