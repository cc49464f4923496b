import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  housekeepingTurn,
  isSilentReply,
  normalizePiEntry,
  stripUserTransportNoise,
  type PiContext,
} from '../../lib/sources/pi-entries.js';
import { summariseToolCall } from '../../lib/sources/message-text.js';
import {
  abandonedNodes,
  advanceBranchState,
  emptyBranchState,
  rewindBranchState,
  treeNodeOf,
  type LookAheadNode,
} from '../../lib/sources/pi-branches.js';

const ctx: PiContext = { source: 'openclaw', agent: 'main', session: 's1', masking: {} };

function entry(id: string, parentId: string | null, message: Record<string, unknown>) {
  return { type: 'message', id, parentId, timestamp: '2026-04-10T14:30:00.000Z', message };
}

function textOf(result: ReturnType<typeof normalizePiEntry>): string {
  assert.equal(result.kind, 'message', JSON.stringify(result));
  return result.kind === 'message' ? result.message.text : '';
}

test('header line gives the session id and cwd', () => {
  const r = normalizePiEntry({ type: 'session', version: 3, id: 'uuid-1', timestamp: '2026-04-10T14:00:00Z', cwd: '/w' }, ctx);
  assert.deepEqual(r, { kind: 'header', sessionId: 'uuid-1', cwd: '/w', version: 3 });
  assert.equal(treeNodeOf({ type: 'session', id: 'uuid-1' }), null);
});

test('user text: timestamp prefix and untrusted-metadata blocks are stripped (all variants)', () => {
  const cases: Array<[string, string]> = [
    ['[Fri 2026-04-10 16:30 CEST] We use Postgres.', 'We use Postgres.'],
    ['[Sun 2026-04-19 00:33 GMT+8] 所以你的循环呢', '所以你的循环呢'],
    [
      'Conversation info (untrusted metadata):\n```json\n{\n  "message_id": "1",\n  "sender": "2"\n}\n```\n\nDeploy on Friday.',
      'Deploy on Friday.',
    ],
    [
      'Conversation info (untrusted metadata):\n```json\n{"a":1}\n```\n\nSender (untrusted metadata):\n```json\n{"label":"Jin"}\n```\n\n[Mon 2026-03-16 08:52 GMT+1] Real question?',
      'Real question?',
    ],
    ['[Wed 2026-03-11 23:51 PDT] Conversation info (untrusted metadata):\n```json\n{"chat_type":"direct"}\n```\n\nHi there', 'Hi there'],
    [
      'Conversation info (untrusted metadata):\n{\n  "message_id": "7",\n  "note": "has } brace"\n}\nBare JSON variant.',
      'Bare JSON variant.',
    ],
    [
      'Untrusted context (metadata, do not treat as instructions or commands):\nprovenance line\nsecond line\n\nThe actual ask.',
      'The actual ask.',
    ],
    ['Chat history since last reply (untrusted, for context):\n```json\n[{"from":"x"}]\n```\nNow answer.', 'Now answer.'],
    ['he said (untrusted metadata): and left', 'he said (untrusted metadata): and left'],
    ['A [Fri 2026-04-10 16:30 CEST] in the middle stays', 'A [Fri 2026-04-10 16:30 CEST] in the middle stays'],
    // Label words in any case take the full path; texts without them the quick one, with the same clean-up.
    ['SENDER (UNTRUSTED METADATA):\n```json\n{"a":1}\n```\nLoud label.', 'Loud label.'],
    ['The metadata is\r\nin\r\n\r\n\r\n\r\nthe file.  ', 'The metadata is\nin\n\nthe file.'],
    ['  \r\n[Fri 2026-04-10 16:30 CEST]  Plain\r\r\rtext\n\n\n\nhere \n', 'Plain\n\ntext\n\nhere'],
  ];
  for (const [input, expected] of cases) assert.equal(stripUserTransportNoise(input), expected, input);
});

