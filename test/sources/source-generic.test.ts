/**
 * The generic source: JSONL with configured field paths, plain logs with
 * configured regexes, rotation (logrotate rename, copytruncate) and config
 * errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../lib/core/errors.js';
import { createGenericSource, roleOf, type GenericSourceConfig } from '../../lib/sources/generic.js';
import type { Message } from '../../lib/core/types.js';
import { drainAll } from '../helpers/drain-source.js';

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-generic-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function config(extra: Partial<GenericSourceConfig>): GenericSourceConfig {
  return {
    name: 'test',
    enabled: true,
    path: '',
    format: 'jsonl',
    agent: 'main',
    fields: { role: 'role', text: 'text', time: 'timestamp', session: '', id: '' },
    user_pattern: '',
    assistant_pattern: '',
    timestamp_pattern: '',
    ...extra,
  };
}

const lines = (messages: Message[]) => messages.map((m) => `${m.role}: ${m.text}`);

test('JSONL with configured field paths: nested roles and texts, epoch times, ids, sessions; bad lines counted', async () => {
  await withDir(async (dir) => {
    const rows = [
      { ts: 1788256800, conv: 'c-1', mid: 17, msg: { from: 'Human', body: [{ type: 'text', text: 'I moved to Busan last month.' }] } },
      { ts: 1788256805, conv: 'c-1', mid: 18, msg: { from: 'AI', body: 'Busan, noted. ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
      { ts: 1788256810, conv: 'c-1', mid: 19, msg: { from: 'narrator', body: 'stage direction' } },
      { ts: 1788256815, conv: 'c-1', mid: 20, msg: { from: 'user' } },
    ];
    await writeFile(join(dir, 'chat-2026.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n{oops\n`);
    await writeFile(join(dir, 'notes.txt'), 'not matched by the glob\n');
    const source = createGenericSource({
      config: config({
        name: 'mychat',
        path: join(dir, '*.jsonl'),
        agent: 'assistant-x',
        fields: { role: 'msg.from', text: 'msg.body', time: 'ts', session: 'conv', id: 'mid' },
      }),
      index: 0,
      masking: {},
      home: dir,
    });
    const { streams, messages, malformed } = await drainAll(source);
    assert.deepEqual(
      streams.map((s) => [s.key, s.kind, s.agent, s.session]),
      [[`generic:mychat:${join(dir, 'chat-2026.jsonl')}`, 'generic', 'assistant-x', 'chat-2026']],
    );
    assert.deepEqual(lines(messages), ['user: I moved to Busan last month.', 'assistant: Busan, noted. [REDACTED:github-token]']);
    assert.deepEqual(
      messages.map((m) => [m.time, m.entryId, m.session, m.source]),
      [
        [new Date(1788256800 * 1000).toISOString(), '17', 'c-1', 'generic'],
        [new Date(1788256805 * 1000).toISOString(), '18', 'c-1', 'generic'],
      ],
    );
    assert.deepEqual(
      malformed.map((m) => [m.line, m.reason.replace(/:.*| at position \d+$/, '')]),
      [
        [3, 'no known role at "msg.from"'],
        [4, 'no text at "msg.body"'],
        [5, 'invalid JSON'],
      ],
    );
  });
});

test('regex logs: user/assistant patterns, continuation lines, timestamp_pattern for times and for other records', async () => {
  await withDir(async (dir) => {
    const log = [
      '[2026-09-01T10:00:01Z] <alice> I moved the weekly meeting to Thursday.',
      '[2026-09-01T10:00:05Z] <bot> Meeting moved to Thursday.',
      '  It is in room 4 now.',
      '[2026-09-01T10:01:00Z] -- alice has left',
      '  (this line follows a record that is not a message)',
      '[2026-09-01T10:02:00Z] <alice> Thanks!',
      '',
    ].join('\n');
    await writeFile(join(dir, 'irc.log'), log);
    const source = createGenericSource({
      config: config({
        path: join(dir, '*.log'),
        format: 'regex',
        user_pattern: '^\\[[^\\]]+\\] <alice> (?<text>.*)$',
        assistant_pattern: '^\\[(?<time>[^\\]]+)\\] <bot> (?<text>.*)$',
        timestamp_pattern: '^\\[(?<time>[^\\]]+)\\]',
      }),
      index: 0,
      masking: {},
      home: dir,
    });
    const { messages, malformed } = await drainAll(source);
    assert.deepEqual(lines(messages), [
      'user: I moved the weekly meeting to Thursday.',
      'assistant: Meeting moved to Thursday.\n  It is in room 4 now.',
      'user: Thanks!',
    ]);
    assert.deepEqual(
      messages.map((m) => m.time),
      ['2026-09-01T10:00:01.000Z', '2026-09-01T10:00:05.000Z', '2026-09-01T10:02:00.000Z'],
    );
    assert.deepEqual(
      messages.map((m) => m.entryId),
      ['L1', 'L2', 'L6'],
    );
    assert.deepEqual(malformed, []);
  });
});

test('rotation: lines written just before logrotate renames the file are read, then the new file; copytruncate repeats nothing', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'chat.jsonl');
    const row = (i: number) =>
      `${JSON.stringify({ role: i % 2 ? 'assistant' : 'user', text: `Line ${i} of the chat.`, timestamp: new Date(Date.UTC(2026, 8, 1, 10, 0, i)).toISOString() })}\n`;
    await writeFile(path, row(0) + row(1));
    const source = createGenericSource({ config: config({ path: join(dir, '*.jsonl') }), index: 0, masking: {}, home: dir });
    const first = await drainAll(source);
    assert.deepEqual(
      first.messages.map((m) => m.text),
      ['Line 0 of the chat.', 'Line 1 of the chat.'],
    );
    // Two more lines land, then logrotate renames the file (not matched by the glob any more) and starts a new one.
    await appendFile(path, row(2) + row(3));
    await rename(path, join(dir, 'chat.jsonl.1'));
    await writeFile(path, row(4));
    const second = await drainAll(source, first.cursors);
    assert.deepEqual(
      second.messages.map((m) => m.text),
      ['Line 2 of the chat.', 'Line 3 of the chat.', 'Line 4 of the chat.'],
    );
    // copytruncate, then the writer starts over with an old line (it replays) and a new one: only the new one is read.
    await truncate(path, 0);
    await writeFile(path, row(0) + row(5));
    const third = await drainAll(source, second.cursors);
    assert.deepEqual(
      third.messages.map((m) => m.text),
      ['Line 5 of the chat.'],
    );
  });
});

test('generic config errors say which key is wrong', () => {
  assert.throws(
    () =>
      createGenericSource({
        config: config({ path: '/x/*.log', format: 'regex', user_pattern: '(?<text>unclosed' }),
        index: 2,
        masking: {},
        home: '/',
      }),
    (error: unknown) => error instanceof ConfigError && /sources\.generic\[2\]\.user_pattern/.test(error.message),
  );
  assert.throws(
    () => createGenericSource({ config: config({ path: '/x/*.log', format: 'regex' }), index: 0, masking: {}, home: '/' }),
    (error: unknown) => error instanceof ConfigError && /neither user_pattern nor assistant_pattern/.test(error.message),
  );
  assert.equal(roleOf('Human'), 'user');
  assert.equal(roleOf(' MODEL '), 'assistant');
  assert.equal(roleOf('function'), 'tool');
  assert.equal(roleOf('narrator'), null);
  assert.equal(roleOf(3), null);
});
