/**
 * Throughput and memory of the OpenClaw file source and of secret masking.
 *   node --import tsx bench/openclaw-read.ts [megabytes=100]
 * Writes a synthetic pi v3 session into a temp dir (removed afterwards), reads it
 * in 4 MB chunks, and prints MB/s, messages/s and peak RSS.
 */
import { mkdtemp, mkdir, rm, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenClawFileSource } from '../lib/sources/openclaw-files.js';
import { maskSecrets } from '../lib/masking/masking.js';
import type { Cursor } from '../lib/core/types.js';

const megabytes = Number(process.argv[2] ?? 100);
const root = await mkdtemp(join(tmpdir(), 'ocm-bench-'));
try {
  const dir = join(root, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'bench.jsonl');
  const file = await open(path, 'w');
  await file.write(`${JSON.stringify({ type: 'session', version: 3, id: 'bench', timestamp: new Date(0).toISOString(), cwd: '/w' })}\n`);
  let written = 0;
  let n = 0;
  let parent: string | null = null;
  const output = 'x'.repeat(3000);
  while (written < megabytes * 1024 * 1024) {
    const lines: string[] = [];
    for (let k = 0; k < 200; k += 1, n += 1) {
      const id = n.toString(16).padStart(8, '0');
      const role = n % 3;
      const message =
        role === 0
          ? { role: 'user', content: `[Fri 2026-04-10 16:30 CEST] question ${n} about the deploy, token=abc${n}` }
          : role === 1
            ? {
                role: 'assistant',
                content: [
                  { type: 'thinking', thinking: 'hmm' },
                  { type: 'text', text: `answer ${n}` },
                  { type: 'toolCall', id: `c${n}`, name: 'bash', arguments: { command: 'ls' } },
                ],
                provider: 'anthropic',
                model: 'm',
              }
            : { role: 'toolResult', toolCallId: `c${n - 1}`, toolName: 'bash', content: [{ type: 'text', text: output }], isError: false };
      lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date(n * 1000).toISOString(), message }));
      parent = id;
    }
    const chunk = `${lines.join('\n')}\n`;
    await file.write(chunk);
    written += Buffer.byteLength(chunk);
  }
  await file.close();

  const source = createOpenClawFileSource({ stateDirs: [root], masking: {} });
  const [stream] = await source.discover();
  let cursor: Cursor | undefined;
  let messages = 0;
  let calls = 0;
  let peak = 0;
  const started = process.hrtime.bigint();
  for (;;) {
    const chunk = await source.read(stream!, cursor, { maxBytes: 4 * 1024 * 1024, maxMessages: 100_000 });
    messages += chunk.messages.length;
    cursor = chunk.cursor;
    calls += 1;
    peak = Math.max(peak, process.memoryUsage().rss);
    if (chunk.done) break;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const mb = written / 1024 / 1024;
  console.log(
    `read ${mb.toFixed(1)} MB, ${n} entries → ${messages} messages in ${calls} reads, ${seconds.toFixed(2)} s: ` +
      `${(mb / seconds).toFixed(1)} MB/s, ${Math.round(messages / seconds)} msg/s, peak RSS ` +
      `${(peak / 1024 / 1024).toFixed(0)} MB`,
  );

  const text = 'lorem ipsum dolor sit amet, password=hunter2 and sk-proj-abcdefghij0123456789 '.repeat(65_000);
  const t0 = process.hrtime.bigint();
  const masked = maskSecrets(text, { emails: true });
  const maskSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`maskSecrets: ${(text.length / 1024 / 1024).toFixed(1)} MB with ${masked.count} secrets in ${maskSeconds.toFixed(2)} s`);
} finally {
  await rm(root, { recursive: true, force: true });
}
