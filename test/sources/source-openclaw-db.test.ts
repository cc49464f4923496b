/**
 * OpenClaw database era: real SQLite files with OpenClaw's tables, created
 * here, read through the source (compressed and corrupt rows, two agents, a
 * /reset window, locked and migrating databases, newer schema, rewritten
 * transcripts), and read while a second process keeps inserting rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { createOpenClawDbSource, decodeEventPayload, type OpenClawDbSourceOptions } from '../../lib/sources/openclaw-db.js';
import type { Cursor, Message, TranscriptSource } from '../../lib/core/types.js';
import { BIG, drain, drainAll } from '../helpers/drain-source.js';
import {
  addRealWindow,
  addWindow,
  agentDbPath,
  createAgentDb,
  createRealAgentDb,
  DbTranscript,
  fixtureEvent,
  zstdRawFrame,
} from '../helpers/openclaw-db.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';

async function withState<T>(fn: (stateDir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-db-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function source(stateDir: string, extra: Partial<OpenClawDbSourceOptions> = {}): TranscriptSource {
  return createOpenClawDbSource({ stateDirs: [stateDir], masking: {}, ...extra });
}

function texts(messages: Message[]): string[] {
  return messages.map((m) => `${m.role}: ${m.text}`);
}

function event(
  id: string,
  parentId: string | null,
  role: 'user' | 'assistant',
  text: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const message =
    role === 'user'
      ? { role, content: text }
      : { role, content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4', stopReason: 'stop', ...extra };
  return { type: 'message', id, parentId, timestamp: '2026-09-01T10:00:00.000Z', message };
}

test('decodeEventPayload: plain JSON, real zstd, raw zstd frames; corrupt and mismatched rows are refused', () => {
  const { json, zst } = fixtureEvent();
  assert.deepEqual(decodeEventPayload({ seq: 1, event_json: '{"a":1}' }), { text: '{"a":1}' });
  assert.deepEqual(decodeEventPayload({ seq: 1, event_json: null, event_zstd: zst, event_utf8_bytes: Buffer.byteLength(json) }), {
    text: json,
  });
  const small = Buffer.from('{"type":"message","note":"사용자는 커피를 좋아한다"}');
  assert.deepEqual(decodeEventPayload({ seq: 1, event_json: null, event_zstd: zstdRawFrame(small), event_utf8_bytes: small.byteLength }), {
    text: small.toString('utf8'),
  });
  const big = Buffer.alloc(300 * 1024, 'x'); // more than one 128 KiB block
  assert.equal(
    (decodeEventPayload({ seq: 1, event_json: null, event_zstd: zstdRawFrame(big), event_utf8_bytes: big.byteLength }) as { text: string })
      .text.length,
    big.byteLength,
  );

  const refused = (row: Parameters<typeof decodeEventPayload>[0]) => {
    const r = decodeEventPayload(row);
    assert.ok('error' in r, `refused: ${JSON.stringify(r).slice(0, 80)}`);
    return r.error;
  };
  assert.match(
    refused({ seq: 1, event_json: null, event_zstd: zst.subarray(0, zst.length - 40), event_utf8_bytes: Buffer.byteLength(json) }),
    /corrupt|decoded/,
  );
  assert.match(
    refused({ seq: 1, event_json: null, event_zstd: Buffer.from('not zstd at all, just bytes'), event_utf8_bytes: 30 }),
    /corrupt/,
  );
  assert.match(
    refused({ seq: 1, event_json: null, event_zstd: zst, event_utf8_bytes: Buffer.byteLength(json) + 3 }),
    /event_utf8_bytes says/,
  );
  assert.match(refused({ seq: 1, event_json: null, event_zstd: zst, event_utf8_bytes: null }), /event_utf8_bytes/);
  assert.match(refused({ seq: 1, event_json: null, event_zstd: null }), /neither/);
  assert.match(
    refused({ seq: 1, event_json: null, event_zstd: zstdRawFrame(Buffer.from([0xff, 0xfe, 0x41])), event_utf8_bytes: 3 }),
    /UTF-8/,
  );
  assert.match(refused({ seq: 1, event_json: null, event_zstd: zst, event_utf8_bytes: 64 * 1024 * 1024 }), /exceeds/);
});

/** The main scenario: agent main with a /reset, agent work; compressed, corrupt, mirrored rows. */
function buildTwoAgents(stateDir: string): { mainDb: ReturnType<typeof createAgentDb>; lastSeqA: number } {
  const { zst, json } = fixtureEvent();
  const main = createAgentDb(agentDbPath(stateDir, 'main'));
  addWindow(main, A, 'agent:main:main');
  const a = new DbTranscript(main, A);
  a.add({ type: 'session', version: 3, id: A, timestamp: '2026-09-01T10:00:00.000Z', cwd: '/home/dev' });
  a.add(
    event(
      'c0ffee00',
      null,
      'user',
      '[Mon 2026-09-01 12:00 CEST] I prefer dark roast coffee. My key is sk-proj-abcdefghijklmnop1234567890ABCD',
    ),
  );
  a.add(json.length > 0 ? json : '', { compress: zst }); // real zstd, id c0ffee01
  a.add(
    event('c0ffee02', 'c0ffee01', 'assistant', 'We decided to use PostgreSQL 16 for the billing service.', {
      provider: 'openclaw',
      model: 'delivery-mirror',
    }),
  );
  a.add('this row is garbage', { compress: Buffer.from('definitely not a zstd frame'), utf8Bytes: 19 });
  a.add(event('c0ffee03', 'c0ffee02', 'user', 'Remember that the staging server is called basil.'), { compress: 'raw' });
  const lengthLie = JSON.stringify(event('c0ffee04', 'c0ffee03', 'assistant', 'this row lies about its length'));
  a.add(lengthLie, { compress: 'raw', utf8Bytes: Buffer.byteLength(lengthLie) + 7 });
  const lastSeqA = a.add(event('c0ffee05', 'c0ffee03', 'assistant', 'Noted: the staging server is basil.'));
  // /reset: a new window for the same key.
  addWindow(main, B, 'agent:main:main', A, 'reset');
  const b = new DbTranscript(main, B);
  const wb = new PiSessionWriter(B, new Date('2026-09-01T11:00:00Z'));
  b.addLines(
    wb.header() +
      wb.message({ role: 'user', text: 'My flight to Seoul leaves on Friday.' }) +
      wb.message({ role: 'assistant', text: 'Have a good trip to Seoul.' }),
  );
  main.close();

  const work = createAgentDb(agentDbPath(stateDir, 'work'));
  addWindow(work, C, 'agent:work:main');
  const c = new DbTranscript(work, C);
  const wc = new PiSessionWriter(C, new Date('2026-09-01T09:00:00Z'));
  c.addLines(
    wc.header() +
      wc.message({ role: 'user', text: 'The quarterly report is due on the 30th.' }) +
      wc.toolExchange('read_file', { path: 'report.md' }, 'Q3 numbers'),
  );
  work.close();
  return { mainDb: main, lastSeqA };
}

