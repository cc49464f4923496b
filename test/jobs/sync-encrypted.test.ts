/**
 * Encrypted sync (sync.encrypt): real Git (a bare repository in a temp folder is the remote), real
 * files, the CLI as a child process. What leaves the machine is checked the way an attacker holding the
 * remote would look at it: every object of the repository (`git cat-file --batch-all-objects`).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { tempDir } from '../helpers/cli.js';
import { idsByTier, makeObservation, writeHot } from '../helpers/tier-home.js';
import {
  bareRemote,
  encryptedDevice,
  leakedInto,
  newKeyFile,
  remoteBlob,
  resealRemoteEndingWith,
  syncedState,
  type Device,
} from '../helpers/encrypted-sync.js';
import { crashAtSteps } from '../helpers/kill-loop.js';
import { addDays } from '../../lib/tiers/age.js';
import { mergeTexts } from '../../lib/jobs/sync/plaintext-merge.js';

const TODAY = '2026-06-15';
const AGENT = 'hermione';

async function workspace(t: TestContext): Promise<{ dir: string; remote: string; key: string }> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const remote = await bareRemote(dir);
  const key = await newKeyFile(join(dir, 'sync.key'));
  return { dir, remote, key };
}

/** A home with every kind of synced file: hot days of two agents, a warm day, a reflection, the audit log, a cold note. */
async function fillHome(d: Device) {
  const observations = [
    makeObservation(1, TODAY, { text: 'User takes metformin every morning for diabetes.' }),
    makeObservation(2, addDays(TODAY, -1), { agent: AGENT, text: 'Sister Margot lives in Lyon with two kids.' }),
    makeObservation(3, TODAY, { agent: AGENT, text: 'Salary negotiation with Initech set for Friday.' }),
  ];
  await writeHot(d.paths, observations);
  const warm = makeObservation(4, addDays(TODAY, -120), { text: 'Mortgage refinanced at four percent with Acme Bank.' });
  await writeHot(d.paths, [warm], 'warm');
  await writeFile(join(d.paths.reflections, '2026-06-W24.md'), '# Week 24\n\n- The user worries about the Lisbon trip budget.\n', {
    mode: 0o600,
  });
  await mkdir(d.paths.machine, { recursive: true });
  await writeFile(d.paths.audit, `{"time":"${TODAY}T10:00:00.000Z","action":"export","format":"json","counts":{"observations":3}}\n`, {
    mode: 0o600,
  });
  const cold = join(d.vault, 'OC-Memory', '2025', '2025-01-10.md');
  await mkdir(join(d.vault, 'OC-Memory', '2025'), { recursive: true });
  await writeFile(
    cold,
    '---\ndate: 2025-01-10\ntier: cold\nagent: main\nobservations: 1\n---\n# 2025-01-10\n\n- 🔴 09:15 [fact] The allergy is to penicillin. ^o-0c0c0c0c0c\n',
    { mode: 0o600 },
  );
  return {
    secrets: [...observations, warm]
      .map((o) => o.text)
      .concat([
        'Lisbon trip',
        'penicillin',
        AGENT,
        TODAY,
        addDays(TODAY, -1),
        addDays(TODAY, -120),
        '2025-01-10',
        'W24',
        'sk-secret-never-synced',
      ]),
    ids: [...observations, warm].map((o) => o.id),
  };
}

