/**
 * One folder for Obsidian: with `tiers.vault_path` set to the memory home itself, the home is the vault.
 * Every day of every tier is a Markdown file under it (hot memory/, warm archive/, cold OC-Memory/), the
 * machine state stays in dot folders Obsidian does not show, a cold note's link back to an earlier cold
 * day resolves inside that folder, and search reads each day once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { addDays } from '../../lib/tiers/age.js';
import { approveProposals, runTierJob } from '../../lib/tiers/tier-job.js';

test('the memory home as the Obsidian vault: every day of every tier in one folder, links resolve, search reads each once', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const config = testConfig({ tiers: { vault_path: paths.root } });
  const today = '2026-06-15';
  const ttl = config.tiers.warm_ttl_days;
  const cold1 = makeObservation(1, addDays(today, -ttl - 20), { text: 'Chose Hetzner for the first servers.' });
  const cold2 = makeObservation(2, addDays(today, -ttl - 10), { text: 'Moved the servers to Fly.io.' });
  const warm = makeObservation(3, addDays(today, -40), { text: 'Added a read replica in Frankfurt.' });
  const hot = makeObservation(4, addDays(today, -1), { text: 'Planned the replica failover drill.' });
  await writeHot(paths, [cold1, cold2, warm], 'warm');
  await writeHot(paths, [hot], 'hot');
  const options = { paths, config, logger: createMemoryLogger(), now: () => new Date(`${today}T12:00:00Z`) };
  await runTierJob(options);
  await approveProposals(options, ['all']);

  const visible = (await readdir(paths.root, { recursive: true })).filter(
    (f) => f.endsWith('.md') && !f.split('/').some((part) => part.startsWith('.')),
  );
  const days = visible.filter((f) => /\d{4}-\d{2}-\d{2}\.md$/.test(f)).sort();
  assert.deepEqual(
    days.map((f) => f.split('/')[0]).sort(),
    ['OC-Memory', 'OC-Memory', 'archive', 'memory'],
    `every day, one folder: ${days.join(', ')}`,
  );
  const note2 = days.find((f) => f.startsWith('OC-Memory') && f.includes(cold2.date))!;
  const link = /← \[\[([^|\]]+)\|/.exec(await readFile(join(paths.root, note2), 'utf8'))?.[1];
  assert.ok(link && existsSync(join(paths.root, `${link}.md`)), `the link back resolves in the one folder: ${link}`);
  assert.ok(existsSync(join(paths.root, '.ocm')), 'machine state in a dot folder');

  await runCli(['config', 'set', 'tiers.vault_path', paths.root, '--home', paths.root]);
  for (const o of [cold1, cold2, warm, hot]) {
    const r = await runCli(['search', o.text.split(' ').slice(-2).join(' '), '--home', paths.root, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const ids = (JSON.parse(r.stdout).results as Array<{ id: string }>).map((x) => x.id);
    assert.equal(ids.filter((id) => id === o.id).length, 1, `${o.text} found once: ${ids.join(', ')}`);
  }
});