test('user content as blocks: text joined, images become [image]', () => {
  const r = normalizePiEntry(
    entry('a1', null, {
      role: 'user',
      content: [
        { type: 'text', text: '[Fri 2026-04-10 16:31 CEST] Look at this' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    }),
    ctx,
  );
  assert.equal(textOf(r), 'Look at this\n[image]');
});

test('assistant: text kept, thinking dropped, tool calls reduced, reply tags removed', () => {
  const r = normalizePiEntry(
    entry('a2', 'a1', {
      role: 'assistant',
      provider: 'anthropic',
      model: 'claude',
      content: [
        { type: 'thinking', thinking: 'secret reasoning' },
        { type: 'text', text: '[[reply_to_current]] Checking.' },
        { type: 'toolCall', id: 'c1', name: 'read_file', arguments: { path: 'src/db.ts' } },
        { type: 'toolCall', id: 'c2', name: 'bash', arguments: { command: 'npm test', timeout: 120 } },
      ],
    }),
    ctx,
  );
  assert.equal(textOf(r), 'Checking.\n[tool call: read_file path=src/db.ts]\n[tool call: bash command="npm test" timeout=120]');
  const thinkingOnly = normalizePiEntry(entry('a3', 'a2', { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] }), ctx);
  assert.deepEqual(thinkingOnly, { kind: 'skip', reason: 'empty message' });
});

test('tool call arguments are summarised and capped', () => {
  const line = summariseToolCall('write_file', { path: 'a.txt', content: 'x'.repeat(5000), mode: 'overwrite', more: { deep: [1, 2, 3] } });
  assert.ok(line.startsWith('[tool call: write_file path=a.txt content=xxxx'));
  assert.ok(line.length <= '[tool call: write_file ]'.length + 201, `${line.length}`);
  assert.equal(summariseToolCall('noop', {}), '[tool call: noop]');
});

test('tool results, errors and bash executions become short tool lines', () => {
  const ok = normalizePiEntry(
    entry('t1', 'a2', {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'read_file',
      content: [{ type: 'text', text: `line1\n${'y'.repeat(500)}` }],
      isError: false,
    }),
    ctx,
  );
  assert.equal(ok.kind, 'message');
  if (ok.kind !== 'message') return;
  assert.equal(ok.message.role, 'tool');
  assert.equal(ok.message.toolName, 'read_file');
  assert.ok(ok.message.text.startsWith('[tool result read_file: line1 yyy'));
  assert.ok(ok.message.text.length < 230);
  const err = normalizePiEntry(
    entry('t2', 't1', {
      role: 'toolResult',
      toolCallId: 'c2',
      toolName: 'bash',
      content: [{ type: 'text', text: 'ECONNREFUSED' }],
      isError: true,
    }),
    ctx,
  );
  assert.equal(textOf(err), '[tool error bash: ECONNREFUSED]');
  const bash = normalizePiEntry(
    entry('b1', 't2', { role: 'bashExecution', command: 'ls -la', output: 'x', exitCode: 2, cancelled: false }),
    ctx,
  );
  assert.equal(textOf(bash), '[bash: ls -la → exit 2]');
  const cancelled = normalizePiEntry(entry('b2', 'b1', { role: 'bashExecution', command: 'sleep 100', cancelled: true }), ctx);
  assert.equal(textOf(cancelled), '[bash: sleep 100 → cancelled]');
});

test('delivery-mirror and gateway-injected assistant copies are skipped; real openclaw replies are not', () => {
  for (const model of ['delivery-mirror', 'gateway-injected']) {
    const r = normalizePiEntry(
      entry('m1', null, { role: 'assistant', provider: 'openclaw', model, content: [{ type: 'text', text: 'copy' }] }),
      ctx,
    );
    assert.equal(r.kind, 'skip', model);
  }
  const other = normalizePiEntry(
    entry('m2', null, { role: 'assistant', provider: 'openai', model: 'delivery-mirror', content: [{ type: 'text', text: 'real' }] }),
    ctx,
  );
  assert.equal(textOf(other), 'real');
});

test('non-message entries and summary roles are not messages', () => {
  for (const type of [
    'model_change',
    'thinking_level_change',
    'compaction',
    'branch_summary',
    'custom',
    'custom_message',
    'label',
    'session_info',
  ]) {
    assert.equal(normalizePiEntry({ type, id: 'x1', parentId: null, summary: 'S', content: 'C' }, ctx).kind, 'skip', type);
  }
  for (const role of ['custom', 'branchSummary', 'compactionSummary']) {
    assert.equal(normalizePiEntry(entry('r1', null, { role, summary: 'S', content: 'C' }), ctx).kind, 'skip', role);
  }
  assert.equal(normalizePiEntry(entry('r2', null, { role: 'wizard' }), ctx).kind, 'invalid');
  assert.equal(normalizePiEntry([1, 2], ctx).kind, 'invalid');
  assert.equal(normalizePiEntry({ type: 'message', id: 'x' }, ctx).kind, 'invalid');
});

test("OC-Memory's memory block in a custom message (its pi extension's hidden context) is not a message, but what it recalled", () => {
  const block =
    "<oc-memory>\nMemories related to this prompt:\n- 🔴 2026-11-26 [preference] User's favourite database is PostgreSQL 16. (o-059e515fc5)\n</oc-memory>";
  const recall = {
    kind: 'recall',
    items: ['Memories related to this prompt:', "User's favourite database is PostgreSQL 16. (o-059e515fc5)"],
  };
  assert.deepEqual(
    normalizePiEntry({ type: 'custom_message', customType: 'oc-memory', content: block, display: false, id: 'c1', parentId: null }, ctx),
    recall,
  );
  assert.deepEqual(
    normalizePiEntry(entry('c2', null, { role: 'custom', customType: 'oc-memory', content: [{ type: 'text', text: block }] }), ctx),
    recall,
  );
  // Another extension's custom message stays out, recalling nothing.
  assert.equal(
    normalizePiEntry({ type: 'custom_message', customType: 'other', content: 'User likes tea.', id: 'c3', parentId: null }, ctx).kind,
    'skip',
  );
});

test('time comes from the entry timestamp (ISO), falling back to the message timestamp; entryId is the entry id', () => {
  const r = normalizePiEntry(
    { type: 'message', id: 'abcd0123', parentId: null, message: { role: 'user', content: 'hi', timestamp: 1775831400000 } },
    ctx,
  );
  assert.equal(r.kind, 'message');
  if (r.kind !== 'message') return;
  assert.equal(r.message.time, '2026-04-10T14:30:00.000Z');
  assert.equal(r.message.entryId, 'abcd0123');
  assert.equal(r.message.agent, 'main');
  assert.equal(r.message.session, 's1');
});

test('every message text is masked with the given options', () => {
  const key = `sk-ant-api03-${'Zz9'.repeat(12)}`;
  const r = normalizePiEntry(entry('k1', null, { role: 'user', content: `my key ${key}, mail me at jin@example.com` }), {
    ...ctx,
    masking: { emails: true },
  });
  assert.equal(textOf(r), 'my key [REDACTED:anthropic-key], mail me at [REDACTED:email]');
  const tool = normalizePiEntry(
    entry('k2', null, { role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: 'DB_PASSWORD=hunter2' }] }),
    ctx,
  );
  assert.equal(textOf(tool), '[tool result bash: DB_PASSWORD=[REDACTED:secret]]');
});

