/**
 * `setup --yes …`: every wizard answer as a flag, validated the same way the
 * prompts validate (a refused value writes nothing), the key checked live
 * against a real local OpenAI-compatible server before it is saved, the
 * integration on request; `--sources` choosing the other agents observed
 * on a machine with Claude Code and Codex transcripts; and the plain `setup`
 * refusing to ask questions without a terminal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { answersFromFlags, chosenSources, configValues, defaultAnswers, sourceChoices, validate } from '../../lib/setup/answers.js';
import type { SourceReport } from '../../lib/sources/discovery.js';
import { setEnvValue } from '../../lib/setup/apply.js';
import { parseDotEnv } from '../../lib/config/config.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { ok, startOpenAiServer, status } from '../helpers/openai-server.js';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');

test('answers: flags are validated like the prompts and become config values', () => {
  const base = defaultAnswers('/home/ada/.openclaw/oc-memory');
  const a = answersFromFlags(
    {
      provider: 'gemini',
      budgetTokens: '3000',
      every: '5',
      hotTtlDays: '30',
      warmTtlDays: '200',
      coldApproval: 'no',
      sync: 'command',
      syncCommand: 'rclone sync x y',
    },
    base,
  );
  const values = Object.fromEntries(configValues(a));
  assert.equal(values['observer.provider'], 'gemini');
  assert.equal(values['observer.model'], 'gemini-2.5-flash');
  assert.equal(values['observer.api_key'], '${GEMINI_API_KEY}');
  assert.equal(values['reflector.model'], 'gemini-2.5-flash');
  assert.equal(values['active_memory.budget_tokens'], 3000);
  assert.equal(values['tiers.cold_requires_approval'], false);
  assert.equal(values['sync.command'], 'rclone sync x y');
  assert.equal(values['sync.git.enabled'], false);
  assert.throws(() => answersFromFlags({ budgetTokens: '10' }, base), /--budget-tokens: the token budget must be between 200 and 200000/);
  assert.throws(
    () => answersFromFlags({ hotTtlDays: '100', warmTtlDays: '50' }, base),
    /--warm-ttl-days: the warm tier age must be more than the hot tier age/,
  );
  assert.throws(() => answersFromFlags({ provider: 'skynet' }, base), /--provider must be one of/);
  assert.throws(() => answersFromFlags({ provider: 'custom' }, base), /--model: name a model/);
  assert.throws(() => answersFromFlags({ provider: 'custom', model: 'm' }, base), /--api-base: a custom provider needs/);
  assert.throws(() => answersFromFlags({ sync: 'git' }, base), /--git-remote/);
  assert.throws(() => answersFromFlags({ autoHotToWarm: 'maybe' }, base), /yes or no/);
  assert.equal(validate.home('relative/path'), 'use an absolute path (or one starting with ~/)');
  assert.equal(validate.apiKey('sk abc def'), 'an API key has no spaces');
});

test('setEnvValue keeps the other lines, replaces the variable, quotes when needed, mode 0600', async () => {
  const { dir, cleanup } = await tempDir('ocm-setup-');
  try {
    const file = join(dir, '.env');
    await writeFile(file, '# secrets\nOTHER=1\nexport OPENAI_API_KEY=old\n');
    await setEnvValue(file, 'OPENAI_API_KEY', 'sk-new-123');
    await setEnvValue(file, 'WEIRD', 'a b"c#d');
    const text = await readFile(file, 'utf8');
    assert.equal(text.split('\n')[0], '# secrets');
    assert.deepEqual(parseDotEnv(text), { OTHER: '1', OPENAI_API_KEY: 'sk-new-123', WEIRD: 'a b"c#d' });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  } finally {
    await cleanup();
  }
});

test('setup --yes: every answer from flags, the key checked live then saved to .env, vault, sync, OpenClaw integration', async () => {
  const { dir, cleanup } = await tempDir('ocm-setup-');
  const server = await startOpenAiServer((req) =>
    req.authorization === 'Bearer sk-right-abcdef123' ? ok('OK') : status(401, 'Incorrect API key provided'),
  );
  try {
    await mkdir(join(dir, 'openclaw'));
    // A restricted tool profile: setup says what to add so the models are offered the memory tools (lib/integrations/openclaw/tool-policy.ts).
    await writeFile(join(dir, 'openclaw', 'openclaw.json'), '{ /* mine */ tools: { profile: "minimal" } }\n');
    const home = join(dir, 'home');
    const env = {
      HOME: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      OPENCLAW_STATE_DIR: join(dir, 'openclaw'),
      MY_KEY: 'sk-wrong-abcdef123',
      OPENAI_API_KEY: undefined,
    };
    const common = [
      'setup',
      '--yes',
      '--home',
      home,
      '--provider',
      'openai',
      '--model',
      'gpt-4o-mini',
      '--api-base',
      server.url,
      '--api-key-env',
      'MY_KEY',
      '--budget-tokens',
      '2000',
      '--every',
      '10',
      '--vault',
      join(dir, 'vault'),
      '--sync',
      'git',
      '--git-remote',
      'https://example.com/ada/memory.git',
      '--encrypt',
      'no',
      '--integrate-openclaw',
    ];

    const wrong = await runCli(common, { env });
    assert.equal(wrong.code, 5, wrong.stderr);
    assert.match(wrong.stderr, /the key was rejected/);
    assert.match(wrong.stderr, /Nothing was written/);
    await assert.rejects(stat(join(home, 'config.yaml')));

    const refused = await runCli([...common, '--budget-tokens', '50'], { env: { ...env, MY_KEY: 'sk-right-abcdef123' } });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--budget-tokens: the token budget must be between 200 and 200000/);
    await assert.rejects(stat(join(home, 'config.yaml')));

    const r = await runCli(common, { env: { ...env, MY_KEY: 'sk-right-abcdef123' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /OPENAI_API_KEY, mode 0600/);
    assert.match(r.stdout, /Next steps:/);
    const config = await readFile(join(home, 'config.yaml'), 'utf8');
    assert.match(config, /budget_tokens: 2000/);
    assert.match(config, /every_minutes: 10/);
    assert.match(config, /provider: openai/);
    assert.match(config, /api_key: "\$\{OPENAI_API_KEY\}"/);
    assert.match(config, /remote: "https:\/\/example\.com\/ada\/memory\.git"/);
    assert.doesNotMatch(config, /sk-right/);
    assert.match(await readFile(join(home, '.env'), 'utf8'), /^OPENAI_API_KEY=sk-right-abcdef123$/m);
    assert.equal((await stat(join(home, '.env'))).mode & 0o777, 0o600);
    assert.ok((await stat(join(dir, 'vault', 'OC-Memory'))).isDirectory());
    const oc = JSON5.parse(await readFile(join(dir, 'openclaw', 'openclaw.json'), 'utf8'));
    assert.equal(oc.plugins.entries['oc-memory'].config.home, home);
    assert.match(r.stdout, /add "oc-memory" to tools\.alsoAllow — the "minimal" tool profile/);
    assert.deepEqual(
      server.requests.map((q) => q.authorization),
      ['Bearer sk-wrong-abcdef123', 'Bearer sk-right-abcdef123'],
    );

    // The written setup works: doctor accepts the key through config.yaml + .env.
    const doctor = JSON.parse((await runCli(['doctor', '--json', '--home', home], { env: { ...env, MY_KEY: undefined } })).stdout);
    assert.equal(doctor.checks.find((c: { id: string }) => c.id === 'llm').status, 'ok');
  } finally {
    await server.close();
    await cleanup();
  }
});

