import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { DAY_BODY } from '../helpers/day-files.js';

async function allText(dir: string): Promise<string> {
  let out = '';
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += await readFile(join(e.parentPath ?? (e as unknown as { path: string }).path, e.name), 'latin1');
  }
  return out;
}

test('demo: the whole pipeline offline on the bundled samples; the key facts land in hot memory and active memory, no secret anywhere', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'demo');
    const r = await runCli(['demo', '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /offline, heuristic observer/);
    assert.match(r.stdout, new RegExp(`Memory home: ${home}`));
    assert.match(r.stdout, /──── active_memory\.md ────/);
    const active = await readFile(join(home, 'active_memory.md'), 'utf8');
    assert.match(active, /TypeScript over JavaScript/);
    assert.match(active, /PostgreSQL/);
    // What is true at the demo's end: the staging failure was fixed, the refresh-token question decided;
    // both stay in the day files, marked, and leave active memory.
    assert.doesNotMatch(active, /staging migrations fail/);
    assert.doesNotMatch(active, /not sure where to keep the refresh tokens/);
    assert.match(active, /rotating opaque refresh tokens/);
    const day8 = await readFile(join(home, 'memory', '2026-04-08.md'), 'utf8');
    assert.match(day8, /staging migrations fail\..*\(superseded 2026-04-08 by o-[0-9a-f]+\)/);
    const hot = (await readdir(join(home, 'memory'))).filter((n) => n.endsWith('.md'));
    assert.ok(hot.length >= 4, `day files stay in the hot tier (${hot.join(', ')})`);
    const everything = await allText(home);
    assert.match(everything, /grey-green/, "the novel character's eye colour is remembered");
    assert.match(everything, /async\/await/);
    assert.match(everything, /\[REDACTED:/, 'the pasted secrets were masked');
    assert.doesNotMatch(everything, /sk-proj-[A-Za-z0-9]{10}/, 'no OpenAI key in any file of the home');
    const status = JSON.parse((await runCli(['status', '--home', home, '--json'])).stdout);
    assert.equal(status.observer.kind, 'heuristic');
    assert.deepEqual(Object.keys(status.observations.byAgent).sort(), ['main', 'work']);
    // The demo's own home may run the demo again.
    const again = await runCli(['demo', '--home', home]);
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await cleanup();
  }
});

test('demo --home refuses a home that holds memory (exit 1, hint) and leaves it as it was', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const home = join(dir, 'real');
    await mkdir(join(home, 'memory'), { recursive: true });
    const day = join(home, 'memory', '2026-02-12.md');
    await writeFile(day, DAY_BODY);
    const r = await runCli(['demo', '--home', home]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /already holds memory \(memory\/2026-02-12\.md\)/);
    assert.match(r.stderr, /without --home/);
    assert.equal(await readFile(day, 'utf8'), DAY_BODY);
    assert.deepEqual(
      await readdir(home, { recursive: true }),
      ['memory', join('memory', '2026-02-12.md')],
      'nothing written into the home',
    );

    // A home set up but still empty of memory (config.yaml only) is someone's memory home too.
    const fresh = join(dir, 'fresh');
    await mkdir(fresh);
    await writeFile(join(fresh, 'config.yaml'), 'timezone: UTC\n');
    const f = await runCli(['demo', '--home', fresh]);
    assert.equal(f.code, 1, f.stderr);
    assert.match(f.stderr, /already holds memory \(config\.yaml\)/);
  } finally {
    await cleanup();
  }
});

test('demo --help names the temp folder it really uses; a demo removes demo homes older than an hour, nothing else', async () => {
  const { dir, cleanup } = await tempDir('ocm-demo-tmp-');
  try {
    const env = { TMPDIR: dir };
    const help = await runCli(['demo', '--help'], { env });
    assert.ok(help.stdout.includes(`Memory home (default: a new folder ${join(dir, 'ocm-demo-…')}`), help.stdout);
    const old = join(dir, 'ocm-demo-old111');
    const recent = join(dir, 'ocm-demo-new222');
    const notDemo = join(dir, 'ocm-demo-mine');
    for (const home of [old, recent]) {
      await mkdir(join(home, '.ocm'), { recursive: true });
      await writeFile(join(home, '.ocm', 'demo-home'), 'made by ocm-run demo\n');
    }
    await mkdir(notDemo);
    await writeFile(join(notDemo, 'notes.md'), 'mine\n');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(join(old, '.ocm', 'demo-home'), twoHoursAgo, twoHoursAgo);
    const r = await runCli(['demo', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { home: string; removedDemoHomes: number };
    assert.ok(out.home.startsWith(join(dir, 'ocm-demo-')), out.home);
    assert.equal(out.removedDemoHomes, 1);
    const left = await readdir(dir);
    assert.ok(!left.includes('ocm-demo-old111'), 'the old demo home is gone');
    assert.ok(
      left.includes('ocm-demo-new222') && left.includes('ocm-demo-mine'),
      `a recent demo and a folder without the marker stay: ${left.join(', ')}`,
    );
  } finally {
    await cleanup();
  }
});