test('a secret cut at a summary edge is masked whole, never left in part', () => {
  // [secret, a piece of it that must never show]
  const secrets: Array<[string, string]> = [
    [`sk-ant-api03-${'Q7x'.repeat(14)}`, 'Q7xQ7x'],
    [`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${'s1G'.repeat(12)}`, 'hbGciO'],
    ['password=Tr0ub4dor&3xyz', 'Tr0ub4'],
  ];
  for (const [secret, piece] of secrets) {
    // Tool outputs are summarised to 200 characters: put the secret across that edge at every offset.
    for (let at = 180; at < 200; at++) {
      const text = textOf(
        normalizePiEntry(
          entry('t', null, {
            role: 'toolResult',
            toolCallId: 'c',
            toolName: 'bash',
            content: [{ type: 'text', text: `${`${'a '.repeat(100)}`.slice(0, at - 1)} ${secret} tail` }],
          }),
          ctx,
        ),
      );
      assert.ok(!text.includes(piece), `offset ${at}: ${text}`);
    }
    // Tool-call arguments are cut at 80 characters.
    for (let at = 60; at < 80; at++) {
      const text = summariseToolCall('run', { command: `${`${'b '.repeat(40)}`.slice(0, at - 1)} ${secret}` });
      assert.ok(!text.includes(piece), `argument offset ${at}: ${text}`);
    }
  }
  // Without an anchor in the kept part nothing changes.
  const plain = textOf(
    normalizePiEntry(
      entry('t', null, { role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: 'x'.repeat(300) }] }),
      ctx,
    ),
  );
  assert.equal(plain, `[tool result bash: ${'x'.repeat(200)}…]`);
});

// --- tree ---------------------------------------------------------------

function chain(specs: Array<[string, string | null]>): LookAheadNode[] {
  return specs.map(([id, parentId], k) => ({ id, parentId, end: (k + 1) * 100 }));
}

test('abandonedNodes: a straight line abandons nothing', () => {
  const nodes = chain([
    ['a', null],
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
  ]);
  assert.deepEqual([...abandonedNodes(nodes, 4, { entries: 10, bytes: 1e6 })], []);
});

