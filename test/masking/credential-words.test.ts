/**
 * Values after a credential word, through the built CLI with the offline Observer: a server token given as a
 * bare UUID and a login given as `name / password` after "remember my Etsy login?" stay out of the day files,
 * the index, active memory and the logs; the memory says the password was masked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { filesUnder } from '../helpers/files-under.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { withPasswordNote, PASSWORD_NOTE_EN, PASSWORD_NOTE_KO } from '../../lib/masking/password-note.js';

const PASSWORD = ['Glaze', '&Kiln', '2026!'].join('');
const TOKEN = ['9c4f1e2a', '7b3d', '4e8f', 'a1c6', '5d2e9b0f7a34'].join('-');

test('a request to remember a password gets a note that it was masked; other texts are left alone', () => {
  assert.equal(
    withPasswordNote('remember my Etsy login? helen / [REDACTED:password]'),
    `remember my Etsy login? helen / [REDACTED:password] (${PASSWORD_NOTE_EN})`,
  );
  assert.equal(
    withPasswordNote('etsy 로그인 기억해줘: helen / [REDACTED:password]'),
    `etsy 로그인 기억해줘: helen / [REDACTED:password] (${PASSWORD_NOTE_KO})`,
  );
  const once = withPasswordNote('please remember: my password is [REDACTED:password]');
  assert.equal(withPasswordNote(once), once, 'the note is added once');
  assert.equal(
    withPasswordNote('the server token is [REDACTED:credential]'),
    'the server token is [REDACTED:credential]',
    'no request to remember',
  );
  assert.equal(
    withPasswordNote('remember the key [REDACTED:openai-key]'),
    'remember the key [REDACTED:openai-key]',
    'a key format is not a password',
  );
});

test('observe → index → active memory: a bare UUID token and an Etsy `name / password` are masked everywhere, with the note', async () => {
  const { dir, cleanup } = await tempDir('ocm-credential-words-');
  try {
    const sessions = join(dir, 'openclaw', 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '55555555-0000-4000-8000-0000000000c1';
    const w = new PiSessionWriter(id, new Date('2026-03-02T09:00:00Z'), 2_000);
    let transcript = w.header();
    transcript += w.message({ role: 'user', text: `oh can you remember my Etsy login? I always forget it. helenpark.clay / ${PASSWORD}` });
    transcript += w.message({ role: 'assistant', text: "Sure, I'll keep your Etsy login." });
    transcript += w.message({ role: 'user', text: `postmark. I made an account, server token is ${TOKEN}` });
    transcript += w.message({ role: 'assistant', text: 'Great, I will wire Postmark in.' });
    await writeFile(join(sessions, `${id}.jsonl`), transcript);
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    state_dirs: [${JSON.stringify(join(dir, 'openclaw'))}]\n  openclaw_db: {enabled: false}\n`,
    );
    const run = await runCli(['run', '--home', home]);
    assert.equal(run.code, 0, run.stderr);
    const search = await runCli(['search', 'Etsy login', '--home', home]);
    assert.equal(search.code, 0, search.stderr);

    const core = PASSWORD.slice(0, -1);
    for (const file of await filesUnder(home)) {
      if (file.endsWith('config.yaml')) continue;
      const bytes = (await readFile(file)).toString('latin1');
      assert.ok(!bytes.includes(core), `the password is in clear in ${file}`);
      assert.ok(!bytes.includes(TOKEN), `the token is in clear in ${file}`);
    }
    // Dated in the past: the tier step may have moved the day to the archive already.
    const days = (await filesUnder(home)).filter((f) => /\d{4}-\d{2}-\d{2}\.md$/.test(f));
    const text = (await Promise.all(days.map((f) => readFile(f, 'utf8')))).join('\n');
    assert.match(text, /helenpark\.clay \/ \[REDACTED:password\]/, `the user name is kept, the password masked:\n${text}`);
    assert.ok(text.includes(PASSWORD_NOTE_EN), `the memory says the password was masked:\n${text}`);
    assert.match(text, /server token is \[REDACTED:credential\]/);
  } finally {
    await cleanup();
  }
});
