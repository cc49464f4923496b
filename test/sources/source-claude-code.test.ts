/**
 * Claude Code transcripts: fixtures written from the documented line shapes
 * (tool use, a sub-agent file, a compaction boundary and summary, meta and
 * command lines, an API error stand-in), read through the source; cursors,
 * growth, and rotation of a file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClaudeCodeSource, defaultClaudeCodeDir, stripClaudeNoise } from '../../lib/sources/claude-code.js';
import type { Message } from '../../lib/core/types.js';
import { drain, drainAll } from '../helpers/drain-source.js';

const FIXTURE = resolve(import.meta.dirname, '..', 'fixtures', 'claude-code', 'projects');
const SESSION = '5d0c6a3e-1f2b-4c3d-9e8f-0a1b2c3d4e5f';

async function copyFixture(fixture = FIXTURE): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'ocm-claude-'));
  const dir = join(root, 'projects');
  await cp(fixture, dir, { recursive: true });
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

const lines = (messages: Message[]) => messages.map((m) => `${m.role}: ${m.text}`);

test('a Claude Code session and its sub-agent: text, tool calls and results reduced, thinking and noise dropped, sub-agent attributed', async () => {
  const { dir, cleanup } = await copyFixture();
  try {
    const source = createClaudeCodeSource({ dir, agent: 'claude-code', masking: {} });
    const streams = await source.discover();
    assert.deepEqual(
      streams.map((s) => [s.key, s.session]),
      [
        [`claude-code:claude-code:${SESSION}`, SESSION],
        [`claude-code:claude-code:${SESSION}/subagents/agent-a1b2c3d4`, `${SESSION}/subagents/agent-a1b2c3d4`],
      ],
    );
    const main = await drain(source, streams[0]!, undefined);
    assert.deepEqual(lines(main.messages), [
      'user: I prefer pnpm over npm in this repo. Add retries to the checkout client.',
      "assistant: I'll look at the checkout client first.",
      'assistant: [tool call: Bash command="rg -n \\"fetch(\\" src/checkout.ts" description="Find fetch calls"]',
      'tool: [tool result Bash: 12: const res = await fetch(url, { method: "POST" });]',
      'assistant: [tool call: Task description="Review retry policy" prompt="Review src/checkout.ts and propose a retry policy with exponential backoff." subagent_type=code-reviewer]',
      'tool: [tool result Task: Use 3 attempts with 200 ms base delay and jitter; do not retry 4xx.]',
      'assistant: Added retries: 3 attempts, 200 ms base delay with jitter, no retry on 4xx.',
      'user: [image]\nHere is the failing test output. The CI token is [REDACTED:github-token]',
      'assistant: The test fails because the mock server returns 503 twice; the retry now covers it.',
    ]);
    assert.deepEqual(main.malformed, []);
    assert.ok(main.messages.every((m) => m.source === 'claude-code' && m.agent === 'claude-code' && m.session === SESSION));
    assert.equal(main.messages[0]!.entryId, 'u-0003');
    assert.equal(main.messages[0]!.time, '2026-09-01T09:01:00.000Z');
    assert.equal(main.messages[3]!.toolName, 'Bash');
    const all = main.messages.map((m) => m.text).join('\n');
    assert.doesNotMatch(all, /secret plan|The user wants retries|Caveat|command-name|summarized below|API Error|interrupted/);

    const sub = await drain(source, streams[1]!, undefined);
    assert.deepEqual(lines(sub.messages), [
      'assistant: [to sub-agent] Review src/checkout.ts and propose a retry policy with exponential backoff.',
      'assistant: [sub-agent] [tool call: Read file_path=/home/dev/shop/src/checkout.ts]',
      'tool: [tool result Read: export async function checkout() { /* 80 lines */ }]',
      'assistant: [sub-agent] Use 3 attempts with 200 ms base delay and jitter; do not retry 4xx.',
    ]);
    assert.ok(!sub.messages.some((m) => m.role === 'user'), "a sub-agent's prompt is not the user's words");
  } finally {
    await cleanup();
  }
});

test('Claude Code: chunks and growth keep their cursor; a broken line is counted; a tool result in a later chunk keeps its tool name', async () => {
  const { dir, cleanup } = await copyFixture();
  try {
    const source = createClaudeCodeSource({ dir, agent: 'main', masking: {} });
    const [stream] = await source.discover();
    const chunked = await drain(source, stream!, undefined, { maxBytes: 1 << 20, maxMessages: 1 });
    const whole = await drain(source, stream!, undefined);
    assert.deepEqual(chunked.messages, whole.messages, 'one message per chunk gives the same messages');
    assert.ok(chunked.chunks >= whole.messages.length);

    const file = join(dir, '-home-dev-shop', `${SESSION}.jsonl`);
    const base = { sessionId: SESSION, cwd: '/home/dev/shop', isSidechain: false, userType: 'external' };
    await appendFile(
      file,
      '{"type":"user", this is not json\n' +
        `${JSON.stringify({ ...base, type: 'assistant', uuid: 'u-0017', timestamp: '2026-09-01T09:12:00.000Z', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_09', name: 'Edit', input: { file_path: 'a.ts' } }] } })}\n`,
    );
    const grown = await drain(source, stream!, whole.cursor);
    assert.deepEqual(lines(grown.messages), ['assistant: [tool call: Edit file_path=a.ts]']);
    assert.equal(grown.malformed.length, 1);
    assert.match(grown.malformed[0]!.reason, /invalid JSON/);
    // The result arrives later, half-written first (no newline yet): not read until complete.
    const result = JSON.stringify({
      ...base,
      type: 'user',
      uuid: 'u-0018',
      timestamp: '2026-09-01T09:12:01.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_09', content: 'ok', is_error: true }] },
    });
    await appendFile(file, result.slice(0, 40));
    const partial = await drain(source, stream!, grown.cursor);
    assert.deepEqual(partial.messages, []);
    await appendFile(file, `${result.slice(40)}\n`);
    const completed = await drain(source, stream!, partial.cursor);
    assert.deepEqual(lines(completed.messages), ['tool: [tool error Edit: ok]']);
  } finally {
    await cleanup();
  }
});