test('setup --yes --provider heuristic needs no key; setup without a terminal and without --yes says what to do', async () => {
  const { dir, cleanup } = await tempDir('ocm-setup-');
  try {
    const home = join(dir, 'home');
    const env = { HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
    const r = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(await readFile(join(home, 'config.yaml'), 'utf8'), /provider: heuristic/);
    const needKey = await runCli(['setup', '--yes', '--provider', 'anthropic', '--home', join(dir, 'h2')], {
      env: { ...env, ANTHROPIC_API_KEY: undefined },
    });
    assert.equal(needKey.code, 2);
    assert.match(needKey.stderr, /anthropic needs an API key/);
    assert.match(needKey.stderr, /--api-key-env ANTHROPIC_API_KEY/);
    const tty = await runCli(['setup', '--home', join(dir, 'h3')], { env });
    assert.equal(tty.code, 1);
    assert.match(tty.stderr, /not a terminal/);
    assert.match(tty.stderr, /setup --yes/);
    const re = await runCli(['setup', '--reconfigure', '--yes', '--home', join(dir, 'h4')], { env });
    assert.equal(re.code, 2);
    assert.match(re.stderr, /no setup to change/);
  } finally {
    await cleanup();
  }
});

test('answers: --sources names the other agents to observe, checked by the same rules as the wizard question', () => {
  const base = defaultAnswers('/home/ada/.openclaw/oc-memory');
  assert.deepEqual(base.sources.observe, [], 'other agents are opt-in');
  const a = answersFromFlags({ sources: 'codex, Claude_Code' }, base);
  assert.deepEqual(a.sources.observe, ['claude-code', 'codex']);
  const values = Object.fromEntries(configValues(a));
  assert.deepEqual(
    [values['sources.claude_code.enabled'], values['sources.codex.enabled'], values['sources.pi.enabled']],
    [true, true, false],
  );
  assert.deepEqual(answersFromFlags({ sources: 'none' }, a).sources.observe, []);
  assert.deepEqual(answersFromFlags({}, a).sources.observe, ['claude-code', 'codex'], 'no flag keeps the current choice');
  assert.throws(
    () => answersFromFlags({ sources: 'claude-code,cursor' }, base),
    (e: Error & { exitCode?: number }) =>
      /--sources: unknown source "cursor": choose from pi, claude-code, codex/.test(e.message) && e.exitCode === 2,
  );
  assert.throws(() => answersFromFlags({ sources: 'openclaw' }, base), /OpenClaw is always observed/);
  assert.equal(validate.sources('none,pi'), '"none" cannot be combined with source names');
  assert.equal(validate.sources(''), undefined);
  // What the question offers: only sources found, labelled with path and sessions as discovery reports them.
  const report = (kind: SourceReport['kind'], found: boolean, sessions: number) =>
    ({ kind, name: kind, path: `/u/${kind}`, found, sessions }) as SourceReport;
  assert.deepEqual(
    sourceChoices([report('openclaw', true, 3), report('codex', true, 1), report('pi', false, 0), report('claude-code', true, 4)]),
    [
      { source: 'claude-code', label: 'Claude Code — /u/claude-code · 4 sessions' },
      { source: 'codex', label: 'Codex CLI — /u/codex · 1 session' },
    ],
  );
  // A source that is on but was not offered (its folder is gone right now) stays on.
  assert.deepEqual(chosenSources(['pi', 'codex'], ['claude-code', 'codex'], ['claude-code']), ['pi', 'claude-code']);
});

test('setup --yes --sources claude-code: only Claude Code joins OpenClaw; an unknown name is refused (exit 2, nothing written); --reconfigure keeps the choice', async () => {
  const { dir, cleanup } = await tempDir('ocm-setup-');
  try {
    // A machine (HOME = dir) with Claude Code and Codex transcripts, no pi.
    await cp(join(FIXTURES, 'claude-code', 'projects'), join(dir, '.claude', 'projects'), { recursive: true });
    await cp(join(FIXTURES, 'codex', 'sessions'), join(dir, '.codex', 'sessions'), { recursive: true });
    const home = join(dir, 'home');
    const env = {
      HOME: dir,
      USERPROFILE: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      OPENCLAW_STATE_DIR: undefined,
      CLAUDE_CONFIG_DIR: undefined,
      CODEX_HOME: undefined,
      PI_CODING_AGENT_DIR: undefined,
    };
    const setup = (...flags: string[]) => runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home, ...flags], { env });
    const sources = async () => {
      const r = await runCli(['sources', '--json', '--home', home], { env });
      assert.equal(r.code, 0, r.stderr);
      const list = (JSON.parse(r.stdout) as { sources: SourceReport[] }).sources;
      return Object.fromEntries(list.map((s) => [s.kind, { found: s.found, enabled: s.enabled }]));
    };

    const unknown = await setup('--sources', 'claude-code,cursor');
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /--sources: unknown source "cursor": choose from pi, claude-code, codex \(comma-separated\), or none/);
    await assert.rejects(stat(join(home, 'config.yaml')), 'nothing written');

    // Given twice, the last --sources wins, as in most CLIs.
    const r = await setup('--sources', 'codex', '--sources', 'claude-code');
    assert.equal(r.code, 0, r.stderr);
    // No OpenClaw on this machine (no command, no agents/): setup says so instead of "every OpenClaw agent".
    assert.match(r.stdout, /Observed: Claude Code; OpenClaw is not installed here \(/);
    assert.deepEqual(await sources(), {
      openclaw: { found: false, enabled: true },
      pi: { found: false, enabled: false },
      'claude-code': { found: true, enabled: true },
      codex: { found: true, enabled: false },
    });

    const again = await runCli(['setup', '--reconfigure', '--yes', '--home', home, '--budget-tokens', '3000'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Observed: Claude Code;/, 'the current choice is the default');
    assert.equal((await sources())['claude-code']!.enabled, true);

    const off = await runCli(['setup', '--reconfigure', '--yes', '--home', home, '--sources', 'none'], { env });
    assert.equal(off.code, 0, off.stderr);
    assert.equal((await sources())['claude-code']!.enabled, false);
    assert.match(await readFile(join(home, 'config.yaml'), 'utf8'), /claude_code:\n\s+enabled: false/);
  } finally {
    await cleanup();
  }
});

