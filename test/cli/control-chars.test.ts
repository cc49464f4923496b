/**
 * Terminal escape sequences and control bytes: stripped where transcript messages are normalised (nothing
 * raw in the day files), and escaped on the terminal way out of `search` and `get` for a file a user or
 * another tool wrote them into (`--json` stays valid JSON holding the same text).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { filesUnder } from '../helpers/files-under.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';

const ESC = '\u001b';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const HOSTILE = `the build ${ESC}[2J${ESC}[H${ESC}]0;pwned\u0007runs on \u0000Fridays ${ESC}[8mhidden words${ESC}[0m and \u009b2J C1`;

test('observe: escape sequences and control bytes in a transcript never reach the day files', async () => {
  const { dir, cleanup } = await tempDir('ocm-control-in-');
  try {
    const sessions = join(dir, 'openclaw', 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '55555555-0000-4000-8000-0000000000d1';
    const w = new PiSessionWriter(id, new Date('2026-03-02T09:00:00Z'), 2_000);
    let transcript = w.header();
    transcript += w.message({ role: 'user', text: `Remember: ${HOSTILE}.` });
    transcript += w.toolExchange(
      'bash',
      { command: 'npm test' },
      `${ESC}[32m✔ 12 passing${ESC}[0m\r\n${ESC}[31m✖ 1 failing${ESC}[0m\u0007`,
    );
    await writeFile(join(sessions, `${id}.jsonl`), transcript);
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(join(dir, 'openclaw'))}]\n  openclaw_db: {enabled: false}\n`,
    );
    const r = await runCli(['observe', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    const days = (await filesUnder(join(home, 'memory'))).filter((f) => f.endsWith('.md'));
    assert.ok(days.length > 0, 'a day file was written');
    const text = (await Promise.all(days.map((f) => readFile(f, 'utf8')))).join('\n');
    assert.match(text, /runs on Fridays/);
    assert.match(text, /hidden words/, 'text hidden from the terminal is shown as text');
    assert.doesNotMatch(text, RAW_CONTROL, JSON.stringify(text));
    assert.doesNotMatch(text, /\[2J|\]0;pwned/, 'whole sequences removed, not just the escape byte');
  } finally {
    await cleanup();
  }
});

test('search and get print control characters of a hand-edited day file escaped; --json is valid JSON with the same text', async () => {
  const { dir, cleanup } = await tempDir('ocm-control-out-');
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
    const id = 'o-c0c0c0c0c0';
    await writeFile(join(home, 'memory', '2026-03-02.md'), `# 2026-03-02\n\n- 🔴 09:00 [fact] ${HOSTILE} ^${id}\n`);

    const human = await runCli(['search', 'Fridays', '--home', home]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(id));
    assert.doesNotMatch(human.stdout, RAW_CONTROL, JSON.stringify(human.stdout));
    assert.match(human.stdout, /\\x1b\[2J/, 'shown escaped');

    const json = await runCli(['search', 'Fridays', '--home', home, '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout, RAW_CONTROL);
    const parsed = JSON.parse(json.stdout) as { results: Array<{ id: string; snippet: string }> };
    assert.ok(parsed.results[0]!.snippet.includes(`${ESC}[8m`), 'the JSON value holds the text as it is');

    for (const target of [id, 'memory/2026-03-02.md']) {
      const got = await runCli(['get', target, '--home', home]);
      assert.equal(got.code, 0, got.stderr);
      assert.match(got.stdout, /Fridays/);
      assert.doesNotMatch(got.stdout, RAW_CONTROL, `get ${target}: ${JSON.stringify(got.stdout)}`);
      const gotJson = await runCli(['get', target, '--home', home, '--json']);
      assert.doesNotMatch(gotJson.stdout, RAW_CONTROL);
      assert.ok((JSON.parse(gotJson.stdout) as { text: string }).text.includes('\u009b2J'), `get ${target} --json keeps the text`);
    }
  } finally {
    await cleanup();
  }
});
