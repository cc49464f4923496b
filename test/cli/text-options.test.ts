/**
 * Text options stay text (issue #22 item 1): `--query ""` and `--query 007`
 * once reached `forget` as 0 and 7 and erased observations holding a "0" or a
 * "7"; `config set observer.user_name 007` stored 7. Every value option of
 * every command keeps the words as typed; an empty query is refused; a query
 * matching most of the memory needs an explicit --all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { runCli, tempDir } from '../helpers/cli.js';
import { idsByTier, makeObservation, newHome, writeHot } from '../helpers/tier-home.js';
import type { HomePaths } from '../../lib/platform/home.js';
import { loadAllCommands } from '../../scripts/commands/index.js';
import { GLOBAL_FLAGS, namedArgs, parseFlags } from '../../scripts/flags.js';

const TODAY = new Date().toISOString().slice(0, 10);
const TRICKY = ['007', '', '0', '1e3', '0x10', ' 42 ', '-0', 'Infinity', '12.50'];

test('every value option of every command, and every positional word, keeps the text as typed', async () => {
  const commands = await loadAllCommands();
  let checked = 0;
  for (const spec of commands) {
    const flags = { ...spec.flags, ...GLOBAL_FLAGS };
    for (const [key, flag] of Object.entries(spec.flags ?? {})) {
      if (flag.value === undefined) continue;
      const name = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      for (const value of TRICKY) {
        // A value that starts with "-" reads as an option unless it is joined with "=".
        const forms = value.startsWith('-') ? [[`--${name}=${value}`]] : [[`--${name}`, value], [`--${name}=${value}`]];
        for (const argv of forms) {
          const word = spec.name.split(' ')[0]!;
          const parsed = parseFlags([word, ...argv], flags);
          assert.equal(parsed.problem, undefined, `${word} ${argv.join(' ')}: ${JSON.stringify(parsed.problem)}`);
          // A repeatable option gives every value as typed, in a list.
          assert.deepEqual(
            parsed.values[key],
            flag.multiple ? [value] : value,
            `${word} ${argv.join(' ')} gave ${JSON.stringify(parsed.values[key])}`,
          );
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 200, `checked ${checked} option values`);
  // A word after a flag (mri once pushed it as a number) and after `--`.
  const config = commands.find((c) => c.name.startsWith('config '))!;
  const parsed = parseFlags(['config', 'set', 'observer.user_name', '--json', '007', '--', '-0'], { ...config.flags, ...GLOBAL_FLAGS });
  assert.deepEqual(namedArgs(config.name, parsed.words.slice(1)).args, { action: 'set', key: 'observer.user_name', value: '007' });
  assert.deepEqual(parsed.words, ['config', 'set', 'observer.user_name', '007', '-0']);
});

async function homeWith(dir: string, texts: string[]): Promise<{ root: string; paths: HomePaths }> {
  const paths = await newHome(dir);
  await writeFile(paths.config, 'timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\n');
  const obs = texts.map((text, i) => makeObservation(i, TODAY, { text }));
  await writeHot(paths, obs);
  return { root: paths.root, paths };
}

test('forget --query 007 matches "007" only, --query "" is refused, and a query matching most of the memory needs --all', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const texts = [
    'Agent 007 is on the case.',
    'Room 7 is booked.',
    'Version 0.7 shipped.',
    'The year 1970 was long ago.',
    'Budget is 700 euros.',
    'A cat sat on a mat.',
  ];
  const home = await homeWith(dir, texts);
  const count = async () => (await idsByTier(home.paths, '')).hot.length;

  for (const form of [['--query', '007'], ['--query=007']]) {
    const dry = await runCli(['forget', ...form, '--dry-run', '--json', '--home', home.root]);
    assert.equal(dry.code, 0, dry.stderr);
    const targets = (JSON.parse(dry.stdout) as { targets: Array<{ text: string }> }).targets;
    assert.deepEqual(
      targets.map((x) => x.text),
      ['Agent 007 is on the case.'],
      `${form.join(' ')} matched ${JSON.stringify(targets)}`,
    );
  }

  for (const form of [['--query', ''], ['--query='], ['--query', '   ']]) {
    const empty = await runCli(['forget', ...form, '--yes', '--home', home.root]);
    assert.equal(empty.code, 1, empty.stdout);
    assert.match(empty.stderr, /--query text is empty/);
  }
  assert.equal(await count(), 6, 'nothing was forgotten');

  // "e" is in 5 of 6 observations: refused without --all, even with --yes.
  const broad = await runCli(['forget', '--query', 'e', '--yes', '--home', home.root]);
  assert.equal(broad.code, 1);
  assert.match(broad.stderr, /matches 5 of 6 observations, most of the memory/);
  assert.match(broad.stderr, /--all/);
  assert.equal(await count(), 6, 'nothing was forgotten');

  const one = await runCli(['forget', '--query', '007', '--yes', '--home', home.root]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /Forgot 1 observation/);
  assert.equal(await count(), 5);

  const confirmed = await runCli(['forget', '--query', 'e', '--all', '--yes', '--json', '--home', home.root]);
  assert.equal(confirmed.code, 0, confirmed.stderr);
  assert.equal((JSON.parse(confirmed.stdout) as { observations: number }).observations, 4);
  assert.equal(await count(), 1, 'the one observation without an "e" stays');
});

test('config set keeps text for text keys: observer.user_name 007 stays "007"', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = await homeWith(dir, ['x']);
  const set = await runCli(['config', 'set', 'observer.user_name', '007', '--home', home.root]);
  assert.equal(set.code, 0, set.stderr);
  const get = await runCli(['config', 'get', 'observer.user_name', '--json', '--home', home.root]);
  assert.equal(JSON.parse(get.stdout), '007');
  assert.match(await readFile(`${home.root}/config.yaml`, 'utf8'), /user_name: "007"/);
  // Numbers still parse where the schema wants a number.
  const budget = await runCli(['config', 'set', 'active_memory.budget_tokens', '3000', '--home', home.root]);
  assert.equal(budget.code, 0, budget.stderr);
  assert.equal(JSON.parse((await runCli(['config', 'get', 'active_memory.budget_tokens', '--json', '--home', home.root])).stdout), 3000);
});

test('`--` ends the flags: what follows is text, even when it reads as a flag', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = await homeWith(dir, ['Pass the --limit flag to cap the results.', 'A cat sat on a mat.']);
  const r = await runCli(['search', '--json', '--home', home.root, '--', '--limit']);
  assert.equal(r.code, 0, r.stderr);
  const results = (JSON.parse(r.stdout) as { results: Array<{ snippet: string }> }).results;
  assert.equal(results.length, 1, r.stdout);
  assert.match(results[0]!.snippet, /Pass the --limit flag/);
  // An unknown flag is named as it was typed.
  const typo = await runCli(['search', 'cat', '--dry-run', '--home', home.root]);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /Unknown option `--dry-run` for `search`\./);
});