async function ok(d: Device, args: string[] = [], env: Record<string, string> = {}) {
  const r = await d.sync(['--json', ...args], env);
  assert.equal(r.code, 0, `${d.name}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as {
    encrypted: {
      written: string[];
      merged: string[];
      conflicts: string[];
      files: number;
      encrypted: number;
      pushed: boolean;
      rotated: boolean;
    };
  };
}

async function ageCli(): Promise<boolean> {
  return execa('age', ['--version'], { reject: false }).then(
    (r) => r.exitCode === 0,
    () => false,
  );
}

test('after an encrypted sync no object of the remote holds a text, agent name or date; a second home with the key gets every file byte for byte; the age CLI decrypts it', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  const fixture = await fillHome(a);
  const first = await ok(a);
  assert.equal(first.encrypted.pushed, true);
  assert.equal(first.encrypted.files, 7);

  assert.deepEqual(await leakedInto(remote, fixture.secrets), [], 'nothing of the memory in any blob, tree or commit');
  const names = (await execa('git', ['ls-tree', '-r', '--name-only', 'main'], { cwd: remote })).stdout.split('\n');
  assert.deepEqual(
    names.filter((n) => !/^(README\.md|index\.age|files\/[0-9a-f]{32}\.age)$/.test(n)),
    [],
    'hashed names only',
  );
  const log = (await execa('git', ['log', '--format=%an <%ae> %s', 'main'], { cwd: remote })).stdout;
  assert.doesNotMatch(log, new RegExp((await import('node:os')).hostname()), 'no host name in the commits');

  // A fresh home with the same key and remote gets the same memory.
  const b = await encryptedDevice(dir, 'b', remote, { keyFile: key });
  const restored = await ok(b);
  assert.equal(restored.encrypted.written.length, 7);
  assert.deepEqual(await syncedState(b), await syncedState(a));
  assert.ok(Object.keys(await syncedState(a)).some((k) => k.includes('audit.log')));

  // A nothing-new sync pushes nothing and re-encrypts nothing.
  const idle = await ok(a);
  assert.equal(idle.encrypted.pushed, false);
  assert.equal(idle.encrypted.encrypted, 0);

  if (!(await ageCli())) {
    t.diagnostic('the age CLI is not installed (apt-get install age): the decryption with it is skipped');
    return;
  }
  const index = JSON.parse((await execa('age', ['-d', '-i', key], { input: await remoteBlob(remote, 'main:index.age') })).stdout) as {
    files: Record<string, string>;
  };
  assert.ok(index.files[`memory/${TODAY}.md`], 'the index names the files');
  const blobs = (await execa('git', ['ls-tree', '-r', 'main', 'files/'], { cwd: remote })).stdout
    .split('\n')
    .map((l) => l.split(/\s+/)[2]!);
  const plain = await Promise.all(
    blobs.map(async (id) => (await execa('age', ['-d', '-i', key], { input: await remoteBlob(remote, id) })).stdout),
  );
  assert.ok(plain.includes((await readFile(join(a.paths.memory, `${TODAY}.md`), 'utf8')).trimEnd()), 'age -d gives the day file back');
});

test('two homes that both write merge on plaintext with nothing lost, and the remote still holds no text', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  await fillHome(a);
  await ok(a);
  const b = await encryptedDevice(dir, 'b', remote, { keyFile: key });
  await ok(b);

  const onA = [
    makeObservation(10, TODAY, { text: 'Device A learned the deploy key rotates monthly.' }),
    makeObservation(11, addDays(TODAY, -2)),
  ];
  const onB = [
    makeObservation(20, TODAY, { text: 'Device B noted the VPN endpoint moved.', tags: ['vpn'] }),
    makeObservation(21, addDays(TODAY, -3), { agent: AGENT }),
  ];
  await writeHot(a.paths, onA);
  await writeHot(b.paths, onB);
  await appendFile(a.paths.audit, '{"action":"from-a"}\n');
  await appendFile(b.paths.audit, '{"action":"from-b"}\n');
  // A reflection changed in the same line on both: B's stays, A's is kept beside it.
  await writeFile(join(a.paths.reflections, '2026-06-W24.md'), '# Week 24\n\n- A: the trip budget is fine.\n');
  await writeFile(join(b.paths.reflections, '2026-06-W24.md'), '# Week 24\n\n- B: the trip budget is tight.\n');

  await ok(a);
  const merged = await ok(b);
  assert.ok(merged.encrypted.merged.includes(`memory/${TODAY}.md`), 'the shared day was merged');
  assert.deepEqual(merged.encrypted.conflicts, ['reflections/2026-06-W24.sync-conflict-1.md']);
  await ok(a);

  assert.deepEqual(await syncedState(a), await syncedState(b), 'both homes hold the same files');
  const ids = await idsByTier(a.paths, a.vault);
  const all = [...ids.hot, ...ids.warm];
  assert.equal(new Set(all).size, all.length, 'each observation once');
  for (const o of [...onA, ...onB]) assert.ok(all.includes(o.id), `${o.id} survived`);
  const day = await readFile(join(a.paths.memory, `${TODAY}.md`), 'utf8');
  assert.match(day, /^observations: 3$/m, 'recounted');
  const audit = await readFile(a.paths.audit, 'utf8');
  assert.ok(audit.includes('from-a') && audit.includes('from-b'), 'both audit lines');
  assert.match(await readFile(join(a.paths.reflections, '2026-06-W24.sync-conflict-1.md'), 'utf8'), /A: the trip budget is fine/);
  assert.match(await readFile(join(a.paths.reflections, '2026-06-W24.md'), 'utf8'), /B: the trip budget is tight/);
  assert.deepEqual(await leakedInto(remote, ['deploy key', 'VPN endpoint', 'trip budget', AGENT]), []);
});

test('a wrong key or passphrase fails with exit code 4 and a hint, and writes nothing here or on the remote', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  await fillHome(a);
  await ok(a);
  const head = (await execa('git', ['rev-parse', 'main'], { cwd: remote })).stdout;

  const other = await newKeyFile(join(dir, 'other.key'));
  const c = await encryptedDevice(dir, 'c', remote, { keyFile: other });
  const wrong = await c.sync();
  assert.equal(wrong.code, 4, wrong.stderr);
  assert.match(wrong.stderr, /cannot be decrypted with this key/);
  assert.match(wrong.stderr, /→ Use the key file the other devices use/);
  assert.deepEqual(await readdir(c.paths.memory), [], 'nothing written to the home');
  assert.deepEqual(await readdir(c.paths.reflections), []);
  assert.equal((await execa('git', ['rev-parse', 'main'], { cwd: remote })).stdout, head, 'the remote unchanged');

  // The same for a passphrase against a remote made with a passphrase.
  const { dir: dir2, cleanup } = await tempDir();
  t.after(cleanup);
  const remote2 = await bareRemote(dir2);
  const p = await encryptedDevice(dir2, 'p', remote2, { passphrase: 'correct horse battery staple' });
  await writeHot(p.paths, [makeObservation(1, TODAY, { text: 'Passphrase-protected fact.' })]);
  await ok(p);
  const head2 = (await execa('git', ['rev-parse', 'main'], { cwd: remote2 })).stdout;
  const q = await encryptedDevice(dir2, 'q', remote2, { passphrase: 'wrong horse' });
  const bad = await q.sync();
  assert.equal(bad.code, 4, bad.stderr);
  assert.match(bad.stderr, /cannot be decrypted with this passphrase \(OCM_SYNC_PASSPHRASE\)/);
  assert.deepEqual(await readdir(q.paths.memory), []);
  assert.equal((await execa('git', ['rev-parse', 'main'], { cwd: remote2 })).stdout, head2);
  await writeFile(q.paths.env, 'OCM_SYNC_PASSPHRASE=correct horse battery staple\n');
  await ok(q);
  assert.match(await readFile(join(q.paths.memory, `${TODAY}.md`), 'utf8'), /Passphrase-protected fact/);
  assert.deepEqual(await leakedInto(remote2, ['Passphrase-protected', 'correct horse', TODAY]), []);
});

test('kill -9 at every step of an encrypted sync loses nothing on either side', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  await fillHome(a);
  const b = await encryptedDevice(dir, 'b', remote, { keyFile: key });
  // One merged file: its write is both the first and the last (sync-wrote follows sync-wrote-one in the same run).
  const steps = ['sync-fetched', 'sync-journaled', 'sync-wrote-one', 'sync-committed', 'sync-pushed'];
  // A's first push, killed at each step in turn until a run finishes.
  assert.ok((await crashAtSteps(['sync', '--home', a.paths.root], ['sync-committed', 'sync-pushed', 'never'])) >= 2);
  await ok(b);
  const onA = [makeObservation(30, TODAY, { text: 'A wrote this while B was offline.' })];
  const onB = [makeObservation(40, TODAY, { text: 'B wrote this while A was offline.' }), makeObservation(41, addDays(TODAY, -5))];
  await writeHot(a.paths, onA);
  await writeHot(b.paths, onB);
  await ok(a);
  // B merges A's day into its own and is killed at every step, again and again, then finishes.
  const kills = await crashAtSteps(['sync', '--home', b.paths.root], [...steps, 'never']);
  assert.equal(kills, steps.length, 'killed once at every step');
  await ok(a);
  await ok(b);
  assert.deepEqual(await syncedState(a), await syncedState(b));
  const ids = await idsByTier(b.paths, b.vault);
  const all = [...ids.hot, ...ids.warm];
  assert.equal(new Set(all).size, all.length, 'nothing doubled');
  for (const o of [...onA, ...onB]) assert.ok(all.includes(o.id), `${o.id} kept`);
  assert.equal(all.length, 4 + onA.length + onB.length);
});

/** A stand-in for rclone: `sync SRC DEST` copies the tree, records each file it was handed. */
const FAKE_RCLONE = `
const fs = require('node:fs'); const path = require('node:path');
const [, , log, verb, src, dest] = process.argv;
if (verb !== 'sync') process.exit(9);
fs.rmSync(dest, { recursive: true, force: true });
fs.cpSync(src, dest, { recursive: true });
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
fs.appendFileSync(log, JSON.stringify(walk(src).map((f) => path.relative(src, f))) + '\\n');
`;

test('the sync command receives only ciphertext: {encrypted} is the encrypted copy, {cold} is refused while encryption is on', async (t) => {
  const { dir, key } = await workspace(t);
  const script = join(dir, 'fake-rclone.cjs');
  const dest = join(dir, 'cloud');
  const calls = join(dir, 'calls.log');
  await writeFile(script, FAKE_RCLONE);
  const node = JSON.stringify(process.execPath).slice(1, -1);
  const a = await encryptedDevice(dir, 'a', '', { keyFile: key }, `  command: "${node} ${script} ${calls} sync {encrypted} ${dest}"\n`);
  await writeFile(
    a.paths.config,
    (await readFile(a.paths.config, 'utf8')).replace(/git: \{enabled: true, remote: ""\}/, 'git: {enabled: false}'),
  );
  const fixture = await fillHome(a);
  await ok(a);
  const handed = JSON.parse((await readFile(calls, 'utf8')).trim()) as string[];
  assert.ok(
    handed.includes('index.age') && handed.filter((f) => f.startsWith('files')).length === 7,
    `the encrypted tree: ${handed.join(' ')}`,
  );
  for (const f of handed.filter((f) => f.endsWith('.age')))
    assert.match(await readFile(join(dest, f), 'latin1'), /^age-encryption\.org\/v1\n/, `${f} is age`);
  const copied = (await Promise.all(handed.map((f) => readFile(join(dest, f), 'latin1')))).join('\n');
  assert.deepEqual(
    fixture.secrets.filter((s) => copied.includes(Buffer.from(s).toString('latin1'))),
    [],
    'nothing of the memory reaches the command',
  );

  // An incremental run hands over the one changed file and a new index.
  await writeHot(a.paths, [makeObservation(50, TODAY, { text: 'One more private thing.' })]);
  const again = await ok(a);
  assert.equal(again.encrypted.encrypted, 1);

  await writeFile(a.paths.config, (await readFile(a.paths.config, 'utf8')).replace('{encrypted}', '{cold}'));
  const refused = await a.sync();
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /\{cold\}, which names plain files, and sync\.encrypt is on/);
  assert.match(refused.stderr, /→ Use \{encrypted\}/);
});

test('a ciphertext that ends in a newline or carriage-return byte is read whole: the remote stays readable, a second home and the {encrypted} copy get every byte, the age CLI decrypts it', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  await fillHome(a);
  await ok(a);
  // One ciphertext in 256 ends in 0x0a and one in 256 in 0x0d (the last byte is the tag's). Here the index
  // ends in 0x0d (read alone, and last of the {encrypted} copy) and two files end in 0x0a and 0x0d.
  const endings = [0x0a, 0x0d];
  const resealed = await resealRemoteEndingWith(remote, key, (p) =>
    p === 'index.age' ? 0x0d : p.startsWith('files/') ? endings.shift() : undefined,
  );
  assert.equal(resealed.length, 3);

  const script = join(dir, 'fake-rclone.cjs');
  const dest = join(dir, 'cloud');
  await writeFile(script, FAKE_RCLONE);
  const node = JSON.stringify(process.execPath).slice(1, -1);
  const b = await encryptedDevice(
    dir,
    'b',
    remote,
    { keyFile: key },
    `  command: "${node} ${script} ${join(dir, 'calls.log')} sync {encrypted} ${dest}"\n`,
  );
  const restored = await ok(b);
  assert.equal(restored.encrypted.written.length, 7);
  assert.deepEqual(await syncedState(b), await syncedState(a), 'every file byte for byte');
  for (const path of ['README.md', ...resealed])
    assert.ok(
      (await readFile(join(dest, path))).equals(await remoteBlob(remote, `main:${path}`)),
      `the {encrypted} copy of ${path} is the remote's, byte for byte`,
    );
  assert.equal((await ok(a)).encrypted.pushed, false, 'the device that wrote the remote still reads it');

  if (!(await ageCli())) {
    t.diagnostic('the age CLI is not installed (apt-get install age): the decryption with it is skipped');
    return;
  }
  for (const path of resealed) {
    const r = await execa('age', ['-d', '-i', key], { input: await remoteBlob(remote, `main:${path}`), encoding: 'buffer', reject: false });
    assert.equal(r.exitCode, 0, `age -d ${path}: ${Buffer.from(r.stderr).toString()}`);
  }
});

