/**
 * The packed form of batches and results between the main thread and the
 * Observer's worker (lib/observer/heuristic/wire.ts): what is unpacked is
 * deep-equal to what was packed, after a real structured clone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { observeWithRules } from '../../../lib/observer/heuristic/observer.js';
import { packBatch, packResult, unpackBatch, unpackResult } from '../../../lib/observer/heuristic/wire.js';
import type { Message, ObserverBatch, ObserverResult } from '../../../lib/core/types.js';

const TEXTS: Array<[Message['role'], string]> = [
  ['user', 'Hey Sam! I prefer TypeScript over JavaScript for anything that ships. #frontend'],
  ['assistant', 'Noted, Alex. Do you want strict mode everywhere?'],
  ['tool', '[tool result: read_file] export const pool = new Pool();'],
  ['user', 'Yes! We decided to use PostgreSQL 16 for billing; the deadline is next Friday 🎉'],
  ['user', '저는 한국어로 답변받는 것을 선호해요. 내일까지 인증 문제를 해결해야 해요.'],
  ['assistant', ''],
  ['user', 'A lone surrogate \ud800 and a pair \ud83d\ude00 survive, as do "quotes", \\ and\nnew lines.'],
  ['user', "I'm working on the login flow now. Is this your own painting?"],
];

function batch(): ObserverBatch {
  const messages: Message[] = TEXTS.map(([role, text], i) => ({
    role,
    text,
    time: new Date(Date.UTC(2026, 1, 2, 8) + i * 60_000).toISOString(),
    entryId: `e${i}`,
    source: i === 3 ? 'pi' : 'openclaw',
    agent: 'main',
    session: 's1',
    ...(role === 'tool' ? { toolName: 'read_file' } : {}),
  }));
  return { source: 'openclaw', agent: 'main', session: 's1', messages, timeZone: 'Asia/Seoul', now: '2026-02-03T00:00:00Z' };
}

test('a packed batch unpacks to its user and assistant messages, nothing lost', () => {
  const b = batch();
  const unpacked = unpackBatch(structuredClone(packBatch(b)));
  assert.deepEqual(unpacked, { ...b, messages: b.messages.filter((m) => m.role !== 'tool') });
});

test('a string missing from a hand-made message stays missing', () => {
  const b = batch();
  const odd = { ...b.messages[0]!, source: undefined, text: undefined } as unknown as Message;
  const unpacked = unpackBatch(structuredClone(packBatch({ ...b, messages: [odd] })));
  assert.deepEqual(unpacked.messages, [odd]);
});

test('a packed result unpacks to the same observations and current task', () => {
  const b = batch();
  const result = observeWithRules(b, { speakerNames: { user: 'Alex', assistant: 'Sam' } });
  assert.ok(result.observations.some((o) => o.tags.length > 1));
  assert.ok(
    result.observations.some((o) => o.provenance!.entryIds.length > 1),
    'a reply quoting its question',
  );
  assert.ok(result.observations.some((o) => o.provenance!.source === 'pi'));
  assert.ok(result.currentTask);
  assert.deepEqual(unpackResult(structuredClone(packResult(result))), result);
  const noTask: ObserverResult = { observations: result.observations.slice(0, 2) };
  assert.deepEqual(unpackResult(structuredClone(packResult(noTask))), noTask);
  assert.deepEqual(unpackResult(structuredClone(packResult({ observations: [] }))), { observations: [] });
});

test('a result packed from the unpacked batch equals the inline result', () => {
  const b = batch();
  assert.deepEqual(unpackResult(packResult(observeWithRules(unpackBatch(packBatch(b))))), observeWithRules(b));
});
