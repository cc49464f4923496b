import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createLlmClient, resolveLlmSettings, type LlmRoleConfig } from '../../lib/llm/client.js';
import { LlmError, MalformedOutputError, retryAfterMs } from '../../lib/llm/errors.js';
import { estimateCost } from '../../lib/llm/pricing.js';
import { ConfigError, EXIT } from '../../lib/core/errors.js';
import { createMemoryLogger } from '../../lib/platform/log.js';
import { hang, ok, startOpenAiServer, status } from '../helpers/openai-server.js';

const KEY = 'sk-test-0123456789abcdefghijklmnopqrstuv';

function role(url: string, extra: Partial<LlmRoleConfig> = {}): LlmRoleConfig {
  return {
    provider: 'custom',
    model: 'model-a',
    api_base: url,
    api_key: KEY,
    temperature: 0.3,
    max_tokens: 500,
    timeout_ms: 30000,
    fallback: [],
    retry_delays_ms: [10, 20, 40],
    ...extra,
  };
}

const echo = (text: string) => text;

test('a good answer: bearer key, model, temperature and max_tokens sent; usage counted from the server', async () => {
  const server = await startOpenAiServer([ok('- 🔴 09:15 [fact] Hello.')]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url), {}, { logger });
    const r = await client.chat({ system: 'You observe.', user: 'U: hello there', parse: echo });
    assert.equal(r.value, '- 🔴 09:15 [fact] Hello.');
    assert.equal(r.endpoint, 'custom/model-a');
    assert.equal(server.requests.length, 1);
    const req = server.requests[0]!;
    assert.equal(req.authorization, `Bearer ${KEY}`);
    assert.equal(req.model, 'model-a');
    assert.equal(req.body.temperature, 0.3);
    assert.equal(req.body.max_tokens, 500);
    assert.deepEqual(
      req.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.deepEqual(r.usage, [{ model: 'custom/model-a', inputTokens: req.promptTokens, outputTokens: req.completionTokens, calls: 1 }]);
    assert.ok(req.promptTokens > 0 && req.completionTokens > 0);
  } finally {
    await server.close();
  }
});

test('429 with retry-after: waits as asked (logged), then succeeds', async () => {
  const server = await startOpenAiServer([status(429, 'slow down', { 'retry-after-ms': '35' }), ok('fine')]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url), {}, { logger });
    const r = await client.chat({ system: 's', user: 'u', parse: echo });
    assert.equal(r.value, 'fine');
    assert.equal(server.requests.length, 2);
    const failed = logger.records.filter((x) => x.event === 'llm.attempt_failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.errorClass, 'rate_limit');
    assert.equal(failed[0]!.status, 429);
    assert.equal(failed[0]!.retryInMs, 35, 'retry-after (35 ms) beats the configured 10 ms');
  } finally {
    await server.close();
  }
});

test('500 on every attempt: 1 + retries attempts, each logged, then LlmError (exit code 5)', async () => {
  const server = await startOpenAiServer([status(500, 'boom')]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url), {}, { logger });
    await assert.rejects(client.chat({ system: 's', user: 'u', parse: echo }), (error: unknown) => {
      assert.ok(error instanceof LlmError);
      assert.equal(error.errorClass, 'server');
      assert.equal(error.exitCode, EXIT.llm);
      assert.equal(error.attempts.length, 4);
      assert.match(error.message, /server/);
      assert.ok(error.hint);
      return true;
    });
    assert.equal(server.requests.length, 4);
    const failed = logger.records.filter((x) => x.event === 'llm.attempt_failed');
    assert.deepEqual(
      failed.map((f) => f.retryInMs),
      [10, 20, 40, undefined],
    );
    assert.ok(failed.every((f) => f.errorClass === 'server'));
  } finally {
    await server.close();
  }
});

test('401 is not retried, and the API key never appears in the error or the log', async () => {
  const server = await startOpenAiServer([status(401, `Incorrect API key provided: ${KEY}. You can find your API key at …`)]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url), {}, { logger });
    const error = await client.chat({ system: 's', user: 'u', parse: echo }).then(
      () => assert.fail('should fail'),
      (e: unknown) => e as LlmError,
    );
    assert.ok(error instanceof LlmError);
    assert.equal(error.errorClass, 'auth');
    assert.equal(server.requests.length, 1, 'auth errors are not retried');
    const everything = JSON.stringify({ message: error.message, hint: error.hint, details: error.details, log: logger.records });
    assert.ok(!everything.includes(KEY), 'key leaked');
    assert.ok(!everything.includes(KEY.slice(0, 20)), 'key prefix leaked');
  } finally {
    await server.close();
  }
});