test('two agents, a /reset window, compressed and corrupt rows: the same messages as the file era, corrupt rows counted', async () => {
  await withState(async (stateDir) => {
    const { lastSeqA } = buildTwoAgents(stateDir);
    const src = source(stateDir);
    const streams = await src.discover();
    assert.deepEqual(
      streams.map((s) => [s.key, s.agent, s.session, Boolean(s.ended)]),
      [
        [`openclaw-db:main:${A}`, 'main', A, true],
        [`openclaw-db:main:${B}`, 'main', B, false],
        [`openclaw-db:work:${C}`, 'work', C, false],
      ],
    );
    assert.ok(streams.every((s) => s.kind === 'openclaw-db' && s.path.endsWith('openclaw-agent.sqlite')));

    const a = await drain(src, streams[0]!, undefined);
    const [first, second, ...rest] = texts(a.messages);
    assert.equal(first, 'user: I prefer dark roast coffee. My key is [REDACTED:openai-key]', 'channel prefix stripped, secret masked');
    assert.match(
      second ?? '',
      /^assistant: We decided to use PostgreSQL 16 for the billing service, with Redis only as a cache\.\n\nStep 1: /,
    );
    assert.deepEqual(
      rest,
      ['user: Remember that the staging server is called basil.', 'assistant: Noted: the staging server is basil.'],
      'the delivery mirror is skipped',
    );
    assert.ok(!a.messages.some((m) => /private reasoning/.test(m.text)), 'thinking is dropped');
    assert.deepEqual(
      a.messages.map((m) => m.entryId),
      ['c0ffee00', 'c0ffee01', 'c0ffee03', 'c0ffee05'],
    );
    assert.ok(a.messages.every((m) => m.source === 'openclaw-db' && m.agent === 'main' && m.session === A));
    assert.equal(a.malformed.length, 2, 'the corrupt row and the row whose length does not match');
    assert.match(a.malformed.map((m) => m.reason).join(' | '), /corrupt.*\|.*event_utf8_bytes says/);
    assert.deepEqual(
      a.malformed.map((m) => m.line),
      [`${A}#5`, `${A}#7`],
    );
    assert.equal((a.cursor as { seq: number }).seq, lastSeqA);

    const b = await drain(src, streams[1]!, undefined);
    assert.deepEqual(texts(b.messages), ['user: My flight to Seoul leaves on Friday.', 'assistant: Have a good trip to Seoul.']);
    const c = await drain(src, streams[2]!, undefined);
    assert.deepEqual(texts(c.messages), [
      'user: The quarterly report is due on the 30th.',
      'assistant: [tool call: read_file path=report.md]',
      'tool: [tool result read_file: Q3 numbers]',
    ]);
    assert.equal(c.messages[0]!.agent, 'work');

    // The agents filter (sources.openclaw.agents) applies to databases too.
    assert.deepEqual(
      (await source(stateDir, { agents: ['work'] }).discover()).map((s) => s.agent),
      ['work'],
    );
  });
});

