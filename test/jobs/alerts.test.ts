/**
 * Alerts against a real local server standing in for OpenClaw's webhooks:
 * discovery from openclaw.json (JSON5) and the environment, the connection
 * test, the /hooks/agent call (path, bearer token, payload), the generic
 * webhook payload, the one-per-class-per-hour limit, no secrets sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sendAlert, llmFailureAlert, alertMessage } from '../../lib/jobs/alerts.js';
import { loadConfig, validateConfig } from '../../lib/config/config.js';
import { homePaths } from '../../lib/platform/home.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { discoverOpenClawEndpoint, saveOpenClawEndpoint, testOpenClawConnection } from '../../lib/integrations/openclaw/config.js';
import { readState } from '../../lib/platform/state.js';
import type { Config } from '../../lib/config/config-schema.js';
import { tempDir } from '../helpers/cli.js';
import { startHooksServer } from '../helpers/openclaw-hooks-server.js';

const TOKEN = 'hook-token-3f9a0c1d2e4b5a6978';

async function openclawJson(dir: string, port: number, extra = ''): Promise<string> {
  const path = join(dir, 'openclaw.json');
  // JSON5: comments, unquoted keys, trailing commas.
  await writeFile(
    path,
    `// OpenClaw config\n{\n  gateway: { port: ${port}, },\n  hooks: {\n    enabled: true,\n    token: "${TOKEN}", ` +
      `// shared secret\n    path: "/hooks",\n  },\n  ${extra}\n}\n`,
  );
  return path;
}

test('discovery: openclaw.json (JSON5) port, token and path; then OPENCLAW_GATEWAY_PORT, OPENCLAW_API_URL, the default', async () => {
  const { dir, cleanup } = await tempDir('ocm-alerts-');
  try {
    const path = await openclawJson(dir, 19999);
    const found = await discoverOpenClawEndpoint({ env: { OPENCLAW_CONFIG_PATH: path } });
    assert.equal(found.url, 'http://127.0.0.1:19999');
    assert.equal(found.urlSource, 'openclaw.json');
    assert.equal(found.token, TOKEN);
    assert.equal(found.tokenSource, 'openclaw.json');
    assert.equal(found.hooksPath, '/hooks');
    assert.equal(found.hooksEnabled, true);
    assert.equal(found.configPath, path);

    const envPort = await discoverOpenClawEndpoint({ env: { OPENCLAW_CONFIG_PATH: path, OPENCLAW_GATEWAY_PORT: '20001' } });
    assert.equal(envPort.url, 'http://127.0.0.1:20001');

    await writeFile(join(dir, 'hooks-ref.json'), '{ hooks: { enabled: true, token: "${MY_HOOK_TOKEN}", path: "custom-hooks/" } }');
    const viaRef = await discoverOpenClawEndpoint({
      env: { OPENCLAW_CONFIG_PATH: join(dir, 'hooks-ref.json'), MY_HOOK_TOKEN: 'from-env', OPENCLAW_API_URL: 'http://gateway.lan:18789/' },
    });
    assert.equal(viaRef.token, 'from-env');
    assert.equal(viaRef.hooksPath, '/custom-hooks');
    assert.equal(viaRef.url, 'http://gateway.lan:18789');
    assert.equal(viaRef.urlSource, 'OPENCLAW_API_URL');

    const none = await discoverOpenClawEndpoint({ env: { OPENCLAW_STATE_DIR: join(dir, 'missing') } });
    assert.equal(none.url, 'http://127.0.0.1:18789');
    assert.equal(none.urlSource, 'default');
    assert.equal(none.token, undefined);

    await writeFile(join(dir, 'broken.json'), '{ hooks: { enabled: true, ');
    const broken = await discoverOpenClawEndpoint({ env: { OPENCLAW_CONFIG_PATH: join(dir, 'broken.json') } });
    assert.match(broken.warning ?? '', /not valid JSON5/);
    assert.equal(broken.url, 'http://127.0.0.1:18789');

    const disabled = join(dir, 'disabled.json');
    await writeFile(disabled, `{ hooks: { enabled: false, token: "${TOKEN}" } }`);
    assert.equal(
      (await discoverOpenClawEndpoint({ env: { OPENCLAW_CONFIG_PATH: disabled } })).token,
      undefined,
      'disabled hooks: no token used',
    );

    const configured = await discoverOpenClawEndpoint({
      env: { OPENCLAW_CONFIG_PATH: path },
      alerts: { openclaw_url: 'http://10.0.0.5:18789', openclaw_token: 'cfg-token', openclaw_hooks_path: '/hooks' },
    });
    assert.equal(configured.url, 'http://10.0.0.5:18789');
    assert.equal(configured.token, 'cfg-token');
  } finally {
    await cleanup();
  }
});

test('connection test: ok, wrong token, hooks off, gateway down; the result is saved to config.yaml (never the token)', async () => {
  const { dir, cleanup } = await tempDir('ocm-alerts-');
  const server = await startHooksServer({ token: TOKEN });
  try {
    const path = await openclawJson(dir, server.port);
    const endpoint = await discoverOpenClawEndpoint({ env: { OPENCLAW_CONFIG_PATH: path } });
    const good = await testOpenClawConnection(endpoint);
    assert.equal(good.ok, true, good.message);
    assert.equal(server.calls.length, 1);
    assert.equal(server.calls[0]!.path, '/hooks/agent');
    assert.equal(server.calls[0]!.status, 400, 'an empty payload: checked, but no agent turn');

    assert.equal((await testOpenClawConnection({ ...endpoint, token: 'wrong' })).result, 'unauthorized');
    assert.equal((await testOpenClawConnection({ ...endpoint, hooksPath: '/nohooks' })).result, 'not_found');
    assert.equal((await testOpenClawConnection({ ...endpoint, token: undefined })).result, 'no_token');
    const down = await testOpenClawConnection({ ...endpoint, url: 'http://127.0.0.1:1' });
    assert.equal(down.result, 'unreachable');
    assert.ok(down.hint);

    const configFile = join(dir, 'config.yaml');
    await writeFile(configFile, '# my settings\nalerts:\n  enabled: true # keep\n');
    await saveOpenClawEndpoint({ file: configFile, envFile: join(dir, '.env'), endpoint, env: {} });
    const text = await readFile(configFile, 'utf8');
    assert.match(text, /# my settings/);
    assert.ok(!text.includes(TOKEN));
    const { config } = await loadConfig({ file: configFile, envFile: join(dir, '.env'), env: {} });
    assert.equal(config.alerts.openclaw_url, endpoint.url);
    assert.equal(config.alerts.openclaw_hooks_path, '/hooks');
  } finally {
    await server.close();
    await cleanup();
  }
});

async function alertHome(
  dir: string,
  configExtra: Record<string, unknown> = {},
): Promise<{ config: Config; paths: ReturnType<typeof homePaths> }> {
  const paths = homePaths(join(dir, 'home'));
  await mkdir(paths.machine, { recursive: true });
  return { paths, config: validateConfig({ alerts: { ...configExtra } }) };
}

test('an LLM failure alert goes to /hooks/agent with the bearer token; one per error class per hour', async () => {
  const { dir, cleanup } = await tempDir('ocm-alerts-');
  const server = await startHooksServer({ token: TOKEN });
  try {
    const path = await openclawJson(dir, server.port);
    const { config, paths } = await alertHome(dir);
    let clock = new Date('2026-03-01T12:00:00Z');
    const apiKey = 'sk-proj-SECRETSECRETSECRET0123456789abcd';
    const deps = { config, paths, env: { OPENCLAW_CONFIG_PATH: path }, logger: createMemoryLogger(), now: () => clock, secrets: [apiKey] };
    const failure = {
      message: `The observer LLM call failed after 4 attempts (openai/gpt-4o-mini): rate limit — key ${apiKey} over quota`,
      errorClass: 'rate_limit',
      hint: 'Check the account limits.',
    };

    const first = await sendAlert(deps, llmFailureAlert('observer', failure));
    assert.deepEqual(first.sent, ['openclaw']);
    assert.equal(server.calls.length, 1);
    const call = server.calls[0]!;
    assert.equal(call.path, '/hooks/agent');
    assert.equal(call.authorization, `Bearer ${TOKEN}`);
    assert.equal(call.status, 200);
    const body = call.body as { message: string; name: string; wakeMode: string };
    assert.equal(body.name, 'OC-Memory');
    assert.match(body.message, /What happened: The observer could not reach its LLM \(rate limit\)/);
    assert.match(body.message, /Cause: .*rate limit/);
    assert.match(body.message, /What to do: Check the account limits\. Nothing is lost/);
    assert.ok(!JSON.stringify(call.body).includes(apiKey), 'API key never sent');

    clock = new Date('2026-03-01T12:30:00Z');
    const second = await sendAlert(deps, llmFailureAlert('observer', failure));
    assert.equal(second.skipped, 'rate_limited');
    assert.equal(server.calls.length, 1);

    const other = await sendAlert(deps, llmFailureAlert('observer', { ...failure, errorClass: 'auth' }));
    assert.deepEqual(other.sent, ['openclaw'], 'another error class is not held back');
    assert.equal(server.calls.length, 2);

    clock = new Date('2026-03-01T13:01:00Z');
    assert.deepEqual((await sendAlert(deps, llmFailureAlert('observer', failure))).sent, ['openclaw'], 'an hour later it goes out again');
    const { state } = await readState(paths.state);
    const alerts = state.extra.alerts as Record<string, { at: string; count: number }>;
    assert.equal(alerts.rate_limit!.count, 2);
    assert.equal(alerts.rate_limit!.at, '2026-03-01T13:01:00.000Z');
  } finally {
    await server.close();
    await cleanup();
  }
});

test('a configured webhook URL gets {source, event, severity, details, timestamp}; disabled alerts send nothing', async () => {
  const { dir, cleanup } = await tempDir('ocm-alerts-');
  const server = await startHooksServer({ token: TOKEN, acceptAnyPath: true });
  try {
    const { config, paths } = await alertHome(dir, { webhook_url: `${server.url}/ocm-alerts` });
    const clock = new Date('2026-03-01T12:00:00Z');
    const deps = { config, paths, env: { OPENCLAW_STATE_DIR: join(dir, 'no-openclaw') }, logger: createMemoryLogger(), now: () => clock };
    const outcome = await sendAlert(deps, {
      event: 'keyword_preservation_low',
      errorClass: 'keyword_preservation',
      severity: 'warning',
      summary: 'A reflection kept only 52% of its key terms.',
      cause: 'The reflector model dropped names and numbers.',
      action: 'Check reflections/2026-02-01_2026-02-28.md.',
      details: { score: 0.52 },
    });
    assert.deepEqual(outcome.sent, ['webhook']);
    const call = server.calls[0]!;
    assert.equal(call.path, '/ocm-alerts');
    const body = call.body as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['details', 'event', 'severity', 'source', 'timestamp']);
    assert.equal(body.source, 'oc-memory');
    assert.equal(body.event, 'keyword_preservation_low');
    assert.equal(body.severity, 'warning');
    assert.equal(body.timestamp, '2026-03-01T12:00:00.000Z');
    assert.equal((body.details as { score: number }).score, 0.52);

    const off = await sendAlert(
      { ...deps, config: validateConfig({ alerts: { enabled: false, webhook_url: `${server.url}/x` } }) },
      llmFailureAlert('reflector', { message: 'x' }),
    );
    assert.equal(off.skipped, 'disabled');
    const none = await sendAlert({ ...deps, config: validateConfig({}) }, llmFailureAlert('reflector', { message: 'x' }));
    assert.equal(none.skipped, 'no_target');
    assert.equal(server.calls.length, 1);
    assert.match(alertMessage(llmFailureAlert('reflector', { message: 'boom', errorClass: 'auth' })), /Cause: boom/);
  } finally {
    await server.close();
    await cleanup();
  }
});
