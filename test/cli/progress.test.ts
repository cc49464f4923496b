/** The ETA of a long job's progress line (observe backlog, index files and embeddings, reflect): from the share done and the time so far; index's live line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { etaText, formatDuration } from '../../scripts/progress.js';
import { CLI, runCli, tempDir } from '../helpers/cli.js';

test('an ETA from the share done and the time so far, rounded as people say it; none while too little is known', () => {
  assert.equal(etaText(0.25, 0, 60_000), ' · ~3 min left', 'a quarter in one minute: three more');
  assert.equal(etaText(0.5, 0, 20_000), ' · ~20 s left');
  assert.equal(etaText(0.01, 0, 60_000), '', 'under 2 % done: no guess');
  assert.equal(etaText(0.5, 0, 1_000), '', 'under 2 s: no guess');
  assert.equal(etaText(1, 0, 60_000), '', 'done: nothing left to say');
  assert.equal(formatDuration(2 * 3600_000 + 5 * 60_000), '2 h 5 min');
  assert.equal(formatDuration(45_000), '45 s');
});

test('index --rebuild: on a terminal each file of the total is shown live; otherwise one summary line', async () => {
  const { dir, cleanup } = await tempDir('ocm-index-progress-');
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory'), { recursive: true });
    await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
    const days = 12;
    for (let d = 1; d <= days; d++) {
      const date = `2026-03-${String(d).padStart(2, '0')}`;
      await writeFile(
        join(home, 'memory', `${date}.md`),
        `---\ndate: ${date}\n---\n# ${date}\n\n- 🟡 09:00 [fact] Fact number ${d} about the deploy. ^o-${String(d).padStart(10, '0')}\n`,
      );
    }
    const env = { OCM_HOME: undefined, CI: undefined, HOME: dir, TERM: 'xterm', COLUMNS: '200' };
    // A terminal: `script` runs the CLI on a pseudo-terminal and keeps every byte it wrote.
    const command = `${process.execPath} ${CLI} index --rebuild --home ${home}`;
    const tty = await execa('script', ['-qfec', command, '/dev/null'], { env, extendEnv: true, reject: false, timeout: 120_000 });
    assert.equal(tty.exitCode, 0, tty.stdout);
    const screen = String(tty.stdout);
    assert.match(screen, new RegExp(`Indexing file 1 / ${days} · memory/2026-03-01\\.md`), 'the first file, with the total');
    assert.match(screen, new RegExp(`Indexed ${days} files`), 'then the summary');
    // Not a terminal (cron, a pipe): only the summary line, nothing on stderr.
    const plain = await runCli(['index', '--rebuild', '--home', home], { env: { HOME: dir } });
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(plain.stdout.trim().split('\n').length, 1, plain.stdout);
    assert.match(plain.stdout, new RegExp(`^Indexed ${days} files`));
    assert.equal(plain.stderr, '');
  } finally {
    await cleanup();
  }
});
