/**
 * The dashboard and the CLI on the lifecycle: *Remember this* saves to `main` by default and reaches
 * active memory at once; a mark set and cleared on the edit page and with `ocm-run mark`, in the file,
 * active memory and search.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { formPoster, sessionCookie, startUi } from '../helpers/ui-server.js';
import { makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import { dayFilePath } from '../../lib/platform/home.js';

test("ocm-run ui: 'Remember this' offers main first and reaches active memory at once; a mark set and cleared on the edit page; ocm-run mark does the same", async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const today = new Date().toISOString().slice(0, 10);
  const pg = makeObservation(1, today, {
    text: 'We use Postgres 16 for the crumbline database.',
    category: 'decision',
    priority: 'high',
    time: '09:00',
  });
  const sqlite = makeObservation(2, today, {
    text: 'We moved the crumbline database to SQLite.',
    category: 'decision',
    priority: 'high',
    time: '10:00',
  });
  // Another agent sorts before main: the form must still default to main.
  await writeHot(paths, [pg, sqlite, makeObservation(3, today, { agent: 'claude-code', text: 'The CI runs on every push.' })]);
  assert.equal((await runCli(['index', '--home', paths.root])).code, 0);

  const ui = await startUi(paths.root);
  t.after(() => ui.stop());
  const jar = await sessionCookie(ui);
  const home = await (await fetch(`${ui.origin}/`, { headers: { cookie: jar }, signal: AbortSignal.timeout(60_000) })).text();
  const select = /<select name="agent">([\s\S]*?)<\/select>/.exec(home.slice(home.indexOf('action="/observation/add"')))![1]!;
  assert.match(select, /<option value="main" selected>main<\/option>/);
  assert.doesNotMatch(select, /<option value="claude-code" selected>/);
  const post = formPoster(ui, jar);
  // What the browser sends when the user only types the text: the selected agent.
  const added = await post('/observation/add', {
    text: 'The bakery opens at 6 on Saturdays.',
    priority: 'high',
    category: 'fact',
    tags: '',
    agent: 'main',
    back: '/',
  });
  assert.equal(added.status, 303);
  assert.match(await readFile(dayFilePath(paths, 'hot', 'main', today), 'utf8'), /The bakery opens at 6 on Saturdays\./);
  assert.match(await readFile(paths.activeMemory, 'utf8'), /The bakery opens at 6 on Saturdays\./, 'active memory rebuilt at once');

  // The edit page's mark form: superseded by the newer decision.
  const file = relative(paths.root, dayFilePath(paths, 'hot', 'main', today));
  const page = await (
    await fetch(`${ui.origin}/observation?file=${encodeURIComponent(file)}&id=${pg.id}&back=/`, {
      headers: { cookie: jar },
      signal: AbortSignal.timeout(60_000),
    })
  ).text();
  assert.match(page, /action="\/observation\/mark"/);
  const marked = await post('/observation/mark', { file, id: pg.id, mark: 'superseded', by: `^${sqlite.id}`, back: '/' });
  assert.equal(marked.status, 303);
  const line = (await readFile(join(paths.root, file), 'utf8')).split('\n').find((l) => l.includes(pg.id))!;
  assert.match(line, new RegExp(`Postgres 16 for the crumbline database\\. \\(superseded ${today} by ${sqlite.id}\\) \\^${pg.id}$`));
  assert.doesNotMatch(await readFile(paths.activeMemory, 'utf8'), /Postgres 16/);
  const listed = await (
    await fetch(`${ui.origin}/search?q=${encodeURIComponent('crumbline database')}`, {
      headers: { cookie: jar },
      signal: AbortSignal.timeout(60_000),
    })
  ).text();
  assert.match(listed, new RegExp(`\\(superseded ${today} by ${sqlite.id}\\)`));
  const bad = await post('/observation/mark', { file, id: pg.id, mark: 'superseded', by: 'tomorrow', back: '/' });
  assert.equal(bad.status, 400);
  assert.equal((await post('/observation/mark', { file, id: pg.id, mark: 'clear', back: '/' })).status, 303);
  assert.doesNotMatch(await readFile(join(paths.root, file), 'utf8'), /\(superseded/);
  assert.match(await readFile(paths.activeMemory, 'utf8'), /Postgres 16/);

  // The CLI: done, superseded-by, clear; an unknown id or a wrong word says so.
  const done = await runCli(['mark', sqlite.id, 'superseded-by', pg.id, '--home', paths.root]);
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, new RegExp(`${sqlite.id} in memory/${today}\\.md: \\(superseded ${today} by ${pg.id}\\)`));
  assert.match(
    await readFile(join(paths.root, file), 'utf8'),
    new RegExp(`SQLite\\. \\(superseded ${today} by ${pg.id}\\) \\^${sqlite.id}`),
  );
  assert.doesNotMatch(await readFile(paths.activeMemory, 'utf8'), /moved the crumbline database to SQLite/);
  const json = JSON.parse((await runCli(['search', 'crumbline SQLite', '--json', '--home', paths.root])).stdout);
  assert.deepEqual(json.results.find((r: { id: string }) => r.id === sqlite.id).mark, { kind: 'superseded', date: today, by: pg.id });
  assert.equal((await runCli(['mark', sqlite.id, 'clear', '--home', paths.root])).code, 0);
  assert.doesNotMatch(await readFile(join(paths.root, file), 'utf8'), /\(superseded/);
  assert.equal((await runCli(['mark', pg.id, 'done', '--home', paths.root])).code, 0);
  assert.match(
    await readFile(join(paths.root, file), 'utf8'),
    new RegExp(`- ✅ 🔴 09:00 \\[decision\\] We use Postgres 16 for the crumbline database\\. \\(done ${today}\\) \\^${pg.id}`),
  );
  const unknown = await runCli(['mark', 'o-0000000000', 'done', '--home', paths.root]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No observation with id o-0000000000/);
  const word = await runCli(['mark', pg.id, 'finished', '--home', paths.root]);
  assert.equal(word.code, 1);
  assert.match(word.stderr, /→ Use: ocm-run mark <id> done \| superseded-by <id> \| clear/);
});
