/**
 * Git sync between two devices: two memory homes cloned from one bare
 * repository, each appending to the same day file and to days of its own.
 * Real git, real files.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, tempDir } from '../helpers/cli.js';
import { hashTree, idsByTier, makeObservation, newHome, testConfig, treeDiff, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { dayFilePath, type HomePaths } from '../../lib/platform/home.js';
import { readState } from '../../lib/platform/state.js';
import { runSync, readSyncState } from '../../lib/jobs/sync/index.js';
import { repairUnionMerged } from '../../lib/jobs/sync/union-repair.js';
import { addDays } from '../../lib/tiers/age.js';

const TODAY = '2026-06-15';
const git = (cwd: string, ...args: string[]) => execa('git', args, { cwd, env: { GIT_TERMINAL_PROMPT: '0' } });

async function device(dir: string, name: string, remote: string) {
  const paths = await newHome(join(dir, name));
  await writeFile(paths.env, 'OPENAI_API_KEY=sk-secret-never-committed\n');
  await mkdir(paths.index, { recursive: true });
  await writeFile(join(paths.index, 'hot.manifest'), 'index data');
  await writeFile(paths.activeMemory, `# active memory of ${name}\n`);
  const config = testConfig({ sync: { git: { enabled: true, remote, branch: 'main' } } });
  const options = { paths, config, logger: createMemoryLogger(), env: {}, now: () => new Date() };
  return { paths, config, options, sync: () => runSync(options) };
}

/** A temp folder (removed after the test) with an empty bare repository on main in it: the devices' shared remote. */
async function sharedRemote(t: TestContext): Promise<{ dir: string; remote: string }> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const remote = join(dir, 'remote.git');
  await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  return { dir, remote };
}

async function dayFiles(paths: HomePaths) {
  return hashTree([paths.memory, paths.archive]);
}

