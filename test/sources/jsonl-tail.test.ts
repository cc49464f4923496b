import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { iterateLineBatches, iterateLines, LineQueue, type LineReadOptions, type LineRecord } from '../../lib/sources/jsonl-tail.js';

/** What the reader must report for `bytes`, worked out line by line the slow, obvious way. */
function expectedLines(bytes: Buffer, options: LineReadOptions): LineRecord[] {
  const out: LineRecord[] = [];
  let start = options.offset;
  let lineNo = options.lineNo;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1 && !options.includeUnterminated) break;
    const stop = nl === -1 ? bytes.length : nl;
    const end = nl === -1 ? bytes.length : nl + 1;
    const record: LineRecord = { lineNo: ++lineNo, start, end, bytes: stop - start };
    if (stop - start > options.maxLineBytes) record.problem = 'too-long';
    else {
      let line = bytes.subarray(start, stop);
      if (line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      try {
        record.text = new TextDecoder('utf-8', { fatal: true }).decode(line);
      } catch {
        record.problem = 'invalid-utf8';
      }
    }
    out.push(record);
    start = end;
  }
  return out;
}

test('line reader: ASCII, UTF-8, BOMs, CRLF, invalid bytes, lines across buffers and too-long lines, from any line start', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-lines-'));
  try {
    let x = 3;
    const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
    const kinds = [
      () => Buffer.from(`{"plain":"${'a'.repeat(Math.floor(rand() * 300))}"}`),
      () => Buffer.from(`{"utf8":"déjà vu 😀 ${'ü'.repeat(Math.floor(rand() * 3000))}"}`),
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"bom":1}')]),
      () => Buffer.from('{"crlf":1}\r'),
      () => Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), // invalid UTF-8
      () => Buffer.from([0xe2, 0x82]), // a character cut short
      () => Buffer.alloc(0),
      () => Buffer.from(`{"long":"${'b'.repeat(4000 + Math.floor(rand() * 9000))}"}`), // spans buffers; some exceed the limit
    ];
    const parts: Buffer[] = [];
    for (let i = 0; i < 400; i++) parts.push(kinds[Math.floor(rand() * kinds.length)]!(), Buffer.from('\n'));
    parts.push(Buffer.from('{"unterminated":"é"}'));
    const bytes = Buffer.concat(parts);
    const path = join(dir, 'lines.jsonl');
    await writeFile(path, bytes);
    const lineStarts = [0, ...expectedLines(bytes, { offset: 0, lineNo: 0, maxLineBytes: Infinity }).map((r) => r.end)];
    const handle = await open(path, 'r');
    try {
      for (const includeUnterminated of [false, true]) {
        for (const skip of [0, 1, 37, 200]) {
          const options: LineReadOptions = {
            offset: lineStarts[skip]!,
            lineNo: skip,
            maxLineBytes: 10_000,
            bufferBytes: 4096,
            includeUnterminated,
          };
          const expected = expectedLines(bytes, options);
          const batches: LineRecord[][] = [];
          for await (const batch of iterateLineBatches(handle, options)) batches.push(batch);
          assert.ok(
            batches.every((b) => b.length > 0),
            'no empty batch',
          );
          assert.deepEqual(batches.flat(), expected, `offset line ${skip}, unterminated ${includeUnterminated}`);
          const single: LineRecord[] = [];
          for await (const record of iterateLines(handle, options)) single.push(record);
          assert.deepEqual(single, expected);
          // LineQueue: lines read before (a previous read's look-ahead) first, then the file from where they end.
          const held = expected.slice(0, 5).map((r) => ({ ...r }));
          const from = held.length > 0 ? { offset: held[held.length - 1]!.end, lineNo: held[held.length - 1]!.lineNo } : {};
          const queue = new LineQueue(handle, { ...options, ...from }, held);
          const queued: LineRecord[] = [];
          for (let r = queue.take() ?? (await queue.next()); r !== undefined; r = queue.take() ?? (await queue.next())) queued.push(r);
          await queue.close();
          assert.deepEqual(queued, expected, `queue: offset line ${skip}, unterminated ${includeUnterminated}`);
        }
      }
    } finally {
      await handle.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('one read ends at the size the file had when it began: lines appended meanwhile wait for the next read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ocm-tail-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'grow.jsonl');
  const line = (i: number) => `{"n":${i},"pad":"${'x'.repeat(200)}"}\n`;
  await writeFile(path, Array.from({ length: 60 }, (_, i) => line(i)).join(''));
  const handle = await open(path, 'r');
  t.after(() => handle.close());
  const seen: number[] = [];
  let appended = 0;
  for await (const batch of iterateLineBatches(handle, { offset: 0, lineNo: 0, maxLineBytes: 10_000, bufferBytes: 4096 })) {
    for (const r of batch) seen.push((JSON.parse(r.text!) as { n: number }).n);
    // A writer that keeps appending while the reader works (each batch brings more).
    if (appended < 20) {
      await appendFile(path, Array.from({ length: 10 }, (_, i) => line(1000 + appended * 10 + i)).join(''));
      appended++;
    }
  }
  assert.ok(appended > 1, 'the file grew during the read');
  assert.deepEqual(
    seen,
    Array.from({ length: 60 }, (_, i) => i),
  );
});
