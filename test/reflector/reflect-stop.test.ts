/**
 * reflect under attack (issue #22 item 8): a 100 KB token without spaces
 * (quadratic BPE once took minutes for 16 KB) reflects within a bound; a
 * SIGTERM at a named step lets the job finish the reflection it is writing,
 * release the lock and exit 143, the next run doing the rest; a day file
 * named for no real day (`2026-13-45.md`) is reported and skipped instead of
 * failing every reflect and tick with "Invalid time value".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { runCli, tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { acquireHomeLock } from '../../lib/platform/lock.js';
import { countTokens } from '../../lib/core/tokens.js';
import type { HomePaths } from '../../lib/platform/home.js';

async function home(dir: string): Promise<HomePaths> {
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  return paths;
}

test('token counts stay close to exact BPE for long runs without spaces; special-token text is counted, not refused', () => {
  const require = createRequire(import.meta.url);
  const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown };
  const exact = new Tiktoken((ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0]);
  let seed = 7;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const key = Array.from({ length: 600 }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
  const text = `The deploy key is ${key} and it rotates monthly.`;
  const want = exact.encode(text).length;
  const got = countTokens(text);
  assert.ok(Math.abs(got - want) <= want * 0.05, `piecewise ${got} vs exact ${want}`);
  assert.equal(countTokens('plain prose with short words'), exact.encode('plain prose with short words').length);
  assert.throws(() => exact.encode('a user typed <|endoftext|> here'), 'the library refuses it by default');
  assert.ok(countTokens('a user typed <|endoftext|> here') >= 5, 'special-token text is counted as text, not refused');
});

test('reflect on an observation holding a 100 KB token without spaces ends within a bound', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-reflect-');
  t.after(cleanup);
  const paths = await home(dir);
  const blob = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(3000).slice(0, 100_000);
  await writeHot(paths, [
    makeObservation(1, '2026-01-02', { text: `User pasted ${blob} into the chat.` }),
    makeObservation(2, '2026-01-02'),
    makeObservation(3, '2026-01-03'),
  ]);
  // Before the fix this ran for more than 11 minutes; the bound is generous for a loaded machine.
  const r = await runCli(['reflect', '--force', '--all', '--json', '--home', paths.root], { timeoutMs: 120_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { reflections: unknown[] }).reflections.length, 1);
});

test('SIGTERM during reflect: the reflection being written is finished, the lock released, exit 143; the next run reflects the rest', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-reflect-');
  t.after(cleanup);
  const paths = await home(dir);
  // Four calendar months: four periods, four reflection files.
  const obs = [];
  for (const month of ['01', '02', '03', '04'])
    for (let d = 1; d <= 6; d++) obs.push(makeObservation(obs.length, `2026-${month}-${String(d * 4).padStart(2, '0')}`));
  await writeHot(paths, obs);

  const stopped = await runCli(['reflect', '--force', '--all', '--home', paths.root], {
    env: { OCM_TEST: '1', OCM_TEST_SIGNAL_AT: 'reflect-period' },
  });
  assert.equal(stopped.code, 143, stopped.stdout + stopped.stderr);
  assert.match(stopped.stderr, /SIGTERM: stopping after the current step/);
  assert.match(stopped.stderr, /Stopped \(SIGTERM\) after 1 reflection/);
  const first = (await readdir(paths.reflections)).filter((n) => n.endsWith('.md'));
  assert.equal(first.length, 1, `one whole reflection: ${first.join(', ')}`);
  assert.match(await readFile(join(paths.reflections, first[0]!), 'utf8'), /^---\n[\s\S]*\n---\n/);
  const release = await acquireHomeLock(paths.lock, { waitMs: 0 });
  await release();

  const rest = await runCli(['reflect', '--force', '--all', '--json', '--home', paths.root]);
  assert.equal(rest.code, 0, rest.stderr);
  assert.equal((await readdir(paths.reflections)).filter((n) => n.endsWith('.md')).length, 4);
});

test('a day file named for no real day is reported and skipped; one whose frontmatter date is none reflects under its file date', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-reflect-');
  t.after(cleanup);
  const paths = await home(dir);
  await writeHot(paths, [makeObservation(1, '2026-01-02'), makeObservation(2, '2026-01-03')]);
  const good = await readFile(join(paths.memory, '2026-01-03.md'), 'utf8');
  await writeFile(join(paths.memory, '2026-13-45.md'), good.replaceAll('2026-01-03', '2026-13-45'));
  await writeFile(
    join(paths.memory, '2026-01-04.md'),
    good.replaceAll('2026-01-03', '2026-02-30').replaceAll(/\^o-[0-9a-f]+/g, (m) => `${m.slice(0, -1)}9`),
  );

  const r = await runCli(['reflect', '--force', '--all', '--home', paths.root]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /memory\/2026-13-45\.md is not named for a real day/);
  assert.doesNotMatch(r.stderr + r.stdout, /Invalid time value/);
  const tick = await runCli(['run', '--home', paths.root]);
  assert.equal(tick.code, 0, tick.stderr);
});