test('chunked reads carry the cursor; rows added later are read once; an untouched stream reads nothing', async () => {
  await withState(async (stateDir) => {
    const db = createAgentDb(agentDbPath(stateDir, 'main'));
    addWindow(db, A, 'agent:main:main');
    const t = new DbTranscript(db, A);
    const w = new PiSessionWriter(A, new Date('2026-09-01T08:00:00Z'));
    let text = w.header();
    for (let i = 0; i < 30; i++) text += w.message({ role: i % 2 ? 'assistant' : 'user', text: `Fact number ${i} about the garden.` });
    t.addLines(text);
    const src = source(stateDir);
    const [stream] = await src.discover();
    const first = await drain(src, stream!, undefined, { maxBytes: 1 << 20, maxMessages: 4 });
    assert.ok(first.chunks >= 8, `read in chunks (${first.chunks})`);
    assert.deepEqual(
      first.messages.map((m) => m.text),
      Array.from({ length: 30 }, (_, i) => `Fact number ${i} about the garden.`),
    );
    const again = await drain(src, stream!, first.cursor);
    assert.deepEqual(again.messages, []);
    assert.deepEqual(again.cursor, first.cursor, 'nothing new: the cursor does not move');

    let more = '';
    for (let i = 30; i < 35; i++) more += w.message({ role: 'user', text: `Fact number ${i} about the garden.` });
    t.addLines(more);
    db.close();
    const next = await drain(src, stream!, first.cursor, { maxBytes: 1 << 20, maxMessages: 2 });
    assert.deepEqual(
      next.messages.map((m) => m.text),
      Array.from({ length: 5 }, (_, i) => `Fact number ${30 + i} about the garden.`),
    );
  });
});