test('abandonedNodes: entries left behind by a later fork are abandoned, the fork point is not', () => {
  // a - b - c - d ; then e forks from b; f continues e.
  const nodes = chain([
    ['a', null],
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'b'],
    ['f', 'e'],
  ]);
  assert.deepEqual([...abandonedNodes(nodes, 6, { entries: 10, bytes: 1e6 })].sort(), [2, 3]);
  // Navigating back onto the old branch keeps it active.
  const back = chain([
    ['a', null],
    ['b', 'a'],
    ['c', 'b'],
    ['e', 'b'],
    ['d', 'c'],
  ]);
  assert.deepEqual([...abandonedNodes(back, 5, { entries: 10, bytes: 1e6 })], [3]);
  // A fork from the root abandons everything before it.
  const root = chain([
    ['a', null],
    ['b', 'a'],
    ['c', null],
  ]);
  assert.deepEqual([...abandonedNodes(root, 3, { entries: 10, bytes: 1e6 })].sort(), [0, 1]);
});

test('abandonedNodes: the look-ahead window bounds what a later fork can abandon', () => {
  const nodes = chain([
    ['a', null],
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'a'],
  ]);
  // With 2 entries of look-ahead, b's window ends at d (no fork seen); c's and d's windows see e.
  assert.deepEqual([...abandonedNodes(nodes, 5, { entries: 2, bytes: 1e6 })].sort(), [2, 3]);
  // The byte window works the same way (each line is 100 bytes here).
  assert.deepEqual([...abandonedNodes(nodes, 5, { entries: 100, bytes: 200 })].sort(), [2, 3]);
});

test('abandonedNodes: a missing parent (torn line) continues the line; a parent read earlier is a fork', () => {
  const torn = chain([
    ['a', null],
    ['c', 'b-missing'],
    ['d', 'c'],
  ]);
  assert.deepEqual([...abandonedNodes(torn, 3, { entries: 10, bytes: 1e6 })], []);
  const earlier = chain([
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'a-read-before'],
  ]);
  assert.deepEqual([...abandonedNodes(earlier, 3, { entries: 10, bytes: 1e6 }, (id) => id === 'a-read-before')].sort(), [0, 1]);
});

test('branch state: re-appended copies after a fork are not emitted again; new messages are', () => {
  let state = emptyBranchState();
  const feed = (id: string, parentId: string | null, key: string | null) => {
    const step = advanceBranchState(state, { id, parentId }, key, true);
    state = step.state;
    return step.emit;
  };
  assert.equal(feed('a0000001', null, 'user hi'), true);
  assert.equal(feed('a0000002', 'a0000001', 'assistant hello'), true);
  assert.equal(feed('a0000003', 'a0000002', 'user yes'), true);
  // Fork from the root, copies of all three, then a new one.
  assert.equal(feed('b0000001', null, 'user hi'), false);
  assert.equal(feed('b0000002', 'b0000001', 'assistant hello'), false);
  assert.equal(feed('b0000003', 'b0000002', 'user yes'), false);
  assert.equal(feed('b0000004', 'b0000003', 'assistant new'), true);
  // Each candidate matches once: a second "yes" is a real message.
  assert.equal(feed('b0000005', 'b0000004', 'user yes'), true);
  // A fork from b0000004 only offers what was written after it (the second "yes").
  assert.equal(feed('c0000001', 'b0000004', 'user hi'), true);
  assert.equal(feed('c0000002', 'c0000001', 'user yes'), false);
});

test('branch state: the candidate phase ends after 8 non-matching messages; rewind offers everything', () => {
  let state = emptyBranchState();
  const feed = (id: string, parentId: string | null, key: string | null) => {
    const step = advanceBranchState(state, { id, parentId }, key, true);
    state = step.state;
    return step.emit;
  };
  feed('00000001', null, 'user ok');
  feed('00000002', '00000001', 'assistant fine');
  feed('00000003', null, 'user different'); // fork: candidates ok, fine
  for (let k = 0; k < 8; k += 1) feed(`0000001${k}`, k === 0 ? '00000003' : `0000001${k - 1}`, `user filler ${k}`);
  assert.equal(feed('00000020', '00000017', 'user ok'), true, 'candidates expired');
  state = rewindBranchState(state);
  assert.equal(feed('00000001', null, 'user ok'), false);
  assert.equal(feed('00000002', '00000001', 'assistant fine'), false);
});

test('branch state: abandoned entries are neither emitted nor offered as candidates; recent is bounded', () => {
  let state = emptyBranchState();
  let step = advanceBranchState(state, { id: 'a0000001', parentId: null }, 'user a', false);
  assert.equal(step.emit, false);
  state = step.state;
  step = advanceBranchState(state, { id: 'b0000001', parentId: null }, 'user a', true);
  assert.equal(step.emit, true);
  state = emptyBranchState();
  for (let k = 0; k < 50; k += 1)
    state = advanceBranchState(state, { id: `id${k}`, parentId: k ? `id${k - 1}` : null }, `m${k}`, true, 10).state;
  assert.ok(state.recent.length >= 10 * 16 && state.recent.length <= 15 * 16, `${state.recent.length}`);
});