test('a hang past timeout_ms is a timeout, retried, then reported', async () => {
  const server = await startOpenAiServer([hang()]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url, { timeout_ms: 200, retry_delays_ms: [10] }), {}, { logger });
    await assert.rejects(
      client.chat({ system: 's', user: 'u', parse: echo }),
      (e: unknown) => e instanceof LlmError && e.errorClass === 'timeout',
    );
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

test('a malformed answer is retried; tokens of the bad answer still count', async () => {
  const server = await startOpenAiServer([ok('I am not sure what you mean.'), ok('GOOD')]);
  try {
    const logger = createMemoryLogger();
    const client = createLlmClient('observer', role(server.url), {}, { logger });
    const r = await client.chat({
      system: 's',
      user: 'u',
      parse: (t) => {
        if (t !== 'GOOD') throw new MalformedOutputError('not GOOD', t);
        return t;
      },
    });
    assert.equal(r.value, 'GOOD');
    assert.equal(r.attempts, 2);
    assert.equal(r.usage[0]!.calls, 2);
    assert.equal(r.usage[0]!.inputTokens, server.totals().promptTokens);
    assert.equal(logger.records.find((x) => x.event === 'llm.attempt_failed')!.errorClass, 'malformed');
  } finally {
    await server.close();
  }
});

test('fallback chain: a failing first model hands over to the next one; context length skips retries', async () => {
  const server = await startOpenAiServer((req) =>
    req.model === 'big-model'
      ? status(400, "This model's maximum context length is 8192 tokens.", undefined, 'context_length_exceeded')
      : req.model === 'model-b'
        ? status(503, 'overloaded')
        : ok(`answer from ${req.model}`),
  );
  try {
    const logger = createMemoryLogger();
    const config = role(server.url, {
      model: 'big-model',
      fallback: [
        { provider: 'custom', model: 'model-b', api_base: server.url, api_key: '' },
        { provider: 'custom', model: 'model-c', api_base: server.url, api_key: '' },
      ],
    });
    const client = createLlmClient('observer', config, { OCM_LLM_API_KEY: 'env-key-for-fallbacks-1234' }, { logger });
    const r = await client.chat({ system: 's', user: 'u', parse: echo });
    assert.equal(r.value, 'answer from model-c');
    assert.equal(r.endpoint, 'custom/model-c');
    assert.deepEqual(
      server.requests.map((q) => q.model),
      ['big-model', 'model-b', 'model-b', 'model-b', 'model-b', 'model-c'],
    );
    assert.equal(server.requests[5]!.authorization, 'Bearer env-key-for-fallbacks-1234');
    assert.equal(logger.records.filter((x) => x.event === 'llm.fallback').length, 2);
    assert.equal(logger.records.find((x) => x.event === 'llm.attempt_failed')!.errorClass, 'context_length');
  } finally {
    await server.close();
  }
});

test('connection refused is a connection error', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const client = createLlmClient(
    'observer',
    role(`http://127.0.0.1:${port}/v1`, { retry_delays_ms: [] }),
    {},
    { logger: createMemoryLogger() },
  );
  await assert.rejects(
    client.chat({ system: 's', user: 'u', parse: echo }),
    (e: unknown) => e instanceof LlmError && e.errorClass === 'connection',
  );
});

test('presets: hosted providers need a key (from config or the environment), local ones do not', () => {
  const base: LlmRoleConfig = { ...role(''), provider: 'openai', model: 'gpt-4o-mini', api_base: '', api_key: '' };
  assert.throws(
    () => resolveLlmSettings('observer', base, {}),
    (e: unknown) => e instanceof ConfigError && /OPENAI_API_KEY/.test(e.hint ?? ''),
  );
  const s = resolveLlmSettings('observer', base, { OPENAI_API_KEY: 'sk-from-env-xxxxxxxxxxxx' });
  assert.equal(s.endpoints[0]!.baseURL, 'https://api.openai.com/v1');
  assert.equal(s.endpoints[0]!.apiKey, 'sk-from-env-xxxxxxxxxxxx');
  const gemini = resolveLlmSettings('observer', { ...base, provider: 'gemini', model: 'gemini-2.5-flash' }, { GEMINI_API_KEY: 'g' });
  assert.match(gemini.endpoints[0]!.baseURL, /generativelanguage\.googleapis\.com\/v1beta\/openai/);
  const anthropic = resolveLlmSettings(
    'observer',
    { ...base, provider: 'anthropic', model: 'claude-haiku-4-5' },
    { ANTHROPIC_API_KEY: 'a' },
  );
  assert.equal(anthropic.endpoints[0]!.baseURL, 'https://api.anthropic.com/v1/');
  const ollama = resolveLlmSettings('observer', { ...base, provider: 'ollama', model: 'qwen3:4b' }, {});
  assert.equal(ollama.endpoints[0]!.baseURL, 'http://127.0.0.1:11434/v1');
  const lmstudio = resolveLlmSettings('observer', { ...base, provider: 'lmstudio', model: 'local' }, {});
  assert.equal(lmstudio.endpoints[0]!.baseURL, 'http://127.0.0.1:1234/v1');
  assert.throws(
    () => resolveLlmSettings('observer', { ...base, provider: 'custom', model: 'x' }, {}),
    (e: unknown) => e instanceof ConfigError && e.keyPath === 'observer.api_base',
  );
});

test('retry-after parsing and cost estimates', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250' })), 250);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  assert.equal(
    retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), () => 4_000),
    6000,
  );
  assert.equal(retryAfterMs(new Headers({})), undefined);
  assert.equal(estimateCost('openai', 'gpt-4o-mini', 1_000_000, 1_000_000), 0.75);
  assert.equal(estimateCost('openrouter', 'openai/gpt-4o-mini', 2_000_000, 0), 0.3);
  assert.equal(estimateCost('ollama', 'anything', 5, 5), 0);
  assert.equal(estimateCost('custom', 'mystery-model', 5, 5), null);
});