test('a locked database is left alone and read on the next tick', async () => {
  await withState(async (stateDir) => {
    const path = agentDbPath(stateDir, 'main');
    const db = createAgentDb(path, { journal: 'delete' });
    addWindow(db, A, 'agent:main:main');
    new DbTranscript(db, A).add(event('d0000001', null, 'user', 'I live in Lisbon.'));
    const logger = createMemoryLogger();
    const src = source(stateDir, { busyTimeoutMs: 30, logger });
    const [stream] = await src.discover();
    assert.ok(stream);
    db.exec('CREATE TABLE filler (x BLOB)');
    db.pragma('cache_size = 2');
    db.exec('BEGIN EXCLUSIVE'); // OpenClaw mid-write (rollback journal: readers must wait)
    // More pages than the cache holds: SQLite has written the journal and begun changing the file itself.
    const fill = db.prepare('INSERT INTO filler (x) VALUES (zeroblob(4096))');
    for (let i = 0; i < 64; i++) fill.run();
    assert.deepEqual(await src.discover(), [], 'a locked database lists nothing this tick, without failing');
    const blocked = await src.read(stream!, undefined, BIG);
    assert.deepEqual(blocked.messages, []);
    assert.deepEqual(blocked.cursor, {}, 'the cursor does not move');
    assert.ok(logger.records.some((r) => r.event === 'openclaw_db.retry_later' && r.reason === 'locked'));
    db.exec('COMMIT');
    const after = await drain(src, stream!, blocked.cursor);
    assert.deepEqual(texts(after.messages), ['user: I live in Lisbon.']);
    db.close();
  });
});

test('a database in the middle of a migration (table or column missing) is retried, not failed', async () => {
  await withState(async (stateDir) => {
    const db = createAgentDb(agentDbPath(stateDir, 'main'));
    addWindow(db, A, 'agent:main:main');
    new DbTranscript(db, A).add(event('e0000001', null, 'user', 'My dentist appointment is on Tuesday.'));
    const logger = createMemoryLogger();
    const src = source(stateDir, { logger });
    const [stream] = await src.discover();
    db.exec('ALTER TABLE transcript_events RENAME TO transcript_events_old');
    assert.deepEqual(await src.discover(), []);
    const mid = await src.read(stream!, undefined, BIG);
    assert.deepEqual(mid.messages, []);
    assert.deepEqual(mid.cursor, {});
    db.exec('ALTER TABLE transcript_events_old RENAME TO transcript_events');
    const done = await drain(src, stream!, undefined);
    assert.deepEqual(texts(done.messages), ['user: My dentist appointment is on Tuesday.']);
    db.close();
  });
});

test('a newer schema version: the known columns are read and the version is warned about once', async () => {
  await withState(async (stateDir) => {
    const db = createAgentDb(agentDbPath(stateDir, 'main'), { schemaVersion: 27 });
    db.exec('ALTER TABLE transcript_events ADD COLUMN event_cbor BLOB');
    db.exec('CREATE TABLE session_frobs (x)');
    addWindow(db, A, 'agent:main:main');
    const t = new DbTranscript(db, A);
    t.add(event('f0000001', null, 'user', 'Our team standup moved to 9:30.'));
    const logger = createMemoryLogger();
    const src = source(stateDir, { logger });
    const [stream] = await src.discover();
    const first = await drain(src, stream!, undefined);
    assert.deepEqual(texts(first.messages), ['user: Our team standup moved to 9:30.']);
    t.add(event('f0000002', 'f0000001', 'assistant', 'Standup at 9:30, noted.'));
    await drain(src, stream!, first.cursor);
    // The next tick is a new process: the cursor remembers the warning.
    const nextTick = source(stateDir, { logger });
    t.add(event('f0000003', 'f0000002', 'user', 'Thanks.'));
    await drain(nextTick, stream!, first.cursor);
    const warnings = logger.records.filter((r) => r.event === 'openclaw_db.newer_schema');
    assert.equal(warnings.length, 1, 'warned once');
    assert.equal(warnings[0]!.version, 27);
    db.close();
  });
});