test('two devices append to the same day and to their own days; syncing both ways merges without conflict or loss', async (t) => {
  const { dir, remote } = await sharedRemote(t);

  const a = await device(dir, 'a', remote);
  const shared = TODAY;
  await writeHot(a.paths, [makeObservation(1, shared, { agent: 'main' }), makeObservation(2, addDays(TODAY, -1))]);
  await writeHot(a.paths, [makeObservation(3, addDays(TODAY, -120))], 'warm');
  await writeFile(
    a.paths.config,
    `sync:\n  git: {enabled: true, remote: ${JSON.stringify(remote)}}\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n`,
  );
  // Device A's first sync through the CLI: repository created, committed, pushed.
  const first = await runCli(['sync', '--home', a.paths.root]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /initialised the repository/);
  const tracked = (await git(a.paths.root, 'ls-files')).stdout.split('\n').sort();
  assert.ok(tracked.includes('memory/2026-06-15.md') && tracked.includes('archive/2026/2026-02-15.md'));
  assert.ok(tracked.includes('.gitattributes') && tracked.includes('.gitignore'));
  for (const f of tracked) assert.ok(!/^(\.env|\.ocm\/|logs\/|active_memory|config\.yaml)/.test(f), `${f} must not be committed`);
  // config.yaml is this device's own: ignored with the reason written where a Git user looks, so `git status` is clean.
  assert.equal((await git(a.paths.root, 'status', '--porcelain')).stdout, '', 'nothing left untracked');
  assert.match((await git(a.paths.root, 'check-ignore', '-v', 'config.yaml')).stdout, /^\.gitignore:\d+:config\.yaml\tconfig\.yaml$/);
  const ignore = await readFile(join(a.paths.root, '.gitignore'), 'utf8');
  assert.match(ignore, /This device's own settings .*\n.*one device's must never overwrite another's/);
  assert.match(ignore, /The Obsidian vault .* lives outside this folder/);
  assert.match(await readFile(join(a.paths.root, '.gitattributes'), 'utf8'), /memory\/\*\*\/\*\.md merge=union/);

  // Device B starts from an empty home pointed at the same remote.
  const b = await device(dir, 'b', remote);
  const fromEmpty = await b.sync();
  assert.deepEqual(fromEmpty.errors, []);
  assert.equal(fromEmpty.git?.pulled, true);
  assert.deepEqual(treeDiff(await dayFiles(b.paths), await dayFiles(a.paths)), []);

  // Both append to today's file (the same file) and each to a day of its own, offline from each other.
  const onA = [
    makeObservation(10, shared, { text: 'Device A learned that the deploy key rotates monthly.' }),
    makeObservation(11, addDays(TODAY, -2)),
  ];
  const onB = [
    makeObservation(20, shared, { text: 'Device B noted the VPN endpoint moved.', tags: ['vpn'] }),
    makeObservation(21, shared, { text: 'Device B also noted a second thing.' }),
    makeObservation(22, addDays(TODAY, -3)),
  ];
  await writeHot(a.paths, onA);
  await writeHot(b.paths, onB);
  assert.deepEqual((await a.sync()).errors, []);
  const bResult = await b.sync();
  assert.deepEqual(bResult.errors, []);
  assert.ok(bResult.git!.repaired.includes('memory/2026-06-15.md'), 'the union-merged day was recounted');
  assert.deepEqual((await a.sync()).errors, []);

  // Same files on both devices, every observation once, clean frontmatter, no conflict markers.
  assert.deepEqual(treeDiff(await dayFiles(a.paths), await dayFiles(b.paths)), []);
  const ids = await idsByTier(a.paths, '');
  const all = [...ids.hot, ...ids.warm];
  assert.equal(new Set(all).size, all.length);
  for (const o of [...onA, ...onB]) assert.ok(all.includes(o.id), `${o.id} survived`);
  assert.equal(all.length, 3 + onA.length + onB.length);
  const day = parseDayFile(await readFile(dayFilePath(a.paths, 'hot', 'main', shared), 'utf8'));
  assert.equal(day.frontmatter.error, undefined);
  assert.equal(day.frontmatter.data.observations, 4);
  assert.ok((day.frontmatter.data.tags as string[]).includes('vpn'));
  assert.equal(listObservations(day).filter((o) => o.provenance).length, 4, 'provenance of both sides kept');
  const text = await readFile(dayFilePath(a.paths, 'hot', 'main', shared), 'utf8');
  assert.ok(!/^(<<<<<<<|=======|>>>>>>>)/m.test(text));
  // Nothing secret went to the remote.
  const remoteFiles = (await execa('git', ['ls-tree', '-r', '--name-only', 'main'], { cwd: remote })).stdout;
  assert.ok(!remoteFiles.includes('.env') && !remoteFiles.includes('.ocm'));
  const history = (await execa('git', ['log', '-p', '--all'], { cwd: remote })).stdout;
  assert.ok(!history.includes('sk-secret-never-committed'));
});

test('a pull that cannot be merged is aborted: local files untouched, the sync queued for retry', async (t) => {
  const { dir, remote } = await sharedRemote(t);
  const a = await device(dir, 'a', remote);
  await writeFile(join(a.paths.reflections, 'week.md'), '# Week\n\nLine one.\n');
  assert.deepEqual((await a.sync()).errors, []);
  const b = await device(dir, 'b', remote);
  assert.deepEqual((await b.sync()).errors, []);
  // Reflections are rewritten, not appended: the same line changed on both sides is a real conflict.
  await writeFile(join(a.paths.reflections, 'week.md'), '# Week\n\nLine one, as A sees it.\n');
  await writeFile(join(b.paths.reflections, 'week.md'), '# Week\n\nLine one, as B sees it.\n');
  await writeHot(b.paths, [makeObservation(30, TODAY)]);
  assert.deepEqual((await a.sync()).errors, []);
  const before = await hashTree([b.paths.memory, b.paths.reflections]);
  const failed = await b.sync();
  assert.equal(failed.errors.length, 1);
  assert.match(failed.errors[0]!.message, /pull --rebase/);
  assert.deepEqual(await hashTree([b.paths.memory, b.paths.reflections]), before, 'local files as they were');
  const status = (await git(b.paths.root, 'status', '--porcelain=v2', '--branch')).stdout;
  assert.ok(!status.includes('rebase'), 'no rebase left in progress');
  const queued = readSyncState((await readState(b.paths.state)).state).pending!;
  assert.equal(queued.attempts, 1);
  assert.deepEqual(queued.parts, ['git']);
});

test("repairUnionMerged recounts a frontmatter with both sides' keys and keeps a doubled observation once", () => {
  const merged = [
    '---',
    'date: 2026-06-15',
    'tier: hot',
    'agent: main',
    'observations: 2',
    'tags: [a]',
    'observations: 2',
    'tags: [b]',
    'provenance:',
    '  o-1111111111: openclaw main s1 e1',
    'provenance:',
    '  o-2222222222: openclaw main s2 e2',
    '---',
    '# 2026-06-15',
    '',
    '- 🔴 09:00 [fact] First. #a ^o-1111111111',
    '- 🔴 09:00 [fact] First. #a ^o-1111111111',
    '- 🟡 10:00 [fact] Second. #b ^o-2222222222',
    '',
  ].join('\n');
  const fixed = repairUnionMerged(merged)!;
  const day = parseDayFile(fixed);
  assert.equal(day.frontmatter.error, undefined);
  assert.equal(day.frontmatter.data.observations, 2);
  assert.deepEqual(day.frontmatter.data.tags, ['a', 'b']);
  assert.equal(day.frontmatter.data.provenance, undefined, 'the maps moved to the provenance block');
  assert.deepEqual(
    listObservations(day)
      .map((o) => [o.id, o.provenance?.session])
      .sort(),
    [
      ['o-1111111111', 's1'],
      ['o-2222222222', 's2'],
    ],
  );
  assert.equal(repairUnionMerged(fixed), undefined, 'a clean file needs nothing');
});

test("repairUnionMerged joins the two provenance blocks a union merge leaves (one unclosed, the other side's lines between)", () => {
  const merged = [
    '---',
    'date: 2026-06-15',
    'tier: hot',
    'agent: main',
    'observations: 2',
    'tags: [project]',
    '---',
    '# 2026-06-15',
    '',
    '- 🟡 09:01 [decision] Observation one. ^o-574dcb6a9c',
    '- 🟡 18:10 [preference] Device A learned that the deploy key rotates monthly. #project ^o-410b26abbe',
    '',
    '<!-- oc-memory provenance (id: source agent session entries)',
    'o-574dcb6a9c: openclaw main s-1 e0000001',
    'o-410b26abbe: openclaw main s-3 e000000a',
    '- 🟢 16:20 [fact] Device B noted the VPN endpoint moved. #vpn ^o-471f73c8b4',
    '- 🔴 17:21 [decision] Device B also noted a second thing. ^o-d791f7451c',
    '',
    '<!-- oc-memory provenance (id: source agent session entries)',
    'o-574dcb6a9c: openclaw main s-1 e0000001',
    'o-471f73c8b4: openclaw main s-6 e0000014',
    'o-d791f7451c: openclaw main s-0 e0000015',
    '-->',
    '',
  ].join('\n');
  // Read before the repair, every observation is there with its provenance.
  assert.deepEqual(
    listObservations(parseDayFile(merged)).map((o) => [o.id, o.provenance?.session]),
    [
      ['o-574dcb6a9c', 's-1'],
      ['o-410b26abbe', 's-3'],
      ['o-471f73c8b4', 's-6'],
      ['o-d791f7451c', 's-0'],
    ],
  );
  const fixed = repairUnionMerged(merged)!;
  assert.ok(fixed, 'the file is rewritten');
  assert.equal(fixed.split('<!-- oc-memory provenance').length, 2, 'one block');
  assert.match(fixed, /^observations: 4$/m);
  assert.match(fixed, /#vpn \^o-471f73c8b4\n- 🔴 17:21 .*\^o-d791f7451c\n\n<!-- oc-memory provenance .*\n(?:o-[0-9a-f]+: .+\n){4}-->\n$/);
  assert.equal(repairUnionMerged(fixed), undefined);
});

test('a forget is carried by sync: device A forgets a line, device B (which still has it) appends to the same day; after both sync the line is on neither, and both audits say so', async (t) => {
  const { dir, remote } = await sharedRemote(t);
  const homes = { a: join(dir, 'a', 'home'), b: join(dir, 'b', 'home') };
  const a = await device(dir, 'a', remote);
  const b = await device(dir, 'b', remote);
  for (const home of Object.values(homes))
    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsync:\n  git: {enabled: true, remote: ${JSON.stringify(remote)}}\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n`,
    );
  const secret = makeObservation(2, TODAY, { text: 'My home address is 42 Wallaby Way, Sydney.' });
  // The forgotten line is the day's last: B's new line goes right after it (one hunk, which union keeps whole).
  await writeHot(a.paths, [makeObservation(1, TODAY), secret]);
  const sync = async (home: string) => {
    const r = await runCli(['sync', '--home', home, '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as { git?: { forgotten?: string[] } };
  };
  await sync(homes.a);
  await sync(homes.b);
  assert.match(await readFile(dayFilePath(b.paths, 'hot', 'main', TODAY), 'utf8'), /Wallaby Way/, 'B has the line');

  const forgot = await runCli(['forget', secret.id, '--yes', '--home', homes.a]);
  assert.equal(forgot.code, 0, forgot.stderr);
  await sync(homes.a);
  // B, still holding the line, appends next to it in the same day file, then syncs (rebasing onto A's forget).
  const later = makeObservation(20, TODAY, { text: 'Device B noted the VPN endpoint moved.' });
  await writeHot(b.paths, [later]);
  const onB = await sync(homes.b);
  assert.deepEqual(onB.git?.forgotten, [secret.id], 'B forgot what A forgot');
  await sync(homes.a);

  for (const [name, paths] of [
    ['A', a.paths],
    ['B', b.paths],
  ] as const) {
    const day = await readFile(dayFilePath(paths, 'hot', 'main', TODAY), 'utf8');
    assert.doesNotMatch(day, /Wallaby Way/, `the forgotten line is not on ${name}`);
    assert.ok(!day.includes(secret.id), `nor its id (provenance) on ${name}`);
    assert.match(day, /VPN endpoint moved/, `B's new line is on ${name}`);
    const audit = await readFile(paths.audit, 'utf8');
    assert.ok(
      audit.split('\n').some((l) => l.includes('"action":"forget"') && l.includes(secret.id)),
      `${name}'s audit records the forget`,
    );
    assert.match(await readFile(join(paths.root, 'forgotten.md'), 'utf8'), new RegExp(`\\b${secret.id}\\b`), `${name} keeps the tombstone`);
  }
  const remoteDay = (await execa('git', ['show', `main:memory/${TODAY}.md`], { cwd: remote })).stdout;
  assert.doesNotMatch(remoteDay, /Wallaby Way/, 'nor on the remote');

  // And it stays gone: a later sync of B with another append does not bring it back.
  await writeHot(b.paths, [makeObservation(21, TODAY)]);
  await sync(homes.b);
  await sync(homes.a);
  assert.doesNotMatch(await readFile(dayFilePath(a.paths, 'hot', 'main', TODAY), 'utf8'), /Wallaby Way/);
});
