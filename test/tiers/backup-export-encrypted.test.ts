/**
 * What a person keeps outside the home, encrypted: `export --encrypt` (read back by the real age CLI
 * and by parseExport) and `backup` of the whole home into one age file that `restore` reads back into a
 * new home byte for byte. A wrong key restores nothing; a home that holds memory is never overwritten.
 * The CLI as a child process, real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, tempDir } from '../helpers/cli.js';
import { hashTree, makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { newKeyFile } from '../helpers/encrypted-sync.js';
import { parseExport } from '../../lib/tiers/export.js';
import { exists } from '../../lib/platform/home.js';

const TODAY = '2026-06-15';

async function home(dir: string, name: string, keyFile: string) {
  const paths = await newHome(join(dir, name));
  const vault = join(dir, name, 'vault');
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers:\n  vault_path: ` +
      `${JSON.stringify(vault)}\nsync:\n  key_file: ${JSON.stringify(keyFile)}\n`,
    { mode: 0o600 },
  );
  await writeFile(paths.env, 'OPENAI_API_KEY=sk-backup-secret-1234567890\n', { mode: 0o600 });
  return { paths, vault };
}

async function ageCli(): Promise<boolean> {
  return execa('age', ['--version'], { reject: false }).then(
    (r) => r.exitCode === 0,
    () => false,
  );
}

test('export --encrypt writes age ciphertext that import, age -d and parseExport read back', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const key = await newKeyFile(join(dir, 'k.key'));
  const { paths } = await home(dir, 'a', key);
  await writeHot(paths, [makeObservation(1, TODAY, { text: 'Blood type is O negative.' }), makeObservation(2, TODAY)]);
  const out = join(dir, 'memory.json.age');
  const r = await runCli(['export', '--encrypt', '--output', out, '--home', paths.root]);
  assert.equal(r.code, 0, r.stderr);
  const sealed = await readFile(out);
  assert.match(sealed.subarray(0, 22).toString('latin1'), /^age-encryption\.org\/v1/);
  assert.ok(!sealed.toString('latin1').includes('O negative') && !sealed.toString('latin1').includes(TODAY), 'ciphertext only');
  const audit = await readFile(paths.audit, 'utf8');
  assert.match(audit, /"action":"export".*"encrypted":true/);
  // import reads it back into another home (decrypted with the same key).
  const other = await home(dir, 'b', key);
  const imported = await runCli(['import', out, '--home', other.paths.root]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /Imported 2 of 2 observation\(s\)/);
  assert.match(await readFile(join(other.paths.memory, `${TODAY}.md`), 'utf8'), /Blood type is O negative\./);
  if (!(await ageCli())) return t.diagnostic('the age CLI is not installed (apt-get install age): the decryption with it is skipped');
  const plain = (await execa('age', ['-d', '-i', key, out])).stdout;
  const records = parseExport(plain, 'json');
  assert.deepEqual(records.map((x) => x.text).sort(), ['Blood type is O negative.', makeObservation(2, TODAY).text].sort());
});

test('backup puts the whole home and its cold tier in one age file; restore brings it back byte for byte, and refuses a wrong key or a home with memory', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const key = await newKeyFile(join(dir, 'k.key'));
  const a = await home(dir, 'a', key);
  await writeHot(a.paths, [
    makeObservation(1, TODAY, { text: 'Therapy on Tuesdays with Dr. Okafor.' }),
    makeObservation(2, TODAY, { agent: 'work' }),
  ]);
  await writeHot(a.paths, [makeObservation(3, '2026-01-02')], 'warm');
  await writeFile(join(a.paths.reflections, 'week.md'), '# Week\n\n- A long reflection.\n', { mode: 0o600 });
  await writeFile(a.paths.audit, '{"action":"export"}\n', { mode: 0o600 });
  await writeFile(join(a.paths.root, 'active_memory.md'), '# Active memory\n', { mode: 0o600 });
  await mkdir(join(a.vault, 'OC-Memory', '2025'), { recursive: true });
  await writeFile(join(a.vault, 'OC-Memory', '2025', '2025-01-10.md'), '# 2025-01-10\n\n- cold line\n', { mode: 0o600 });
  const backup = join(dir, 'home.tar.age');
  const made = await runCli(['backup', '--output', backup, '--home', a.paths.root]);
  assert.equal(made.code, 0, made.stderr);
  const sealed = await readFile(backup, 'latin1');
  for (const s of ['Okafor', 'sk-backup-secret', TODAY, 'cold line']) assert.ok(!sealed.includes(s), `no "${s}" in the backup file`);

  // Restored into a new home, with the vault in a new place.
  const target = join(dir, 'restored');
  const newVault = join(dir, 'restored-vault');
  const wrongKey = await newKeyFile(join(dir, 'wrong.key'));
  const wrong = await runCli(['restore', backup, '--key-file', wrongKey, '--home', target, '--vault', newVault]);
  assert.equal(wrong.code, 4, wrong.stderr);
  assert.match(wrong.stderr, /cannot be decrypted with this key/);
  assert.equal(await exists(join(target, 'memory')), false, 'a wrong key restores nothing');
  const restored = await runCli(['restore', backup, '--key-file', key, '--home', target, '--vault', newVault]);
  assert.equal(restored.code, 0, restored.stderr);
  const skip = (rel: string) => rel.startsWith('logs') || rel.startsWith('.ocm/config-cache') || rel.startsWith('.ocm/home');
  assert.deepEqual(
    await hashTree([target, join(newVault, 'OC-Memory')], { skip }),
    await hashTree([a.paths.root, join(a.vault, 'OC-Memory')], { skip }),
  );

  // A second restore into the now-full home is refused and changes nothing.
  const before = await hashTree([target]);
  const again = await runCli(['restore', backup, '--key-file', key, '--home', target, '--vault', newVault]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already holds memory; a restore never overwrites a home/);
  assert.deepEqual(await hashTree([target]), before);

  if (!(await ageCli())) return t.diagnostic('the age CLI is not installed: the tar check is skipped');
  const listing = (await execa('sh', ['-c', `age -d -i '${key}' '${backup}' | tar t`])).stdout;
  assert.match(listing, /^oc-memory-backup\/home\/memory\/2026-06-15\.md$/m, 'age -d | tar reads it without OC-Memory');
});