test('rotating the key re-encrypts the whole remote in one run; the old key no longer opens it, the new one does', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  const fixture = await fillHome(a);
  await ok(a);
  const b = await encryptedDevice(dir, 'b', remote, { keyFile: key });
  await ok(b);
  const blobsOf = async (rev: string) =>
    new Set((await execa('git', ['ls-tree', '-r', rev], { cwd: remote })).stdout.split('\n').map((l) => l.split(/\s+/)[2]!));
  const before = await blobsOf('main');

  const newKey = join(dir, 'new.key');
  const rotated = await ok(a, ['--rotate-key', '--new-key-file', newKey]);
  assert.equal(rotated.encrypted.rotated, true);
  assert.equal(rotated.encrypted.encrypted, 7, 'every file re-encrypted');
  const after = await blobsOf('main');
  assert.deepEqual(
    [...after].filter((id) => before.has(id)),
    [(await execa('git', ['rev-parse', 'main:README.md'], { cwd: remote })).stdout],
    'only the README blob is shared with before',
  );
  assert.match(
    await readFile(a.paths.config, 'utf8'),
    new RegExp(`key_file: "?${newKey.replace(/[/.]/g, '\\$&')}"?$`, 'm'),
    'sync.key_file now names the new key',
  );
  assert.equal((await ok(a)).encrypted.pushed, false, 'the next sync with the new key has nothing to do');

  const stale = await b.sync();
  assert.equal(stale.code, 4, 'the old key is refused');
  await writeFile(b.paths.config, (await readFile(b.paths.config, 'utf8')).replace(key, newKey));
  await writeHot(b.paths, [makeObservation(60, TODAY, { text: 'Written on B after the rotation.' })]);
  await ok(b);
  await ok(a);
  assert.deepEqual(await syncedState(a), await syncedState(b));
  assert.deepEqual(await leakedInto(remote, fixture.secrets.concat(['after the rotation'])), []);
  if (await ageCli()) {
    const sealedIndex = await remoteBlob(remote, 'main:index.age');
    assert.equal((await execa('age', ['-d', '-i', newKey], { input: sealedIndex, reject: false })).exitCode, 0);
    assert.notEqual((await execa('age', ['-d', '-i', key], { input: sealedIndex, reject: false })).exitCode, 0);
  }
});

