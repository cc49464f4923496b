import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { addDays } from '../../lib/tiers/age.js';
import { approveProposals, runTierJob } from '../../lib/tiers/tier-job.js';
import { tierFilePath } from '../../lib/tiers/locations.js';
import { renderTemplate } from '../../lib/tiers/vault.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const TODAY = '2026-06-15';

test('cold notes: Obsidian frontmatter, wikilinks to the previous/next day and covering reflections, tags and block ids kept; vault from the template', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'My Vault');
  const config = testConfig({ tiers: { vault_path: vault } });
  const [d1, d2, d3] = [addDays(TODAY, -400), addDays(TODAY, -398), addDays(TODAY, -380)];
  const a = makeObservation(1, d1, { text: 'User prefers PostgreSQL over MySQL for the billing service.', tags: ['postgres'] });
  const b = makeObservation(2, d2, { text: 'Decided to deploy Kestrel on Fly.io.' });
  const c = makeObservation(3, d3, { text: 'Ticket-4242 closed after the migration.' });
  const other = makeObservation(4, d2, { agent: 'ops', text: 'Rotated the on-call schedule.' });
  await writeHot(paths, [a, b, c, other], 'warm');
  await writeFile(
    join(paths.reflections, 'reflection-early.md'),
    `---\nperiod_start: ${addDays(d1, -3)}\nperiod_end: ${d2}\nsource_observations: [${a.id}, ${b.id}]\n---\n# ` +
      `Reflection\n\nThe user standardised on PostgreSQL.\n`,
  );
  const options = { paths, config, logger: createMemoryLogger(), now: () => NOW };
  await runTierJob(options);
  const result = await approveProposals(options, ['all']);
  assert.equal(result.vault?.created, 'vault');

  // The vault skeleton: Obsidian settings with graph view and tags.
  const graph = JSON.parse(await readFile(join(vault, '.obsidian', 'graph.json'), 'utf8')) as { showTags: boolean };
  assert.equal(graph.showTags, true);
  const core = JSON.parse(await readFile(join(vault, '.obsidian', 'core-plugins.json'), 'utf8')) as Record<string, boolean>;
  assert.equal(core.graph, true);
  assert.equal(core['tag-pane'], true);
  assert.match(await readFile(join(vault, 'OC-Memory', 'README.md'), 'utf8'), /## Folders/);

  const note2 = tierFilePath(paths, vault, 'cold', 'main', d2);
  assert.equal(note2, join(vault, 'OC-Memory', d2.slice(0, 4), `${d2}.md`));
  const text = await readFile(note2, 'utf8');
  const day = parseDayFile(text);
  const fm = day.frontmatter.data;
  assert.equal(fm.date, d2);
  assert.equal(fm.tier, 'cold');
  assert.equal(fm.type, 'oc-memory-day');
  assert.deepEqual(fm.aliases, [`OC-Memory ${d2}`]);
  assert.ok(Array.isArray(fm.tags));
  assert.ok(text.includes(`← [[OC-Memory/${d1.slice(0, 4)}/${d1}|${d1}]]`), 'link to the previous day');
  assert.ok(text.includes(`[[OC-Memory/${d3.slice(0, 4)}/${d3}|${d3}]] →`), 'link to the next day');
  assert.ok(text.includes('Covered by [[OC-Memory/Reflections/reflection-early|reflection-early]]'));
  assert.ok(text.includes(`Decided to deploy Kestrel on Fly.io. ^${b.id}`), 'plain text with its block id');
  const obs = listObservations(day);
  assert.deepEqual(
    obs.map((o) => o.id),
    [b.id],
  );
  assert.equal(obs[0]!.provenance?.session, b.provenance!.session);
  // The reflection is copied into the vault so the link resolves in graph view.
  assert.match(await readFile(join(vault, 'OC-Memory', 'Reflections', 'reflection-early.md'), 'utf8'), /standardised on PostgreSQL/);
  // d3 is outside the reflection's period: no reflection line; d1 has no previous day.
  const note3 = await readFile(tierFilePath(paths, vault, 'cold', 'main', d3), 'utf8');
  assert.ok(!note3.includes('Covered by'));
  const note1 = await readFile(tierFilePath(paths, vault, 'cold', 'main', d1), 'utf8');
  assert.ok(!note1.includes('←'));
  assert.match(note1, /#postgres \^o-/, 'tags stay on the observation line');
  // Other agents get their own folder and alias.
  const opsNote = await readFile(join(vault, 'OC-Memory', 'ops', d2.slice(0, 4), `${d2}.md`), 'utf8');
  assert.match(opsNote, /aliases:\n {2}- OC-Memory ops /);
  assert.ok(!opsNote.includes('←') && !opsNote.includes('→'), 'ops has no neighbouring days');
});

test('an existing vault only gets the OC-Memory folder; the home template of cold-note.md wins', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  await mkdir(join(vault, '.obsidian'), { recursive: true });
  await writeFile(join(vault, '.obsidian', 'app.json'), '{"mine":true}\n');
  await mkdir(join(paths.root, 'templates'), { recursive: true });
  await writeFile(join(paths.root, 'templates', 'cold-note.md'), 'Archived day {{date}} of {{agent}}. {{nav}}\n');
  await writeHot(paths, [makeObservation(1, addDays(TODAY, -370))], 'warm');
  const options = {
    paths,
    config: testConfig({ tiers: { vault_path: vault, cold_requires_approval: false } }),
    logger: createMemoryLogger(),
    now: () => NOW,
  };
  const r = await runTierJob(options);
  assert.equal(r.vault?.created, 'folder');
  assert.equal(await readFile(join(vault, '.obsidian', 'app.json'), 'utf8'), '{"mine":true}\n');
  assert.deepEqual((await readdir(join(vault, '.obsidian'))).sort(), ['app.json']);
  assert.ok((await stat(join(vault, 'OC-Memory', 'README.md'))).isFile());
  const note = await readFile(tierFilePath(paths, vault, 'cold', 'main', addDays(TODAY, -370)), 'utf8');
  assert.match(note, new RegExp(`Archived day ${addDays(TODAY, -370)} of main\\. \\n`));
});

test('renderTemplate drops the leading comment and lines whose placeholders are all empty', () => {
  const out = renderTemplate('<!-- doc -->\n{{nav}}\nCovered by {{reflections}}\nfixed line\n', { nav: '← [[a]]', reflections: '' });
  assert.equal(out, '← [[a]]\nfixed line');
});