test('setup --yes picks the memory home as the Obsidian vault and says so; never the user home folder itself; --vault none: no vault', async () => {
  const { dir, cleanup } = await tempDir('ocm-setup-vault-');
  try {
    const env = { HOME: dir, USERPROFILE: dir, XDG_STATE_HOME: join(dir, 'state') };
    const home = join(dir, 'memory');
    const r = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', home], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`Obsidian vault: ${home.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, the memory home itself — open it in Obsidian`),
    );
    assert.match(
      await readFile(join(home, 'config.yaml'), 'utf8'),
      new RegExp(`vault_path: "?${home.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"?`),
    );
    assert.ok((await stat(join(home, 'OC-Memory'))).isDirectory(), 'the cold tier folder inside the home');
    // The memory home placed in the user's home folder itself: the vault is a folder inside it, not the home folder.
    const inUserHome = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', dir], { env });
    assert.equal(inUserHome.code, 0, inUserHome.stderr);
    assert.match(inUserHome.stdout, new RegExp(`Obsidian vault: ${join(dir, 'OC-Memory').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} — `));
    await assert.rejects(stat(join(dir, '.obsidian')), 'the user home folder did not become a vault');
    for (const vault of ['~', dir]) {
      const refused = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', join(dir, 'h3'), '--vault', vault], { env });
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /--vault: not your home folder itself/);
    }
    const none = await runCli(['setup', '--yes', '--provider', 'heuristic', '--home', join(dir, 'h4'), '--vault', 'none'], { env });
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /Obsidian: no vault/);
    assert.match(await readFile(join(dir, 'h4', 'config.yaml'), 'utf8'), /vault_path: ""/);
  } finally {
    await cleanup();
  }
});
