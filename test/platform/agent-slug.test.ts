/**
 * Agent names that slug to the same folder name (`team x` / `team_x`) once
 * shared day files, reflections and active memory (issue #22 item 10). Each
 * agent now has its own folder: a safe name is its own folder name, any
 * other gets a hash of the full name appended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { activeMemoryPath, agentSlug } from '../../lib/platform/home.js';

test('agent slugs: distinct agents get distinct folders; a slug is its own slug; safe names stay as they are', () => {
  const names = ['team x', 'team_x', 'team/x', 'team:x', 'main', 'work', 'claude-code', '.hidden', '..', 'a b c', '한국 팀', ''];
  const slugs = names.map(agentSlug);
  assert.equal(new Set(slugs).size, names.length, JSON.stringify(slugs));
  for (const s of slugs) {
    assert.equal(agentSlug(s), s, `${s} is its own slug`);
    assert.match(s, /^[^./\\][^/\\]*$/u, `${s} is one safe folder name`);
  }
  for (const safe of ['team_x', 'work', 'claude-code', 'codex', 'pi', '팀']) assert.equal(agentSlug(safe), safe);
});

test('`team x` and `team_x` keep their own day files, and search tells them apart', async (t) => {
  const { dir, cleanup } = await tempDir('ocm-slug-');
  t.after(cleanup);
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const today = new Date().toISOString().slice(0, 10);
  await writeHot(paths, [
    makeObservation(1, today, { agent: 'team x', text: 'Spaced team prefers tabs over spaces.' }),
    makeObservation(2, today, { agent: 'team_x', text: 'Underscore team prefers spaces over tabs.' }),
  ]);
  assert.equal((await readdir(paths.memory)).length, 2, 'two agent folders');
  for (const [agent, own, other] of [
    ['team x', /Spaced team/, /Underscore team/],
    ['team_x', /Underscore team/, /Spaced team/],
  ] as const) {
    const r = await runCli(['search', 'team prefers', '--agent', agent, '--json', '--home', paths.root]);
    assert.equal(r.code, 0, r.stderr);
    const snippets = (JSON.parse(r.stdout) as { results: Array<{ snippet: string }> }).results.map((x) => x.snippet).join('\n');
    assert.match(snippets, own, agent);
    assert.doesNotMatch(snippets, other, agent);
  }
  assert.notEqual(activeMemoryPath(paths, 'team x'), activeMemoryPath(paths, 'team_x'));
  const day = await readFile(join(paths.memory, agentSlug('team x'), `${today}.md`), 'utf8');
  assert.doesNotMatch(day, /Underscore team/);
});