test('a forget travels with encrypted sync: B, which edited the line meanwhile, forgets it too, keeps its other new line, and it never comes back', async (t) => {
  const { dir, remote, key } = await workspace(t);
  const a = await encryptedDevice(dir, 'a', remote, { keyFile: key });
  const b = await encryptedDevice(dir, 'b', remote, { keyFile: key });
  const secret = makeObservation(2, TODAY, { text: 'My home address is 42 Wallaby Way, Sydney.' });
  await writeHot(a.paths, [makeObservation(1, TODAY), secret]);
  await ok(a);
  await ok(b);
  assert.match(await readFile(join(b.paths.memory, `${TODAY}.md`), 'utf8'), /Wallaby Way/);

  const forgot = await (await import('../helpers/cli.js')).runCli(['forget', secret.id, '--yes', '--home', a.paths.root]);
  assert.equal(forgot.code, 0, forgot.stderr);
  await ok(a);
  // Meanwhile on B the user edited that very line, and B observed more: the merge keeps B's edited line
  // (changed on one side, deleted on the other), and the tombstone erases it.
  const bDay = join(b.paths.memory, `${TODAY}.md`);
  await writeFile(bDay, (await readFile(bDay, 'utf8')).replace('42 Wallaby Way, Sydney.', '42 Wallaby Way, Sydney (the blue door).'));
  await writeHot(b.paths, [makeObservation(20, TODAY, { text: 'Device B noted the VPN endpoint moved.' })]);
  const onB = (await ok(b)) as unknown as { encrypted: { forgotten: string[] } };
  assert.deepEqual(onB.encrypted.forgotten, [secret.id], 'B forgot what A forgot');
  await ok(a);
  for (const d of [a, b]) {
    const day = await readFile(join(d.paths.memory, `${TODAY}.md`), 'utf8');
    assert.doesNotMatch(day, /Wallaby Way/, `not on ${d.name}`);
    assert.match(day, /VPN endpoint moved/, `B's new line is on ${d.name}`);
    assert.ok(
      (await readFile(d.paths.audit, 'utf8')).split('\n').some((l) => l.includes('"action":"forget"') && l.includes(secret.id)),
      `${d.name}'s audit records it`,
    );
  }
  await writeHot(b.paths, [makeObservation(21, TODAY)]);
  await ok(b);
  await ok(a);
  assert.doesNotMatch(await readFile(join(a.paths.memory, `${TODAY}.md`), 'utf8'), /Wallaby Way/, 'it stays gone');
  assert.deepEqual(await syncedState(a), await syncedState(b));
});

test('a merge on plaintext keeps the last newline: a line log and a note merged from both sides end as both sides wrote them', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const base = '{"action":"export"}\n';
  const log = await mergeTexts(
    'lines',
    Buffer.from(base),
    Buffer.from(`${base}{"action":"from-a"}\n`),
    Buffer.from(`${base}{"action":"from-b"}\n`),
    dir,
  );
  assert.equal(log.text.toString('utf8'), `${base}{"action":"from-a"}\n{"action":"from-b"}\n`);
  const note = (first: string, last: string) => Buffer.from(`# Week 24\n\n- ${first}\n\nsame\n\n- ${last}\n`);
  const merged = await mergeTexts('text', note('first', 'last'), note('first, said A', 'last'), note('first', 'last, said B'), dir);
  assert.equal(merged.conflict, undefined);
  assert.equal(merged.text.toString('utf8'), note('first, said A', 'last, said B').toString('utf8'));
});