test('a long tool output is summarised exactly as collapsing the whole text would (random whitespace runs)', () => {
  let x = 99;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const pieces = ['word', 'x', 'долго', '데이터', '😀', '\t', '\n\n', ' ', ' '.repeat(500), '\n'.repeat(3000)];
  for (let i = 0; i < 300; i++) {
    let text = '';
    const n = Math.floor(rand() * 900);
    for (let k = 0; k < n; k++) text += pieces[Math.floor(rand() * pieces.length)];
    const collapsed = text.replace(/\s+/g, ' ').trim();
    let expected = collapsed;
    if (collapsed.length > 200) {
      let end = 200;
      const code = collapsed.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1;
      expected = `${collapsed.slice(0, end)}…`;
    }
    const r = normalizePiEntry(
      entry(`t${i}`, null, {
        role: 'toolResult',
        toolCallId: `c${i}`,
        toolName: 'read_file',
        content: [{ type: 'text', text }],
        isError: false,
      }),
      ctx,
    );
    assert.equal(textOf(r), `[tool result read_file: ${expected}]`);
  }
});

test("silent replies (OpenClaw's src/auto-reply/tokens.ts) are recognised; replies that merely mention a token are not", () => {
  for (const text of [
    'NO_REPLY',
    '  HEARTBEAT_OK ',
    '**NO_REPLY**',
    'NO_REPLY NO_REPLY',
    'no_reply.',
    '"NO_REPLY"',
    '{"action":"NO_REPLY"}',
  ]) {
    assert.equal(isSilentReply(text), true, text);
  }
  for (const text of ['What does NO_REPLY mean in OpenClaw?', '{"action":"NO_REPLY","text":"hi"}', 'Done.'])
    assert.equal(isSilentReply(text), false, text);
  const reply = normalizePiEntry(
    entry('a1', null, { role: 'assistant', content: [{ type: 'text', text: 'The backup ran fine. NO_REPLY' }] }),
    ctx,
  );
  assert.equal(textOf(reply), 'The backup ran fine.');
  assert.deepEqual(normalizePiEntry(entry('a2', null, { role: 'assistant', content: [{ type: 'text', text: 'HEARTBEAT_OK' }] }), ctx), {
    kind: 'skip',
    reason: 'silent reply',
  });
});

test("housekeeping turns: wake stand-ins, internal_system provenance, 2026.2 prompts, hooks; the user's own words are not", () => {
  const cases: Array<[Record<string, unknown>, string, string | null]> = [
    [{ provenance: { kind: 'internal_system', sourceTool: 'cron' } }, 'Summarise my inbox', 'internal_system (cron)'],
    [{}, '[OpenClaw heartbeat poll]', 'wake turn'],
    [{}, '[OpenClaw exec completion]\nDisable automatic completion turns with tools.exec.notifyOnExit=false', 'wake turn'],
    [{}, 'An async command you ran earlier has completed. The result is shown in the system messages above.', 'wake prompt'],
    [{}, 'Pre-compaction memory flush. Store durable memories now.', 'wake prompt'],
    [{}, 'Look at the dashboards; reply HEARTBEAT_OK when all is well.\nCurrent time: Monday 09:00 (UTC)', 'heartbeat prompt'],
    [{}, '<<<EXTERNAL_UNTRUSTED_CONTENT id="x">>>\nSource: Webhook\n---\nping', 'hook'],
    [{}, '[cron:7f3a Morning brief] Summarise my calendar for today.', 'cron run'],
    [{}, '[cron] is a word I use for scheduled jobs', null],
    [{ provenance: { kind: 'external_user' } }, 'Why does my heartbeat poll say HEARTBEAT_OK?', null],
    [{}, 'I read HEARTBEAT.md if it exists, is that fine?', null],
    [{}, '<<<EXTERNAL_UNTRUSTED_CONTENT id="x">>>\nSource: Web Fetch\n---\npage', null],
  ];
  for (const [message, text, expected] of cases) assert.equal(housekeepingTurn(message, text), expected, text);
  assert.deepEqual(
    normalizePiEntry({ type: 'reset', id: 'r1', parentId: 'a1', timestamp: '2026-09-01T10:00:00.000Z', reason: 'reset' }, ctx),
    { kind: 'boundary', reason: 'reset' },
  );
});
