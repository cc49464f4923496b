/**
 * The LLM paths through the built CLI as a child process, the way cron runs
 * it: a failing model makes `observe` exit 5 with a hint, alerts OpenClaw
 * once per hour, shows the error in `status`, loses nothing, and the next
 * run with a working model observes everything once; `reflect --force`
 * writes a reflection offline, and exits 5 (with an alert) when its LLM fails.
 * No API key ends up in logs, memory files or alerts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { filesUnder } from '../helpers/files-under.js';
import { PiSessionWriter } from '../helpers/pi-writer.js';
import { ok, startOpenAiServer, status, type RecordedRequest } from '../helpers/openai-server.js';
import { startHooksServer } from '../helpers/openclaw-hooks-server.js';

const KEY = 'sk-live-TESTKEY-0123456789abcdefghijklmnop';
const HOOK_TOKEN = 'hooks-secret-abcdef0123456789';

async function readAll(dir: string): Promise<string> {
  let out = '';
  for (const file of await filesUnder(dir, { skip: (p) => basename(p) === '.env' })) out += await readFile(file, 'utf8').catch(() => '');
  return out;
}

function echo(req: RecordedRequest) {
  const lines = (req.messages[1]?.content ?? '').split('\n');
  const out: string[] = [];
  for (const l of lines) {
    const h = /^## (\d{4}-\d{2}-\d{2})/.exec(l);
    if (h) out.push(`## ${h[1]}`);
    const u = /^(?:\d\d:\d\d )?U: (.*)$/.exec(l);
    if (u) out.push(`- 🔴 [fact] User noted: ${u[1]}`);
  }
  return ok(out.join('\n') || 'NONE');
}

test('observe with a failing LLM: exit 5, one alert per hour, status shows it, nothing lost; then a working LLM observes everything once', async () => {
  const { dir, cleanup } = await tempDir('ocm-llm-cli-');
  const llm = await startOpenAiServer([status(500, 'the model is down')]);
  const hooks = await startHooksServer({ token: HOOK_TOKEN });
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const w = new PiSessionWriter('33333333-0000-4000-8000-000000000000', new Date('2026-01-15T09:00:00Z'));
    let transcript = w.header();
    for (let i = 0; i < 6; i++)
      transcript +=
        w.message({ role: 'user', text: `Fact ${i}: the release train ${i} leaves from platform ${i + 3}.` }) +
        w.message({ role: 'assistant', text: 'Noted.' });
    await writeFile(join(sessions, '33333333-0000-4000-8000-000000000000.jsonl'), transcript);
    await writeFile(join(dir, 'openclaw.json'), `{ gateway: { port: ${hooks.port} }, hooks: { enabled: true, token: "${HOOK_TOKEN}" } }`);
    const home = join(dir, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, '.env'), `OCM_TEST_KEY=${KEY}\n`);
    await writeFile(
      join(home, 'config.yaml'),
      [
        'timezone: UTC',
        'sources:',
        '  openclaw:',
        `    state_dirs: [${JSON.stringify(stateDir)}]`,
        'observer:',
        '  provider: custom',
        '  model: test-model',
        `  api_base: ${llm.url}`,
        '  api_key: ${OCM_TEST_KEY}',
        '  retry_delays_ms: [10, 20, 40]',
        '',
      ].join('\n'),
    );
    const env = { OPENCLAW_CONFIG_PATH: join(dir, 'openclaw.json') };

    const first = await runCli(['observe', '--home', home], { env });
    assert.equal(first.code, 5, first.stderr);
    assert.match(first.stderr, /server/);
    assert.match(first.stderr, /→ .*next run retries/);
    assert.equal(llm.requests.length, 4);
    assert.equal(llm.requests[0]!.authorization, `Bearer ${KEY}`, 'the key from .env is used');
    assert.equal(hooks.calls.length, 1, 'one alert');
    assert.equal(hooks.calls[0]!.path, '/hooks/agent');
    assert.equal(hooks.calls[0]!.authorization, `Bearer ${HOOK_TOKEN}`);
    assert.match((hooks.calls[0]!.body as { message: string }).message, /observer could not reach its LLM \(server\)/);

    const st = await runCli(['status', '--home', home, '--json'], { env });
    assert.equal(st.code, 0, st.stderr);
    const report = JSON.parse(st.stdout) as {
      llm: { lastError: { errorClass: string; role: string } };
      jobs: { observe: { lastError: { code: string } } };
    };
    assert.equal(report.llm.lastError.errorClass, 'server');
    assert.equal(report.jobs.observe.lastError.code, 'LLM_ERROR');
    const text = await runCli(['status', '--home', home], { env });
    assert.match(text.stdout, /Last LLM error: observer server/);

    const second = await runCli(['observe', '--home', home], { env });
    assert.equal(second.code, 5);
    assert.equal(hooks.calls.length, 1, 'rate-limited: no second alert within the hour');

    llm.setScript(echo);
    const third = await runCli(['observe', '--home', home, '--json'], { env });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(JSON.parse(third.stdout).observations, 6);
    const fourth = await runCli(['observe', '--home', home, '--json'], { env });
    assert.equal(JSON.parse(fourth.stdout).observations, 0, 'nothing twice');
    const day = await readFile(join(home, 'memory', '2026-01-15.md'), 'utf8');
    for (let i = 0; i < 6; i++) assert.equal(day.split(`Fact ${i}:`).length - 1, 1);
    const usage = JSON.parse((await runCli(['status', '--home', home, '--json'], { env })).stdout).llm.usage.total as {
      calls: number;
      inputTokens: number;
    };
    assert.equal(usage.calls, 1, 'failed attempts (HTTP 500) cost nothing; one answered call');
    assert.equal(usage.inputTokens, llm.requests.at(-1)!.promptTokens);

    const everything = (await readAll(home)) + JSON.stringify(hooks.calls);
    assert.ok(!everything.includes(KEY), 'the API key is nowhere but .env');
  } finally {
    await llm.close();
    await hooks.close();
    await cleanup();
  }
});

test('reflect --force: offline reflection written and shown by status; a failing LLM reflector exits 5 with an alert', async () => {
  const { dir, cleanup } = await tempDir('ocm-llm-cli-');
  const llm = await startOpenAiServer([status(401, 'invalid api key')]);
  const hooks = await startHooksServer({ token: HOOK_TOKEN });
  try {
    const home = join(dir, 'home');
    await mkdir(join(home, 'memory'), { recursive: true });
    const days = ['2026-01-05', '2026-01-06', '2026-01-20'];
    for (const [n, d] of days.entries()) {
      const lines = Array.from({ length: 8 }, (_, i) =>
        `- 🟡 10:${String(i).padStart(2, '0')} [fact] Service ${n}-${i} runs PostgreSQL ${12 + i} on host db${i}.internal. ^o-${n}${i}00000000`.slice(
          0,
          200,
        ),
      );
      await writeFile(join(home, 'memory', `${d}.md`), `---\ndate: ${d}\n---\n# ${d}\n\n${lines.join('\n')}\n`);
    }
    await writeFile(join(home, 'config.yaml'), 'timezone: UTC\nsources:\n  openclaw:\n    enabled: false\n');
    const env = { OPENCLAW_STATE_DIR: join(dir, 'no-openclaw') };
    const r = await runCli(['reflect', '--home', home, '--force'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /reflections\/2026-01-05_2026-01-06\.md: 2026-01-05 → 2026-01-06, 16 observations/);
    const st = await runCli(['status', '--home', home], { env });
    assert.match(st.stdout, /Reflections: 1 · last 2026-01-05 → 2026-01-06/);

    await writeFile(
      join(home, 'config.yaml'),
      `timezone: UTC\nsources:\n  openclaw:\n    enabled: false\nreflector:\n  provider: custom\n  model: ` +
        `reflect-model\n  api_base: ${llm.url}\n  api_key: ${KEY}\n  retry_delays_ms: [10]\nalerts:\n  webhook_url: ` +
        `${hooks.url}/hooks/agent\n`,
    );
    await writeFile(
      join(home, 'memory', '2026-01-21.md'),
      '---\ndate: 2026-01-21\n---\n# 2026-01-21\n\n- 🔴 09:00 [decision] Move the queue to NATS. ^o-9900000000\n',
    );
    const failed = await runCli(['reflect', '--home', home, '--force'], { env });
    assert.equal(failed.code, 5, failed.stderr);
    assert.match(failed.stderr, /reflector LLM call failed/);
    assert.match(failed.stderr, /→ .*api_key/);
    assert.equal(llm.requests.length, 1, 'auth errors are not retried');
    assert.equal(hooks.calls.length, 1);
    const body = hooks.calls[0]!.body as { event: string; details: { errorClass: string } };
    assert.equal(body.event, 'reflector_failed');
    assert.equal(body.details.errorClass, 'auth');
    assert.ok(!JSON.stringify(hooks.calls).includes(KEY));
    assert.equal((await readdir(join(home, 'reflections'))).length, 1, 'no half reflection written');
  } finally {
    await llm.close();
    await hooks.close();
    await cleanup();
  }
});
