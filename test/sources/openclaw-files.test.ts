import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, readFile, readdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { tempDirUntilExit } from '../helpers/cli.js';
import { permissionChecks, withPermissionChecks } from '../helpers/permission-checks.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createOpenClawFileSource,
  defaultOpenClawStateDirs,
  defaultPiSessionsDir,
  parseOpenClawFileName,
  type OpenClawFileSourceOptions,
} from '../../lib/sources/openclaw-files.js';
import { OcmError } from '../../lib/core/errors.js';
import type { Cursor, MalformedRecord, Message, ReadLimits, SourceStream, TranscriptSource } from '../../lib/core/types.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw');
const BIG: ReadLimits = { maxBytes: 64 * 1024 * 1024, maxMessages: 1_000_000 };

async function fixture(name: string): Promise<string> {
  return readFile(join(FIXTURES, name), 'utf8');
}

async function tempState(): Promise<string> {
  return tempDirUntilExit('ocm-openclaw-');
}

async function put(state: string, agent: string, name: string, content: string | Buffer): Promise<string> {
  const dir = join(state, 'agents', agent, 'sessions');
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

function source(state: string, extra: Partial<OpenClawFileSourceOptions> = {}): TranscriptSource {
  return createOpenClawFileSource({ stateDirs: [state], masking: {}, ...extra });
}

interface ReadAll {
  messages: Message[];
  malformed: MalformedRecord[];
  cursor: Cursor | undefined;
  calls: number;
}

async function readAll(
  src: TranscriptSource,
  stream: SourceStream,
  cursor?: Cursor,
  limits: ReadLimits | (() => ReadLimits) = BIG,
): Promise<ReadAll> {
  const out: ReadAll = { messages: [], malformed: [], cursor, calls: 0 };
  for (;;) {
    const chunk = await src.read(stream, out.cursor, typeof limits === 'function' ? limits() : limits);
    out.calls += 1;
    assert.ok(chunk.messages.length <= (typeof limits === 'function' ? Infinity : limits.maxMessages));
    out.messages.push(...chunk.messages);
    out.malformed.push(...chunk.malformed);
    out.cursor = chunk.cursor;
    if (chunk.done) return out;
    assert.ok(out.calls < 100_000, 'reader makes progress');
  }
}

async function only(src: TranscriptSource): Promise<SourceStream> {
  const streams = await src.discover();
  assert.equal(streams.length, 1, JSON.stringify(streams));
  return streams[0]!;
}

const texts = (messages: Message[]) => messages.map((m) => `${m.role}: ${m.text}`);

/** Deterministic PRNG (mulberry32) for property-style tests. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// Tiny builders for generated sessions.

const HEADER = (id: string) => `${JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-04-10T14:00:00.000Z', cwd: '/w' })}\n`;

function line(id: string, parentId: string | null, role: 'user' | 'assistant', text: string, second = 0): string {
  const message =
    role === 'user'
      ? { role, content: text }
      : { role, content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop' };
  const timestamp = new Date(Date.UTC(2026, 3, 10, 14, 0, second)).toISOString();
  return `${JSON.stringify({ type: 'message', id, parentId, timestamp, message })}\n`;
}

/** Conversations n..m-1 as user/assistant pairs chained after `parent`; returns text and last id. */
function conversations(from: number, to: number, parent: string | null, tag = 'c'): { text: string; last: string | null } {
  let text = '';
  let last = parent;
  for (let n = from; n < to; n += 1) {
    const u = `${tag}${n.toString(16).padStart(7, '0')}`.slice(-8);
    const a = `${(n + 0x8000000).toString(16).padStart(8, '0')}`.slice(-8);
    text += line(u, last, 'user', `${tag} question ${n}`, n % 60);
    text += line(a, u, 'assistant', `${tag} answer ${n}`, n % 60);
    last = a;
  }
  return { text, last };
}

// ---------------------------------------------------------------------------

test('basic session: header, transport noise, tools, copies and non-message entries (hand-written fixture)', async () => {
  const state = await tempState();
  await put(state, 'main', '0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4.jsonl', await fixture('basic-session.jsonl'));
  const src = source(state);
  const stream = await only(src);
  assert.equal(stream.key, 'openclaw:main:0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4');
  assert.equal(stream.ended, undefined);
  const result = await readAll(src, stream);
  assert.deepEqual(texts(result.messages), [
    'user: We use Postgres 16 for the shop database, not MySQL.',
    'assistant: Got it, Postgres 16. Let me check the connection config.\n[tool call: read_file path=src/db.ts]',
    "tool: [tool result read_file: export const db = new Pool({ connectionString: 'postgres://[REDACTED:url-credentials]@localhost:5432/shop', max: 10, });]",
    'assistant: The pool points at Postgres on localhost. I\'ll run the tests.\n[tool call: bash command="npm test -- --runInBand" timeout=120]',
    'tool: [tool error bash: FAIL src/db.test.ts connection refused (ECONNREFUSED 127.0.0.1:5432)]',
    'assistant: Tests fail: Postgres is not running locally. Start it with `brew services start postgresql@16`.',
    'user: Here is the error screenshot. My key is [REDACTED:openai-key] and please remember it.\n[image]',
    'assistant: I will not store keys. The screenshot shows ECONNREFUSED.',
    'tool: [bash: brew services start postgresql@16 → exit 0]',
    'user: Thanks, tests pass now. Deploy on Friday.',
    'assistant: Noted: deploy on Friday.',
  ]);
  assert.deepEqual(
    result.messages.map((m) => m.entryId),
    ['10000003', '10000004', '10000005', '10000006', '10000007', '10000008', '1000000d', '1000000e', '10000010', '10000013', '10000015'],
  );
  assert.equal(result.messages[0]?.time, '2026-04-10T14:30:00.000Z');
  assert.equal(result.messages[2]?.toolName, 'read_file');
  for (const m of result.messages) {
    assert.equal(m.source, 'openclaw');
    assert.equal(m.agent, 'main');
    assert.equal(m.session, '0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4');
  }
  assert.deepEqual(result.malformed, []);
  // Nothing new: a second read returns nothing.
  const again = await src.read(stream, result.cursor, BIG);
  assert.deepEqual(again.messages, []);
  assert.equal(again.done, true);
});

test('branched session read whole: abandoned branch skipped, re-appended copies give one message each', async () => {
  const state = await tempState();
  await put(state, 'main', 'br.jsonl', await fixture('branched-session.jsonl'));
  const src = source(state);
  const result = await readAll(src, await only(src));
  assert.deepEqual(texts(result.messages), [
    'user: Refactor the auth module to use JWT.',
    'assistant: [tool call: read_file path=src/auth/index.ts]',
    'tool: [tool result read_file: [tool output trimmed: 1,900 chars]]',
    'assistant: The auth module keeps server-side sessions in Redis.',
    'user: Switch it to JWT with RS256.',
    'assistant: Switched to JWT with RS256; sessions in Redis are gone.',
    'user: Good. Keep the refresh token lifetime at 7 days.',
  ]);
  assert.deepEqual(
    result.messages.map((m) => m.entryId),
    ['20000008', '20000009', '2000000a', '2000000b', '2000000c', '2000000d', '2000000e'],
  );
});

test('branched session read live: what was read before the branch switch stays, the copies are not repeated', async () => {
  const state = await tempState();
  const lines = (await fixture('branched-session.jsonl')).split(/(?<=\n)/);
  const path = await put(state, 'main', 'br.jsonl', lines.slice(0, 8).join(''));
  const src = source(state);
  const stream = await only(src);
  const first = await readAll(src, stream);
  assert.equal(first.messages.length, 6);
  assert.equal(first.messages[5]?.text, 'Partial answer that was abandoned when the request failed');
  await appendFile(path, lines.slice(8).join(''));
  const second = await readAll(src, stream, first.cursor);
  assert.deepEqual(texts(second.messages), [
    'assistant: Switched to JWT with RS256; sessions in Redis are gone.',
    'user: Good. Keep the refresh token lifetime at 7 days.',
  ]);
});

test('/reset rename mid-stream: the unread tail of the renamed file is read once, then the new session', async () => {
  for (const rotation of ['reset', 'deleted'] as const) {
    const state = await tempState();
    const a = conversations(0, 2, null, 'a');
    const path = await put(state, 'main', 'sessA.jsonl', HEADER('sessA') + a.text);
    const src = source(state);
    const streamBefore = await only(src);
    const first = await readAll(src, streamBefore);
    assert.equal(first.messages.length, 4);
    const more = conversations(2, 3, a.last, 'a');
    await appendFile(path, more.text);
    await rename(path, `${path}.${rotation}.2026-04-10T15-00-00.000Z`);
    await put(state, 'main', 'sessB.jsonl', HEADER('sessB') + conversations(0, 1, null, 'b').text);

    const streams = await src.discover();
    const rotated = streams.find((s) => s.session === 'sessA');
    const fresh = streams.find((s) => s.session === 'sessB');
    assert.ok(rotated && fresh, rotation);
    assert.equal(rotated.key, streamBefore.key, 'same stream key after the rename');
    assert.equal(rotated.ended, true);
    assert.ok(rotated.path.endsWith(`.jsonl.${rotation}.2026-04-10T15-00-00.000Z`));
    const tail = await readAll(src, rotated, first.cursor);
    assert.deepEqual(texts(tail.messages), ['user: a question 2', 'assistant: a answer 2'], rotation);
    assert.deepEqual((await readAll(src, rotated, tail.cursor)).messages, []);
    // The stream found before the rename (old path) resolves to the renamed file by inode, too.
    assert.deepEqual(texts((await readAll(src, streamBefore, first.cursor)).messages), ['user: a question 2', 'assistant: a answer 2']);
    // The finished rotated file no longer carries dedupe memory in its cursor.
    assert.equal((tail.cursor as { recent?: string }).recent, '');
    assert.deepEqual(texts((await readAll(src, fresh)).messages), ['user: b question 0', 'assistant: b answer 0']);
  }
});

test('a rotated file whose last line lacks a newline is read to its end; an active one waits', async () => {
  const state = await tempState();
  const body = HEADER('s') + conversations(0, 1, null).text;
  await put(state, 'main', 's.jsonl.reset.2026-04-10T15-00-00.000Z', body.slice(0, -1));
  await put(state, 'main', 't.jsonl', body.slice(0, -1));
  const src = source(state);
  const streams = await src.discover();
  const reset = streams.find((s) => s.session === 's')!;
  const active = streams.find((s) => s.session === 't')!;
  assert.equal((await readAll(src, reset)).messages.length, 2);
  assert.equal((await readAll(src, active)).messages.length, 1);
});

test('.bak copies are ignored when the session has its file; a lone .bak is read; checkpoints never', async () => {
  const state = await tempState();
  const body = HEADER('s') + conversations(0, 2, null).text;
  await put(state, 'main', 's.jsonl', body);
  await put(state, 'main', 's.jsonl.bak.2026-04-09T10-00-00.000Z', body);
  await put(state, 'main', 's.checkpoint.7d1c0a52-1111-4222-8333-944455556666.jsonl', body);
  await put(state, 'main', 'lone.jsonl.bak.2026-04-09T10-00-00.000Z', HEADER('lone') + conversations(0, 1, null, 'l').text);
  await put(state, 'main', 'sessions.json', '{"agent:main:main":{"sessionId":"s"}}');
  const src = source(state);
  const streams = (await src.discover()).sort((x, y) => x.session.localeCompare(y.session));
  assert.deepEqual(
    streams.map((s) => [s.session, s.path.split('/').pop(), s.ended === true]),
    [
      ['lone', 'lone.jsonl.bak.2026-04-09T10-00-00.000Z', true],
      ['s', 's.jsonl', false],
    ],
  );
  const s = streams.find((x) => x.session === 's')!;
  assert.equal((await readAll(src, s)).messages.length, 4);
  assert.equal((await readAll(src, streams.find((x) => x.session === 'lone')!)).messages.length, 2);
  assert.equal(parseOpenClawFileName('s.checkpoint.abc.jsonl'), null);
  assert.deepEqual(parseOpenClawFileName('s-topic-42.jsonl'), { session: 's-topic-42', role: 'active' });
});

test('a session with an old rotated file and a current file of the same id: both read once, in order, no repeats', async () => {
  const state = await tempState();
  const old = conversations(0, 2, null, 'o');
  await put(state, 'main', 's.jsonl.reset.2026-04-01T10-00-00.000Z', HEADER('s') + old.text);
  // The current file starts with a copy of the old content, then new conversation.
  await put(state, 'main', 's.jsonl', HEADER('s') + old.text + conversations(2, 3, old.last, 'o').text);
  const src = source(state);
  const stream = await only(src);
  assert.ok(stream.path.endsWith('/s.jsonl'));
  const result = await readAll(src, stream, undefined, { maxBytes: 300, maxMessages: 2 });
  assert.deepEqual(
    result.messages.map((m) => m.text),
    ['o question 0', 'o answer 0', 'o question 1', 'o answer 1', 'o question 2', 'o answer 2'],
  );
});

test('truncation (compaction) and whole-file rewrites re-read without duplicates', async () => {
  const state = await tempState();
  const all = conversations(0, 6, null);
  const path = await put(state, 'main', 's.jsonl', HEADER('s') + all.text);
  const src = source(state);
  const stream = await only(src);
  const first = await readAll(src, stream);
  assert.equal(first.messages.length, 12);
  const inode = (await stat(path)).ino;

  // 1. In place, smaller: the file keeps conversations 4..5 only, plus a new one.
  const kept = all.text
    .split(/(?<=\n)/)
    .slice(8)
    .join('');
  const added = conversations(6, 7, all.last);
  await writeFile(path, HEADER('s') + kept + added.text);
  assert.equal((await stat(path)).ino, inode, 'same inode (truncated in place)');
  const second = await readAll(src, stream, first.cursor);
  assert.deepEqual(
    second.messages.map((m) => m.text),
    ['c question 6', 'c answer 6'],
  );

  // 2. Replaced by a new file (write + rename), header migrated, everything kept, one more conversation.
  const migrated = `${JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-04-10T14:00:00.000Z', cwd: '/w', migratedFrom: 2 })}\n`;
  const more = conversations(7, 8, added.last);
  await writeFile(`${path}.tmp-rewrite`, migrated + all.text + added.text + more.text);
  await rename(`${path}.tmp-rewrite`, path);
  assert.notEqual((await stat(path)).ino, inode, 'new inode (replaced)');
  const third = await readAll(src, stream, second.cursor);
  assert.deepEqual(
    third.messages.map((m) => m.text),
    ['c question 7', 'c answer 7'],
  );

  // 3. Rewritten in place and longer, head changed: still nothing repeated.
  const last = conversations(8, 9, more.last);
  await writeFile(path, HEADER('s-renamed') + all.text + added.text + more.text + last.text);
  const fourth = await readAll(src, stream, third.cursor);
  assert.deepEqual(
    fourth.messages.map((m) => m.text),
    ['c question 8', 'c answer 8'],
  );
  assert.equal((fourth.cursor as { rewinds?: number }).rewinds, 3);
});

test('a torn last line is consumed only once it is complete', async () => {
  const state = await tempState();
  const body = HEADER('s') + conversations(0, 2, null).text;
  const cut = body.length - 40;
  const path = await put(state, 'main', 's.jsonl', body.slice(0, cut));
  const src = source(state);
  const stream = await only(src);
  const first = await readAll(src, stream);
  assert.deepEqual(
    first.messages.map((m) => m.text),
    ['c question 0', 'c answer 0', 'c question 1'],
  );
  assert.deepEqual(first.malformed, []);
  const stillTorn = await readAll(src, stream, first.cursor);
  assert.deepEqual(stillTorn.messages, []);
  await appendFile(path, body.slice(cut));
  const second = await readAll(src, stream, stillTorn.cursor);
  assert.deepEqual(
    second.messages.map((m) => m.text),
    ['c answer 1'],
  );
  assert.deepEqual((await readAll(src, stream, second.cursor)).messages, []);
});

function malformedCorpus(): Buffer {
  const good1 = line('a0000001', null, 'user', 'before the garbage');
  const torn = `${line('a0000002', 'a0000001', 'assistant', 'torn in the middle').slice(0, 60)}\n`;
  const garbage = Buffer.from(Array.from({ length: 3000 }, (_, k) => ((k * 7919 + 13) % 255) + 1).map((b) => (b === 0x0a ? 0x0b : b)));
  const badUtf8 = Buffer.concat([
    Buffer.from(line('a0000003', 'a0000001', 'user', 'cafe').slice(0, -3)),
    Buffer.from([0xc3, 0x28, 0xff]),
    Buffer.from('"}}\n'),
  ]);
  const huge = line('a0000004', 'a0000001', 'user', 'h'.repeat(5 * 1024 * 1024));
  const good2 = line('a0000005', 'a0000001', 'user', 'after the garbage');
  return Buffer.concat([
    Buffer.from(HEADER('m')),
    Buffer.from(good1),
    Buffer.from(torn),
    garbage,
    Buffer.from('\n'),
    badUtf8,
    Buffer.from(huge),
    Buffer.from(good2),
  ]);
}

test('malformed lines (torn JSON, binary garbage, invalid UTF-8, a 5 MB line) are counted and skipped', async () => {
  const state = await tempState();
  await put(state, 'main', 'm.jsonl', malformedCorpus());
  await put(state, 'main', 'torn.jsonl', await fixture('torn-middle.jsonl'));
  const src = source(state);
  const streams = await src.discover();
  const m = await readAll(src, streams.find((s) => s.session === 'm')!);
  assert.deepEqual(
    m.messages.map((x) => x.text),
    ['before the garbage', 'after the garbage'],
  );
  assert.deepEqual(
    m.malformed.map((r) => [
      r.line,
      r.reason
        .split(':')[0]!
        .replace(/line of \d+ bytes.*/, 'too long')
        .replace(/^invalid JSON.*/, 'invalid JSON'),
    ]),
    [
      [3, 'invalid JSON'],
      [4, 'invalid UTF-8'], // binary garbage
      [5, 'invalid UTF-8'],
      [6, 'too long'],
    ],
  );
  for (const r of m.malformed) assert.ok(r.path.endsWith('m.jsonl'));
  const t = await readAll(src, streams.find((s) => s.session === 'torn')!);
  assert.deepEqual(
    t.messages.map((x) => x.text),
    ['First question about the backup schedule.', 'Backups run nightly at 02:00 UTC.', 'Move them to 03:00.'],
  );
  assert.deepEqual(
    t.malformed.map((r) => r.line),
    [3, 5, 6],
  );
});

test("OpenClaw's housekeeping in a 2026.2.x session: heartbeat, cron and hook turns, silent replies, OC-Memory's own block and tool are never messages", async () => {
  const state = await tempState();
  await put(state, 'main', '5e2a1b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b.jsonl', await fixture('housekeeping-2026.2.jsonl'));
  const src = source(state);
  const { messages, malformed } = await readAll(src, await only(src));
  assert.deepEqual(texts(messages), [
    'user: We deploy the shop with Helm charts.',
    'assistant: Got it: Helm for the shop.',
    'user: Which database should the invoices service use?',
    // "PostgreSQL, as you prefer." only says back what OC-Memory recalled (its block and its search tool).
    'user: Sounds good. Also, my manager is Dana.',
    'user: Thanks! The invoices service goes live on March 3.',
    'assistant: Noted: live on March 3.',
  ]);
  assert.deepEqual(malformed, []);
});

test('incremental reads with random limits equal one full read (property-style, many seeds)', async () => {
  const state = await tempState();
  await put(state, 'main', 'basic.jsonl', await fixture('basic-session.jsonl'));
  await put(state, 'main', 'branched.jsonl', await fixture('branched-session.jsonl'));
  await put(state, 'main', 'torn.jsonl', await fixture('torn-middle.jsonl'));
  await put(state, 'main', 'housekeeping.jsonl', await fixture('housekeeping-2026.2.jsonl'));
  await put(state, 'main', 'gen.jsonl', HEADER('gen') + conversations(0, 40, null).text);
  // A branch switch in the middle of a longer generated file.
  const left = conversations(0, 10, null, 'l');
  const right = conversations(10, 20, 'l0000003', 'r');
  await put(state, 'main', 'fork.jsonl', HEADER('fork') + left.text + right.text);
  for (const lookAhead of [undefined, { entries: 3, bytes: 900 }]) {
    const src = source(state, lookAhead ? { lookAhead } : {});
    for (const stream of await src.discover()) {
      const full = await readAll(src, stream);
      for (let seed = 1; seed <= 12; seed += 1) {
        const random = rng(seed * 7919 + stream.session.length);
        const limits = () => ({ maxBytes: 1 + Math.floor(random() * 2500), maxMessages: 1 + Math.floor(random() * 4) });
        const pieces = await readAll(src, stream, undefined, limits);
        assert.deepEqual(pieces.messages, full.messages, `${stream.session} seed ${seed}`);
        assert.deepEqual(pieces.malformed, full.malformed, `${stream.session} seed ${seed}`);
        assert.ok(pieces.calls >= full.calls);
      }
    }
  }
});

test('lines looked ahead at are re-read when the file changed there in place (same inode, size and head)', async () => {
  const state = await tempState();
  const path = await put(state, 'main', 'inplace.jsonl', HEADER('inplace') + conversations(0, 60, null).text);
  const src = source(state);
  const stream = await only(src);
  const first = await src.read(stream, undefined, { maxBytes: BIG.maxBytes, maxMessages: 50 });
  assert.equal(first.messages.length, 50);
  assert.equal(first.done, false);
  // Rewrite a line after the cursor, inside the look-ahead of the first read, without changing the size.
  const body = await readFile(path, 'utf8');
  const at = body.indexOf('c question 30');
  assert.ok(at > (first.cursor as { offset: number }).offset);
  const handle = await open(path, 'r+');
  await handle.write('C QUESTION 30', at);
  await handle.close();
  const rest = await readAll(src, stream, first.cursor);
  assert.equal(rest.messages.length, 70);
  assert.ok(rest.messages.some((m) => m.text === 'C QUESTION 30'));
  assert.ok(!rest.messages.some((m) => m.text === 'c question 30'));
});

test('Telegram topic files are their own sessions; two agents are kept apart; the agent filter works', async () => {
  const state = await tempState();
  await put(state, 'main', 'S.jsonl', HEADER('S') + conversations(0, 1, null, 'm').text);
  await put(state, 'main', 'S-topic-42.jsonl', HEADER('S') + conversations(0, 1, null, 't').text);
  await put(state, 'work', 'W.jsonl', HEADER('W') + conversations(0, 1, null, 'w').text);
  const src = source(state);
  const streams = await src.discover();
  assert.deepEqual(streams.map((s) => s.key).sort(), ['openclaw:main:S', 'openclaw:main:S-topic-42', 'openclaw:work:W']);
  for (const stream of streams) {
    const { messages } = await readAll(src, stream);
    assert.equal(messages.length, 2);
    for (const m of messages) {
      assert.equal(m.agent, stream.agent);
      assert.equal(m.session, stream.session);
    }
  }
  const topic = streams.find((s) => s.session === 'S-topic-42')!;
  assert.equal((await readAll(src, topic)).messages[0]?.text, 't question 0');
  const onlyWork = source(state, { agents: ['work'] });
  assert.deepEqual(
    (await onlyWork.discover()).map((s) => s.key),
    ['openclaw:work:W'],
  );
});

test('pi sessions: ~/.pi/agent/sessions/--<cwd>--/<ts>_<uuid>.jsonl, agent "pi", session = uuid', async () => {
  const root = await tempState();
  const dir = join(root, 'sessions', '--home-jin-projects-shop--');
  await mkdir(dir, { recursive: true });
  const uuid = '0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4';
  await writeFile(join(dir, `2026-04-10T14-29-58-000Z_${uuid}.jsonl`), await fixture('basic-session.jsonl'));
  const src = createOpenClawFileSource({ stateDirs: [], kind: 'pi', piSessionsDir: join(root, 'sessions'), masking: {} });
  assert.equal(src.kind, 'pi');
  const stream = await only(src);
  assert.deepEqual([stream.key, stream.agent, stream.session, stream.kind], [`pi:pi:${uuid}`, 'pi', uuid, 'pi']);
  const { messages } = await readAll(src, stream);
  assert.equal(messages.length, 11);
  assert.ok(messages.every((m) => m.source === 'pi' && m.agent === 'pi'));
  assert.equal(defaultPiSessionsDir({}, '/home/u'), '/home/u/.pi/agent/sessions');
  assert.equal(defaultPiSessionsDir({ PI_CODING_AGENT_DIR: '~/pi' }, '/home/u'), '/home/u/pi/sessions');
  // pi's own order: the session-dir variable, then settings.json's sessionDir, then <agent dir>/sessions.
  const settings = (dir: string) => (path: string) =>
    path === '/home/u/.pi/agent/settings.json' ? JSON.stringify({ sessionDir: dir }) : undefined;
  assert.equal(
    defaultPiSessionsDir({ PI_CODING_AGENT_SESSION_DIR: '~/pi-sessions' }, '/home/u', settings('/elsewhere')),
    '/home/u/pi-sessions',
  );
  assert.equal(defaultPiSessionsDir({}, '/home/u', settings('~/flat')), '/home/u/flat');
  assert.equal(
    defaultPiSessionsDir({}, '/home/u', () => '{not json'),
    '/home/u/.pi/agent/sessions',
  );
});

test('pi sessions in a folder set by PI_CODING_AGENT_SESSION_DIR / --session-dir are flat: found beside the per-cwd folders (a real pi 0.73 session)', async () => {
  const root = await tempState();
  const name = '2026-11-26T10-40-56-657Z_01a21771-b14e-76bd-aed9-d16de0835c17.jsonl';
  await writeFile(join(root, name), await readFile(join(FIXTURES, '..', 'pi', name)));
  const nested = join(root, '--home-jin--');
  await mkdir(nested, { recursive: true });
  await writeFile(
    join(nested, `2026-04-10T14-29-58-000Z_0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4.jsonl`),
    await fixture('basic-session.jsonl'),
  );
  const src = createOpenClawFileSource({ stateDirs: [], kind: 'pi', piSessionsDir: root, masking: {} });
  const streams = await src.discover();
  assert.deepEqual(streams.map((s) => s.session).sort(), ['01a21771-b14e-76bd-aed9-d16de0835c17', '0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4']);
  const flat = streams.find((s) => s.session.startsWith('01a21771'))!;
  assert.deepEqual(texts((await readAll(src, flat)).messages), [
    'user: Our staging database runs PostgreSQL 16; check it.',
    'assistant: [tool call: bash command="echo hi"]',
    'tool: [tool result bash: hi]',
    'assistant: The staging database runs PostgreSQL 16.',
  ]);
});

test("pi with OC-Memory's extension (a real pi 0.73 session): the hidden memory block, the oc_memory_search calls and results, and the reply that only says the recalled memory back are never observed", async () => {
  const root = await tempState();
  const name = '2026-11-26T13-15-50-194Z_01a217ff-8030-73ab-beef-fee57865c5d4.jsonl';
  await writeFile(join(root, name), await readFile(join(FIXTURES, '..', 'pi', name)));
  const src = createOpenClawFileSource({ stateDirs: [], kind: 'pi', piSessionsDir: root, masking: {} });
  const [stream] = await src.discover();
  // The extension's context is a custom_message (customType "oc-memory"); the reply "You like PostgreSQL 16; staging is db-stage-7." restates it and the two search results.
  const whole = texts((await readAll(src, stream!)).messages);
  assert.deepEqual(whole, ['user: Which database do I like for the billing service?']);
  // Read one entry at a time (a cursor per entry): what was recalled survives the cursor.
  assert.deepEqual(texts((await readAll(src, stream!, undefined, { maxBytes: 1, maxMessages: 1 })).messages), whole);
  // The same reply with nothing recalled before it is the agent's own words, and is read.
  const lines = (await readFile(join(root, name), 'utf8'))
    .split('\n')
    .filter((l) => l && !/"customType":"oc-memory"|"toolName":"oc_memory_search"/.test(l));
  await writeFile(join(root, name), `${lines.join('\n')}\n`);
  assert.deepEqual(texts((await readAll(src, stream!)).messages), [
    'user: Which database do I like for the billing service?',
    'assistant: You like PostgreSQL 16; staging is db-stage-7.',
  ]);
});

test('default state dirs: $OPENCLAW_STATE_DIR wins, else the existing ones; a symlinked dir is read once', async () => {
  assert.deepEqual(
    defaultOpenClawStateDirs({ OPENCLAW_STATE_DIR: '~/oc' }, '/home/u', () => true),
    ['/home/u/oc'],
  );
  assert.deepEqual(
    defaultOpenClawStateDirs({}, '/home/u', (p) => p.endsWith('.clawdbot')),
    ['/home/u/.clawdbot'],
  );
  assert.deepEqual(
    defaultOpenClawStateDirs({}, '/home/u', () => false),
    [],
  );
  const home = await tempState();
  const real = join(home, '.openclaw');
  await put(real, 'main', 's.jsonl', HEADER('s') + conversations(0, 1, null).text);
  await symlink(real, join(home, '.clawdbot'));
  const dirs = defaultOpenClawStateDirs({}, home);
  assert.deepEqual(dirs, [real, join(home, '.clawdbot')]);
  const src = createOpenClawFileSource({ stateDirs: dirs, masking: {} });
  assert.equal((await src.discover()).length, 1);
});

test('masking options reach every message (emails, extra patterns)', async () => {
  const state = await tempState();
  await put(state, 'main', 's.jsonl', HEADER('s') + line('a0000001', null, 'user', 'mail jin@example.com about ACME-123456'));
  const src = source(state, { masking: { emails: true, extraPatterns: [/ACME-\d{6}/g] } });
  const { messages } = await readAll(src, await only(src));
  assert.equal(messages[0]?.text, 'mail [REDACTED:email] about [REDACTED:custom]');
});

test('reading never modifies transcripts', async () => {
  const state = await tempState();
  await put(state, 'main', 'a.jsonl', await fixture('basic-session.jsonl'));
  await put(state, 'main', 'b.jsonl.reset.2026-04-10T15-00-00.000Z', await fixture('branched-session.jsonl'));
  await put(state, 'main', 'm.jsonl', malformedCorpus());
  const dir = join(state, 'agents', 'main', 'sessions');
  const snapshot = async () => {
    const out: Record<string, string> = {};
    for (const name of (await readdir(dir)).sort()) {
      const st = await stat(join(dir, name));
      out[name] = `${createHash('sha256')
        .update(await readFile(join(dir, name)))
        .digest('hex')} ${st.mtimeMs} ${st.mode}`;
    }
    return out;
  };
  const before = await snapshot();
  const src = source(state);
  for (const stream of await src.discover()) await readAll(src, stream, undefined, { maxBytes: 700, maxMessages: 2 });
  assert.deepEqual(await snapshot(), before);
});

test('rotation at scale: 100 conversations, /reset, 50 more in the new file: all 150 read exactly once across repeated reads', async () => {
  const state = await tempState();
  const first = conversations(0, 60, null, 'x');
  const path = await put(state, 'main', 'old.jsonl', HEADER('old') + first.text);
  const src = source(state);
  const cursors = new Map<string, Cursor>();
  const seen = new Map<string, number>();
  const random = rng(42);
  const tick = async (rounds: number) => {
    for (let round = 0; round < rounds; round += 1) {
      for (const stream of await src.discover()) {
        const chunk = await src.read(stream, cursors.get(stream.key), {
          maxBytes: 200 + Math.floor(random() * 4000),
          maxMessages: 1 + Math.floor(random() * 30),
        });
        for (const m of chunk.messages) seen.set(m.text, (seen.get(m.text) ?? 0) + 1);
        cursors.set(stream.key, chunk.cursor);
      }
    }
  };
  await tick(2); // part of the file read
  await appendFile(path, conversations(60, 100, first.last, 'x').text);
  await tick(1);
  await rename(path, `${path}.reset.2026-04-10T15-00-00.000Z`);
  await put(state, 'main', 'new.jsonl', HEADER('new') + conversations(100, 150, null, 'x').text);
  await tick(60);
  const expected = new Map<string, number>();
  for (let n = 0; n < 150; n += 1) {
    expected.set(`x question ${n}`, 1);
    expected.set(`x answer ${n}`, 1);
  }
  assert.deepEqual(new Map([...seen].sort()), new Map([...expected].sort()));
});

test('an unreadable transcript is a PERMISSION_DENIED error with a hint', async (t) => {
  const checks = await permissionChecks();
  if (!checks.ok) return t.skip(`cannot run: ${checks.reason}`);
  const state = await tempState();
  const path = await put(state, 'main', 's.jsonl', HEADER('s') + conversations(0, 1, null).text);
  const { chmod } = await import('node:fs/promises');
  await chmod(path, 0o000);
  try {
    if (process.getuid?.() !== 0) {
      const src = source(state);
      await assert.rejects(src.read(await only(src), undefined, BIG), (error: unknown) => {
        assert.ok(error instanceof OcmError);
        assert.equal(error.code, 'PERMISSION_DENIED');
        assert.match(error.hint ?? '', /read access/);
        return true;
      });
      return;
    }
    // Root reads anything: read in a child process without root's permission bypass (test/helpers/permission-checks.ts),
    // which reaches the checkout wherever it lives.
    const lib = new URL('../../lib/sources/openclaw-files.ts', import.meta.url).pathname;
    const script = `import { createOpenClawFileSource } from ${JSON.stringify(lib)};
const src = createOpenClawFileSource({ stateDirs: [${JSON.stringify(state)}], masking: {} });
const [stream] = await src.discover();
try { await src.read(stream, undefined, { maxBytes: 1e6, maxMessages: 1e6 }); console.log(JSON.stringify({ ok: true })); }
catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, hint: e.hint })); }`;
    const r = await withPermissionChecks(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      timeout: 120_000,
    });
    const out = JSON.parse(String(r.stdout).trim().split('\n').pop() ?? '{}');
    assert.equal(out.code, 'PERMISSION_DENIED', String(r.stderr));
    assert.match(out.hint ?? '', /read access/);
  } finally {
    await chmod(path, 0o600);
  }
});