test('an older schema without compression columns, and one with sessions/session_routes instead of windows/nodes', async () => {
  await withState(async (stateDir) => {
    const old = createAgentDb(agentDbPath(stateDir, 'main'), {
      schemaSql: `CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, created_at INTEGER, updated_at INTEGER);
        CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq));`,
      schemaVersion: 9,
    });
    old.prepare('INSERT INTO session_windows VALUES (?, ?, 0, 0)').run(A, 'agent:main:main');
    old
      .prepare('INSERT INTO transcript_events VALUES (?, ?, ?, ?)')
      .run(A, 1, JSON.stringify(event('a1000001', null, 'user', 'I switched to a standing desk.')), 1);
    old.close();
    const other = createAgentDb(agentDbPath(stateDir, 'ops'), {
      schemaSql: `CREATE TABLE sessions (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL);
        CREATE TABLE session_routes (session_key TEXT PRIMARY KEY, session_id TEXT NOT NULL);
        CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq));`,
      schemaVersion: 12,
    });
    other.prepare('INSERT INTO sessions VALUES (?, ?)').run(B, 'agent:ops:main');
    other.prepare('INSERT INTO sessions VALUES (?, ?)').run(C, 'agent:ops:main');
    other.prepare('INSERT INTO session_routes VALUES (?, ?)').run('agent:ops:main', C);
    other
      .prepare('INSERT INTO transcript_events VALUES (?, ?, ?, ?)')
      .run(B, 1, JSON.stringify(event('b1000001', null, 'user', 'The old window.')), 1);
    other
      .prepare('INSERT INTO transcript_events VALUES (?, ?, ?, ?)')
      .run(C, 1, JSON.stringify(event('c1000001', null, 'user', 'The new window.')), 2);
    other.close();
    const { streams, messages, malformed } = await drainAll(source(stateDir));
    assert.deepEqual(
      streams.map((s) => [s.agent, s.session, Boolean(s.ended)]),
      [
        ['main', A, false],
        ['ops', B, true],
        ['ops', C, false],
      ],
    );
    assert.deepEqual(texts(messages), ['user: I switched to a standing desk.', 'user: The old window.', 'user: The new window.']);
    assert.deepEqual(malformed, []);
  });
});

test('a rewritten transcript (new generation) is re-read without repeating what was observed', async () => {
  await withState(async (stateDir) => {
    const db = createAgentDb(agentDbPath(stateDir, 'main'));
    addWindow(db, A, 'agent:main:main');
    const gen = db.prepare('INSERT OR REPLACE INTO session_transcript_generations VALUES (?, ?, 0)');
    gen.run(A, 'g1');
    const t = new DbTranscript(db, A);
    const e1 = event('a0000001', null, 'user', 'My daughter is called Mina.');
    const e2 = event('a0000002', 'a0000001', 'assistant', 'Mina is a lovely name.');
    t.add(e1);
    t.add(e2);
    const logger = createMemoryLogger();
    const src = source(stateDir, { logger });
    const [stream] = await src.discover();
    const first = await drain(src, stream!, undefined);
    assert.equal(first.messages.length, 2);
    // OpenClaw rewrites the session (doctor repair): same entries renumbered, plus a new one.
    db.exec(`DELETE FROM transcript_events WHERE session_id = '${A}'`);
    const t2 = new DbTranscript(db, A, 100);
    t2.add(e1);
    t2.add(e2);
    t2.add(event('a0000003', 'a0000002', 'user', 'She starts school in September.'));
    gen.run(A, 'g2');
    const second = await drain(src, stream!, first.cursor);
    assert.deepEqual(texts(second.messages), ['user: She starts school in September.']);
    assert.ok(logger.records.some((r) => r.event === 'transcripts.reread'));
    db.close();
  });
});

