/**
 * A day link in a cold note can lead to a day that is not cold yet; clicking it in Obsidian creates an
 * empty note at that path. When that day is approved later, its cold note must still be a whole
 * cold note: date, tier, title, the links to its neighbours, and one provenance block — the empty
 * note Obsidian made (or one the user typed a line into) does not take its place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { tempDir } from '../helpers/cli.js';
import { makeObservation, newHome, testConfig, writeHot } from '../helpers/tier-home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { listObservations, parseDayFile } from '../../lib/memory/day-file/index.js';
import { addDays } from '../../lib/tiers/age.js';
import { approveProposals, runTierJob } from '../../lib/tiers/tier-job.js';
import { tierFilePath } from '../../lib/tiers/locations.js';

for (const [name, clicked] of [
  ['an empty note', ''],
  ['a note the user typed into', 'my thoughts on that day\n'],
] as const) {
  test(`approving a day whose dangling link Obsidian had turned into ${name} gives a whole cold note`, async (t) => {
    const { dir, cleanup } = await tempDir();
    t.after(cleanup);
    const paths = await newHome(dir);
    const vault = join(dir, 'Vault');
    const config = testConfig({ tiers: { vault_path: vault } });
    const [d1, d2] = ['2025-04-07', '2025-04-08'];
    const a = makeObservation(1, d1, { text: 'Decided to host the docs on Netlify.' });
    const b = makeObservation(2, d2, { text: 'Moved the docs to Cloudflare Pages.' });
    await writeHot(paths, [a, b], 'warm');
    const logger = createMemoryLogger();
    // Only the first day is old enough at first.
    const first = { paths, config, logger, now: () => new Date(`${addDays(d1, config.tiers.warm_ttl_days)}T12:00:00Z`) };
    await runTierJob(first);
    await approveProposals(first, ['all']);
    const note1 = await readFile(tierFilePath(paths, vault, 'cold', 'main', d1), 'utf8');
    const linked = tierFilePath(paths, vault, 'cold', 'main', d2);
    assert.ok(note1.includes(`[[OC-Memory/2025/${d2}|${d2}]] →`), note1);
    assert.ok(!existsSync(linked), 'the link dangles: the next day is not cold yet');
    // The user clicks the link: Obsidian creates the note it names.
    await mkdir(dirname(linked), { recursive: true });
    await writeFile(linked, clicked);

    const later = { ...first, now: () => new Date(`${addDays(d2, config.tiers.warm_ttl_days + 1)}T12:00:00Z`) };
    await runTierJob(later);
    await approveProposals(later, ['all']);
    const text = await readFile(linked, 'utf8');
    const day = parseDayFile(text);
    assert.equal(day.frontmatter.data.date, d2, text);
    assert.equal(day.frontmatter.data.tier, 'cold', text);
    assert.equal(day.frontmatter.data.type, 'oc-memory-day', text);
    assert.match(text, new RegExp(`^# ${d2}$`, 'm'), 'the title');
    assert.ok(text.includes(`← [[OC-Memory/2025/${d1}|${d1}]]`), `the link back to ${d1}:\n${text}`);
    assert.equal(text.match(/<!-- oc-memory provenance/g)?.length, 1, `one provenance block:\n${text}`);
    assert.deepEqual(
      listObservations(day).map((o) => o.id),
      [b.id],
    );
    if (clicked) assert.ok(text.includes(clicked.trim()), 'what the user typed is kept');
  });
}
