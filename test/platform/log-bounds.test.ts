/**
 * Logs hold no raw transcript content and stay bounded (docs/trust.md): a
 * garbage transcript with secrets in it is skipped with a position, never a
 * quote, in a few log lines; a log that grows anyway is rotated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileLogger } from '../../lib/platform/log.js';
import { runCli, tempDir } from '../helpers/cli.js';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

test('malformed transcript lines: the log quotes none of them, and 20,000 of them take a few log lines', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const user = join(dir, 'user');
    const sessions = join(user, '.openclaw', 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const garbage = [
      JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-09-01T10:00:00Z', cwd: '/' }),
      SECRET, // short: V8 quotes all of it
      `${SECRET} and more text after the key`, // long: V8 quotes the first 10 characters
      `{"password": "${SECRET}", oops`,
      ...Array.from({ length: 20_000 }, (_, i) => `garbage ${i} ${SECRET.slice(0, 12)}`),
    ];
    await writeFile(join(sessions, 's1.jsonl'), `${garbage.join('\n')}\n`);
    await mkdir(join(user, 'logs'));
    await writeFile(join(user, 'logs', 'bot.jsonl'), `${SECRET}\n{"role": "user", "text": "${SECRET}"\n`);
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.yaml'),
      ['timezone: UTC', 'sources:', '  generic:', '    - name: bot', '      path: ~/logs/*.jsonl', ''].join('\n'),
    );
    const r = await runCli(['observe', '--json', '--home', home], { env: { HOME: user, USERPROFILE: user } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { malformed: number }).malformed, 20_005);
    const logs = join(home, 'logs');
    let text = '';
    for (const name of await readdir(logs)) text += await readFile(join(logs, name), 'utf8');
    for (const fragment of [SECRET.slice(0, 10), 'sk_live', 'password', 'garbage'])
      assert.ok(!text.includes(fragment), `the log does not hold "${fragment}"`);
    assert.match(text, /"reason":"invalid JSON at position \d+"/);
    assert.match(text, /"event":"transcript\.malformed_more".*"count":19998/);
    assert.ok(text.length < 20_000, `the log stays small (${text.length} characters for 20,005 malformed lines)`);
  } finally {
    await cleanup();
  }
});

test('a log past its size limit is rotated to <name>.log.1: bounded on disk, newest records kept', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const maxBytes = 20_000;
    const logger = createFileLogger({ dir, name: 'observer', maxBytes });
    for (let i = 0; i < 3000; i++) logger.log(i % 100 === 99 ? 'error' : 'warn', 'test.record', { i, filler: 'x'.repeat(40) });
    await logger.flush();
    const files = (await readdir(dir)).sort();
    assert.deepEqual(files, ['errors.log', 'observer.log', 'observer.log.1']);
    for (const name of files) assert.ok((await stat(join(dir, name))).size <= maxBytes, `${name} ≤ ${maxBytes} bytes`);
    const current = (await readFile(join(dir, 'observer.log'), 'utf8')).trim().split('\n');
    assert.equal((JSON.parse(current.at(-1)!) as { i: number }).i, 2999, 'the newest record is in the current file');
    const previous = (await readFile(join(dir, 'observer.log.1'), 'utf8')).trim().split('\n');
    assert.equal(
      (JSON.parse(previous.at(-1)!) as { i: number }).i + 1,
      (JSON.parse(current[0]!) as { i: number }).i,
      'no record lost at the rotation',
    );
    // A later process continues the same file, counting what is there.
    const later = createFileLogger({ dir, name: 'observer', maxBytes });
    for (let i = 3000; i < 3400; i++) later.log('warn', 'test.record', { i, filler: 'x'.repeat(40) });
    await later.flush();
    assert.ok((await stat(join(dir, 'observer.log'))).size <= maxBytes);
  } finally {
    await cleanup();
  }
});

test('schedule.log, which cron appends to, is rotated by the next run past the size limit', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'home');
    const first = await runCli(['run', '--home', home]);
    assert.equal(first.code, 0, first.stderr);
    const log = join(home, 'logs', 'schedule.log');
    await writeFile(log, `${'a tick that failed, again\n'.repeat(250_000)}`); // 6.5 MB of cron output
    const r = await runCli(['run', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await stat(`${log}.1`)).size > 6_000_000, 'the old output moved to schedule.log.1');
    assert.equal(
      await stat(log).then(
        () => true,
        () => false,
      ),
      false,
      'a new schedule.log starts with the next cron line',
    );
  } finally {
    await cleanup();
  }
});
