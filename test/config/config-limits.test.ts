/**
 * A hostile or broken config.yaml and a read-only home (docs/trust.md): every
 * case ends at once with a short, clear error and the documented exit code —
 * no 4 GB alias expansion, no 50 MB error text, no raw EISDIR/EROFS, no hang.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { runOnRefusingDisk } from '../helpers/refusing-disk.js';

/** Nine levels of nine aliases each: 9^10 ≈ 3.5 billion values once expanded. */
function aliasBomb(): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push('observer:', '  user_name: *a9', '');
  return lines.join('\n');
}

async function homeWithConfig(dir: string, text: string): Promise<string> {
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.yaml'), text);
  return home;
}

test('a YAML alias bomb in config.yaml is refused at once (exit 2), not expanded', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = await homeWithConfig(dir, aliasBomb());
    for (const args of [['config', 'validate'], ['observe'], ['config', 'set', 'timezone', 'UTC']]) {
      const r = await runCli([...args, '--home', home], { timeoutMs: 30_000 });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /expands to more than 100,000 values \(YAML aliases/);
      assert.match(r.stderr, /→ /);
    }
  } finally {
    await cleanup();
  }
});

test('a config.yaml over 1 MB is not read, and a huge value is not echoed back in the error', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const big = await homeWithConfig(join(dir, 'big'), `observer:\n  user_name: ${'x'.repeat(5 * 1024 * 1024)}\n`);
    const r = await runCli(['config', 'validate', '--home', big]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /is 5\.0 MB; a config is a few KB, and at most 1\.0 MB is read/);
    assert.ok(r.stderr.length < 1000, `short error (${r.stderr.length} characters)`);
    // Under the size limit, a wrong value of 900 KB: named, not repeated.
    const value = await homeWithConfig(join(dir, 'value'), `active_memory:\n  budget_tokens: "${'y'.repeat(900 * 1024)}"\n`);
    const v = await runCli(['config', 'validate', '--home', value]);
    assert.equal(v.code, 2, v.stderr.slice(0, 500));
    assert.match(v.stderr, /active_memory\.budget_tokens: Invalid type/);
    assert.match(v.stderr, /… \([\d,]+ more characters\)/);
    assert.ok(v.stderr.length < 1000, `short error (${v.stderr.length} characters)`);
  } finally {
    await cleanup();
  }
});

test('config.yaml as a folder or a FIFO: a clear message (exit 2), no raw EISDIR, no hang', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const folder = join(dir, 'folder');
    await mkdir(join(folder, 'config.yaml'), { recursive: true });
    const r = await runCli(['status', '--home', folder]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /config\.yaml is a folder, not a config file/);
    assert.doesNotMatch(r.stderr, /EISDIR/);
    const fifo = join(dir, 'fifo');
    await mkdir(fifo);
    execFileSync('mkfifo', [join(fifo, 'config.yaml')]);
    const f = await runCli(['config', 'validate', '--home', fifo], { timeoutMs: 20_000 });
    assert.equal(f.code, 2, f.stderr);
    assert.match(f.stderr, /config\.yaml is not a regular file/);
  } finally {
    await cleanup();
  }
});

/** The CLI with `home` bind-mounted read-only; undefined where that is not possible. */
function runOnReadOnlyHome(home: string, args: string[]): ReturnType<typeof runOnRefusingDisk> {
  return runOnRefusingDisk('read-only', home, home, args);
}

test('a read-only home: every job exits 4 with a hint, not a raw EROFS', async (t) => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'home');
    const first = await runCli(['observe', '--home', home]);
    assert.equal(first.code, 0, first.stderr);
    const probe = await runOnReadOnlyHome(home, ['--version']).catch(() => undefined);
    if (probe?.code !== 0) {
      t.skip('no mount namespace here (unshare not allowed)');
      return;
    }
    for (const job of [
      ['observe'],
      ['run'],
      ['index'],
      ['reflect', '--force'],
      ['tier'],
      ['forget', 'o-0000000000', '--yes'],
      ['sync'],
      ['archive', '--older-than', '1', '--to', 'warm'],
      ['config', 'set', 'timezone', 'UTC'],
      ['start'],
    ]) {
      const r = (await runOnReadOnlyHome(home, job))!;
      assert.equal(r.code, 4, `${job.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /Read-only file system: could not/, job.join(' '));
      assert.match(r.stderr, /→ The file system is mounted read-only/, job.join(' '));
      assert.doesNotMatch(r.stderr, /EROFS/, job.join(' '));
    }
  } finally {
    await cleanup();
  }
});