test('Claude Code: a file rewritten in place (same content, new inode) repeats nothing; new lines after it are read', async () => {
  const { dir, cleanup } = await copyFixture();
  try {
    const source = createClaudeCodeSource({ dir, agent: 'main', masking: {} });
    const [stream] = await source.discover();
    const first = await drain(source, stream!, undefined);
    const file = join(dir, '-home-dev-shop', `${SESSION}.jsonl`);
    const text = await readFile(file, 'utf8');
    const extra = `${JSON.stringify({ type: 'user', sessionId: SESSION, uuid: 'u-0100', timestamp: '2026-09-01T10:00:00.000Z', message: { role: 'user', content: 'Ship it on Monday.' } })}\n`;
    await writeFile(`${file}.tmp`, text + extra);
    await rename(`${file}.tmp`, file); // an atomic rewrite: new inode, old one gone
    const after = await drain(source, stream!, first.cursor);
    assert.deepEqual(lines(after.messages), ['user: Ship it on Monday.']);
  } finally {
    await cleanup();
  }
});

test('stripClaudeNoise and the default folder', () => {
  assert.equal(stripClaudeNoise('<bash-input>git status</bash-input>'), '[bash: git status]');
  assert.equal(stripClaudeNoise('<local-command-stdout>Set model to opus</local-command-stdout>'), '');
  assert.equal(stripClaudeNoise('[Request interrupted by user for tool use]'), '');
  assert.equal(stripClaudeNoise('Keep <b>this</b> text'), 'Keep <b>this</b> text');
  assert.equal(defaultClaudeCodeDir({}, '/home/u'), join('/home/u', '.claude', 'projects'));
  assert.equal(defaultClaudeCodeDir({ CLAUDE_CONFIG_DIR: '/cfg/claude' }, '/home/u'), join('/cfg/claude', 'projects'));
});

test('Claude Code: older sub-agent files beside the sessions are attributed too', async () => {
  const root = await mkdtemp(join(tmpdir(), 'ocm-claude-'));
  try {
    const project = join(root, '-home-dev-x');
    await cp(join(FIXTURE, '-home-dev-shop', SESSION, 'subagents', 'agent-a1b2c3d4.jsonl'), join(project, 'agent-77aa.jsonl'));
    const { streams, messages } = await drainAll(createClaudeCodeSource({ dir: root, agent: 'claude-code', masking: {} }));
    assert.deepEqual(
      streams.map((s) => s.session),
      ['-home-dev-x/agent-77aa'],
    );
    assert.ok(messages.length === 4 && messages[0]!.text.startsWith('[to sub-agent]'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("Claude Code 2.1 as it really writes (real transcripts): task notifications, api-request-blob and attachments are not messages; a sub-agent is labelled by its meta.json type; OC-Memory's tool, hook context and its restatement are never observed", async () => {
  const { dir, cleanup } = await copyFixture(resolve(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1', 'projects'));
  try {
    const source = createClaudeCodeSource({ dir, agent: 'claude-code', masking: {} });
    const streams = await source.discover();
    assert.deepEqual(
      streams.map((s) => s.session),
      [
        '6e77943f-fd51-4068-b6f8-eaa42bff8c1f',
        '6e77943f-fd51-4068-b6f8-eaa42bff8c1f/subagents/agent-adb4a8dc31b8d87c6',
        'e6bc99b6-181b-43a2-ba37-fd12bce964db',
      ],
    );
    const main = await drain(source, streams[0]!, undefined);
    assert.deepEqual(lines(main.messages), [
      'user: My staging database runs PostgreSQL 16. Look around.',
      'assistant: [tool call: Bash command="ls /nonexistent-dir-xyz" description="List a missing folder"]',
      "tool: [tool error Bash: Exit code 2 ls: cannot access '/nonexistent-dir-xyz': No such file or directory]",
      'assistant: [tool call: Agent description="Find the invoice lock" prompt="SUBTASK: find where invoices are locked." subagent_type=Explore run_in_background=true]',
      'tool: [tool result Agent: Async agent launched successfully. (This tool result is internal metadata — never quote or paste any part of it, including the agentId below, into a user-facing reply.) agentId: adb4a8dc31b8d87c6 (int…]',
      'assistant: I started a background search for the invoice lock.',
      'assistant: The background agent found it: src/lock.ts.',
    ]);
    assert.deepEqual(main.malformed, []);
    const sub = await drain(source, streams[1]!, undefined);
    assert.deepEqual(lines(sub.messages), [
      'assistant: [to sub-agent Explore] SUBTASK: find where invoices are locked.',
      'assistant: [sub-agent Explore] Invoices are locked in src/lock.ts with SELECT FOR UPDATE.',
    ]);
    // The hook injected "User prefers PostgreSQL"; the search tool is OC-Memory's own; the reply only says it back.
    const recall = await drain(source, streams[2]!, undefined);
    assert.deepEqual(lines(recall.messages), ['user: Which database should the invoices service use?']);
    // Read line by line (a cursor per line): the recalled memory survives the cursor.
    const stepwise = await drain(source, streams[2]!, undefined, { maxBytes: 1, maxMessages: 1 });
    assert.deepEqual(lines(stepwise.messages), lines(recall.messages));
  } finally {
    await cleanup();
  }
});