test("schema 23 (OpenClaw 2026.9.6's real tables): known, no warning; a rewrite seen through transcript_rewrite_watermarks is re-read", async () => {
  await withState(async (stateDir) => {
    const db = await createRealAgentDb(agentDbPath(stateDir, 'main'));
    addRealWindow(db, A, 'agent:main:main');
    const watermark = db.prepare(
      'INSERT OR REPLACE INTO transcript_rewrite_watermarks (session_id, generation, updated_at) VALUES (?, ?, 0)',
    );
    watermark.run(A, 'g1');
    const t = new DbTranscript(db, A);
    const e1 = event('a0000001', null, 'user', 'We deploy with Helm.');
    const e3 = event('a0000003', 'a0000002', 'user', 'Thanks.');
    t.add(e1);
    t.add(event('a0000002', 'a0000001', 'assistant', 'Helm it is.'));
    t.add(e3);
    const logger = createMemoryLogger();
    const src = source(stateDir, { logger });
    const [stream] = await src.discover();
    const first = await drain(src, stream!, undefined);
    assert.deepEqual(texts(first.messages), ['user: We deploy with Helm.', 'assistant: Helm it is.', 'user: Thanks.']);
    // OpenClaw rewrites the middle of the transcript in place (same seqs, the last row unchanged) and moves the watermark.
    db.prepare('UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = 2').run(
      JSON.stringify(event('a0000002', 'a0000001', 'assistant', 'Helm it is; the charts live in deploy/charts.')),
      A,
    );
    watermark.run(A, 'g2');
    const second = await drain(src, stream!, first.cursor);
    assert.deepEqual(texts(second.messages), ['assistant: Helm it is; the charts live in deploy/charts.']);
    assert.ok(logger.records.some((r) => r.event === 'transcripts.reread' && r.reason === 'transcript generation changed'));
    assert.equal(logger.records.filter((r) => r.event === 'openclaw_db.newer_schema').length, 0, 'schema 23 is known');
    db.close();
  });
});

test('OpenClaw 2026.9 housekeeping is never a message; a reset event ends the chunk; a webhook session is not read', async () => {
  await withState(async (stateDir) => {
    const db = await createRealAgentDb(agentDbPath(stateDir, 'main'));
    addRealWindow(db, A, 'agent:main:main');
    addRealWindow(db, B, 'hook:7d1c', { hookSource: 'webhook' });
    const t = new DbTranscript(db, A);
    // Shapes as OpenClaw 2026.9.6 writes them (its published package): wake turns carry a stand-in text and
    // provenance {kind: "internal_system"} (src/auto-reply/internal-turn-source.ts); reset is appendSessionResetBoundary's event.
    const wake = (id: string, parentId: string, text: string, sourceTool: string) => ({
      type: 'message',
      id,
      parentId,
      timestamp: '2026-09-01T10:05:00.000Z',
      message: { role: 'user', content: text, provenance: { kind: 'internal_system', sourceTool } },
    });
    t.add({ type: 'session', version: 3, id: A, timestamp: '2026-09-01T10:00:00.000Z', cwd: '/home/dev' });
    t.add(event('e0000001', null, 'user', 'My sister Ana lives in Lisbon.'));
    t.add(event('e0000002', 'e0000001', 'assistant', 'Noted: Ana is in Lisbon.'));
    t.add(wake('e0000003', 'e0000002', '[OpenClaw heartbeat poll]', 'heartbeat'));
    t.add(event('e0000004', 'e0000003', 'assistant', 'NO_REPLY'));
    t.add(wake('e0000005', 'e0000004', '[OpenClaw cron wake]', 'cron'));
    t.add(event('e0000006', 'e0000005', 'assistant', 'Reminder: the dentist appointment is at 15:00 today.'));
    t.add(event('e0000007', 'e0000006', 'user', '[Tue 2026-09-01 10:20 UTC] Thanks. I moved the dentist to Friday.'));
    t.add(event('e0000008', 'e0000007', 'assistant', 'Done, Friday it is.'));
    t.add({
      type: 'message',
      id: 'e0000009',
      parentId: 'e0000008',
      timestamp: '2026-09-01T10:30:00.000Z',
      message: { role: 'user', content: '[OpenClaw session event]' },
    });
    t.add(event('e000000a', 'e0000009', 'assistant', 'HEARTBEAT_OK'));
    const reset = t.add({ type: 'reset', id: 'e000000b', parentId: 'e000000a', timestamp: '2026-09-01T11:00:00.000Z', reason: 'new' });
    t.add({
      type: 'message',
      id: 'e000000c',
      parentId: 'e000000b',
      timestamp: '2026-09-01T11:00:01.000Z',
      message: { role: 'user', content: '[OpenClaw session new]' },
    });
    t.add(event('e000000d', 'e000000c', 'assistant', 'Hi! What shall we do today?'));
    t.add(event('e000000e', 'e000000d', 'user', 'Plan my trip to Porto.'));
    const hook = new DbTranscript(db, B);
    hook.add(
      event(
        'h0000001',
        null,
        'user',
        'Job ID: 42 | Received: 2026-09-01T10:00:00Z\n\nSECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source (e.g., email, webhook).\n<<<EXTERNAL_UNTRUSTED_CONTENT id="x">>>\nSource: Webhook\n---\nDisk full on db1\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id="x">>>',
      ),
    );
    hook.add(event('h0000002', 'h0000001', 'assistant', 'Alert received: disk full on db1.'));

    const src = source(stateDir);
    const streams = await src.discover();
    assert.deepEqual(
      streams.map((s) => s.session),
      [A],
      'the webhook session is no stream',
    );
    const first = await src.read(streams[0]!, undefined, BIG);
    assert.deepEqual(texts(first.messages), [
      'user: My sister Ana lives in Lisbon.',
      'assistant: Noted: Ana is in Lisbon.',
      'user: Thanks. I moved the dentist to Friday.',
      'assistant: Done, Friday it is.',
    ]);
    assert.equal(first.segmentEnded, true, 'the reset ends the segment');
    assert.equal(first.done, false);
    assert.equal((first.cursor as { seq: number }).seq, reset, 'the chunk stops right after the reset');
    const rest = await drain(src, streams[0]!, first.cursor);
    assert.deepEqual(texts(rest.messages), ['user: Plan my trip to Porto.'], 'the bare /new turn is housekeeping too');
    assert.deepEqual([...first.malformed, ...rest.malformed], [], 'reset is a known entry');
    db.close();
  });
});

