/**
 * `doctor` as users run it (the built CLI as a child process) on real homes:
 * a healthy one with an OpenClaw state folder and the integration in place,
 * and broken ones — an unknown config key, loose permissions, an API key the
 * (real, local) OpenAI-compatible server rejects, no key at all, a damaged
 * index. Every finding carries its fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile, readFile, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { ok, startOpenAiServer, status } from '../helpers/openai-server.js';
import { writeFakeOpenClaw } from '../helpers/fake-openclaw-cli.js';
import JSON5 from 'json5';

interface Check {
  id: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

async function doctor(home: string, env: Record<string, string>, extra: string[] = []) {
  const r = await runCli(['doctor', '--json', '--home', home, ...extra], { env });
  const parsed = JSON.parse(r.stdout) as { ok: boolean; checks?: Check[]; error?: { message: string } };
  // doctor reports every finding as a check; an error object means the command itself failed.
  if (!Array.isArray(parsed.checks)) throw new Error(`doctor failed (exit ${r.code}): ${r.stdout} ${r.stderr}`);
  const checks = parsed.checks;
  const by = (id: string) => checks.find((c) => c.id === id);
  return { code: r.code, ok: parsed.ok, checks, by };
}

async function openClawFixture(dir: string): Promise<string> {
  const stateDir = join(dir, 'openclaw');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  await mkdir(sessions, { recursive: true });
  const w = new PiSessionWriter('1a2b3c4d-1111-4222-8333-944455556666', new Date('2026-02-12T09:00:00Z'));
  await writeFile(
    join(sessions, '1a2b3c4d-1111-4222-8333-944455556666.jsonl'),
    w.header() + w.message({ role: 'user', text: 'We use Postgres 16 for the ledger.' }),
  );
  await writeFile(
    join(stateDir, 'openclaw.json'),
    '// mine\n{\n  meta: { lastTouchedVersion: "2026.7.1" },\n  gateway: { port: 18789 },\n}\n',
  );
  return stateDir;
}

test('doctor on a healthy home: OpenClaw found with version and storage kind, integration, index, disk — exit 0', async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-');
  try {
    const home = join(dir, 'home');
    const stateDir = await openClawFixture(dir);
    const env = { OPENCLAW_STATE_DIR: stateDir, HOME: dir };
    assert.equal((await runCli(['run', '--home', home], { env })).code, 0);
    assert.equal((await runCli(['integrate', 'openclaw', '--home', home], { env })).code, 0);
    const d = await doctor(home, env);
    assert.equal(d.code, 0, JSON.stringify(d.checks, null, 2));
    assert.equal(d.ok, true);
    assert.equal(d.by('config')!.status, 'ok');
    assert.equal(d.by('paths')!.status, 'ok');
    assert.equal(d.by('permissions')!.status, 'ok');
    assert.match(d.by('llm')!.detail, /heuristic \(offline\)/);
    assert.equal(d.by('openclaw')!.status, 'ok');
    assert.match(d.by('openclaw')!.detail, /version 2026\.7\.1 \(from openclaw\.json\)/);
    assert.match(d.by('openclaw')!.detail, /transcript files \(1 \.jsonl\)/);
    assert.equal(d.by('openclaw.integration')!.status, 'ok');
    assert.equal(d.by('index')!.status, 'ok');
    assert.match(d.by('index')!.detail, /hot \d+ documents/);
    assert.equal(d.by('disk')!.status, 'ok');
    // Not scheduled here: a warning with the command that fixes it.
    assert.equal(d.by('schedule')!.status, 'warn');
    assert.match(d.by('schedule')!.fix!, /ocm-run schedule install/);

    const human = await runCli(['doctor', '--home', home], { env });
    assert.match(human.stdout, /^✅ Configuration: /m);
    assert.match(human.stdout, /^⚠️ {2}Schedule: .*\n {3}→ `ocm-run schedule install`/m);
    assert.match(human.stdout, /No problems; \d+ warning/);
  } finally {
    await cleanup();
  }
});

test('doctor finds a bad config key, loose permissions and a damaged index, each with its fix — exit 1', async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-');
  try {
    const home = join(dir, 'home');
    const env = { OPENCLAW_STATE_DIR: join(dir, 'none'), HOME: dir };
    assert.equal((await runCli(['observe', '--home', home], { env })).code, 0); // the first run creates the home
    const config = join(home, 'config.yaml');
    await writeFile(config, `${await readFile(config, 'utf8')}\nactive_memroy:\n  budget_tokens: 10\n`);
    await chmod(config, 0o644);
    const d = await doctor(home, env);
    assert.equal(d.code, 1);
    assert.equal(d.by('config')!.status, 'fail');
    assert.match(d.by('config')!.detail, /active_memroy: unknown setting/);
    assert.match(d.by('config')!.fix!, /config validate/);
    assert.equal(d.by('permissions')!.status, 'warn');
    assert.match(d.by('permissions')!.fix!, /chmod 600/);

    // A healthy config again, an index whose segment files were deleted.
    await writeFile(config, '{}\n', { mode: 0o600 });
    await chmod(config, 0o600);
    const stateDir = await openClawFixture(dir);
    assert.equal((await runCli(['run', '--home', home], { env: { ...env, OPENCLAW_STATE_DIR: stateDir } })).code, 0);
    let removed = 0;
    for (const tier of ['hot', 'warm']) {
      const tierDir = join(home, '.ocm', 'index', tier);
      for (const f of await readdir(tierDir).catch(() => [] as string[]))
        if (f.endsWith('.seg')) removed += await rm(join(tierDir, f)).then(() => 1);
    }
    assert.ok(removed > 0, 'the run built an index');
    const d2 = await doctor(home, { ...env, OPENCLAW_STATE_DIR: stateDir });
    assert.equal(d2.by('index')!.status, 'fail');
    assert.match(d2.by('index')!.detail, /segment file\(s\) missing/);
    assert.match(d2.by('index')!.fix!, /index --rebuild/);
    assert.equal(d2.by('openclaw.integration')!.status, 'warn');
    assert.match(d2.by('openclaw.integration')!.fix!, /integrate openclaw/);
  } finally {
    await cleanup();
  }
});

test('doctor checks the API key with one live call: accepted, rejected (401), missing', async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-');
  const server = await startOpenAiServer((req) =>
    req.authorization === 'Bearer sk-good-0123456789abcdef' ? ok('OK') : status(401, 'Incorrect API key provided'),
  );
  try {
    const home = join(dir, 'home');
    const env = { OPENCLAW_STATE_DIR: join(dir, 'none'), HOME: dir, OPENAI_API_KEY: undefined as unknown as string };
    assert.equal((await runCli(['observe', '--home', home], { env })).code, 0); // the first run creates the home
    await writeFile(
      join(home, 'config.yaml'),
      `observer:\n  provider: openai\n  model: gpt-4o-mini\n  api_base: ${server.url}\n  api_key: \${OPENAI_API_KEY}\n`,
      { mode: 0o600 },
    );

    await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-good-0123456789abcdef\n', { mode: 0o600 });
    const good = await doctor(home, env);
    assert.equal(good.by('llm')!.status, 'ok', JSON.stringify(good.by('llm')));
    assert.match(good.by('llm')!.detail, /openai\/gpt-4o-mini: accepted/);
    assert.equal(server.requests.length, 1, 'exactly one small call');
    assert.equal(server.requests[0]!.body.max_tokens, 1);

    await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-bad-0123456789abcdef\n', { mode: 0o600 });
    const bad = await doctor(home, env);
    assert.equal(bad.code, 1);
    assert.equal(bad.by('llm')!.status, 'fail');
    assert.match(bad.by('llm')!.detail, /rejected/);
    assert.doesNotMatch(JSON.stringify(bad.checks), /sk-bad-0123456789abcdef/, 'the key never appears in the output');

    await writeFile(join(home, '.env'), '\n', { mode: 0o600 });
    await writeFile(join(home, 'config.yaml'), `observer:\n  provider: openai\n  model: gpt-4o-mini\n  api_base: ${server.url}\n`, {
      mode: 0o600,
    });
    const none = await doctor(home, env);
    assert.equal(none.by('llm')!.status, 'fail');
    assert.match(none.by('llm')!.detail, /No API key/);
    assert.match(none.by('llm')!.fix!, /setup --reconfigure/);

    const offline = await doctor(home, env, ['--offline']);
    assert.equal(offline.by('llm')!.status, 'warn');
  } finally {
    await server.close();
    await cleanup();
  }
});

test("doctor asks the installed OpenClaw: its own validation of openclaw.json and the plugin's load status and origin", async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-');
  try {
    const home = join(dir, 'home');
    const stateDir = await openClawFixture(dir);
    const fake = await writeFakeOpenClaw(dir, { version: '2026.9.6' });
    const env = { OPENCLAW_STATE_DIR: stateDir, HOME: dir, PATH: `${fake.binDir}:${process.env.PATH}` };
    assert.equal((await runCli(['run', '--home', home], { env })).code, 0);
    const integrated = await runCli(['integrate', 'openclaw', '--home', home], { env });
    assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
    const d = await doctor(home, env);
    assert.equal(d.by('openclaw.validate')?.status, 'ok', JSON.stringify(d.checks, null, 2));
    assert.equal(d.by('openclaw.plugin')?.status, 'ok');
    assert.match(d.by('openclaw.plugin')!.detail, /loaded, installed from a path/);
    const validateCalls = (await fake.calls()).filter((c) => c.args[1] === 'validate');
    assert.equal(validateCalls[validateCalls.length - 1]!.configPath, join(stateDir, 'openclaw.json'), 'doctor validates the real file');

    // A key this OpenClaw rejects (what the old default wrote): OpenClaw's complaint, and the fix.
    const configPath = join(stateDir, 'openclaw.json');
    await writeFile(
      configPath,
      (await readFile(configPath, 'utf8')).replace(
        'gateway: {',
        'agents: { defaults: { memorySearch: { extraPaths: ["/x"] } } },\n  gateway: {',
      ),
    );
    const broken = await doctor(home, env);
    assert.equal(broken.code, 1);
    assert.equal(broken.by('openclaw.validate')?.status, 'fail');
    assert.match(broken.by('openclaw.validate')!.detail, /Unrecognized key: "memorySearch"/);
    assert.match(broken.by('openclaw.validate')!.fix!, /ocm-run integrate openclaw/);

    // A plugin only copied (no install record): loaded, but OpenClaw cannot vouch for its origin.
    await rm(join(stateDir, '.fake-install-record'));
    const untracked = await doctor(home, env);
    assert.equal(untracked.by('openclaw.plugin')?.status, 'warn');
    assert.match(untracked.by('openclaw.plugin')!.detail, /no record of where it came from/);
    assert.match(untracked.by('openclaw.plugin')!.fix!, /openclaw plugins install/);
  } finally {
    await cleanup();
  }
});

test('doctor checks the Claude Code, Codex and pi integrations: optional where not set up; the MCP server and hooks pointing at an OC-Memory that exists; untrusted Codex hooks said plainly; an outdated pi extension', async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-agents-');
  try {
    const home = join(dir, 'ocm');
    // The three agents installed (their folders), no `codex` on PATH (Codex itself cannot vouch for its hooks).
    for (const d of ['.claude', '.codex', join('.pi', 'agent')]) await mkdir(join(dir, d), { recursive: true });
    const env = { HOME: dir, PATH: dirname(process.execPath) };
    assert.equal((await runCli(['run', '--home', home], { env })).code, 0);
    const before = await doctor(home, env, ['--offline']);
    for (const id of ['claude-code', 'codex', 'pi']) {
      assert.equal(before.by(id)?.status, 'ok', id);
      assert.match(before.by(id)!.detail, new RegExp(`not set up \\(optional: \`ocm-run integrate ${id}\``));
    }
    for (const agent of ['claude-code', 'codex', 'pi']) {
      const r = await runCli(['integrate', agent, '--home', home], { env });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    const wired = await doctor(home, env, ['--offline']);
    assert.equal(wired.by('claude-code')?.status, 'ok', JSON.stringify(wired.checks, null, 2));
    assert.match(
      wired.by('claude-code')!.detail,
      /MCP server oc-memory in .*\.claude\.json, hooks SessionStart, UserPromptSubmit, Stop, SessionEnd, transcripts observed/,
    );
    assert.equal(wired.by('pi')?.status, 'ok');
    assert.match(wired.by('pi')!.detail, /extension in .*extensions\/oc-memory \(this version's\)/);
    // Codex's hooks could not be trusted without codex: said, with what happens and the fix.
    assert.equal(wired.by('codex')?.status, 'warn');
    assert.match(
      wired.by('codex')!.detail,
      /only 0 of 3 oc-memory hooks have a trusted_hash .*Codex skips an untrusted hook without a word/,
    );
    assert.match(wired.by('codex')!.fix!, /ocm-run integrate codex.*codex.*on PATH.*\/hooks/);

    // Claude Code's server entry runs a CLI that is gone, one hook was taken out, the source turned off.
    const claudeJsonPath = join(dir, '.claude.json');
    const claudeJson = JSON.parse(await readFile(claudeJsonPath, 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
    claudeJson.mcpServers['oc-memory']!.args[0] = join(dir, 'old-install', 'dist', 'scripts', 'cli.js');
    await writeFile(claudeJsonPath, JSON.stringify(claudeJson, null, 2));
    const settingsPath = join(dir, '.claude', 'settings.json');
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as { hooks: Record<string, unknown> };
    delete settings.hooks.UserPromptSubmit;
    await writeFile(settingsPath, JSON.stringify(settings, null, 2));
    assert.equal((await runCli(['config', 'set', 'sources.claude_code.enabled', 'false', '--home', home], { env })).code, 0);
    // pi's extension edited (or left by another version of OC-Memory).
    const extension = join(dir, '.pi', 'agent', 'extensions', 'oc-memory', 'index.ts');
    await writeFile(extension, `${await readFile(extension, 'utf8')}\n// an older copy\n`);
    const broken = await doctor(home, env, ['--offline']);
    assert.equal(broken.code, 1);
    const cc = broken.by('claude-code')!;
    assert.equal(cc.status, 'fail');
    assert.match(cc.detail, /the MCP server oc-memory runs .*old-install.*cli\.js, which does not exist/);
    assert.match(cc.detail, /no oc-memory hook for UserPromptSubmit in .*settings\.json/);
    assert.match(cc.detail, /Claude Code transcripts are not observed \(sources\.claude_code\.enabled is off\)/);
    assert.match(cc.fix!, /ocm-run integrate claude-code/);
    assert.equal(broken.by('pi')?.status, 'warn');
    assert.match(broken.by('pi')!.detail, /not the one this version of OC-Memory ships/);
    assert.match(broken.by('pi')!.fix!, /ocm-run integrate pi/);

    // The fixes the checks name put it right.
    for (const agent of ['claude-code', 'pi']) assert.equal((await runCli(['integrate', agent, '--home', home], { env })).code, 0);
    const fixed = await doctor(home, env, ['--offline']);
    assert.equal(fixed.by('claude-code')?.status, 'ok', JSON.stringify(fixed.by('claude-code')));
    assert.equal(fixed.by('pi')?.status, 'ok');
  } finally {
    await cleanup();
  }
});

test("doctor says, per OpenClaw agent, whether the tool policy offers OC-Memory's memory tools and which key to change — a warning, exit 0", async () => {
  const { dir, cleanup } = await tempDir('ocm-doctor-');
  try {
    const home = join(dir, 'home');
    const stateDir = await openClawFixture(dir);
    const configPath = join(stateDir, 'openclaw.json');
    const env = { OPENCLAW_STATE_DIR: stateDir, HOME: dir };
    await writeFile(
      configPath,
      `{\n  meta: { lastTouchedVersion: "2026.9.6" },\n  agents: { entries: { main: {}, work: { tools: { allow: ` +
        `["read"] } }, ops: { tools: { profile: "minimal" } } } },\n}\n`,
    );
    assert.equal((await runCli(['integrate', 'openclaw', '--home', home], { env })).code, 0);
    const d = await doctor(home, env);
    const tools = d.by('openclaw.tools') as
      | (Check & { toolPolicy?: Array<{ agent: string; offered: boolean; advice: Array<{ key: string; action: string; entry: string }> }> })
      | undefined;
    assert.equal(tools?.status, 'warn', JSON.stringify(d.checks, null, 2));
    assert.equal(d.code, 0, 'hidden tools are a warning: memory still reaches each prompt');
    assert.match(tools!.detail, /hidden from work, ops by the tool policy in .*openclaw\.json/);
    assert.match(tools!.detail, /offered to main$/);
    assert.match(
      tools!.fix!,
      /^work: add "oc-memory" to agents\.entries\.work\.tools\.allow; ops: add "oc-memory" to agents\.entries\.ops\.tools\.alsoAllow; then restart the OpenClaw gateway/,
    );
    assert.deepEqual(
      tools!.toolPolicy!.map((a) => ({
        agent: a.agent,
        offered: a.offered,
        advice: a.advice.map((x) => `${x.action} ${x.entry} ${x.key}`),
      })),
      [
        { agent: 'main', offered: true, advice: [] },
        { agent: 'work', offered: false, advice: ['add oc-memory agents.entries.work.tools.allow'] },
        { agent: 'ops', offered: false, advice: ['add oc-memory agents.entries.ops.tools.alsoAllow'] },
      ],
    );
    const human = await runCli(['doctor', '--offline', '--home', home], { env });
    assert.match(
      human.stdout,
      /^⚠️ {2}OC-Memory tools in OpenClaw: hidden from work, ops .*\n {3}→ work: add "oc-memory" to agents\.entries\.work\.tools\.allow/m,
    );

    // The global minimal profile, no agents: OpenClaw's default agent main, and the global key.
    const data = JSON5.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    delete data.agents;
    await writeFile(configPath, JSON.stringify({ ...data, tools: { profile: 'minimal' } }, null, 2));
    const minimal = await doctor(home, env);
    assert.equal(minimal.by('openclaw.tools')?.status, 'warn');
    assert.match(minimal.by('openclaw.tools')!.fix!, /^main: add "oc-memory" to tools\.alsoAllow;/);

    // Offered (the coding profile lists the plugin's tools through its manifest): ok, no advice.
    await writeFile(configPath, JSON.stringify({ ...data, tools: { profile: 'coding' } }, null, 2));
    const offered = await doctor(home, env);
    assert.equal(offered.by('openclaw.tools')?.status, 'ok');
    assert.match(offered.by('openclaw.tools')!.detail, /^offered to main /);
    assert.equal(offered.by('openclaw.tools')!.fix, undefined);
  } finally {
    await cleanup();
  }
});
