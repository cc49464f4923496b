import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextSteady, replaceFileSeeing } from '../../lib/platform/atomic-file.js';
import { tempDir } from '../helpers/cli.js';

test('a file being replaced is read as the new file, not as missing, in the instant its writer has it aside', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = join(dir, '2026-02-12.md');
    await writeFile(path, 'old\n');
    let reading: Promise<string> | undefined;
    await replaceFileSeeing(path, 'new\n', {
      onStep: async (step) => {
        if (step !== 'moved-aside') return;
        // The path is absent here: a plain read fails, as an editor's or a search's did.
        await assert.rejects(readFile(path, 'utf8'), { code: 'ENOENT' });
        assert.ok(
          (await readdir(dir)).some((n) => n.endsWith('.aside')),
          'the writer holds an aside copy',
        );
        reading = readTextSteady(path);
      },
    });
    assert.ok(reading, 'the read was started while the file was aside');
    assert.equal(await reading, 'new\n');
  } finally {
    await cleanup();
  }
});

test('a missing file is missing: with no aside copy, or only one a dead writer left, the read fails with ENOENT', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = join(dir, '2026-02-12.md');
    await assert.rejects(readTextSteady(path), { code: 'ENOENT' });
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(child.stdout);
    await writeFile(join(dir, `.2026-02-12.md.${deadPid}.0123abcd.aside`), 'left by a killed run\n');
    // A live writer's copy would be waited for and then read; a dead one's is not the file.
    await assert.rejects(readTextSteady(path), { code: 'ENOENT' });
  } finally {
    await cleanup();
  }
});