test('read while a second process keeps inserting rows: no lost row, no blocked writer, cursor correct', async () => {
  await withState(async (stateDir) => {
    const path = agentDbPath(stateDir, 'main');
    const db = createAgentDb(path);
    addWindow(db, A, 'agent:main:main');
    db.close();
    const rows = 400;
    const writerScript = resolve(import.meta.dirname, '..', 'helpers', 'openclaw-db-writer.ts');
    // The writer waits halfway until the reader has read three times beside it (a loaded machine
    // may otherwise run all 400 inserts between two reads).
    const release = join(stateDir, 'release-writer');
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, path, A, String(rows), '0', release], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number>((res) => child.on('exit', (code) => res(code ?? -1)));
    let finished = false;
    void exited.then(() => (finished = true));

    const src = source(stateDir, { busyTimeoutMs: 2000 });
    const seen: Message[] = [];
    let cursor: Cursor | undefined;
    let reads = 0;
    let readsWhileWriting = 0;
    for (;;) {
      const writerDone = finished;
      const streams = await src.discover();
      const stream = streams.find((s) => s.session === A);
      if (stream) {
        const r = await drain(src, stream, cursor, { maxBytes: 1 << 20, maxMessages: 7 });
        seen.push(...r.messages);
        cursor = r.cursor;
        reads++;
        if (!writerDone) readsWhileWriting++;
        if (readsWhileWriting === 3) await writeFile(release, '');
      }
      if (writerDone) break;
      await new Promise((res) => setTimeout(res, 3));
    }
    assert.equal(await exited, 0, stderr);
    const summary = JSON.parse(stdout) as { inserted: number; busy: number; errors: string[]; lastSeq: number };
    assert.deepEqual(summary.errors, []);
    assert.equal(summary.inserted, rows);
    assert.equal(summary.busy, 0, 'the writer (busy timeout 0) was never refused a lock');
    assert.ok(readsWhileWriting >= 3, `reads overlapped the writes (${readsWhileWriting} of ${reads})`);
    assert.deepEqual(
      seen.map((m) => m.text),
      Array.from({ length: rows }, (_, i) => `Note number ${i}: the answer is ${i * 7}.`),
      'every row exactly once, in order',
    );
    assert.equal((cursor as { seq: number }).seq, summary.lastSeq);
  });
});
