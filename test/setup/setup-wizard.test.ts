/**
 * The setup wizard driven in a real pseudo-terminal (tmux): all six steps,
 * invalid answers refused at the prompt with the reason, an interruption
 * (Ctrl-C) and a resume, the API key typed masked and checked against a real
 * local OpenAI-compatible server (a wrong key is refused, the right one
 * kept), then --reconfigure with the current values as defaults; the
 * sources question skipped when no other agent's transcripts exist, then
 * offering the Claude Code and Codex transcripts found (one chosen), and
 * starting from the chosen one on the next --reconfigure.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { CLI, tempDir } from '../helpers/cli.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { ok, startOpenAiServer, status, type OpenAiTestServer } from '../helpers/openai-server.js';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');
const GOOD = 'sk-good-4f1c9a7e2b';
const PASSPHRASE = 'seven quiet otters row home';
const BAD = 'sk-bad-00000000000';

let dir = '';
let cleanup: () => Promise<void> = async () => undefined;
let server: OpenAiTestServer;
let env: Record<string, string> = {};
let home = '';
let skip: string | undefined;

before(async () => {
  if (!(await hasTmux())) {
    skip = 'tmux is not installed';
    return;
  }
  ({ dir, cleanup } = await tempDir('ocm-wizard-'));
  server = await startOpenAiServer((req) =>
    req.authorization === `Bearer ${GOOD}` ? ok('OK') : status(401, 'Incorrect API key provided'),
  );
  await mkdir(join(dir, 'openclaw'), { recursive: true });
  await writeFile(join(dir, 'openclaw', 'openclaw.json'), '// my OpenClaw\n{\n  gateway: { port: 18789 },\n}\n');
  home = join(dir, 'home');
  env = {
    HOME: dir,
    XDG_STATE_HOME: join(dir, 'state'),
    OPENCLAW_STATE_DIR: join(dir, 'openclaw'),
    PATH: process.env.PATH ?? '',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
});

after(async () => {
  await server?.close();
  await cleanup();
});

test('wizard: six steps with refusals, Ctrl-C after step 2, resume, masked key checked live (wrong then right), config written', async (t) => {
  if (skip) return t.skip(skip);
  const s1 = await TmuxSession.start('ocm-wizard-a', `${process.execPath} ${CLI} setup --home ${home}`, env);
  try {
    await s1.waitFor(/Memory home/);
    await s1.keys('Enter');
    await s1.waitFor(/token budget/);
    await s1.type('abc');
    await s1.keys('Enter');
    await s1.waitFor(/the token budget must be a whole number/);
    await s1.keys('BSpace', 'BSpace', 'BSpace');
    await s1.type('3000');
    await s1.keys('Enter');
    await s1.waitFor(/Poll interval/);
    await s1.type('5');
    await s1.keys('Enter');
    // No other agent's transcripts on this machine yet: the sources question is skipped.
    await s1.waitFor(
      /Observed: every OpenClaw agent, looked up again at every tick \(agents added later too\)\. No pi, Claude Code or Codex transcripts were found here/,
    );
    await s1.waitFor(/stays hot/);
    await s1.type('30');
    await s1.keys('Enter');
    await s1.waitFor(/proposed for the cold tier/);
    await s1.type('20');
    await s1.keys('Enter');
    await s1.waitFor(/must be more than the hot tier age \(30 days\)/);
    await s1.keys('BSpace', 'BSpace');
    await s1.type('400');
    await s1.keys('Enter');
    await s1.waitFor(/hot → warm automatically/);
    await s1.keys('Enter');
    await s1.waitFor(/approval before moving warm → cold/);
    await s1.keys('Enter');
    await s1.waitFor(/Which LLM turns conversations/);
    await s1.keys('C-c');
    await s1.waitFor(/Setup paused after 2 of 6 steps/);
    await s1.waitFor(/EXIT=130/);
  } finally {
    await s1.kill();
  }
  await assert.rejects(stat(join(home, 'config.yaml')), 'nothing written before the review');
  const progressFiles = await readdir(join(dir, 'state', 'oc-memory'));
  assert.equal(progressFiles.length, 1);

  const s2 = await TmuxSession.start('ocm-wizard-b', `${process.execPath} ${CLI} setup --home ${home}`, env);
  try {
    await s2.waitFor(/Resuming where you stopped: 1\/6 Basics, 2\/6 Memory tiers already answered/);
    await s2.waitFor(/Which LLM turns conversations/);
    await s2.keys('Up', 'Up', 'Up', 'Up', 'Enter'); // heuristic → OpenAI
    await s2.waitFor(/Observer model/);
    await s2.keys('Enter');
    await s2.waitFor(/Reflector model/);
    await s2.keys('Enter');
    await s2.waitFor(/API endpoint/);
    await s2.type('not a url');
    await s2.keys('Enter');
    await s2.waitFor(/that is not a URL/);
    for (let i = 0; i < 'not a url'.length; i++) await s2.keys('BSpace');
    await s2.type(server.url);
    await s2.keys('Enter');
    await s2.waitFor(/OpenAI API key/);
    await s2.type(BAD);
    await s2.keys('Enter');
    await s2.waitFor(/Not accepted: the key was rejected/);
    await s2.keys('Enter'); // type it again
    await s2.waitFor(/OpenAI API key/, { count: 2 });
    await s2.type(GOOD);
    await s2.keys('Enter');
    await s2.waitFor(/The key works\./);
    await s2.waitFor(/Obsidian vault for the cold tier/);
    await s2.type(join(dir, 'vault'));
    await s2.keys('Enter');
    await s2.waitFor(/does not exist\. Create it from OC-Memory's vault template/);
    await s2.keys('Enter');
    await s2.waitFor(/Sync the memory elsewhere/);
    await s2.keys('Down', 'Enter');
    await s2.waitFor(/Encrypt everything that leaves this machine\?/);
    await s2.keys('Enter'); // yes, the default
    await s2.waitFor(/Git remote URL/);
    await s2.type('git@example.com:ada/memory.git');
    await s2.keys('Enter');
    await s2.waitFor(/Branch/);
    await s2.keys('Enter');
    await s2.waitFor(/lose it and the remote copy is lost/);
    await s2.keys('Enter'); // a passphrase
    await s2.waitFor(/Passphrase \(long: several words\)/);
    await s2.type(PASSPHRASE);
    await s2.keys('Enter');
    const review = await s2.waitFor(/Write this configuration\?/);
    assert.match(review, /at most 3000 tokens · tick every 5 min/);
    assert.match(review, /hot 30 days → warm \(automatic\) · warm 400 days → cold \(after approval\)/);
    assert.match(review, /OpenAI: observer gpt-4o-mini/);
    assert.match(review, /encrypted \(age\) with the passphrase in \.env/);
    await s2.keys('Enter');
    await s2.waitFor(/Install the schedule now/);
    await s2.keys('Right', 'Enter'); // no: this machine's crontab stays untouched
    await s2.waitFor(/Set up the OpenClaw integration/);
    await s2.keys('Enter');
    const done = await s2.waitFor(/EXIT=\d+/, { timeoutMs: 60_000 });
    assert.match(done, /EXIT=0/);
    assert.match(done, /OC-Memory is set up\./);
    assert.match(done, /Next steps:/);
    assert.ok(!done.includes(GOOD) && !done.includes(BAD), 'the key never shows on the screen');
    assert.ok(!done.includes(PASSPHRASE), 'nor the sync passphrase');
  } finally {
    await s2.kill();
  }

  const config = await readFile(join(home, 'config.yaml'), 'utf8');
  assert.match(config, /budget_tokens: 3000/);
  assert.match(config, /every_minutes: 5/);
  assert.match(config, /hot_ttl_days: 30/);
  assert.match(config, /warm_ttl_days: 400/);
  assert.match(config, /provider: openai/);
  assert.match(config, /api_key: "\$\{OPENAI_API_KEY\}"/);
  assert.match(config, new RegExp(`api_base: "${server.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
  assert.match(config, /remote: "git@example\.com:ada\/memory\.git"/);
  assert.match(config, /^\s+encrypt: true/m);
  assert.ok(!config.includes(PASSPHRASE), 'the passphrase is not in config.yaml');
  assert.match(await readFile(join(home, '.env'), 'utf8'), new RegExp(`^OCM_SYNC_PASSPHRASE="${PASSPHRASE}"$`, 'm'));
  assert.ok(!config.includes(GOOD), 'the key is not in config.yaml');
  assert.match(config, /^# OC-Memory configuration/m, "the template's comments stay");
  assert.equal((await stat(join(home, 'config.yaml'))).mode & 0o777, 0o600);
  assert.match(await readFile(join(home, '.env'), 'utf8'), new RegExp(`^OPENAI_API_KEY=${GOOD}$`, 'm'));
  assert.equal((await stat(join(home, '.env'))).mode & 0o777, 0o600);
  assert.ok((await stat(join(dir, 'vault', 'OC-Memory'))).isDirectory(), 'vault created from the template');
  const oc = JSON5.parse(await readFile(join(dir, 'openclaw', 'openclaw.json'), 'utf8'));
  // Only agent main (OpenClaw 2026.9 keys): main's own files, not everything below the roots (integrate openclaw, docs/running.md).
  assert.deepEqual(oc.memory.search.extraPaths, [
    { path: join(home, 'memory'), pattern: '*.md' },
    { path: join(home, 'reflections'), pattern: '*.md' },
  ]);
  assert.deepEqual(await readdir(join(dir, 'state', 'oc-memory')), [], 'the progress file is gone once setup is done');
  const auths = server.requests.map((r) => r.authorization);
  assert.deepEqual(auths, [`Bearer ${BAD}`, `Bearer ${GOOD}`], 'one live check per typed key');
});

test('wizard --reconfigure: current values are the defaults, the saved key is kept, comments survive; Claude Code found and chosen', async (t) => {
  if (skip) return t.skip(skip);
  // Claude Code and Codex transcripts appear on the machine: basics now asks which to observe.
  await cp(join(FIXTURES, 'claude-code', 'projects'), join(dir, '.claude', 'projects'), { recursive: true });
  await cp(join(FIXTURES, 'codex', 'sessions'), join(dir, '.codex', 'sessions'), { recursive: true });
  const configPath = join(home, 'config.yaml');
  await writeFile(configPath, `${await readFile(configPath, 'utf8')}# my own note at the end\n`);
  const before = server.requests.length;
  const s = await TmuxSession.start('ocm-wizard-c', `${process.execPath} ${CLI} setup --reconfigure --home ${home}`, env);
  try {
    await s.waitFor(/changing the current settings/);
    await s.waitFor(/Memory home/);
    await s.keys('Enter');
    await s.waitFor(/token budget[^\n]*\n[^\n]*3000/);
    await s.keys('BSpace', 'BSpace', 'BSpace', 'BSpace');
    await s.type('2500');
    await s.keys('Enter');
    await s.waitFor(/Poll interval[^\n]*\n[^\n]*5/);
    await s.keys('Enter');
    const question = await s.waitFor(
      /Also observe these agents' transcripts\?[^\n]*observed anyway: OpenClaw \(every agent, also added later\)/,
    );
    assert.match(question, /◻ Claude Code — [^\n]*\/\.claude\/projects · \d+ sessions?/, 'found, with path and sessions, not selected');
    assert.match(question, /◻ Codex CLI — [^\n]*\/\.codex\/sessions · 3 sessions/);
    assert.doesNotMatch(question, /pi — /, 'pi is not on this machine: not offered');
    await s.keys('Space');
    await s.waitFor(/◼ Claude Code/);
    await s.keys('Enter');
    await s.waitFor(/stays hot[^\n]*\n[^\n]*30/);
    await s.keys('Enter');
    await s.waitFor(/proposed for the cold tier[^\n]*\n[^\n]*400/);
    await s.keys('Enter');
    await s.waitFor(/hot → warm automatically/);
    await s.keys('Enter');
    await s.waitFor(/approval before moving warm → cold/);
    await s.keys('Enter');
    await s.waitFor(/● OpenAI/);
    await s.keys('Enter');
    await s.waitFor(/Observer model/);
    await s.keys('Enter');
    await s.waitFor(/Reflector model/);
    await s.keys('Enter');
    await s.waitFor(/API endpoint/);
    await s.keys('Enter');
    await s.waitFor(/Enter keeps the saved one/);
    await s.keys('Enter');
    await s.waitFor(/The key works\./);
    await s.waitFor(/Obsidian vault for the cold tier/);
    await s.keys('Enter');
    await s.waitFor(/Sync the memory elsewhere/);
    await s.keys('Enter');
    await s.waitFor(/Encrypt everything that leaves this machine\?/);
    await s.keys('Enter'); // keeps the current setting (on)
    await s.waitFor(/Git remote URL/);
    await s.keys('Enter');
    await s.waitFor(/Branch/);
    await s.keys('Enter');
    await s.waitFor(/lose it and the remote copy is lost/);
    await s.keys('Enter');
    await s.waitFor(/Enter keeps the one already set/);
    await s.keys('Enter');
    const review = await s.waitFor(/Write this configuration\?/);
    assert.match(review, /Sources: +OpenClaw \(every agent, also added later\) \+ Claude Code +│/);
    await s.keys('Enter');
    await s.waitFor(/Install the schedule now/);
    await s.keys('Right', 'Enter');
    await s.waitFor(/Set up the OpenClaw integration/);
    await s.keys('Right', 'Enter');
    // ~/.claude exists here: the opt-in Claude Code step is asked, "No" by default.
    await s.waitFor(/Give Claude Code the memory too/);
    await s.keys('Enter');
    // ~/.codex exists too: the opt-in Codex step is asked, "No" by default.
    await s.waitFor(/Give Codex the memory too/);
    await s.keys('Enter');
    const done = await s.waitFor(/EXIT=\d+/, { timeoutMs: 60_000 });
    assert.match(done, /EXIT=0/);
  } finally {
    await s.kill();
  }
  const config = await readFile(configPath, 'utf8');
  assert.match(config, /budget_tokens: 2500/);
  assert.match(config, /every_minutes: 5/);
  assert.match(config, /warm_ttl_days: 400/);
  assert.match(config, /remote: "git@example\.com:ada\/memory\.git"/);
  assert.match(config, /^\s+encrypt: true/m);
  assert.ok(!config.includes(PASSPHRASE), 'the passphrase is not in config.yaml');
  assert.match(await readFile(join(home, '.env'), 'utf8'), new RegExp(`^OCM_SYNC_PASSPHRASE="${PASSPHRASE}"$`, 'm'));
  assert.match(config, /# my own note at the end/);
  assert.match(await readFile(join(home, '.env'), 'utf8'), new RegExp(`^OPENAI_API_KEY=${GOOD}$`, 'm'));
  assert.equal(server.requests.length, before + 1);
  assert.equal(server.requests.at(-1)!.authorization, `Bearer ${GOOD}`, 'the saved key was checked');
  assert.match(config, /claude_code:\n\s+enabled: true/);
  assert.match(config, /codex:\n\s+enabled: false/);
});

test('wizard --reconfigure: the sources question starts from the sources now observed', async (t) => {
  if (skip) return t.skip(skip);
  const s = await TmuxSession.start('ocm-wizard-d', `${process.execPath} ${CLI} setup --reconfigure --home ${home}`, env);
  try {
    await s.waitFor(/Memory home/);
    await s.keys('Enter');
    await s.waitFor(/token budget/);
    await s.keys('Enter');
    await s.waitFor(/Poll interval/);
    await s.keys('Enter');
    const question = await s.waitFor(/Also observe these agents' transcripts\?/);
    assert.match(question, /◼ Claude Code — /);
    assert.match(question, /◻ Codex CLI — /);
    await s.keys('C-c');
    await s.waitFor(/EXIT=130/);
  } finally {
    await s.kill();
  }
  assert.match(await readFile(join(home, 'config.yaml'), 'utf8'), /claude_code:\n\s+enabled: true/, 'nothing changed by a cancelled run');
});

test('wizard --reconfigure with pi installed: the opt-in pi step is asked ("No" by default) and "Yes" writes the extension, as integrate pi does', async (t) => {
  if (skip) return t.skip(skip);
  await mkdir(join(dir, '.pi', 'agent'), { recursive: true });
  const s = await TmuxSession.start('ocm-wizard-e', `${process.execPath} ${CLI} setup --reconfigure --home ${home}`, env);
  try {
    // Every step as it is (Enter), up to the opt-in steps after the review.
    for (const step of [
      /Memory home/,
      /token budget/,
      /Poll interval/,
      /Also observe these agents' transcripts\?/,
      /stays hot/,
      /proposed for the cold tier/,
      /hot → warm automatically/,
      /approval before moving warm → cold/,
      /● OpenAI/,
      /Observer model/,
      /Reflector model/,
      /API endpoint/,
      /Enter keeps the saved one/,
    ]) {
      await s.waitFor(step);
      await s.keys('Enter');
    }
    await s.waitFor(/The key works\./);
    for (const step of [
      /Obsidian vault for the cold tier/,
      /Sync the memory elsewhere/,
      /Encrypt everything that leaves this machine\?/,
      /Git remote URL/,
      /Branch/,
      /lose it and the remote copy is lost/,
      /Enter keeps the one already set/,
      /Write this configuration\?/,
    ]) {
      await s.waitFor(step);
      await s.keys('Enter');
    }
    for (const question of [/Install the schedule now/, /Set up the OpenClaw integration/]) {
      await s.waitFor(question);
      await s.keys('Right', 'Enter');
    }
    for (const question of [/Give Claude Code the memory too/, /Give Codex the memory too/]) {
      await s.waitFor(question);
      await s.keys('Enter');
    }
    const asked = await s.waitFor(/Give pi the memory too[^\n]*\n(?:[^\n]*\n)?[^\n]*● No/);
    assert.match(asked, /○ Yes \/ ● No/, '"No" by default');
    await s.keys('Left', 'Enter');
    const done = await s.waitFor(/EXIT=\d+/, { timeoutMs: 60_000 });
    assert.match(done, /EXIT=0/);
    assert.match(done, /pi integration for /);
  } finally {
    await s.kill();
  }
  const extension = join(dir, '.pi', 'agent', 'extensions', 'oc-memory');
  assert.deepEqual((await readdir(extension)).sort(), ['index.ts', 'oc-memory.json']);
  assert.equal((JSON.parse(await readFile(join(extension, 'oc-memory.json'), 'utf8')) as { home: string }).home, home);
  assert.match(await readFile(join(home, 'config.yaml'), 'utf8'), /\bpi:\n\s+enabled: true/);
});
