/**
 * `ocm-run import` through the built CLI: the project's own export comes back into an empty home with
 * every id, and a second import adds nothing; a folder of Markdown notes (an Obsidian vault) gives one
 * observation per list item or paragraph, with the file as its provenance, masked, found by search,
 * and nothing twice on a second run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { tempHome as bareHome, writeDay } from '../helpers/search-fixtures.js';

/** A home with its config, as `setup` or any first command leaves it. */
async function tempHome() {
  const paths = await bareHome();
  const r = await runCli(['config', 'set', 'timezone', 'UTC', '--home', paths.root]);
  assert.equal(r.code, 0, r.stderr);
  return paths;
}

test('import: the own export round-trips with its ids, and a second import adds nothing', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const source = await tempHome();
  const day = await writeDay(source, '2026-02-12', [
    { text: 'PostgreSQL is the main database, Redis for caching.', category: 'decision', priority: 'high', tags: ['postgres'] },
    { text: 'The staging cluster runs in Frankfurt.', category: 'fact', priority: 'medium' },
  ]);
  const exported = join(dir, 'memory.json');
  assert.equal((await runCli(['export', '--output', exported, '--home', source.root])).code, 0);
  const target = await tempHome();
  const first = await runCli(['import', exported, '--home', target.root, '--json']);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout), { ok: true, dryRun: false, source: exported, read: 2, added: 2, present: 0, days: 1 });
  const again = JSON.parse((await runCli(['import', exported, '--home', target.root, '--json'])).stdout);
  assert.equal(again.added, 0);
  assert.equal(again.present, 2);
  const back = join(dir, 'back.json');
  assert.equal((await runCli(['export', '--output', back, '--home', target.root])).code, 0);
  const strip = (file: string) =>
    import('node:fs/promises').then(async (fs) =>
      (JSON.parse(await fs.readFile(file, 'utf8')) as { observations: Array<Record<string, unknown>> }).observations.map(
        ({ path: _p, ...rest }) => rest,
      ),
    );
  assert.deepEqual(await strip(back), await strip(exported), 'the same observations, ids, metadata and provenance');
  assert.deepEqual((await strip(back)).map((o) => o.id).sort(), [...day.ids].sort());
});

test('import: a folder of Markdown notes, one observation per list item or paragraph, provenance the file', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const notes = join(dir, 'Vault');
  await mkdir(join(notes, 'Projects'), { recursive: true });
  await mkdir(join(notes, '.obsidian'), { recursive: true });
  await writeFile(join(notes, '.obsidian', 'app.json'), '{}');
  await writeFile(
    join(notes, 'Projects', 'Billing.md'),
    '---\ndate: 2026-03-02\ntags: [billing]\n---\n# Billing service\n\nWe bill customers through Stripe, monthly. #payments\n\n- The invoice PDF uses WeasyPrint\n- [x] Move the cron job to Kubernetes\n\n```sh\nnot a note\n```\n\nThe test key is sk_live_51HxQjL2eZvKYlo2C8Yx3Vb9Xq7Wt4Rz.\n',
  );
  await writeFile(join(notes, '2026-03-05 standup.md'), 'Jonas owns the chartmuseum upgrade.\n');
  // The vault's own cold notes are day files: their observations come in with their ids, not as notes.
  const other = await tempHome();
  const cold = await writeDay(other, '2026-02-12', [
    { text: 'Decided to keep the ledger in SQLite.', category: 'decision', priority: 'high' },
  ]);
  await mkdir(join(notes, 'OC-Memory', '2026'), { recursive: true });
  await writeFile(join(notes, 'OC-Memory', '2026', '2026-02-12.md'), await readFile(cold.path, 'utf8'));
  const home = await tempHome();
  const r = await runCli(['import', notes, '--home', home.root, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { ok: true, dryRun: false, source: notes, read: 6, added: 6, present: 0, days: 3 });
  const ledger = JSON.parse((await runCli(['search', 'ledger SQLite', '--home', home.root, '--json'])).stdout).results;
  assert.deepEqual(
    ledger.map((x: { id: string }) => x.id),
    cold.ids,
  );
  const again = JSON.parse((await runCli(['import', notes, '--home', home.root, '--json'])).stdout);
  assert.equal(again.added, 0);
  const found = JSON.parse((await runCli(['search', 'WeasyPrint', '--home', home.root, '--json'])).stdout).results;
  assert.equal(found.length, 1);
  assert.equal(found[0].date, '2026-03-02');
  assert.deepEqual(found[0].provenance, { source: 'markdown', agent: 'main', session: 'file:Projects/Billing.md', entryIds: [] });
  const dated = JSON.parse((await runCli(['search', 'chartmuseum', '--home', home.root, '--json'])).stdout).results;
  assert.equal(dated[0].date, '2026-03-05', 'the date in the file name');
  const all = JSON.parse((await runCli(['export', '--home', home.root])).stdout).observations as Array<{
    text: string;
    tags: string[];
    done: boolean;
  }>;
  assert.ok(
    all.every((o) => !o.text.includes('sk_live_51HxQjL2eZvKYlo2C8Yx3Vb9Xq7Wt4Rz')),
    'the key is masked',
  );
  assert.ok(
    all.every((o) => !/not a note|Billing service/.test(o.text)),
    'headings and code are not notes',
  );
  const stripe = all.find((o) => o.text.startsWith('We bill customers'))!;
  assert.deepEqual(new Set(stripe.tags), new Set(['billing', 'payments']));
  assert.equal(all.find((o) => o.text.includes('Kubernetes'))!.done, true);
});
